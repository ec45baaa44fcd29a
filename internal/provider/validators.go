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

// knownValues refuses a value outside a list the service publishes as a
// closed enum of its reference (crypto networks: the CryptoNetwork schema of
// every request that takes one), and names the nearest known value when the
// value is a near miss of one ("ETHERUM": did you mean "ETHEREUM"?). A value
// the reference does not list cannot be right: the service refuses it. Where
// the service may name a value this provider version does not know (in its
// answers), the value is read as given; only what a configuration writes is
// checked.
type knownValues struct {
	what   string
	values []string
}

var (
	_ validator.String = knownValues{}
	_ validator.List   = knownValues{}
)

func (v knownValues) Description(context.Context) string {
	return "one of " + strings.Join(v.values, ", ")
}

func (v knownValues) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v knownValues) check(p path.Path, value string, diags *diag.Diagnostics) {
	if slices.Contains(v.values, value) {
		return
	}
	detail := fmt.Sprintf("%s is %q, which is not a %s the service publishes", p, value, v.what)
	if near := nearestValue(value, v.values); near != "" {
		detail += fmt.Sprintf(": did you mean %q?", near)
	} else {
		detail += "."
	}
	diags.AddAttributeError(p, "Unknown "+v.what,
		detail+fmt.Sprintf(" %s must be one of %s.", p, strings.Join(v.values, ", ")))
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

// nearestValue is the known value a typo most likely meant: the one whose
// edit distance to value, letter case aside, is smallest, when it is at
// most two and at most a third of the length of value (so that "ACH" is no
// typo of "SCB"), and no other value is as near. Otherwise "".
func nearestValue(value string, known []string) string {
	upper := strings.ToUpper(value)
	best, bestDist, tie := "", 3, false
	for _, k := range known {
		d := editDistance(upper, strings.ToUpper(k))
		switch {
		case d < bestDist:
			best, bestDist, tie = k, d, false
		case d == bestDist:
			tie = true
		}
	}
	if best == "" || tie || 3*bestDist > len([]rune(value)) {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance between a and b: the fewest
// single-character insertions, deletions and substitutions that turn one
// into the other.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// cryptoNetworkValues are the crypto networks of the reference.
var cryptoNetworkValues = knownValues{what: "crypto network", values: client.CryptoNetworks}

// fiatNetworkValues are the fiat networks of the reference.
var fiatNetworkValues = knownValues{what: "fiat network", values: client.FiatNetworks}

// networkAddressShape refuses an address whose shape cannot be an address of its
// network, read from the sibling attribute: the address book's check
// (addressShapeProblem), applied to every argument that names a crypto
// address, so that a withdrawal is held to the shapes its destination
// would be held to in the address book.
type networkAddressShape struct{ network path.Path }

var _ validator.String = networkAddressShape{}

func (v networkAddressShape) Description(context.Context) string {
	return "must have the shape of an address on " + v.network.String() + " (no whitespace; 0x and 40 hexadecimal " +
		"digits on EVM networks, 0x and 64 on SUI, 32 to 44 base58 characters on SOLANA); a new withdrawal's must " +
		"also have a valid checksum (bech32, bech32m or base58check on BITCOIN, EIP-55 for a mixed-case EVM " +
		"address), checked at plan and at send"
}

func (v networkAddressShape) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v networkAddressShape) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	var network types.String
	if d := req.Config.GetAttribute(ctx, v.network, &network); d.HasError() || network.IsUnknown() {
		return
	}
	if why := addressShapeProblem(network.ValueString(), req.ConfigValue.ValueString()); why != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid address", req.Path.String()+" "+why+".")
	}
}

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
