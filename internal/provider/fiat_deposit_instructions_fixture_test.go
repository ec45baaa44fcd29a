package provider

import (
	"fmt"
	"testing"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

func init() {
	addMoneyFixture(moneyFixture{
		typ: "platform_fiat_deposit_instructions",
		core: moneyResource{
			words: instructionsWords, body: fdiConfig(`  metadata = { purpose = "core" }`),
			addr: "platform_fiat_deposit_instructions.test",
			list: func(emu *emulator.Server) []moneyObject {
				return objectsOf(emu.FiatDepositInstructions(), func(f emulator.FiatDepositInstructions) moneyObject {
					return moneyObject{ID: f.ID, RefID: deref(f.RefID), Summary: fmt.Sprintf(
						"instructions for profile %s, memo_id %s, status %s", f.ProfileID, f.MemoID, f.Status)}
				})
			},
			made: "An earlier set of fiat deposit instructions has the same arguments",
			post: fdiPostKey,
		},
		exactlyOnce: exactlyOnceRow{
			// The service answers a reused ref_id with the original set: made
			// seconds before, it cannot be told from a new one.
			replays: []emulator.ReplayAnswer{emulator.ReplayConflict},
			what:    "WIRE instructions for profile profile-1",
		},
		lying: lyingRow{lookupFirst: true, lies: []lyingAnswer{
			{field: "profile_id", value: "prof-2", want: `profile_id: requested "profile-1", answered "prof-2"`},
			{field: "metadata", value: map[string]string{"purpose": "other"}, want: `metadata: requested {purpose="core"}, answered {purpose="other"}`},
			{field: "ref_id", value: "someone-else", want: `answered "someone-else"`},
		}},
		intent: readIntent("set of fiat deposit instructions", client.ScopeReadFiatDepositInstr, nil),
		refIDs: []refIDCase{
			{Name: "profile and network", Arguments: map[string]any{"profile_id": "profile-1", "fiat_network": "WIRE"}},
			{Name: "after a deprecated set", Arguments: map[string]any{"profile_id": "profile-1", "fiat_network": "WIRE"},
				AfterDeprecated: "deprecated-set"},
			{Name: "as the previous release derived it (testdata/upgrade)", Arguments: map[string]any{
				"profile_id": "profile-1", "fiat_network": "WIRE", "metadata": map[string]any{"purpose": "core"},
			}, previousRelease: upgradeInstructionsRef},
		},
		noFlow:       "a set of instructions is an object the service keeps, not a movement",
		noAction:     "a set of instructions is kept and reused: there is no invocation to make",
		noGuard:      "moves no money",
		movesNothing: "instructions receive deposits; nothing leaves a profile",
		upgrade: &upgradeFixture{
			id: everyTypeInstructionsID,
			earlier: func(t *testing.T, emu *emulator.Server) map[string]string {
				return map[string]string{everyTypeInstructionsID: postInstructions(t, emu, upgradeInstructionsRef)}
			},
		},
	})
}
