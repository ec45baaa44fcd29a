package provider

import (
	"context"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/bypass"
)

// shapedArgumentsCase is a state of one resource on shapedState, read and
// written both ways.
type shapedArgumentsCase struct {
	name     string
	resource resource.Resource
	set      map[string]any
	check    func(t *testing.T, state tfsdk.State) bool
	// invalid: the state does not validate (both ways say so).
	invalid bool
}

// checkShapedArguments reads the arguments A of state field by field and
// through the framework's reflection, and writes them back both ways: the
// values and the diagnostics are the same.
func checkShapedArguments[A any](t *testing.T, state tfsdk.State) (invalid bool) {
	t.Helper()
	ctx := context.Background()
	var obj types.Object
	if d := state.Get(ctx, &obj); d.HasError() {
		t.Fatal(d)
	}
	direct, dd, ok := bypass.ArgsFromAttributes[A](ctx, obj.Attributes())
	if !ok {
		t.Fatalf("%T is not read field by field", direct)
	}
	framework, fd := argsByFramework[A](ctx, obj, nil)
	if !dd.Equal(fd) {
		t.Errorf("read diagnostics: field by field %v, framework %v", dd, fd)
	}
	if !fd.HasError() && !reflect.DeepEqual(direct, framework) {
		t.Errorf("read:\n field by field %+v\n framework %+v", direct, framework)
	}
	ot, _ := state.Schema.Type().(attr.TypeWithAttributeTypes)
	vals := map[string]attr.Value{}
	// Written back from what was read (field by field: every field is
	// read, where the framework stops at a field that fails validation).
	wd, ok := bypass.ArgsToAttributes(ctx, direct, ot.AttributeTypes(), vals)
	if !ok {
		t.Fatalf("%T is not written field by field", direct)
	}
	byFramework, wfd := argsObjectByFramework(ctx, ot.AttributeTypes(), direct)
	if !wd.Equal(wfd) {
		t.Errorf("write diagnostics: field by field %v, framework %v", wd, wfd)
	}
	if wfd.HasError() {
		return dd.HasError()
	}
	for name, v := range byFramework.Attributes() {
		if !vals[name].Equal(v) {
			t.Errorf("write %s: field by field %v, framework %v", name, vals[name], v)
		}
	}
	if len(vals) != len(byFramework.Attributes()) {
		t.Errorf("wrote %d arguments, the framework %d", len(vals), len(byFramework.Attributes()))
	}
	return dd.HasError()
}

// TestEquivalenceShapedArguments: the arguments of every resource on
// shapedState are read and written field by field
// (bypass.ArgsFromAttributes, bypass.ArgsToAttributes) as the framework's
// reflection reads and writes them, values, nulls, unknowns and a
// beneficiary that is not JSON included.
func TestEquivalenceShapedArguments(t *testing.T) {
	cases := []shapedArgumentsCase{
		{"withdrawal", NewCryptoWithdrawalResource(), map[string]any{
			"profile_id": "p", "destination_address": "bc1q", "asset": "BTC", "crypto_network": "BITCOIN", "amount": "1",
			"metadata": map[string]any{"a": "b"}, "beneficiary": `{"name": "x"}`, "ref_id": tfUnknown{},
		}, checkShapedArguments[cryptoWithdrawalArgs], false},
		{"withdrawal, beneficiary not JSON", NewCryptoWithdrawalResource(), map[string]any{
			"profile_id": "p", "beneficiary": `{not json`,
		}, checkShapedArguments[cryptoWithdrawalArgs], true},
		{"withdrawal, all null", NewCryptoWithdrawalResource(), map[string]any{}, checkShapedArguments[cryptoWithdrawalArgs], false},
		{"instructions", NewFiatDepositInstructionsResource(), map[string]any{
			"profile_id": "p", "fiat_network": "WIRE", "metadata": tfUnknown{}, "id": "i", "status": "VALID",
		}, checkShapedArguments[fiatDepositInstructionsArgs], false},
		{"deposit address", NewDepositAddressResource(), map[string]any{
			"profile_id": "p", "crypto_network": "ETHEREUM", "ref_id": "r", "metadata": map[string]any{},
		}, checkShapedArguments[depositAddressArgs], false},
		{"destination address", NewCryptoDestinationAddressResource(), map[string]any{
			"crypto_network": "ETHEREUM", "address": "0x1", "bookmarked": true,
			"travelrule_metadata": tfUnknown{},
		}, checkShapedArguments[cryptoDestinationAddressArgs], false},
		{"destination address, no metadata", NewCryptoDestinationAddressResource(), map[string]any{
			"crypto_network": "ETHEREUM", "bookmarked": false,
		}, checkShapedArguments[cryptoDestinationAddressArgs], false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var s resource.SchemaResponse
			c.resource.Schema(t.Context(), resource.SchemaRequest{}, &s)
			typ := s.Schema.Type().TerraformType(t.Context())
			if invalid := c.check(t, tfsdk.State{Raw: tfValueOf(t, typ, c.set), Schema: s.Schema}); invalid != c.invalid {
				t.Errorf("invalid %t, want %t", invalid, c.invalid)
			}
		})
	}
}

// BenchmarkShapedArguments reads the arguments of a withdrawal's state
// and writes them back, field by field (bypass.ArgsFromAttributes,
// bypass.ArgsToAttributes) and by the framework's reflection
// (argsByFramework, argsObjectByFramework): what getShaped and setShaped
// do for each read and write of a resource's state.
func BenchmarkShapedArguments(b *testing.B) {
	ctx := context.Background()
	var s resource.SchemaResponse
	NewCryptoWithdrawalResource().Schema(ctx, resource.SchemaRequest{}, &s)
	raw := tfValueOf(b, s.Schema.Type().TerraformType(ctx), map[string]any{
		"profile_id": "p", "destination_address": "bc1q", "asset": "BTC", "crypto_network": "BITCOIN", "amount": "1",
		"metadata": map[string]any{"a": "b"}, "beneficiary": `{"name": "x"}`, "ref_id": "r",
	})
	var obj types.Object
	if d := (tfsdk.State{Raw: raw, Schema: s.Schema}).Get(ctx, &obj); d.HasError() {
		b.Fatal(d)
	}
	ot, _ := s.Schema.Type().(attr.TypeWithAttributeTypes)
	attrTypes := ot.AttributeTypes()
	b.Run("bypass", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			args, d, ok := bypass.ArgsFromAttributes[cryptoWithdrawalArgs](ctx, obj.Attributes())
			if !ok || d.HasError() {
				b.Fatal("not read field by field", d)
			}
			if d, ok := bypass.ArgsToAttributes(ctx, args, attrTypes, map[string]attr.Value{}); !ok || d.HasError() {
				b.Fatal("not written field by field", d)
			}
		}
	})
	b.Run("framework", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			args, d := argsByFramework[cryptoWithdrawalArgs](ctx, obj, nil)
			if d.HasError() {
				b.Fatal(d)
			}
			if _, d := argsObjectByFramework(ctx, attrTypes, args); d.HasError() {
				b.Fatal(d)
			}
		}
	})
}
