package provider

import (
	"fmt"
	"testing"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

func init() {
	addMoneyFixture(moneyFixture{
		typ: "platform_fiat_account",
		core: moneyResource{
			words: fiatAccountWords, body: faBody, addr: "platform_fiat_account.test",
			list: func(emu *emulator.Server) []moneyObject {
				return objectsWhere(emu.MadeFiatAccounts(), func(a emulator.FiatAccount) bool {
					return !a.Deleted && a.ID != testPayeeAccount
				}, func(a emulator.FiatAccount) moneyObject {
					owner := a.FiatAccountOwner.PersonDetails
					return moneyObject{ID: a.ID, RefID: deref(a.RefID), Summary: fmt.Sprintf(
						"owner %s %s, wire, at %s, status %s", owner.FirstName, owner.LastName,
						a.FiatNetworkInstructions.Wire.RoutingDetails.BankName, a.Status)}
				})
			},
			made:            "An earlier fiat account has the same arguments",
			post:            faPostKey,
			lookupNotReplay: true,
		},
		// The apply finds it by its ref_id before sending.
		exactlyOnce: conflictRow("owner Ada Lovelace, wire, at Customers Bank"),
		lying: lyingRow{lookupFirst: true, lies: []lyingAnswer{
			{field: "fiat_account_owner", value: map[string]any{"institution_details": map[string]any{"name": "Mallory Ltd"}},
				want: "fiat_account_owner: requested person_details, answered none"},
			{field: "fiat_network_instructions", value: map[string]any{"wire": map[string]any{
				"account_number":             "111122223333",
				"fiat_account_owner_address": map[string]any{"country": "USA", "city": "New York"},
				"routing_details": map[string]any{
					"routing_number_type": "ABA", "routing_number": "031302971", "bank_name": "Customers Bank",
					"bank_address": map[string]any{"country": "USA"},
				},
			}}, want: "fiat_network_instructions.wire.account_number: answered another value than requested (not shown: it is sensitive)",
				hidden: "111122223333"},
			{field: "metadata", value: map[string]string{"purpose": "other"}, want: `metadata.purpose: requested "core", answered other`},
			{field: "ref_id", value: "someone-else", want: `answered "someone-else"`},
		}},
		intent: readIntent("fiat account", client.ScopeReadFiatAccount, nil),
		refIDs: []refIDCase{
			{Name: "wire account of a person", Arguments: fiatAccountGoldenArguments("987654321012")},
			// The ref_id is shown in plans: the account number enters it by
			// its last four digits only.
			{Name: "another account number with the same last four digits", Arguments: fiatAccountGoldenArguments("555555551012")},
		},
		noFlow:       "a bank account is an object the service keeps, not a movement",
		noAction:     "a bank account is kept and reused: there is no invocation to make",
		noGuard:      "moves no money: the fiat withdrawals that pay to it are guarded (its approval is a rule of the guard)",
		movesNothing: "a bank account is where fiat withdrawals pay to; nothing leaves a profile",
		upgrade: &upgradeFixture{
			id: everyTypeAccountID,
			earlier: func(t *testing.T, emu *emulator.Server) map[string]string {
				req := adaWireAccount(everyTypeAccountRef, "Customers Bank")
				req.Metadata = map[string]string{"purpose": "core"}
				a, err := emulatorClient(t, emu).CreateFiatAccount(t.Context(), req, nil)
				if err != nil {
					t.Fatal(err)
				}
				return map[string]string{everyTypeAccountID: deref(a.ID)}
			},
		},
	})
}

// adaWireAccount is the request of a wire account of Ada Lovelace's at
// bank, made with refID.
func adaWireAccount(refID, bank string) client.CreateFiatAccountRequest {
	s := func(v string) *string { return &v }
	return client.CreateFiatAccountRequest{
		RefID: refID,
		FiatAccountOwner: client.FiatAccountOwner{PersonDetails: &client.PersonDetails{
			FirstName: s("Ada"), LastName: s("Lovelace"),
		}},
		FiatNetworkInstructions: client.FiatNetworkInstructions{Wire: &client.WireInstructions{
			AccountNumber:           s("987654321012"),
			FiatAccountOwnerAddress: &client.Address{Country: s("USA"), City: s("New York")},
			RoutingDetails: &client.RoutingDetails{RoutingNumberType: s("ABA"), RoutingNumber: s("031302971"),
				BankName: s(bank), BankAddress: &client.Address{Country: s("USA")}},
		}},
	}
}
