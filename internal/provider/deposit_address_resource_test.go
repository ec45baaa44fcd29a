package provider

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

const (
	daAddr    = "platform_deposit_address.test"
	daPostKey = "POST /v2/transfer/deposit-addresses"
	daListKey = "GET /v2/transfer/deposit-addresses"
)

// daConfig is a platform_deposit_address "test" on network with the
// given extra argument lines.
func daConfig(network, extra string) string {
	return hclResource("platform_deposit_address", "test", "",
		[]string{"profile_id", `"profile-1"`, "crypto_network", fmt.Sprintf("%q", network)}, extra+"\n")
}

// checkAddressMatchesEmulator checks that the state of addr is the
// emulator's address with the same id (address, compatible networks,
// customer, creation time), and that the emulator holds n addresses.
func checkAddressMatchesEmulator(emu *emulator.Server, addr string, n int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		all := emu.DepositAddresses()
		if len(all) != n {
			return fmt.Errorf("the emulator holds %d deposit addresses, want %d", len(all), n)
		}
		id, err := stateAttr(s, addr, "id")
		if err != nil {
			return err
		}
		i := slices.IndexFunc(all, func(d emulator.DepositAddress) bool { return d.ID == id })
		if i < 0 {
			return fmt.Errorf("state id %s is not an address of the emulator", id)
		}
		d := all[i]
		want := map[string]string{
			"address": d.Address, "customer_id": emu.CustomerID(), "crypto_network": d.CryptoNetwork,
			"ref_id": *d.RefID, "conversion_target_asset": *d.ConversionTargetAsset, "created_at": rfc3339(d.CreatedAt),
			"compatible_crypto_networks.#": fmt.Sprint(len(d.CompatibleCryptoNetworks)),
		}
		for i, c := range d.CompatibleCryptoNetworks {
			want[fmt.Sprintf("compatible_crypto_networks.%d", i)] = c
		}
		return stateHolds(s, addr, want)
	}
}

// TestAccDepositAddress creates an address (known address and compatible
// networks, seen by the data source), refreshes it with no change,
// imports it, and replaces it when an argument changes: a second address
// at the emulator; destroy forgets both, which stay at the emulator.
func TestAccDepositAddress(t *testing.T) {
	t.Parallel()
	env, emu := emulatorEnv(t, emulator.Options{DepositAddresses: 5})
	first := daConfig("ETHEREUM", `  metadata = { purpose = "test" }`) + `
data "platform_deposit_addresses" "made" {
  ids = [platform_deposit_address.test.id]
}
`
	var firstAddress string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if n := len(emu.DepositAddresses()); n != 5+2 {
				return fmt.Errorf("after destroy the emulator holds %d addresses, want the 5 seeded and the 2 made", n)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: env.config(first),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(daAddr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(daAddr, tfjsonpath.New("ref_id"), knownvalue.StringRegexp(daRefIDRe)),
					plancheck.ExpectUnknownValue(daAddr, tfjsonpath.New("address")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(daAddr, tfjsonpath.New("compatible_crypto_networks"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.StringExact("ETHEREUM"), knownvalue.StringExact("POLYGON_POS"), knownvalue.StringExact("BASE"),
						knownvalue.StringExact("ARBITRUM_ONE"), knownvalue.StringExact("INK"), knownvalue.StringExact("XLAYER"),
					})),
					statecheck.ExpectKnownValue(daAddr, tfjsonpath.New("address"), knownvalue.StringRegexp(daEVMAddressRe)),
					statecheck.ExpectKnownValue(daAddr, tfjsonpath.New("identity_id"), knownvalue.Null()),
					statecheck.ExpectKnownValue(daAddr, tfjsonpath.New("metadata"), knownvalue.MapExact(map[string]knownvalue.Check{
						"purpose": knownvalue.StringExact("test"),
					})),
					statecheck.CompareValuePairs(daAddr, tfjsonpath.New("address"), "data.platform_deposit_addresses.made",
						itemsPath(0, "address"), daSame),
				},
				Check: resource.ComposeTestCheckFunc(
					checkAddressMatchesEmulator(emu, daAddr, 5+1),
					checkRequests(emu, daPostKey, 1, "one create"),
					func(s *terraform.State) error {
						firstAddress, _ = stateAttr(s, daAddr, "address")
						return nil
					},
				),
			},
			{
				// Refresh and plan again: nothing changes, nothing is sent.
				Config: env.config(first),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(daAddr, plancheck.ResourceActionNoop),
				}},
				Check: resource.ComposeTestCheckFunc(
					checkAddressMatchesEmulator(emu, daAddr, 5+1),
					checkRequests(emu, daPostKey, 1, "no create on refresh"),
					resource.TestCheckResourceAttrWith(daAddr, "address", func(v string) error {
						if v != firstAddress {
							return fmt.Errorf("address %q after refresh, was %q", v, firstAddress)
						}
						return nil
					}),
				),
			},
			{
				ResourceName:      daAddr,
				ImportState:       true,
				ImportStateVerify: true,
			},
			{
				Config: env.config(daConfig("SOLANA", `  metadata = { purpose = "test" }`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(daAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(daAddr, tfjsonpath.New("compatible_crypto_networks"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.StringExact("SOLANA"),
					})),
				},
				Check: resource.ComposeTestCheckFunc(
					checkAddressMatchesEmulator(emu, daAddr, 5+2),
					checkRequests(emu, daPostKey, 2, "a second create for the replacement"),
				),
			},
		},
	})
}

