package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// This file holds the one description of the filters of a list: each
// filter's attribute, rendered for a list data source and for a list
// resource (`terraform query`), its plan-time validators, and how its
// configured value goes into the client's query. An empty array filter
// (`ref_ids = []`) matches nothing on both: no request is sent and the
// result is empty. Client values become framework values in values.go.

// listFilters describes the filters of a list whose client query is a Q.
type listFilters[Q any] []listFilter[Q]

// listFilter is one filter: its attribute and where its value goes.
type listFilter[Q any] struct {
	name string
	attr filterAttribute
	// read reads the configured value at p into q and reports whether it
	// matches nothing (an empty array).
	read func(ctx context.Context, cfg tfsdk.Config, p path.Path, q *Q, diags *diag.Diagnostics) (none bool)
}

// filterAttribute is the attribute of a filter, rendered for each surface.
type filterAttribute interface {
	dataSource() schema.Attribute
	listResource() listschema.Attribute
}

// dataSourceAttributes are the attributes of a list data source: the
// filters and the computed ones (id, items) given.
func (fs listFilters[Q]) dataSourceAttributes(computed map[string]schema.Attribute) map[string]schema.Attribute {
	out := make(map[string]schema.Attribute, len(fs)+len(computed))
	for _, f := range fs {
		out[f.name] = f.attr.dataSource()
	}
	for name, a := range computed {
		if _, dup := out[name]; dup {
			panic(fmt.Sprintf("list data source schema: %q is both a filter and computed", name))
		}
		out[name] = a
	}
	return out
}

// listResourceAttributes are the attributes of a list resource's config.
func (fs listFilters[Q]) listResourceAttributes() map[string]listschema.Attribute {
	out := make(map[string]listschema.Attribute, len(fs))
	for _, f := range fs {
		out[f.name] = f.attr.listResource()
	}
	return out
}

// read reads every filter of cfg, by name, into q. It reports whether the
// filters match nothing: an array filter is set to an empty list, so no
// request is to be sent.
func (fs listFilters[Q]) read(ctx context.Context, cfg tfsdk.Config, q *Q, diags *diag.Diagnostics) (none bool) {
	for _, f := range fs {
		if f.read(ctx, cfg, path.Root(f.name), q, diags) {
			none = true
		}
	}
	return none
}

// configValue reads the configured value at p into target.
func configValue(ctx context.Context, cfg tfsdk.Config, p path.Path, target any, diags *diag.Diagnostics) {
	diags.Append(cfg.GetAttribute(ctx, p, target)...)
}

// Filters.

// arrayFilter is an optional array filter sent as repeated query keys,
// with at most client.MaxFilterValues values, none of them null or empty.
// enum, when given, lists the values the API allows. An empty list matches
// nothing.
func arrayFilter[Q any](name, description string, field func(*Q) *[]string, enum ...string) listFilter[Q] {
	md := description + fmt.Sprintf(" At most %d values.", client.MaxFilterValues)
	elem := []validator.String{stringvalidator.LengthAtLeast(1)}
	if len(enum) > 0 {
		md += " Allowed values: " + codeList(enum) + "."
		elem = append(elem, stringvalidator.OneOf(enum...))
	}
	md += " An empty list matches nothing: the result is empty and no request is sent."
	return listFilter[Q]{
		name: name,
		attr: arrayAttribute{md: md, validators: []validator.List{
			listvalidator.SizeAtMost(client.MaxFilterValues),
			noNullElements{},
			listvalidator.ValueStringsAre(elem...),
		}},
		read: func(ctx context.Context, cfg tfsdk.Config, p path.Path, q *Q, diags *diag.Diagnostics) bool {
			var l types.List
			configValue(ctx, cfg, p, &l, diags)
			if l.IsNull() || l.IsUnknown() {
				return false
			}
			var out []string
			diags.Append(l.ElementsAs(ctx, &out, false)...)
			*field(q) = out
			return len(out) == 0
		},
	}
}

