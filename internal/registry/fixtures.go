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
	"platform_deposit_addresses":            {Seed: func(o *emulator.Options, n int) { o.DepositAddresses = n }},
	"platform_reward_claims":                {Seed: func(o *emulator.Options, n int) { o.RewardClaims = n }},
	"platform_transfers":                    {Seed: func(o *emulator.Options, n int) { o.Transfers = n }},
	"platform_transfer_limits":              {Seed: func(o *emulator.Options, n int) { o.TransferLimits = n }},
	"platform_crypto_destination_addresses": {Seed: func(o *emulator.Options, n int) { o.CryptoDestinationAddresses = n }},
}
