package provider

import (
	"fmt"
	"testing"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

func init() {
	addMoneyFixture(moneyFixture{
		typ: "platform_crypto_withdrawal",
		core: moneyResource{
			words: withdrawalWords, body: payoutWithdrawal, addr: "platform_crypto_withdrawal.payout",
			list: func(emu *emulator.Server) []moneyObject {
				return objectsOf(emu.Transfers(), func(tr emulator.Transfer) moneyObject {
					return moneyObject{ID: tr.ID, RefID: deref(tr.RefID), Summary: fmt.Sprintf(
						"%s %s on %s to %s from profile %s", tr.Amount, tr.Asset, deref(tr.CryptoNetwork),
						deref(tr.DestinationAddress), tr.ProfileID)}
				})
			},
			made: "An earlier crypto withdrawal has the same arguments",
			post: cwPostKey,
		},
		exactlyOnce: exactlyOnceRow{
			replays:     replayAnswers,
			replayWarns: []emulator.ReplayAnswer{emulator.ReplayConflict},
			refIDAtPlan: true,
			what:        "0.5 BTC on BITCOIN to " + payoutAddress + " from profile prof-1",
		},
		lying: lyingRow{lies: []lyingAnswer{
			{field: "amount", value: "250", want: `amount: requested "0.5", answered "250"`},
			{field: "asset", value: "ETH", want: `asset: requested "BTC", answered "ETH"`},
			{field: "crypto_network", value: "ETHEREUM", want: `crypto_network: requested "BITCOIN", answered "ETHEREUM"`},
			{field: "destination_address", value: validBTCAddress("bc1qattacker"), want: `destination_address: requested "` +
				payoutAddress + `", answered "` + validBTCAddress("bc1qattacker") + `"`},
			{field: "profile_id", value: "prof-2", want: `profile_id: requested "prof-1", answered "prof-2"`},
			{field: "metadata", value: map[string]string{"invoice": "inv-2"}, want: `metadata: requested {invoice="inv-1"}, answered {invoice="inv-2"}`},
			{field: "ref_id", value: "someone-else", want: `answered "someone-else"`},
			{field: "fee", value: "-0.0001", want: `fee: answered "-0.0001", not a non-negative decimal`},
			{field: "total", value: "0.6", want: `total: answered 0.6, but amount 0.5 plus fee 0.0001 is 0.5001`},
			{field: "direction", value: "CREDIT", want: `direction: "CREDIT", not DEBIT`},
		}},
		intent: intentRow{
			readScope:  client.ScopeReadTransfer,
			notFound:   cannotImportWith("crypto withdrawal", "check the id"),
			unreadable: cannotImportWith("crypto withdrawal", client.ScopeReadTransfer),
			imports: func(t *testing.T, emu *emulator.Server) []importCase {
				deposit := seededOfType(t, emu, "CRYPTO_DEPOSIT")
				return []importCase{{name: "a deposit", id: deposit,
					want: []string{deposit + " is not a crypto withdrawal", `type: "CRYPTO_DEPOSIT", not CRYPTO_WITHDRAWAL`}}}
			},
		},
		refIDs: []refIDCase{
			{Name: "amount", Arguments: map[string]any{
				"profile_id": "profile-1", "destination_address": "bc1qexample0destination0address", "asset": "BTC",
				"crypto_network": "BITCOIN", "amount": "0.5",
			}},
			{Name: "as the previous release derived it (testdata/upgrade)", Arguments: map[string]any{
				"profile_id": "prof-1", "destination_address": "bc1qexampleaddress0000000000000000000000", "asset": "BTC",
				"crypto_network": "BITCOIN", "amount": "0.5", "metadata": map[string]any{"invoice": "inv-1"},
			}, previousRelease: upgradeWithdrawalRef},
			{Name: "total and memo", Arguments: map[string]any{
				"profile_id": "profile-1", "destination_address": "GAHK7EEG2WWHVKDNT4CEQFZGKF2LGDSW2IVM4S5DP42RBW3K6BTODB4A",
				"asset": "XLM", "crypto_network": "STELLAR", "total": "10", "memo": "1234",
			}},
		},
		flow: &flowFixture{
			list: true,
			settle: func(emu *emulator.Server, id string) string {
				emu.SetTransferStatus(id, "COMPLETED", "")
				return "COMPLETED"
			},
		},
		action: &actionFixture{
			args: cwaArgs{"profile_id": "prof-1", "destination_address": payoutAddress,
				"asset": "BTC", "crypto_network": "BITCOIN", "amount": "0.5", "metadata": map[string]string{"invoice": "42"}},
		},
		guard: &guardFixture{asset: "BTC", over: "0.1", balance: [2]string{"prof-1", "BTC"}, short: "0.1"},
		moves: moneyKindCryptoWithdrawal,
		upgrade: &upgradeFixture{
			id: everyTypeWithdrawalID,
			earlier: func(t *testing.T, emu *emulator.Server) map[string]string {
				return map[string]string{everyTypeWithdrawalID: postWithdrawal(t, emu, upgradeWithdrawalRef)}
			},
			body: eoWithdrawal,
		},
	})
}
