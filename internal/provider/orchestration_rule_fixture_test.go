package provider

import (
	"fmt"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

func init() {
	addMoneyFixture(moneyFixture{
		typ: "platform_orchestration_rule",
		core: moneyResource{
			words: orchestrationRuleWords, body: orConfig(""), addr: orAddr,
			list: func(emu *emulator.Server) []moneyObject {
				return objectsOf(emu.OrchestrationRules(), func(r emulator.OrchestrationRule) moneyObject {
					return moneyObject{ID: r.ID, RefID: r.RefID, Summary: fmt.Sprintf(
						"%s deposits to %s, to %s on %s, for profile %s, status %s", r.SourceAsset, r.DestinationAsset,
						r.Destination.Crypto.Address, r.Destination.Crypto.Network, r.ProfileID, r.Status)}
				})
			},
			made: "An earlier orchestration rule has the same arguments",
			post: orPostKey,
		},
		// The service answers a reused ref_id with 409 without the rule,
		// which the apply then finds through the list.
		exactlyOnce: conflictRow("USDC deposits on ETHEREUM to USDG, to " + orAddress + " on ETHEREUM, for profile profile-1"),
		lying: lyingRow{lies: []lyingAnswer{
			{field: "profile_id", value: "prof-2", want: `profile_id: requested "profile-1", answered "prof-2"`},
			{field: "destination", value: map[string]any{"crypto": map[string]any{"address": "0xattacker", "network": "ETHEREUM"}},
				want: `destination.crypto.address: requested "` + orAddress + `", answered "0xattacker"`},
			{field: "destination_asset", value: "USD", want: `destination_asset: requested "USDG", answered "USD"`},
			{field: "ref_id", value: "someone-else", want: `answered "someone-else"`},
		}},
		intent: readIntent("orchestration rule", client.ScopeReadOrchestrationRule, nil),
		refIDs: []refIDCase{
			{Name: "crypto source to an address", Arguments: map[string]any{
				"profile_id": "profile-1", "nickname": "core", "source_asset": "USDC", "destination_asset": "USDG",
				"source":      map[string]any{"crypto": map[string]any{"network": "ETHEREUM"}},
				"destination": map[string]any{"crypto": map[string]any{"address": orAddress, "network": "ETHEREUM"}},
			}},
			{Name: "fiat source to a profile", Arguments: map[string]any{
				"profile_id": "profile-1", "source_asset": "USD", "destination_asset": "USDC",
				"source":      map[string]any{"fiat": map[string]any{"network": "WIRE", "account_type": "ABA"}},
				"destination": map[string]any{"profile": map[string]any{"profile_id": "profile-2"}},
			}},
		},
		noFlow:   "a rule is a standing instruction the service keeps, not a movement made once",
		noAction: "a rule is made once and kept: there is no invocation to make",
		noGuard: "a rule moves no figure: the guards judge its destination only (approved_destinations_only, " +
			"TestAccOrchestrationRule_guards)",
		moves:     moneyKindOrchestrationRule,
		noUpgrade: newInThisRelease,
	})
}
