package provider

import (
	"testing"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

func init() {
	addMoneyFixture(moneyFixture{
		typ: "platform_internal_transfer",
		core: moneyResource{
			words: internalTransferWords, body: itBody, addr: "platform_internal_transfer.sweep",
			list: func(emu *emulator.Server) []moneyObject {
				return transferObjects(emu, client.TransferTypeInternalDebit)
			},
			made: "An earlier internal transfer has the same arguments",
			post: itPostKey,
		},
		exactlyOnce: conflictRow("500 USD from profile prof-1 to profile prof-2"),
		lying: lyingRow{lies: []lyingAnswer{
			{field: "amount", value: "5000", want: `amount: requested "500", answered "5000"`},
			{field: "profile_id", value: "prof-9", want: `from_profile_id: requested "prof-1", answered "prof-9"`},
			{field: "type", value: "INTERNAL_TRANSFER_CREDIT", want: `type: "INTERNAL_TRANSFER_CREDIT", not INTERNAL_TRANSFER_DEBIT`},
		}},
		intent: readIntent("internal transfer", client.ScopeReadTransfer, func(t *testing.T, emu *emulator.Server) []importCase {
			deposit := seededOfType(t, emu, "CRYPTO_DEPOSIT")
			return []importCase{{name: "a deposit", id: deposit,
				want: []string{deposit + " is not an internal transfer", `type: "CRYPTO_DEPOSIT", not INTERNAL_TRANSFER_DEBIT`}}}
		}),
		refIDs: []refIDCase{
			{Name: "sweep", Arguments: map[string]any{
				"from_profile_id": "profile-1", "to_profile_id": "profile-2", "asset": "USD", "amount": "500",
			}},
		},
		flow: transferFlow,
		action: &actionFixture{
			args: cwaArgs{"from_profile_id": "prof-1", "to_profile_id": "prof-2", "asset": "USD", "amount": "100"},
		},
		guard:     &guardFixture{asset: "USD", over: "100", balance: [2]string{"prof-1", "USD"}},
		moves:     moneyKindInternalTransfer,
		noUpgrade: newInThisRelease,
	})
}
