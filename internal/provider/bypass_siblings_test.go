package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-validators/objectvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/bypass"
)

// TestEquivalenceExactlyOneOfSiblings: on the fiat account's owner and
// networks, bypass.ExactlyOneOfSiblings says what
// objectvalidator.ExactlyOneOf says, for none, one, two and unknown
// siblings.
func TestEquivalenceExactlyOneOfSiblings(t *testing.T) {
	var s resource.SchemaResponse
	NewFiatAccountResource().Schema(t.Context(), resource.SchemaRequest{}, &s)
	typ := s.Schema.Type().TerraformType(t.Context())
	wire := map[string]any{"account_number": "1"}
	person := map[string]any{"first_name": "Ada", "last_name": "Lovelace"}
	institution := map[string]any{"name": "Engines"}
	configs := map[string]map[string]any{
		"one of each":       {"fiat_account_owner": map[string]any{"person_details": person}, "fiat_network_instructions": map[string]any{"wire": wire}},
		"two owners":        {"fiat_account_owner": map[string]any{"person_details": person, "institution_details": institution}},
		"no owner":          {"fiat_account_owner": map[string]any{}, "fiat_network_instructions": map[string]any{}},
		"two networks":      {"fiat_network_instructions": map[string]any{"wire": wire, "rtp": map[string]any{}}},
		"three networks":    {"fiat_network_instructions": map[string]any{"wire": wire, "rtp": map[string]any{}, "scb": map[string]any{}}},
		"unknown network":   {"fiat_network_instructions": map[string]any{"wire": tfUnknown{}, "cbit": map[string]any{}}},
		"unknown owner":     {"fiat_account_owner": map[string]any{"person_details": person, "institution_details": tfUnknown{}}},
		"only unknown":      {"fiat_network_instructions": map[string]any{"cubix": tfUnknown{}}},
		"networks, no wire": {"fiat_network_instructions": map[string]any{"dbs_act": map[string]any{}, "cubix": map[string]any{}}},
	}
	checks := map[string][]string{"fiat_account_owner": {"person_details", "institution_details"}, "fiat_network_instructions": fiatAccountNetworks}
	compared := 0
	for name, set := range configs {
		config := tfsdk.Config{Raw: tfValueOf(t, typ, set), Schema: s.Schema}
		for parent, attrs := range checks {
			var p types.Object
			if d := config.GetAttribute(t.Context(), path.Root(parent), &p); d.HasError() {
				t.Fatal(d)
			}
			if p.IsNull() {
				continue
			}
			for i, self := range attrs {
				if parent == "fiat_account_owner" && self != "person_details" {
					continue
				}
				var others []string
				var exprs []path.Expression
				for j, o := range attrs {
					if j != i {
						others = append(others, o)
						exprs = append(exprs, path.MatchRelative().AtParent().AtName(o))
					}
				}
				at := path.Root(parent).AtName(self)
				var value types.Object
				if d := config.GetAttribute(t.Context(), at, &value); d.HasError() {
					t.Fatal(d)
				}
				req := validator.ObjectRequest{Path: at, PathExpression: at.Expression(), Config: config, ConfigValue: value}
				var ours, theirs validator.ObjectResponse
				bypass.ExactlyOneOfSiblings(others...).ValidateObject(t.Context(), req, &ours)
				objectvalidator.ExactlyOneOf(exprs...).ValidateObject(t.Context(), req, &theirs)
				if !ours.Diagnostics.Equal(theirs.Diagnostics) {
					t.Errorf("%s, %s:\n ours %v\n framework %v", name, at, ours.Diagnostics, theirs.Diagnostics)
				}
				if got, want := bypass.ExactlyOneOfSiblings(others...).MarkdownDescription(t.Context()), objectvalidator.ExactlyOneOf(exprs...).MarkdownDescription(t.Context()); got != want {
					t.Errorf("description %q, want %q", got, want)
				}
				compared++
				if name == "two networks" && self == "wire" && !ours.Diagnostics.HasError() {
					t.Errorf("two networks: no error on wire: %v", fmt.Sprint(ours.Diagnostics))
				}
			}
		}
	}
	if compared < 40 {
		t.Fatalf("compared %d validations", compared)
	}
}

// TestEquivalenceExactlyOneOfRoot: on the crypto and fiat withdrawals'
// amount and total, bypass.ExactlyOneOfRoot says what
// stringvalidator.ExactlyOneOf says, validating either attribute, for
// none, one, both and unknown values.
func TestEquivalenceExactlyOneOfRoot(t *testing.T) {
	configs := map[string]map[string]any{
		"amount": {"amount": "1"}, "total": {"total": "1"}, "both": {"amount": "1", "total": "2"}, "neither": {},
		"unknown amount": {"amount": tfUnknown{}}, "unknown total": {"amount": "1", "total": tfUnknown{}},
	}
	exprs := []path.Expression{path.MatchRoot("amount"), path.MatchRoot("total")}
	compared, errors := 0, 0
	for _, r := range []resource.Resource{NewCryptoWithdrawalResource(), NewFiatWithdrawalResource()} {
		var s resource.SchemaResponse
		r.Schema(t.Context(), resource.SchemaRequest{}, &s)
		typ := s.Schema.Type().TerraformType(t.Context())
		for name, set := range configs {
			config := tfsdk.Config{Raw: tfValueOf(t, typ, set), Schema: s.Schema}
			for _, self := range []string{"amount", "total"} {
				at := path.Root(self)
				var value types.String
				if d := config.GetAttribute(t.Context(), at, &value); d.HasError() {
					t.Fatal(d)
				}
				req := validator.StringRequest{Path: at, PathExpression: at.Expression(), Config: config, ConfigValue: value}
				var ours, theirs validator.StringResponse
				bypass.ExactlyOneOfRoot("amount", "total").ValidateString(t.Context(), req, &ours)
				stringvalidator.ExactlyOneOf(exprs...).ValidateString(t.Context(), req, &theirs)
				if !ours.Diagnostics.Equal(theirs.Diagnostics) {
					t.Errorf("%s, %s:\n ours %v\n framework %v", name, at, ours.Diagnostics, theirs.Diagnostics)
				}
				if ours.Diagnostics.HasError() {
					errors++
				}
				compared++
			}
		}
	}
	if got, want := bypass.ExactlyOneOfRoot("amount", "total").MarkdownDescription(t.Context()),
		stringvalidator.ExactlyOneOf(exprs...).MarkdownDescription(t.Context()); got != want {
		t.Errorf("description %q, want %q", got, want)
	}
	if compared != 24 || errors < 8 {
		t.Fatalf("compared %d validations, %d with errors", compared, errors)
	}
}