// withValidators adds validators to an array filter.
func (f listFilter[Q]) withValidators(vs ...validator.List) listFilter[Q] {
	a, ok := f.attr.(arrayAttribute)
	if !ok {
		panic(fmt.Sprintf("filter %q: list validators on a %T", f.name, f.attr))
	}
	a.validators = append(slices.Clip(a.validators), vs...)
	f.attr = a
	return f
}

// createdAtFilter is the created_at = { lt, lte, eq, gte, gt } filter.
func createdAtFilter[Q any](what string, field func(*Q) *client.CreatedAtFilter) listFilter[Q] {
	return timeRangeFilter("created_at", "created", "creation time", what, field)
}

// timeRangeFilter is the name = { lt, lte, eq, gte, gt } filter of a time
// field: what is the items, verb and noun say what the time is ("created",
// "creation time").
func timeRangeFilter[Q any](name, verb, noun, what string, field func(*Q) *client.TimeFilter) listFilter[Q] {
	bound := func(rule string) stringAttribute {
		return stringAttribute{
			md:         "Only " + what + " " + verb + " " + rule + " this time (RFC 3339, for example `2024-01-02T15:04:05Z`).",
			validators: []validator.String{rfc3339Validator{}},
		}
	}
	return listFilter[Q]{
		name: name,
		attr: objectAttribute{
			md: "Filter on the " + noun + " of the " + what + ". Every bound that is set applies " +
				"(`" + name + ".lt`, `" + name + ".lte`, `" + name + ".eq`, `" + name + ".gte`, `" + name + ".gt`).",
			attributes: map[string]stringAttribute{
				"lt":  bound("strictly before"),
				"lte": bound("at or before"),
				"eq":  bound("exactly at"),
				"gte": bound("at or after"),
				"gt":  bound("strictly after"),
			},
		},
		read: func(ctx context.Context, cfg tfsdk.Config, p path.Path, q *Q, diags *diag.Diagnostics) bool {
			var m *createdAtModel
			configValue(ctx, cfg, p, &m, diags)
			*field(q) = m.filterAt(name, diags)
			return false
		},
	}
}

// orderFilter is the order filter of the lists that have one.
func orderFilter[Q any](field func(*Q) *string) listFilter[Q] {
	return oneOfFilter("order", "Order of `items` by creation time: `DESC` (newest first) or `ASC`. "+
		"Unset leaves the service's default, which is `DESC`.", client.Orders, field)
}

// oneOfFilter is an optional string filter that takes one of values.
func oneOfFilter[Q any](name, description string, values []string, field func(*Q) *string) listFilter[Q] {
	f := stringFilter(name, description, field)
	f.attr = stringAttribute{md: description, validators: []validator.String{stringvalidator.OneOf(values...)}}
	return f
}

// stringFilter is an optional string filter; an empty string is refused.
func stringFilter[Q any](name, description string, field func(*Q) *string) listFilter[Q] {
	return listFilter[Q]{
		name: name,
		attr: stringAttribute{md: description, validators: []validator.String{stringvalidator.LengthAtLeast(1)}},
		read: func(ctx context.Context, cfg tfsdk.Config, p path.Path, q *Q, diags *diag.Diagnostics) bool {
			var v types.String
			configValue(ctx, cfg, p, &v, diags)
			*field(q) = v.ValueString()
			return false
		},
	}
}

// timeFilter is an optional RFC 3339 time; null is the zero time.
func timeFilter[Q any](name, description string, field func(*Q) *time.Time) listFilter[Q] {
	return listFilter[Q]{
		name: name,
		attr: stringAttribute{md: description + " (RFC 3339, for example `2024-01-02T15:04:05Z`).", rfc3339: true},
		read: func(ctx context.Context, cfg tfsdk.Config, p path.Path, q *Q, diags *diag.Diagnostics) bool {
			var v timetypes.RFC3339
			configValue(ctx, cfg, p, &v, diags)
			*field(q) = rfc3339Time(v, p, diags)
			return false
		},
	}
}

