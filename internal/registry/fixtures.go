package registry

import (
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// ListFixture is the small fixture of a list data source that the tests
// and figure 5 of `make bench` read it with.
type ListFixture struct {
	// Seed makes the emulator seed n items of the list.
	Seed func(o *emulator.Options, n int)
	// Args is the configuration that reads every seeded item.
	Args map[string]tftypes.Value
	// OnePage, when set, is the most items figure 5 seeds: the service
	// answers this list in one page, whose body the client bounds (10 MiB),
	// so a read of more fails as it should.
	OnePage int
}

// ListFixtures are the fixtures of the provider's list data sources, by
// type name. Figure 5 of `make bench` reads every list data source the
// provider registers with its fixture; a list data source without one is
// reported by the provider's TestRegistryComplete.
var ListFixtures = map[string]ListFixture{
	"platform_fiat_accounts": {
		Seed: func(o *emulator.Options, n int) { o.FiatAccounts = n },
		Args: map[string]tftypes.Value{"include_deleted": tftypes.NewValue(tftypes.Bool, true)},
	},
	"platform_deposit_addresses": {Seed: func(o *emulator.Options, n int) { o.DepositAddresses = n }},
	"platform_reward_claims":     {Seed: func(o *emulator.Options, n int) { o.RewardClaims = n }},
	"platform_transfers":         {Seed: func(o *emulator.Options, n int) { o.Transfers = n }},
	"platform_transfer_limits": {
		Seed: func(o *emulator.Options, n int) { o.TransferLimits = n },
		// About 200 bytes a limit: 25,000 in 5 MB.
		OnePage: 25_000,
	},
	"platform_crypto_destination_addresses": {Seed: func(o *emulator.Options, n int) { o.CryptoDestinationAddresses = n }},
}

// PayeeFiatAccount is the APPROVED fiat account the emulators of the
// benchmarks and of the money-core tests hold (AddApprovedFiatAccount): the
// fiat withdrawals of the fixtures pay to it.
const PayeeFiatAccount = "0c0ffee0-0000-4000-8000-00000000fa01"

// PlanFixtures are the arguments of the provider's resources that figure 7
// of `make bench` applies and plans many of (with `count`), by type name:
// HCL attribute lines, which may use count.index to tell the resources
// apart (the withdrawals by their metadata: a new withdrawal's address must
// be a valid one, with its checksum). A resource without one is reported by the provider's
// TestRegistryComplete.
var PlanFixtures = map[string]string{
	"platform_fiat_withdrawal": `profile_id      = "bench-profile"
  fiat_account_id = "` + PayeeFiatAccount + `"
  asset           = "USD"
  amount          = "10.50"
  metadata        = { run = "bench-${count.index}" }`,
	"platform_internal_transfer": `from_profile_id = "bench-profile"
  to_profile_id   = "bench-savings"
  asset           = "USD"
  amount          = "10"
  metadata        = { run = "bench-${count.index}" }`,
	"platform_stablecoin_conversion": `profile_id   = "bench-profile"
  source_asset = "USD"
  target_asset = "USDC"
  amount       = "10"
  metadata     = { run = "bench-${count.index}" }`,
	"platform_crypto_withdrawal": `profile_id          = "bench-profile"
  destination_address = "bc1q947tmejr6s74gq6qj6p87amfft7ffajyln20wm"
  asset               = "BTC"
  crypto_network      = "BITCOIN"
  amount              = "0.01"
  metadata            = { run = "bench-${count.index}" }`,
	"platform_fiat_deposit_instructions": `profile_id   = "bench-profile"
  fiat_network = "WIRE"
  metadata     = { set = "bench-${count.index}" }`,
	"platform_fiat_account": `fiat_account_owner = {
    person_details = { first_name = "Ada", last_name = "Bench${count.index}" }
  }
  fiat_network_instructions = {
    wire = {
      account_number = format("%012d", count.index)
      fiat_account_owner_address = {
        country = "USA", address1 = "456 Main Street", city = "New York", province = "NY", zip_code = "10101"
      }
      routing_details = {
        routing_number_type = "ABA"
        routing_number      = "031302971"
        bank_name           = "Customers Bank"
        bank_address = {
          country = "USA", address1 = "123 Bank Street", city = "New York", province = "NY", zip_code = "10101"
        }
      }
    }
  }
  metadata = { run = "bench-${count.index}" }`,
	"platform_deposit_address": `profile_id     = "bench-profile"
  crypto_network = "ETHEREUM"
  ref_id         = "bench-${count.index}"
  metadata       = { run = "bench-${count.index}" }`,
	"platform_orchestration_rule": `profile_id        = "bench-profile"
  nickname          = "bench-${count.index}"
  source_asset      = "USDC"
  destination_asset = "USDG"
  source            = { crypto = { network = "ETHEREUM" } }
  destination       = { profile = { profile_id = "bench-treasury" } }`,
	"platform_crypto_destination_address": `crypto_network = "ETHEREUM"
  address        = format("0x%040x", count.index)
  nickname       = "bench-${count.index}"`,
	"platform_profile": `nickname = "bench-${count.index}"`,
}
