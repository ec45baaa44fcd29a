package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/platform/terraform-provider-platform/internal/emulator"
	"github.com/platform/terraform-provider-platform/internal/registry"
)

// planBenchArguments are the arguments of resource i of each type that
// BenchmarkPlanInState plans, as registry.PlanFixtures configure them.
func planBenchArguments(tb testing.TB, typeName string, i int) map[string]any {
	run := map[string]any{"run": fmt.Sprintf("bench-%d", i)}
	switch typeName {
	case "platform_crypto_withdrawal":
		return map[string]any{
			"profile_id": "bench-profile", "destination_address": validBTCAddress(fmt.Sprintf("bc1qbench%d", i)),
			"asset": "BTC", "crypto_network": "BITCOIN", "amount": "0.01", "metadata": run,
		}
	case "platform_deposit_address":
		return map[string]any{
			"profile_id": "bench-profile", "crypto_network": "ETHEREUM", "ref_id": fmt.Sprintf("bench-%d", i), "metadata": run,
		}
	case "platform_fiat_deposit_instructions":
		return map[string]any{"profile_id": "bench-profile", "fiat_network": "WIRE", "metadata": run}
	case "platform_fiat_withdrawal":
		return map[string]any{"profile_id": "bench-profile", "fiat_account_id": registry.PayeeFiatAccount,
			"asset": "USD", "amount": "10", "metadata": run}
	case "platform_internal_transfer":
		return map[string]any{"from_profile_id": "bench-profile", "to_profile_id": "bench-savings", "asset": "USD",
			"amount": "10", "metadata": run}
	case "platform_stablecoin_conversion":
		return map[string]any{"profile_id": "bench-profile", "source_asset": "USD", "target_asset": "USDC",
			"amount": "10", "metadata": run}
	case "platform_crypto_destination_address":
		return map[string]any{"crypto_network": "ETHEREUM", "address": fmt.Sprintf("0x%040x", i), "nickname": fmt.Sprintf("bench-%d", i)}
	case "platform_profile":
		return map[string]any{"nickname": fmt.Sprintf("bench-%d", i)}
	case "platform_fiat_account":
		address := func(street string) map[string]any {
			return map[string]any{"country": "USA", "address1": street, "city": "New York", "province": "NY", "zip_code": "10101"}
		}
		return map[string]any{
			"fiat_account_owner": map[string]any{"person_details": map[string]any{"first_name": "Ada", "last_name": fmt.Sprintf("Bench%d", i)}},
			"fiat_network_instructions": map[string]any{"wire": map[string]any{
				"account_number":             fmt.Sprintf("%012d", i),
				"fiat_account_owner_address": address("456 Main Street"),
				"routing_details": map[string]any{
					"routing_number_type": "ABA", "routing_number": "031302971", "bank_name": "Customers Bank",
					"bank_address": address("123 Bank Street"),
				},
			}},
			"metadata": run,
		}
	}
	tb.Fatalf("BenchmarkPlanInState has no arguments of %s: add them to planBenchArguments", typeName)
	return nil
}

// BenchmarkPlanInState is what `terraform plan` asks of one provider
// process for each resource in state whose configuration has not changed:
// ValidateResourceConfig, ReadResource (refresh) and PlanResourceChange,
// through the protocol server main.go serves, against the emulator, with
// the logs off as in the provider process. Each iteration plans another
// resource, created beforehand by another provider instance, as the
// apply that made them was another process. make bench's figure 7
// measures the same through Terraform against the framework's floor.
// Run it with a fixed count (-benchtime=500x): the resources are created
// before the timing.
func BenchmarkPlanInState(b *testing.B) {
	b.Setenv("TF_LOG_SDK", "off")
	b.Setenv("TF_LOG_PROVIDER_PLATFORM", "off")
	emu := emulator.StartTest(b, emulator.Options{Seed: 1})
	emu.AddApprovedFiatAccount(registry.PayeeFiatAccount)
	// The function runs more than once (b.N = 1 first): every resource of
	// every run is another.
	next := 0
	for _, typeName := range mapKeys(registry.PlanFixtures) {
		b.Run(typeName, func(b *testing.B) {
			creator, p := newProtoProvider(b), newProtoProvider(b)
			creator.mustConfigure(b, providerArgs(emu.AuthURL(), nil))
			p.mustConfigure(b, providerArgs(emu.AuthURL(), nil))
			typ := p.schema.ResourceSchemas[typeName].ValueType()
			type planned struct{ cfg, state *tfprotov6.DynamicValue }
			resources := make([]planned, b.N)
			for i := range resources {
				cfg := tfValueOf(b, typ, planBenchArguments(b, typeName, next))
				next++
				var set map[string]tftypes.Value
				if err := cfg.As(&set); err != nil {
					b.Fatal(err)
				}
				state, diags := creator.create(b, typeName, set)
				failOnErrorDiags(b, "create", diags)
				resources[i] = planned{protoDynamic(b, typ, cfg), protoDynamic(b, typ, state)}
			}
			ctx := b.Context()
			b.ReportAllocs()
			b.ResetTimer()
			for _, res := range resources {
				v, err := p.srv.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: typeName, Config: res.cfg})
				if err != nil || hasErrorDiagnostic(v.Diagnostics) {
					b.Fatalf("ValidateResourceConfig: %v %s", err, diagText(v.Diagnostics))
				}
				r, err := p.srv.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: typeName, CurrentState: res.state})
				if err != nil || hasErrorDiagnostic(r.Diagnostics) {
					b.Fatalf("ReadResource: %v %s", err, diagText(r.Diagnostics))
				}
				pl, err := p.srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
					TypeName: typeName, PriorState: r.NewState, ProposedNewState: r.NewState, Config: res.cfg, PriorPrivate: r.Private,
				})
				if err != nil || hasErrorDiagnostic(pl.Diagnostics) {
					b.Fatalf("PlanResourceChange: %v %s", err, diagText(pl.Diagnostics))
				}
				if len(pl.RequiresReplace) > 0 {
					b.Fatalf("the plan replaces the resource: %v", pl.RequiresReplace)
				}
			}
		})
	}
}