// boolFilter is an optional bool; null leaves the service's default.
func boolFilter[Q any](name, description string, field func(*Q) **bool) listFilter[Q] {
	return listFilter[Q]{
		name: name,
		attr: boolAttribute{md: description},
		read: func(ctx context.Context, cfg tfsdk.Config, p path.Path, q *Q, diags *diag.Diagnostics) bool {
			var v types.Bool
			configValue(ctx, cfg, p, &v, diags)
			*field(q) = v.ValueBoolPointer()
			return false
		},
	}
}

// maxItemsFilter is the optional cap on the number of items read.
func maxItemsFilter[Q any](field func(*Q) *int) listFilter[Q] {
	return listFilter[Q]{
		name: "max_items",
		attr: int64Attribute{
			md: "Stop after this many items (a positive number). Paging stops as soon as " +
				"they are read, and the last page asks for no more than needed. Unset reads every matching item, " +
				fmt.Sprintf("up to %d items or %d MiB of the service's answers: a longer list fails, saying which "+
					"ceiling it reached, so that a read never holds more than a CI runner can.",
					client.DefaultMaxListItems, client.DefaultMaxListBytes>>20),
			validators: []validator.Int64{int64validator.AtLeast(1)},
		},
		read: func(ctx context.Context, cfg tfsdk.Config, p path.Path, q *Q, diags *diag.Diagnostics) bool {
			var v types.Int64
			configValue(ctx, cfg, p, &v, diags)
			*field(q) = int64Value(v)
			return false
		},
	}
}

// Filter attributes, each rendered for a list data source and a list
// resource.

// arrayAttribute is an optional list of strings.
type arrayAttribute struct {
	md         string
	validators []validator.List
}

func (a arrayAttribute) dataSource() schema.Attribute {
	return schema.ListAttribute{ElementType: types.StringType, Optional: true, MarkdownDescription: a.md, Validators: a.validators}
}

func (a arrayAttribute) listResource() listschema.Attribute {
	return listschema.ListAttribute{ElementType: types.StringType, Optional: true, MarkdownDescription: a.md, Validators: a.validators}
}

// stringAttribute is an optional string, an RFC 3339 time (the
// timetypes.RFC3339 type) when rfc3339 is set.
type stringAttribute struct {
	md         string
	validators []validator.String
	rfc3339    bool
}

func (a stringAttribute) customType() basetypes.StringTypable {
	if a.rfc3339 {
		return timetypes.RFC3339Type{}
	}
	return nil
}

func (a stringAttribute) dataSource() schema.Attribute { return a.dataSourceString() }

func (a stringAttribute) dataSourceString() schema.StringAttribute {
	return schema.StringAttribute{Optional: true, MarkdownDescription: a.md, Validators: a.validators, CustomType: a.customType()}
}

func (a stringAttribute) listResource() listschema.Attribute { return a.listResourceString() }

func (a stringAttribute) listResourceString() listschema.StringAttribute {
	return listschema.StringAttribute{Optional: true, MarkdownDescription: a.md, Validators: a.validators, CustomType: a.customType()}
}

// boolAttribute is an optional bool.
type boolAttribute struct{ md string }

func (a boolAttribute) dataSource() schema.Attribute {
	return schema.BoolAttribute{Optional: true, MarkdownDescription: a.md}
}

func (a boolAttribute) listResource() listschema.Attribute {
	return listschema.BoolAttribute{Optional: true, MarkdownDescription: a.md}
}

// int64Attribute is an optional whole number.
type int64Attribute struct {
	md         string
	validators []validator.Int64
}

func (a int64Attribute) dataSource() schema.Attribute {
	return schema.Int64Attribute{Optional: true, MarkdownDescription: a.md, Validators: a.validators}
}