// TestAccDepositAddress_cli drives what the CLI shows: a configured ref_id
// whose address the service already holds is adopted from the 409 replay
// answer (nothing made), and a replacement and a destroy forget with a
// warning, the addresses staying at the emulator.
func TestAccDepositAddress_cli(t *testing.T) {
	t.Parallel()
	emu := emulator.StartTest(t, emulator.Options{})
	made, err := emulatorClient(t, emu).CreateDepositAddress(t.Context(), client.DepositAddressRequest{
		ProfileID: "profile-1", CryptoNetwork: "BASE", RefID: "treasury-base",
	})
	if err != nil {
		t.Fatal(err)
	}
	emu.Advance(30 * 24 * time.Hour)
	w := newCLIWorkdir(t)
	w.write(emulatorProviderBlock(emu, ""), daConfig("BASE", `  ref_id = "treasury-base"`))
	r := w.mustRun(0, "apply", "-auto-approve")
	mustContain(t, "apply", r.output(), "Deposit address was created earlier, not created again", "the ref_id is configured")
	st := stateOf(t, w, daAddr)
	if st["id"] != *made.ID || st["address"] != *made.Address {
		t.Errorf("state holds %v %v, want the address made earlier %s %s", st["id"], st["address"], *made.ID, *made.Address)
	}
	if n := emu.Counters.Requests(daPostKey); n != 2 {
		t.Errorf("%d creates at the emulator, want 2 (the one made before, the one answered 409)", n)
	}
	w.mustRun(0, "plan", "-detailed-exitcode")

	w.write(emulatorProviderBlock(emu, ""), daConfig("BASE", `  ref_id = "treasury-base-2"`))
	r = w.mustRun(0, "apply", "-auto-approve")
	mustContain(t, "replacement", r.output(), "Changing a deposit address creates a NEW address",
		"Deposit address still exists on the service", *made.Address)
	r = w.mustRun(0, "destroy", "-auto-approve")
	mustContain(t, "destroy", r.output(), "Destroying a deposit address does not delete it", "Deposit address still exists")
	if n := len(emu.DepositAddresses()); n != 2 {
		t.Errorf("the emulator holds %d addresses, want 2", n)
	}
}

