package provider

import (
	"testing"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// everyTypeBody is the configuration of testdata/upgrade/every_type.tfstate:
// one object of every resource on the money core.
var everyTypeBody = eoWithdrawal + fdiConfig(`  metadata = { purpose = "core" }`) +
	daConfig("ETHEREUM", `  metadata = { purpose = "core" }`) + faBody

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
	ctx := t.Context()
	c := emulatorClient(t, emu)
	core := map[string]string{"purpose": "core"}
	d, err := c.CreateDepositAddress(ctx, client.DepositAddressRequest{
		ProfileID: "profile-1", CryptoNetwork: "ETHEREUM", RefID: everyTypeAddressRef, Metadata: core,
	})
	if err != nil {
		t.Fatal(err)
	}
	s := func(v string) *string { return &v }
	a, err := c.CreateFiatAccount(ctx, client.CreateFiatAccountRequest{
		RefID: everyTypeAccountRef,
		FiatAccountOwner: client.FiatAccountOwner{PersonDetails: &client.PersonDetails{
			FirstName: s("Ada"), LastName: s("Lovelace"),
		}},
		FiatNetworkInstructions: client.FiatNetworkInstructions{Wire: &client.WireInstructions{
			AccountNumber:           s("987654321012"),
			FiatAccountOwnerAddress: &client.Address{Country: s("USA"), City: s("New York")},
			RoutingDetails: &client.RoutingDetails{RoutingNumberType: s("ABA"), RoutingNumber: s("031302971"),
				BankName: s("Customers Bank"), BankAddress: &client.Address{Country: s("USA")}},
		}},
		Metadata: core,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{
		everyTypeWithdrawalID:   postWithdrawal(t, emu, upgradeWithdrawalRef),
		everyTypeInstructionsID: postInstructions(t, emu, upgradeInstructionsRef),
		everyTypeAddressID:      deref(d.ID),
		everyTypeAddress:        deref(d.Address),
		everyTypeAccountID:      deref(a.ID),
	}
}

// A state of every resource on the money core, written before the
// resources became declarations of one lifecycle, plans no change, and
// applying it sends nothing and makes nothing.
func TestAccMoneyCore_upgradeEveryType(t *testing.T) {
	t.Parallel()
	emu := startCore(t, emulator.Options{})
	ids := madeEveryTypeEarlier(t, emu)
	w := newCLIWorkdir(t)
	w.write(emulatorProviderBlock(emu, ""), everyTypeBody)
	upgradeState(t, w, "every_type", ids)
	w.mustRun(0, "plan", "-detailed-exitcode")
	w.mustRun(0, "apply", "-auto-approve")
	w.mustRun(0, "plan", "-detailed-exitcode")
	for key, want := range map[string]int{cwPostKey: 1, fdiPostKey: 1, daPostKey: 1, faPostKey: 1} {
		if n := emu.Counters.Requests(key); n != want {
			t.Errorf("%d requests %s at the emulator, want only the %d made for the test", n, key, want)
		}
	}
	for addr, id := range map[string]string{
		"platform_crypto_withdrawal.payout":       ids[everyTypeWithdrawalID],
		"platform_fiat_deposit_instructions.test": ids[everyTypeInstructionsID],
		daAddr:                       ids[everyTypeAddressID],
		"platform_fiat_account.test": ids[everyTypeAccountID],
	} {
		if got := stateOf(t, w, addr)["id"]; got != id {
			t.Errorf("%s: state id %v, want %s", addr, got, id)
		}
	}
	if m, _ := stateOf(t, w, "platform_crypto_withdrawal.payout")["money"].(map[string]any); m["amount"] != "0.5" || m["sends"] != true {
		t.Errorf("the withdrawal's manifest after the refreshes: %v", m)
	}
}
