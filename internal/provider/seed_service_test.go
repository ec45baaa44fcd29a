package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// The seed's service: an emulator that serves only the operations of the
// seed's interface (emulator.ProfileSeed). Its types apply, refresh, import
// and destroy as documented; where the provider would look a ref_id up and
// the service has no list to look in, it relies on the ref_id.

var seedConfig = `
resource "platform_fiat_deposit_instructions" "wire" {
  profile_id   = "prof-1"
  fiat_network = "WIRE"
}

resource "platform_crypto_withdrawal" "payout" {
  profile_id          = "prof-1"
  destination_address = "` + payoutAddress + `"
  asset               = "BTC"
  crypto_network      = "BITCOIN"
  amount              = "0.5"
}

data "platform_fiat_deposit_instructions" "wire" {
  id = platform_fiat_deposit_instructions.wire.id
}

data "platform_fiat_accounts" "all" {}
data "platform_deposit_addresses" "all" {}
data "platform_reward_claims" "all" {}
data "platform_top_of_book" "btc" { market = "BTCUSD" }
`

func TestAccSeedService(t *testing.T) {
	env, emu := emulatorEnv(t, emulator.Options{Profile: emulator.ProfileSeed, FiatAccounts: 3, DepositAddresses: 4, RewardClaims: 5, StablecoinConversions: 2})
	conversion := emu.StablecoinConversions()[0].ID
	live := 0
	for _, a := range emu.FiatAccounts() {
		if !a.Deleted {
			live++
		}
	}
	config := env.config(seedConfig, fmt.Sprintf(`
data "platform_stablecoin_conversion" "one" { id = %q }
`, conversion))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("platform_fiat_deposit_instructions.wire", tfjsonpath.New("status"), knownvalue.StringExact("VALID")),
					statecheck.ExpectKnownValue("platform_fiat_deposit_instructions.wire", tfjsonpath.New("customer_id"), knownvalue.StringExact(emu.CustomerID())),
					statecheck.ExpectKnownValue("platform_crypto_withdrawal.payout", tfjsonpath.New("status"), knownvalue.StringExact("PENDING")),
					statecheck.ExpectKnownValue("data.platform_fiat_deposit_instructions.wire", tfjsonpath.New("status"), knownvalue.StringExact("VALID")),
					statecheck.ExpectKnownValue("data.platform_fiat_accounts.all", tfjsonpath.New("items"), knownvalue.ListSizeExact(live)),
					statecheck.ExpectKnownValue("data.platform_deposit_addresses.all", tfjsonpath.New("items"), knownvalue.ListSizeExact(4)),
					statecheck.ExpectKnownValue("data.platform_reward_claims.all", tfjsonpath.New("items"), knownvalue.ListSizeExact(5)),
					statecheck.ExpectKnownValue("data.platform_stablecoin_conversion.one", tfjsonpath.New("id"), knownvalue.StringExact(conversion)),
					statecheck.ExpectKnownValue("data.platform_top_of_book.btc", tfjsonpath.New("best_bid_price"), knownvalue.NotNull()),
				},
				Check: func(*terraform.State) error {
					if n := len(emu.Transfers()); n != 1 {
						return fmt.Errorf("the service holds %d withdrawals, want 1", n)
					}
					if n := len(emu.FiatDepositInstructions()); n != 1 {
						return fmt.Errorf("the service holds %d sets of instructions, want 1", n)
					}
					return nil
				},
			},
			{
				// Refreshed: nothing to change, nothing sent again.
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: checkRequests(emu, "POST /v2/transfer/crypto-withdrawals", 1, "%d withdrawals POSTed, want 1"),
			},
			{
				ResourceName:      "platform_fiat_deposit_instructions.wire",
				ImportState:       true,
				ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"ref_id", "identity_id", "account_id", "metadata", "routing_number_type",
					"fiat_network"},
			},
		},
		CheckDestroy: func(*terraform.State) error {
			// Destroy forgets both: the service has no delete of either.
			if n := len(emu.Transfers()); n != 1 {
				return fmt.Errorf("after destroy the service holds %d withdrawals, want 1", n)
			}
			return nil
		},
	})
}

// TestAccSeedServiceWithdrawalAction: the withdrawal action against the
// seed's service sends once, and invoked again with its configured ref_id
// sends nothing new.
func TestAccSeedServiceWithdrawalAction(t *testing.T) {
	t.Parallel()
	env, _ := emulatorEnv(t, emulator.Options{Profile: emulator.ProfileSeed})
	actionTest(t, actionRefIDSteps(env, "seed-payout-1")...)
}
