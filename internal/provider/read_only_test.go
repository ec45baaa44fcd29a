package provider

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// TestAccReadOnly_lists reads each list data source with a small max_items.
// It assumes nothing about the data beyond the API's contract, so it also
// runs against the real service (PLATFORM_ACC_REAL=1): at most max_items
// items, each with an id; against the emulator, exactly max_items.
func TestAccReadOnly_lists(t *testing.T) {
	const maxItems = 3
	env := newAccEnv(t, emulator.Options{FiatAccounts: 10, DepositAddresses: 10, RewardClaims: 10})
	checkItems := func(addr string) resource.TestCheckFunc {
		return func(s *terraform.State) error {
			raw, err := stateAttr(s, addr, "items.#")
			if err != nil {
				return err
			}
			n, err := strconv.Atoi(raw)
			if err != nil {
				return fmt.Errorf("%s items.# = %q: %w", addr, raw, err)
			}
			if n > maxItems || (env.emu != nil && n != maxItems) {
				return fmt.Errorf("%s has %d items, want %s%d", addr, n, map[bool]string{true: "", false: "at most "}[env.emu != nil], maxItems)
			}
			for i := range n {
				id, err := stateAttr(s, addr, fmt.Sprintf("items.%d.id", i))
				if err != nil {
					return err
				}
				if id == "" {
					return fmt.Errorf("%s item %d has an empty id", addr, i)
				}
			}
			return nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: env.config(fmt.Sprintf(`
data "platform_fiat_accounts" "a" {
  max_items = %[1]d
}
data "platform_deposit_addresses" "a" {
  max_items = %[1]d
  order     = "ASC"
}
data "platform_reward_claims" "a" {
  max_items = %[1]d
}
`, maxItems)),
			Check: resource.ComposeAggregateTestCheckFunc(
				checkItems("data.platform_fiat_accounts.a"),
				checkItems("data.platform_deposit_addresses.a"),
				checkItems("data.platform_reward_claims.a"),
			),
		}},
	})
}
