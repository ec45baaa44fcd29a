package provider

import (
	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

func init() {
	addMoneyFixture(moneyFixture{
		typ: "platform_stablecoin_conversion",
		core: moneyResource{
			words: stablecoinConversionWords, body: scBody, addr: "platform_stablecoin_conversion.convert",
			list:         conversionObjects,
			made:         "An earlier stablecoin conversion has the same arguments",
			post:         scPostKey,
			noPlanLookup: true,
		},
		exactlyOnce: conflictRow("1000 USD to USDC in profile prof-1"),
		lying: lyingRow{lies: []lyingAnswer{
			{field: "amount", value: "10000", want: `amount: requested "1000", answered "10000"`},
			{field: "target_asset", value: "PYUSD", want: `target_asset: requested "USDC", answered "PYUSD"`},
			{field: "ref_id", value: "someone-else", want: `answered "someone-else"`},
		}},
		intent: readIntent("stablecoin conversion", client.ScopeReadStablecoinConversion, nil),
		refIDs: []refIDCase{
			{Name: "to its own profile", Arguments: map[string]any{
				"profile_id": "profile-1", "source_asset": "USD", "target_asset": "USDC", "amount": "1000",
			}},
			{Name: "directed settlement", Arguments: map[string]any{
				"profile_id": "profile-1", "source_asset": "USDC", "target_asset": "USD", "amount": "1000",
				"recipient_profile_id": "profile-2",
			}},
		},
		flow: &flowFixture{
			settle: func(emu *emulator.Server, id string) string {
				emu.SettleConversion(id)
				return emulator.ConversionSettled
			},
		},
		action: &actionFixture{
			args: cwaArgs{"profile_id": "prof-1", "source_asset": "USD", "target_asset": "USDC", "amount": "100"},
		},
		guard:     &guardFixture{asset: "USD", over: "999.99", balance: [2]string{"prof-1", "USD"}},
		moves:     moneyKindStablecoinConversion,
		noUpgrade: newInThisRelease,
	})
}
