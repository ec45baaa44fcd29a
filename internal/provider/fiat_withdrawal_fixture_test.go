package provider

import (
	"testing"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

func init() {
	addMoneyFixture(moneyFixture{
		typ: "platform_fiat_withdrawal",
		core: moneyResource{
			words: fiatWithdrawalWords, body: fwBody, addr: "platform_fiat_withdrawal.payout",
			list: func(emu *emulator.Server) []moneyObject {
				return transferObjects(emu, client.FiatWithdrawalTransferTypes...)
			},
			made: "An earlier fiat withdrawal has the same arguments",
			post: fwPostKey,
		},
		exactlyOnce: conflictRow("1250.5 USD to fiat account " + testPayeeAccount + " from profile prof-1"),
		lying: lyingRow{lies: []lyingAnswer{
			{field: "amount", value: "2500", want: `amount: requested "1250.5", answered "2500"`},
			{field: "fiat_account_id", value: "fa-attacker", want: `fiat_account_id: requested "` + testPayeeAccount + `", answered "fa-attacker"`},
			{field: "type", value: "CRYPTO_WITHDRAWAL", want: `type: "CRYPTO_WITHDRAWAL", not WIRE_WITHDRAWAL or`},
		}},
		intent: readIntent("fiat withdrawal", client.ScopeReadTransfer, func(t *testing.T, emu *emulator.Server) []importCase {
			w := seededOfType(t, emu, "CRYPTO_WITHDRAWAL")
			return []importCase{{name: "a crypto withdrawal", id: w,
				want: []string{w + " is not a fiat withdrawal", `type: "CRYPTO_WITHDRAWAL", not WIRE_WITHDRAWAL or`}}}
		}),
		refIDs: []refIDCase{
			{Name: "amount", Arguments: map[string]any{
				"profile_id": "profile-1", "fiat_account_id": "fa-1", "asset": "USD", "amount": "1250.5",
			}},
			{Name: "total and memo", Arguments: map[string]any{
				"profile_id": "profile-1", "fiat_account_id": "fa-1", "asset": "USD", "total": "1250.5",
				"memo": "payroll", "metadata": map[string]any{"invoice": "inv-1"},
			}},
		},
		flow: transferFlow,
		action: &actionFixture{
			args: cwaArgs{"profile_id": "prof-1", "fiat_account_id": testPayeeAccount, "asset": "USD",
				"amount": "100", "metadata": map[string]string{"invoice": "42"}},
		},
		guard:     &guardFixture{asset: "USD", over: "1000", balance: [2]string{"prof-1", "USD"}},
		moves:     moneyKindFiatWithdrawal,
		noUpgrade: newInThisRelease,
	})
}
