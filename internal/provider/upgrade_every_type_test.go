package provider

import (
	"maps"
	"testing"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// everyTypeUpgrades are the resources on the money core that
// testdata/upgrade/every_type.tfstate holds, each declared by its core body
// or the body of its upgrade part: those whose fixture has an upgrade part.
func everyTypeUpgrades() map[string]moneyResource {
	resources := moneyResources()
	return rowsOf(func(f moneyFixture) (moneyResource, bool) {
		res := resources[f.typ]
		if f.upgrade != nil && f.upgrade.body != "" {
			res.body = f.upgrade.body
		}
		return res, f.upgrade != nil
	})
}

// What testdata/upgrade/every_type.tfstate recorded.
const (
	everyTypeWithdrawalID   = "6a1a61dc-cd9f-40d1-aafb-54ac6ff53993"
	everyTypeAddressID      = "4444a1b6-a944-4b37-8024-95453515ab10"
	everyTypeAddressRef     = "338787bf-c436-5c61-bf62-f562f50b695d"
	everyTypeAddress        = "0x80942ea74eb041834500d0548ab2e7065f86c913"
	everyTypeAccountID      = "27c3d291-14a5-4177-8c80-f95e1588402f"
	everyTypeAccountRef     = "ccfa906a-ccb1-5847-8ff9-dc4376eea5a6"
	everyTypeInstructionsID = "19f9bdbb-a827-4f5b-8072-432c4b2251fc"
)

// madeEveryTypeEarlier makes at the emulator, straight through the API,
// the objects of testdata/upgrade/every_type.tfstate with their ref_ids,
// and returns what the state recorded of them (ids, the address) mapped
// to the emulator's.
func madeEveryTypeEarlier(t *testing.T, emu *emulator.Server) map[string]string {
	t.Helper()
	ids := map[string]string{}
	for _, typ := range mapKeys(everyTypeUpgrades()) {
		maps.Copy(ids, moneyFixtures[typ].upgrade.earlier(t, emu))
	}
	return ids
}

// A state of every resource on the money core, written before the
// resources became declarations of one lifecycle, plans no change, and
// applying it sends nothing and makes nothing.
func TestAccMoneyCore_upgradeEveryType(t *testing.T) {
	t.Parallel()
	upgrades := everyTypeUpgrades()
	body := ""
	for _, typ := range mapKeys(upgrades) {
		body += upgrades[typ].body
	}
	emu := startCore(t, emulator.Options{})
	ids := madeEveryTypeEarlier(t, emu)
	w := newCLIWorkdir(t)
	w.write(emulatorProviderBlock(emu, ""), body)
	upgradeState(t, w, "every_type", ids)
	w.mustRun(0, "plan", "-detailed-exitcode")
	w.mustRun(0, "apply", "-auto-approve")
	w.mustRun(0, "plan", "-detailed-exitcode")
	for _, typ := range mapKeys(upgrades) {
		res := upgrades[typ]
		if n := emu.Counters.Requests(res.post); n != 1 {
			t.Errorf("%d requests %s at the emulator, want only the 1 made for the test", n, res.post)
		}
		if got, id := stateOf(t, w, res.addr)["id"], ids[moneyFixtures[typ].upgrade.id]; got != id {
			t.Errorf("%s: state id %v, want %s", res.addr, got, id)
		}
	}
	if m, _ := stateOf(t, w, "platform_crypto_withdrawal.payout")["money"].(map[string]any); m["amount"] != "0.5" || m["sends"] != true {
		t.Errorf("the withdrawal's manifest after the refreshes: %v", m)
	}
}
