package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/bypass"
	"github.com/platform/terraform-provider-platform/internal/client"
)

// Validators of arguments that the framework's validator packages do not
// have: they name the attribute and what is allowed.

// durationValidator checks the range of a Go duration (a value of
// timetypes.GoDurationType, whose own validation rejects what does not
// parse).
type durationValidator struct {
	positive bool
	// nonNegative allows zero but not less.
	nonNegative bool
	max         time.Duration
}

var _ validator.String = durationValidator{}

func (v durationValidator) Description(_ context.Context) string {
	s := "must be a Go duration such as \"10s\" or \"1m30s\""
	if v.positive {
		s += ", greater than zero"
	}
	if v.nonNegative {
		s += ", zero or more"
	}
	if v.max > 0 {
		s += ", at most " + v.max.String()
	}
	return s
}

func (v durationValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v durationValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	raw := req.ConfigValue.ValueString()
	d, err := time.ParseDuration(raw)
	if err != nil {
		return // The type reports it.
	}
	if (v.positive && d <= 0) || (v.nonNegative && d < 0) || (v.max > 0 && d > v.max) {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid duration",
			fmt.Sprintf("%s %s, got %q.", req.Path, v.Description(ctx), raw))
	}
}

// metadataValidators enforce the spec's limits on metadata: at most
// client.MaxMetadataPairs pairs, keys and values of at most
// client.MaxMetadataLength characters.
func metadataValidators() []validator.Map {
	return []validator.Map{
		mapvalidator.SizeAtMost(client.MaxMetadataPairs),
		mapvalidator.KeysAre(stringvalidator.LengthAtMost(client.MaxMetadataLength)),
		mapvalidator.ValueStringsAre(stringvalidator.LengthAtMost(client.MaxMetadataLength)),
	}
}

// jsonObjectValidator checks that a JSON string holds an object.
type jsonObjectValidator struct{}

var _ validator.String = jsonObjectValidator{}

func (jsonObjectValidator) Description(context.Context) string {
	return "must be a JSON object, such as `jsonencode({ name = \"...\" })`"
}

func (v jsonObjectValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v jsonObjectValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(req.ConfigValue.ValueString()), &obj); err != nil || obj == nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid JSON object",
			fmt.Sprintf("%s %s; got %q.", req.Path, v.Description(ctx), truncate(req.ConfigValue.ValueString(), 80)))
	}
}

// rfc3339Validator checks that a string is an RFC 3339 date-time, naming the
// attribute in its error. The bounds of the time filters use it instead of
// timetypes.RFC3339Type: they are nested in an object, for which Terraform
// shows only the block's line, and the type's message does not name the
// bound.
type rfc3339Validator struct{}

var _ validator.String = rfc3339Validator{}

func (rfc3339Validator) Description(context.Context) string {
	return "must be an RFC 3339 date-time such as 2024-01-02T15:04:05Z"
}

func (v rfc3339Validator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v rfc3339Validator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	raw := req.ConfigValue.ValueString()
	if _, err := time.Parse(time.RFC3339Nano, raw); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid date-time",
			fmt.Sprintf("%s %s, got %q.", req.Path, v.Description(ctx), raw))
	}
}

// knownValues warns, without refusing, about a value that this provider
// version does not know: for enums the service extends between versions
// (crypto networks), where a plan-time error would block users until a
// release. The service refuses a wrong value, and nothing is sent then.
type knownValues struct {
	what   string
	values []string
}

var (
	_ validator.String = knownValues{}
	_ validator.List   = knownValues{}
)

func (v knownValues) Description(context.Context) string {
	return "one of " + strings.Join(v.values, ", ") + ", or a " + v.what + " the service added since (a warning)"
}

func (v knownValues) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v knownValues) check(p path.Path, value string, diags *diag.Diagnostics) {
	if slices.Contains(v.values, value) {
		return
	}
	diags.AddAttributeWarning(p, "Unknown "+v.what,
		fmt.Sprintf("%s is %q, which this provider version does not know (it knows %s). It is sent as given: if "+
			"the service does not know it either, it refuses the request and nothing is sent. Check the "+
			"spelling, or upgrade the provider.", p, value, strings.Join(v.values, ", ")))
}

func (v knownValues) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	v.check(req.Path, req.ConfigValue.ValueString(), &resp.Diagnostics)
}

func (v knownValues) ValidateList(ctx context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	for i, e := range req.ConfigValue.Elements() {
		s, ok := e.(types.String)
		if !ok || s.IsNull() || s.IsUnknown() {
			continue
		}
		v.check(req.Path.AtListIndex(i), s.ValueString(), &resp.Diagnostics)
	}
}

// cryptoNetworkValues are the crypto networks this version knows.
var cryptoNetworkValues = knownValues{what: "crypto network", values: client.CryptoNetworks}

// noNullElements refuses a list with a null element, naming the element:
// the framework's listvalidator.NoNullValues says only "This attribute
// contains a null value", which Terraform's machine-readable output shows
// without the attribute.
type noNullElements struct{}

var _ validator.List = noNullElements{}

func (noNullElements) Description(context.Context) string {
	return "every value must be set (not null)"
}

func (v noNullElements) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (noNullElements) ValidateList(_ context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	for i, e := range req.ConfigValue.Elements() {
		if e.IsNull() {
			resp.Diagnostics.AddAttributeError(req.Path, "Null List Value",
				fmt.Sprintf("This attribute contains a null value: %s[%d] is null. Every value of %s must be set; "+
					"remove the null, or leave %s unset to filter nothing.", req.Path, i, req.Path, req.Path))
		}
	}
}

// exactlyOneOfSiblings is bypass.ExactlyOneOfSiblings: the check of the
// fiat account's owner and networks.
func exactlyOneOfSiblings(names ...string) validator.Object {
	return bypass.ExactlyOneOfSiblings(names...)
}

// differentFrom refuses a value equal to the other attribute's: a
// transfer from a profile to itself, a conversion from an asset to itself.
type differentFrom struct{ other path.Path }

var _ validator.String = differentFrom{}

func (v differentFrom) Description(context.Context) string {
	return "must differ from " + v.other.String()
}

func (v differentFrom) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v differentFrom) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	var other types.String
	if d := req.Config.GetAttribute(ctx, v.other, &other); d.HasError() || other.IsNull() || other.IsUnknown() {
		return
	}
	if strings.EqualFold(other.ValueString(), req.ConfigValue.ValueString()) {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(),
			fmt.Sprintf("%s must differ from %s, which is also %s.", req.Path, v.other,
				quotedPrefix(req.ConfigValue.ValueString())))
	}
}
