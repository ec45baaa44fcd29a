package bypass

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-validators/objectvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// fiatNetworks are the networks of the fiat account's schema, of which
// exactly one is set.
var fiatNetworks = []string{"wire", "rtp", "scb", "cbit", "dbs_act", "cubix"}

// fiatAccountLike is a schema shaped as platform_fiat_account's (the
// same attributes and nesting), without its validators.
func fiatAccountLike() schema.Schema {
	str := func(names ...string) map[string]schema.Attribute {
		m := map[string]schema.Attribute{}
		for _, n := range names {
			m[n] = schema.StringAttribute{Optional: true}
		}
		return m
	}
	object := func(attrs map[string]schema.Attribute) schema.SingleNestedAttribute {
		return schema.SingleNestedAttribute{Optional: true, Attributes: attrs}
	}
	with := func(attrs map[string]schema.Attribute, name string, a schema.Attribute) map[string]schema.Attribute {
		attrs[name] = a
		return attrs
	}
	address := func() schema.SingleNestedAttribute {
		return object(str("address1", "address2", "city", "country", "province", "zip_code"))
	}
	routing := func() schema.SingleNestedAttribute {
		return object(with(str("bank_name", "routing_number", "routing_number_type"), "bank_address", address()))
	}
	wire := with(with(with(str("account_number"), "fiat_account_owner_address", address()),
		"routing_details", routing()), "intermediary_routing_details", routing())
	rtp := with(with(str("account_number"), "fiat_account_owner_address", address()), "routing_details", routing())
	attrs := str("account_id", "created_at", "id", "identity_id", "ref_id", "status", "updated_at")
	attrs["metadata"] = schema.MapAttribute{Optional: true, ElementType: types.StringType}
	attrs["fiat_account_owner"] = object(map[string]schema.Attribute{
		"person_details":      object(str("first_name", "last_name")),
		"institution_details": object(str("name")),
	})
	attrs["fiat_network_instructions"] = object(map[string]schema.Attribute{
		"wire": object(wire), "rtp": object(rtp), "scb": object(str("account_number")),
		"cbit": object(str("wallet_address")), "dbs_act": object(str("account_number")), "cubix": object(str("account_id")),
	})
	return schema.Schema{Attributes: attrs}
}

// valueOf is a value of typ from v: maps for objects, strings; what v
// leaves out is null.
func valueOf(typ tftypes.Type, v any) tftypes.Value {
	if v == nil {
		return tftypes.NewValue(typ, nil)
	}
	obj, ok := typ.(tftypes.Object)
	if !ok {
		return tftypes.NewValue(typ, v)
	}
	m, _ := v.(map[string]any)
	vals := map[string]tftypes.Value{}
	for name, at := range obj.AttributeTypes {
		vals[name] = valueOf(at, m[name])
	}
	return tftypes.NewValue(obj, vals)
}

// siblingsCheck is one validation of the fiat account's checks: the
// attribute at, and the siblings of which exactly one must be set.
type siblingsCheck struct {
	at     path.Path
	others []string
}

// fiatAccountChecks are the validations of one fiat account's
// configuration: each network against the five others, the person
// against the institution.
func fiatAccountChecks() []siblingsCheck {
	checks := []siblingsCheck{{path.Root("fiat_account_owner").AtName("person_details"), []string{"institution_details"}}}
	for i, n := range fiatNetworks {
		others := append(append([]string{}, fiatNetworks[:i]...), fiatNetworks[i+1:]...)
		checks = append(checks, siblingsCheck{path.Root("fiat_network_instructions").AtName(n), others})
	}
	return checks
}

