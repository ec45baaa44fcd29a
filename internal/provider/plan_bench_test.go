package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// planBenchArguments are the arguments of resource i of each type that
// BenchmarkPlanInState plans, as registry.PlanFixtures configure them.
func planBenchArguments(typeName string, i int) map[string]tftypes.Value {
	metadata := func(k string) tftypes.Value {
		return tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{k: tfStr(fmt.Sprintf("bench-%d", i))})
	}
	switch typeName {
	case "platform_crypto_withdrawal":
		return map[string]tftypes.Value{
			"profile_id": tfStr("bench-profile"), "destination_address": tfStr(fmt.Sprintf("bc1qbench%d", i)),
			"asset": tfStr("BTC"), "crypto_network": tfStr("BITCOIN"), "amount": tfStr("0.01"), "metadata": metadata("run"),
		}
	case "platform_deposit_address":
		return map[string]tftypes.Value{
			"profile_id": tfStr("bench-profile"), "crypto_network": tfStr("ETHEREUM"),
			"ref_id": tfStr(fmt.Sprintf("bench-%d", i)), "metadata": metadata("run"),
		}
	default: // platform_fiat_deposit_instructions
		return map[string]tftypes.Value{
			"profile_id": tfStr("bench-profile"), "fiat_network": tfStr("WIRE"), "metadata": metadata("set"),
		}
	}
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
	configure := func(p *protoProvider) {
		p.mustConfigure(b, map[string]tftypes.Value{
			"client_id": tfStr(emulator.DefaultClientID), "client_secret": tfStr(emulator.DefaultClientSecret),
			"base_url": tfStr(emu.BaseURL()), "auth_url": tfStr(emu.AuthURL()),
		})
	}
	for _, typeName := range []string{"platform_crypto_withdrawal", "platform_deposit_address", "platform_fiat_deposit_instructions"} {
		b.Run(typeName, func(b *testing.B) {
			creator, p := newProtoProvider(b), newProtoProvider(b)
			configure(creator)
			configure(p)
			typ := p.schema.ResourceSchemas[typeName].ValueType()
			type planned struct{ cfg, state *tfprotov6.DynamicValue }
			resources := make([]planned, b.N)
			for i := range resources {
				set := planBenchArguments(typeName, i)
				state, diags := creator.create(b, typeName, set)
				failOnErrorDiags(b, "create", diags)
				resources[i] = planned{protoDynamic(b, typ, protoObject(b, typ, set)), protoDynamic(b, typ, state)}
			}
			ctx := b.Context()
			b.ReportAllocs()
			b.ResetTimer()
			for _, res := range resources {
				v, err := p.srv.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: typeName, Config: res.cfg})
				if err != nil || hasErrorDiag(v.Diagnostics) {
					b.Fatalf("ValidateResourceConfig: %v %s", err, diagText(v.Diagnostics))
				}
				r, err := p.srv.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: typeName, CurrentState: res.state})
				if err != nil || hasErrorDiag(r.Diagnostics) {
					b.Fatalf("ReadResource: %v %s", err, diagText(r.Diagnostics))
				}
				pl, err := p.srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
					TypeName: typeName, PriorState: r.NewState, ProposedNewState: r.NewState, Config: res.cfg, PriorPrivate: r.Private,
				})
				if err != nil || hasErrorDiag(pl.Diagnostics) {
					b.Fatalf("PlanResourceChange: %v %s", err, diagText(pl.Diagnostics))
				}
				if len(pl.RequiresReplace) > 0 {
					b.Fatalf("the plan replaces the resource: %v", pl.RequiresReplace)
				}
			}
		})
	}
}