// TestDepositAddressDifferences checks the comparison of an answer with
// the request: each echoed field, the optional ones only when asked.
func TestDepositAddressDifferences(t *testing.T) {
	s := func(v string) *string { return &v }
	req := client.DepositAddressRequest{ProfileID: "p", CryptoNetwork: "ETHEREUM", RefID: "r", Metadata: map[string]string{"k": "v"}}
	good := client.DepositAddress{ID: s("id-1"), ProfileID: s("p"), CryptoNetwork: s("ETHEREUM"), RefID: s("r"),
		Address: s("0xabc"), Metadata: map[string]string{"k": "v"}, IdentityID: s("answered"), ConversionTargetAsset: s("NO_CONVERSION")}
	if d := depositAddressDifferences(req, &good); len(d) != 0 {
		t.Errorf("differences of the matching answer: %v", d)
	}
	asked := req
	asked.IdentityID, asked.AccountID, asked.ConversionTargetAsset = "i", "a", "USD"
	bad := good
	bad.ProfileID, bad.CryptoNetwork, bad.RefID, bad.Address, bad.Metadata = s("q"), s("SOLANA"), s("x"), s(""), nil
	got := strings.Join(depositAddressDifferences(asked, &bad), "\n")
	for _, want := range []string{`profile_id: requested "p", answered "q"`, `crypto_network: requested "ETHEREUM", answered "SOLANA"`,
		`ref_id: requested "r", answered "x"`, `identity_id: requested "i", answered "answered"`,
		`account_id: requested "a", answered none`, `conversion_target_asset: requested "USD", answered "NO_CONVERSION"`,
		`metadata: requested {k="v"}, answered {}`, `address: answered none`} {
		if !strings.Contains(got, want) {
			t.Errorf("differences lack %q:\n%s", want, got)
		}
	}
}

// TestDepositAddressListThroughProtocol lists deposit addresses through
// the provider's protocol 6 server, as `terraform query` does: the
// filters reach the service, and each result is an address by identity.
func TestDepositAddressListThroughProtocol(t *testing.T) {
	emu := emulator.StartTest(t, emulator.Options{DepositAddresses: 20})
	c := emulatorClient(t, emu)
	var made []string
	for _, n := range []string{"ETHEREUM", "SOLANA"} {
		d, err := c.CreateDepositAddress(t.Context(), client.DepositAddressRequest{ProfileID: "query-profile", CryptoNetwork: n})
		if err != nil {
			t.Fatal(err)
		}
		made = append(made, *d.ID)
	}
	h := newActionHarness(t, emu, NewProtocol6Server, emulator.DefaultClientID, emulator.DefaultClientSecret, nil)
	strs := func(vals ...string) tftypes.Value {
		elems := make([]tftypes.Value, len(vals))
		for i, v := range vals {
			elems[i] = tftypes.NewValue(tftypes.String, v)
		}
		return tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, elems)
	}
	ids, diags := listThroughProtocol(t, h, "platform_deposit_address", map[string]tftypes.Value{"profile_ids": strs("query-profile")})
	if hasErrorDiagnostic(diags) {
		t.Fatalf("list: %v", diags)
	}
	// Newest first.
	if !slices.Equal(ids, []string{made[1], made[0]}) {
		t.Errorf("listed %v, want %v", ids, []string{made[1], made[0]})
	}
	ids, diags = listThroughProtocol(t, h, "platform_deposit_address", map[string]tftypes.Value{"ids": strs(made[0])})
	if hasErrorDiagnostic(diags) || !slices.Equal(ids, made[:1]) {
		t.Errorf("list by id: %v %v", ids, diags)
	}
	if n := emu.Counters.Requests(daListKey); n != 2 {
		t.Errorf("%d list requests, want 2", n)
	}
}

var (
	daRefIDRe      = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	daEVMAddressRe = regexp.MustCompile(`^0x[0-9a-f]{40}$`)
	daSame         = compare.ValuesSame()
)