// fiatAccountConfig is a fiat account's configuration: a person, and wire
// instructions with addresses and routing details.
func fiatAccountConfig(tb testing.TB) tfsdk.Config {
	tb.Helper()
	s := fiatAccountLike()
	address := map[string]any{"country": "USA", "address1": "1 Main Street", "city": "New York", "province": "NY", "zip_code": "10101"}
	raw := valueOf(s.Type().TerraformType(tb.Context()), map[string]any{
		"fiat_account_owner": map[string]any{"person_details": map[string]any{"first_name": "Ada", "last_name": "Lovelace"}},
		"fiat_network_instructions": map[string]any{"wire": map[string]any{
			"account_number": "000123456789", "fiat_account_owner_address": address,
			"routing_details": map[string]any{
				"routing_number_type": "ABA", "routing_number": "031302971", "bank_name": "Customers Bank", "bank_address": address,
			},
		}},
	})
	return tfsdk.Config{Raw: raw, Schema: s}
}

// requestsOf are the requests of the validations of checks on config.
func requestsOf(tb testing.TB, config tfsdk.Config, checks []siblingsCheck) []validator.ObjectRequest {
	tb.Helper()
	out := make([]validator.ObjectRequest, len(checks))
	for i, c := range checks {
		var value types.Object
		if d := config.GetAttribute(tb.Context(), c.at, &value); d.HasError() {
			tb.Fatal(d)
		}
		out[i] = validator.ObjectRequest{Path: c.at, PathExpression: c.at.Expression(), Config: config, ConfigValue: value}
	}
	return out
}

// validateAll runs validators on their requests, and returns their
// answers.
func validateAll(ctx context.Context, reqs []validator.ObjectRequest, validators []validator.Object) []validator.ObjectResponse {
	out := make([]validator.ObjectResponse, len(reqs))
	for i, req := range reqs {
		validators[i].ValidateObject(ctx, req, &out[i])
	}
	return out
}

// validatorsOf are the validators of checks: ExactlyOneOfSiblings, or
// the framework's objectvalidator.ExactlyOneOf.
func validatorsOf(checks []siblingsCheck, framework bool) []validator.Object {
	out := make([]validator.Object, len(checks))
	for i, c := range checks {
		if !framework {
			out[i] = ExactlyOneOfSiblings(c.others...)
			continue
		}
		exprs := make([]path.Expression, len(c.others))
		for j, o := range c.others {
			exprs[j] = path.MatchRelative().AtParent().AtName(o)
		}
		out[i] = objectvalidator.ExactlyOneOf(exprs...)
	}
	return out
}

// TestSiblingsOnFiatAccountShape: on the benchmark's configuration, the
// two validators agree (TestEquivalenceExactlyOneOfSiblings, in the
// provider, compares them on the fiat account's own schema).
func TestSiblingsOnFiatAccountShape(t *testing.T) {
	checks := fiatAccountChecks()
	reqs := requestsOf(t, fiatAccountConfig(t), checks)
	ours := validateAll(t.Context(), reqs, validatorsOf(checks, false))
	theirs := validateAll(t.Context(), reqs, validatorsOf(checks, true))
	for i := range checks {
		if !ours[i].Diagnostics.Equal(theirs[i].Diagnostics) || ours[i].Diagnostics.HasError() {
			t.Errorf("%s: ours %v, framework %v", checks[i].at, ours[i].Diagnostics, theirs[i].Diagnostics)
		}
	}
}

// BenchmarkExactlyOneOfSiblings validates the owner and the networks of
// one fiat account's configuration (seven validations, as a
// ValidateResourceConfig of platform_fiat_account runs them), with
// ExactlyOneOfSiblings and with objectvalidator.ExactlyOneOf.
func BenchmarkExactlyOneOfSiblings(b *testing.B) {
	checks := fiatAccountChecks()
	reqs := requestsOf(b, fiatAccountConfig(b), checks)
	for _, c := range []struct {
		name      string
		framework bool
	}{{"siblings", false}, {"objectvalidator", true}} {
		b.Run(c.name, func(b *testing.B) {
			validators := validatorsOf(checks, c.framework)
			b.ReportAllocs()
			for b.Loop() {
				validateAll(b.Context(), reqs, validators)
			}
		})
	}
}
