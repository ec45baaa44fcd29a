package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// This file holds what the list data sources share: the schema of their
// filters (array filters, created_at, order, max_items), the plan-time
// validators of those filters and the conversion of filter values to client
// queries. Client values become framework values in values.go.

// Filter schema.

// arrayFilterAttribute is an optional array filter sent as repeated query
// keys, with at most client.MaxFilterValues values. enum, when given, lists
// the values the API allows.
func arrayFilterAttribute(description string, enum ...string) schema.ListAttribute {
	md := description + fmt.Sprintf(" At most %d values.", client.MaxFilterValues)
	elem := []validator.String{stringvalidator.LengthAtLeast(1)}
	if len(enum) > 0 {
		md += " Allowed values: " + codeList(enum) + "."
		elem = append(elem, stringvalidator.OneOf(enum...))
	}
	md += " An empty list matches nothing: the result is empty and no request is sent."
	return schema.ListAttribute{
		ElementType:         types.StringType,
		Optional:            true,
		MarkdownDescription: md,
		Validators: []validator.List{
			listvalidator.SizeAtMost(client.MaxFilterValues),
			listvalidator.NoNullValues(),
			listvalidator.ValueStringsAre(elem...),
		},
	}
}

// withListValidators adds validators to a list attribute.
func withListValidators(a schema.ListAttribute, vs ...validator.List) schema.ListAttribute {
	a.Validators = append(a.Validators, vs...)
	return a
}

// createdAtAttribute is the created_at = { lt, lte, eq, gte, gt } filter.
func createdAtAttribute(what string) schema.SingleNestedAttribute {
	return timeRangeAttribute("created_at", "created", "creation time", what)
}

// timeRangeAttribute is the field = { lt, lte, eq, gte, gt } filter of a
// time field: what is the items, verb and noun say what the time is
// ("created", "creation time").
func timeRangeAttribute(field, verb, noun, what string) schema.SingleNestedAttribute {
	bound := func(rule string) schema.StringAttribute {
		return schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "Only " + what + " " + verb + " " + rule + " this time (RFC 3339, for example `2024-01-02T15:04:05Z`).",
			Validators:          []validator.String{rfc3339Validator{}},
		}
	}
	return schema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: "Filter on the " + noun + " of the " + what + ". Every bound that is set applies " +
			"(`" + field + ".lt`, `" + field + ".lte`, `" + field + ".eq`, `" + field + ".gte`, `" + field + ".gt`).",
		Attributes: map[string]schema.Attribute{
			"lt":  bound("strictly before"),
			"lte": bound("at or before"),
			"eq":  bound("exactly at"),
			"gte": bound("at or after"),
			"gt":  bound("strictly after"),
		},
	}
}

// orderAttribute is the order filter of the lists that have one.
func orderAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional: true,
		MarkdownDescription: "Order of `items` by creation time: `DESC` (newest first) or `ASC`. " +
			"Unset leaves the service's default, which is `DESC`.",
		Validators: []validator.String{stringvalidator.OneOf(client.Orders...)},
	}
}

// maxItemsAttribute is the optional cap on the number of items read.
func maxItemsAttribute() schema.Int64Attribute {
	return schema.Int64Attribute{
		Optional: true,
		MarkdownDescription: "Stop after this many items (a positive number). Paging stops as soon as " +
			"they are read, and the last page asks for no more than needed. Unset reads every matching item.",
		Validators: []validator.Int64{int64validator.AtLeast(1)},
	}
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

// filter converts m (nil: no filter) to the client's filter.
func (m *createdAtModel) filter(diags *diag.Diagnostics) client.CreatedAtFilter {
	return m.filterAt("created_at", diags)
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

// arrayFilter holds the values of one array filter.
type arrayFilter struct {
	values []string
	// set is true when the filter is in the configuration, even empty.
	set bool
}

// listStrings reads an array filter.
func listStrings(ctx context.Context, l types.List, diags *diag.Diagnostics) arrayFilter {
	if l.IsNull() || l.IsUnknown() {
		return arrayFilter{}
	}
	var out []string
	diags.Append(l.ElementsAs(ctx, &out, false)...)
	return arrayFilter{values: out, set: true}
}

// matchesNothing reports whether one of the filters is set to an empty list.
func matchesNothing(filters ...arrayFilter) bool {
	for _, f := range filters {
		if f.set && len(f.values) == 0 {
			return true
		}
	}
	return false
}

// int64Value reads an optional whole number; null is 0.
func int64Value(v types.Int64) int {
	if v.IsNull() || v.IsUnknown() {
		return 0
	}
	return int(v.ValueInt64())
}

// filtersID is the id of a list read: a hash of its kind and filters, which
// are encoded as JSON (the client query structs encode deterministically).
func filtersID(kind string, query any) string {
	b, err := json.Marshal(query)
	if err != nil {
		b = []byte(fmt.Sprintf("%#v", query))
	}
	sum := sha256.Sum256(append([]byte(kind+"\x00"), b...))
	return hex.EncodeToString(sum[:16])
}
