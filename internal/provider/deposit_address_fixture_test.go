package provider

import (
	"fmt"
	"testing"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

func init() {
	addMoneyFixture(moneyFixture{
		typ: "platform_deposit_address",
		core: moneyResource{
			words: depositAddressWords, body: daConfig("ETHEREUM", `  metadata = { purpose = "core" }`),
			addr: daAddr,
			list: func(emu *emulator.Server) []moneyObject {
				return objectsOf(emu.DepositAddresses(), func(d emulator.DepositAddress) moneyObject {
					return moneyObject{ID: d.ID, RefID: deref(d.RefID), Summary: fmt.Sprintf(
						"%s address %s for profile %s", d.CryptoNetwork, d.Address, d.ProfileID)}
				})
			},
			made: "An earlier deposit address has the same arguments",
			post: daPostKey,
		},
		// The service answers a reused ref_id with 409 and meta.existing.
		exactlyOnce: conflictRow("ETHEREUM deposit address for profile profile-1"),
		lying: lyingRow{lies: []lyingAnswer{
			{field: "profile_id", value: "prof-2", want: `profile_id: requested "profile-1", answered "prof-2"`},
			{field: "crypto_network", value: "SOLANA", want: `crypto_network: requested "ETHEREUM", answered "SOLANA"`},
			{field: "metadata", value: map[string]string{"purpose": "other"}, want: `metadata: requested {purpose="core"}, answered {purpose="other"}`},
			{field: "ref_id", value: "someone-else", want: `answered "someone-else"`},
		}},
		intent: readIntent("deposit address", client.ScopeReadDepositAddress, nil),
		refIDs: []refIDCase{
			{Name: "profile and network", Arguments: map[string]any{"profile_id": "profile-1", "crypto_network": "ETHEREUM"}},
			{Name: "metadata", Arguments: map[string]any{
				"profile_id": "profile-1", "crypto_network": "ETHEREUM", "metadata": map[string]any{"purpose": "core"},
			}},
		},
		noFlow:       "an address is an object the service keeps, not a movement",
		noAction:     "an address is kept and reused: there is no invocation to make",
		noGuard:      "moves no money",
		movesNothing: "an address receives deposits; nothing leaves a profile",
		upgrade: &upgradeFixture{
			id: everyTypeAddressID,
			earlier: func(t *testing.T, emu *emulator.Server) map[string]string {
				d, err := emulatorClient(t, emu).CreateDepositAddress(t.Context(), client.DepositAddressRequest{
					ProfileID: "profile-1", CryptoNetwork: "ETHEREUM", RefID: everyTypeAddressRef,
					Metadata: map[string]string{"purpose": "core"},
				})
				if err != nil {
					t.Fatal(err)
				}
				return map[string]string{everyTypeAddressID: deref(d.ID), everyTypeAddress: deref(d.Address)}
			},
		},
	})
}
