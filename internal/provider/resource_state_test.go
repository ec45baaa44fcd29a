package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The state of an unconfirmed create holds no unknown value: a whole
// computed value, or an attribute of a known computed object (a manifest
// whose sends the plan left unknown), turns null; known values stay.
func TestClearUnknownComputed(t *testing.T) {
	ctx := t.Context()
	money, d := types.ObjectValue(moneyAttrTypes, map[string]attr.Value{
		"version": types.Int64Value(moneyVersion), "kind": types.StringValue("crypto_withdrawal"),
		"asset": types.StringValue("BTC"), "amount": types.StringValue("0.5"),
		"from_profile_id": types.StringValue("p"), "to": types.StringValue("bc1q"), "ref_id": types.StringUnknown(),
		"sends": types.BoolUnknown(), "summary": types.StringUnknown(),
	})
	if d.HasError() {
		t.Fatal(d)
	}
	s := shapedState[cryptoWithdrawalArgs]{computed: map[string]attr.Value{
		"money": money, "status": types.StringUnknown(), "fee": types.StringValue("0.1"),
	}}
	var diags diag.Diagnostics
	s.clearUnknownComputed(ctx, &diags)
	if diags.HasError() {
		t.Fatal(diags)
	}
	got := s.computed["money"].(types.Object).Attributes()
	if !got["sends"].IsNull() || !got["ref_id"].IsNull() || got["amount"].(types.String).ValueString() != "0.5" {
		t.Errorf("money = %v, want sends and ref_id null, the rest kept", got)
	}
	if !s.computed["status"].IsNull() || s.computed["fee"].(types.String).ValueString() != "0.1" {
		t.Errorf("computed = %v, want status null and fee kept", s.computed)
	}
}