func (a int64Attribute) listResource() listschema.Attribute {
	return listschema.Int64Attribute{Optional: true, MarkdownDescription: a.md, Validators: a.validators}
}

// objectAttribute is an optional object of optional strings.
type objectAttribute struct {
	md         string
	attributes map[string]stringAttribute
}

func (a objectAttribute) dataSource() schema.Attribute {
	attrs := make(map[string]schema.Attribute, len(a.attributes))
	for name, s := range a.attributes {
		attrs[name] = s.dataSourceString()
	}
	return schema.SingleNestedAttribute{Optional: true, MarkdownDescription: a.md, Attributes: attrs}
}

func (a objectAttribute) listResource() listschema.Attribute {
	attrs := make(map[string]listschema.Attribute, len(a.attributes))
	for name, s := range a.attributes {
		attrs[name] = s.listResourceString()
	}
	return listschema.SingleNestedAttribute{Optional: true, MarkdownDescription: a.md, Attributes: attrs}
}

// listIDAttribute is the computed id of a list data source.
func listIDAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Computed: true,
		MarkdownDescription: "Identifier of this read: a hash of the filters, so that the same filters " +
			"always give the same id.",
	}
}

// Filter values.

// createdAtModel is the created_at filter in configuration.
type createdAtModel struct {
	LT  types.String `tfsdk:"lt"`
	LTE types.String `tfsdk:"lte"`
	EQ  types.String `tfsdk:"eq"`
	GTE types.String `tfsdk:"gte"`
	GT  types.String `tfsdk:"gt"`
}

// filterAt converts m (nil: no filter), the filter of the time field
// attribute, to the client's filter.
func (m *createdAtModel) filterAt(field string, diags *diag.Diagnostics) client.CreatedAtFilter {
	var f client.CreatedAtFilter
	if m == nil {
		return f
	}
	f.LT = parseTime(m.LT, path.Root(field).AtName("lt"), diags)
	f.LTE = parseTime(m.LTE, path.Root(field).AtName("lte"), diags)
	f.EQ = parseTime(m.EQ, path.Root(field).AtName("eq"), diags)
	f.GTE = parseTime(m.GTE, path.Root(field).AtName("gte"), diags)
	f.GT = parseTime(m.GT, path.Root(field).AtName("gt"), diags)
	return f
}

// parseTime parses a time filter bound (see rfc3339Validator); null is the
// zero time.
func parseTime(v types.String, p path.Path, diags *diag.Diagnostics) time.Time {
	if v.IsNull() || v.IsUnknown() {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, v.ValueString())
	if err != nil {
		diags.AddAttributeError(p, "Invalid date-time",
			fmt.Sprintf("%s must be an RFC 3339 date-time such as 2024-01-02T15:04:05Z, got %q.", p, v.ValueString()))
	}
	return t
}

// rfc3339Time is the time of an RFC 3339 argument; null is the zero time.
func rfc3339Time(v timetypes.RFC3339, p path.Path, diags *diag.Diagnostics) time.Time {
	if v.IsNull() || v.IsUnknown() {
		return time.Time{}
	}
	t, d := v.ValueRFC3339Time()
	for _, e := range d {
		diags.AddAttributeError(p, e.Summary(), e.Detail())
	}
	return t
}

// int64Value reads an optional whole number; null is 0.
func int64Value(v types.Int64) int {
	if v.IsNull() || v.IsUnknown() {
		return 0
	}
	return int(v.ValueInt64())
}

// filtersID is the id of a list read: a hash of the list's name and its
// filters, which are encoded as JSON (the client query structs encode
// deterministically).
func filtersID(list string, query any) string {
	b, err := json.Marshal(query)
	if err != nil {
		b = []byte(fmt.Sprintf("%#v", query))
	}
	sum := sha256.Sum256(append([]byte(list+"\x00"), b...))
	return hex.EncodeToString(sum[:16])
}
