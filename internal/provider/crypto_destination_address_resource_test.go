package provider

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/btcutil/base58"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

const (
	cdaAddr    = "platform_crypto_destination_address.payee"
	cdaAddress = "0xe4b0ACa9Fb669817775274775b20e52118595515"
	cdaOther   = "0x2f6b1c0e8d4a3b5c7e9f1a2b3c4d5e6f7a8b9c0d"
	cdaPutKey  = "PUT /v2/transfer/crypto-destination-address"
	cdaListKey = "GET /v2/transfer/crypto-destination-addresses"
)

// cdaConfig is a destination address on ETHEREUM with extra arguments.
func cdaConfig(address, extra string) string {
	return hclResource("platform_crypto_destination_address", "payee", "",
		[]string{"crypto_network", `"ETHEREUM"`, "address", fmt.Sprintf("%q", address)}, `  travelrule_metadata = {
    custodian_type = "VASP"
    vasp           = { custom_vasp_name = "Example Exchange", custom_vasp_website = "https://exchange.example" }
    beneficiary    = { person_details = { first_name = "Ada", last_name = "Lovelace", physical_address = { country = "GBR" } } }
  }
`+extra+"\n")
}

// cdaAt is the entry of the emulator's book with id.
func cdaAt(emu *emulator.Server, id string) (emulator.CryptoDestinationAddress, bool) {
	return withID(emu.CryptoDestinationAddresses(), id, func(a emulator.CryptoDestinationAddress) string { return a.ID })
}

// TestAccCryptoDestinationAddress_lifecycle: a create looks the tuple up
// and sends one PUT; a refresh follows the review to APPROVED; nickname
// and bookmark are updated in place by id; import by id reads the same
// state; a new address replaces the entry, and destroy leaves both in
// the book.
func TestAccCryptoDestinationAddress_lifecycle(t *testing.T) {
	env, emu := emulatorEnv(t, emulator.Options{})
	var id string
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: env.config(cdaConfig(cdaAddress, "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(cdaAddr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(cdaAddr, tfjsonpath.New("bookmarked"), knownvalue.Bool(false)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(cdaAddr, tfjsonpath.New("status"), knownvalue.StringExact("PENDING")),
					statecheck.ExpectKnownValue(cdaAddr, tfjsonpath.New("nickname"), knownvalue.StringExact("ethereum-595515")),
					statecheck.ExpectKnownValue(cdaAddr, tfjsonpath.New("bookmarked"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(cdaAddr, tfjsonpath.New("identity_id"), knownvalue.Null()),
					statecheck.ExpectKnownValue(cdaAddr, tfjsonpath.New("travelrule_metadata").AtMapKey("vasp").AtMapKey("name"),
						knownvalue.StringExact("Example Exchange")),
					statecheck.ExpectKnownValue(cdaAddr, tfjsonpath.New("travelrule_metadata").AtMapKey("beneficiary").
						AtMapKey("person_details").AtMapKey("physical_address").AtMapKey("country"), knownvalue.StringExact("GBR")),
				},
				Check: resource.ComposeTestCheckFunc(
					checkRequests(emu, cdaPutKey, 1, "%d PUTs after the create, want 1"),
					captureID(cdaAddr, &id),
					func(s *terraform.State) error {
						a, ok := cdaAt(emu, id)
						if !ok || a.Address != cdaAddress || a.PolicyExecutionID == "" ||
							s.RootModule().Resources[cdaAddr].Primary.Attributes["policy_execution_id"] != a.PolicyExecutionID {
							return fmt.Errorf("the book holds %+v for %s", a, id)
						}
						if emu.Counters.Requests(cdaListKey) < 1 {
							return fmt.Errorf("no lookup before the PUT")
						}
						return nil
					},
				),
			},
			{
				// The service's review approves it: the refresh follows,
				// and nothing is planned or sent.
				PreConfig: func() {
					if !emu.SetCryptoDestinationAddressStatus(id, client.DestinationAddressApproved) {
						t.Fatalf("no address %s at the emulator", id)
					}
				},
				Config: env.config(cdaConfig(cdaAddress, "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(cdaAddr, plancheck.ResourceActionNoop),
					plancheck.ExpectKnownValue(cdaAddr, tfjsonpath.New("status"), knownvalue.StringExact("APPROVED")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(cdaAddr, tfjsonpath.New("status"), knownvalue.StringExact("APPROVED")),
				},
				Check: checkRequests(emu, cdaPutKey, 1, "%d PUTs after the refresh, want 1"),
			},
			{
				// Nickname and bookmark: one PUT naming the id, in place.
				Config: env.config(cdaConfig(cdaAddress, `  nickname   = "treasury"
  bookmarked = true`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(cdaAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(cdaAddr, tfjsonpath.New("nickname"), knownvalue.StringExact("treasury")),
					statecheck.ExpectKnownValue(cdaAddr, tfjsonpath.New("bookmarked"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(cdaAddr, tfjsonpath.New("status"), knownvalue.StringExact("APPROVED")),
				},
				Check: resource.ComposeTestCheckFunc(
					checkRequests(emu, cdaPutKey, 2, "%d PUTs after the update, want 2"),
					func(s *terraform.State) error {
						got, _ := stateAttr(s, cdaAddr, "id")
						a, _ := cdaAt(emu, id)
						if got != id || a.Nickname != "treasury" || !a.Bookmarked || len(emu.CryptoDestinationAddresses()) != 1 {
							return fmt.Errorf("after the update: state id %s, book %+v", got, emu.CryptoDestinationAddresses())
						}
						return nil
					},
				),
			},
			{
				ResourceName:      cdaAddr,
				ImportState:       true,
				ImportStateVerify: true,
			},
			{
				// Another address is another entry: a replacement.
				Config: env.config(cdaConfig(cdaOther, `  nickname   = "treasury"
  bookmarked = true`)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(cdaAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(cdaAddr, tfjsonpath.New("address"), knownvalue.StringExact(cdaOther)),
					statecheck.ExpectKnownValue(cdaAddr, tfjsonpath.New("status"), knownvalue.StringExact("PENDING")),
				},
				Check: checkRequests(emu, cdaPutKey, 3, "%d PUTs after the replacement, want 3"),
			},
		},
		CheckDestroy: resource.ComposeTestCheckFunc(
			func(*terraform.State) error {
				// Destroy forgets: both entries stay in the book.
				if n := len(emu.CryptoDestinationAddresses()); n != 2 {
					return fmt.Errorf("the book holds %d addresses after destroy, want 2", n)
				}
				return nil
			},
			checkRequests(emu, cdaPutKey, 3, "%d PUTs in all, want 3"),
		),
	})
}

// TestAccCryptoDestinationAddress_alreadyInBook runs the CLI: an address
// already in the book is refused with its id, status and import block,
// and no PUT; the import block adopts it; destroy warns that it stays in
// the book. Then a PUT that ends without an answer is recorded, and the
// next apply adopts the address it made without sending it again.
func TestAccCryptoDestinationAddress_alreadyInBook(t *testing.T) {
	t.Parallel()
	requireTFAcc(t)
	emu := emulator.StartTest(t, emulator.Options{})
	w := newCLIWorkdir(t)
	c := emulatorClient(t, emu)
	made, err := c.PutCryptoDestinationAddress(t.Context(), client.PutCryptoDestinationAddressRequest{
		CryptoNetwork: "ETHEREUM", Address: cdaAddress, Nickname: "made-elsewhere",
	})
	if err != nil {
		t.Fatal(err)
	}
	emu.Counters.Reset()
	provider := emulatorProviderBlock(emu, "  max_retries = 0\n")
	w.write(provider, cdaConfig(cdaAddress, ""))
	// Refused at plan, before anyone approves it, and at apply alike.
	refusedAtPlanAndApply(t, w, "Address already in the address book", made.ID, "status PENDING", "import {",
		`id = "`+made.ID+`"`, "Nothing was sent")
	if n := emu.Counters.Requests(cdaPutKey); n != 0 {
		t.Fatalf("%d PUTs, want none", n)
	}

	// The import block of the error adopts it; the configuration's
	// nickname and Travel Rule data then follow in one PUT by id.
	w.write(provider, cdaConfig(cdaAddress, `  nickname = "payee"`)+fmt.Sprintf(`
import {
  to = %s
  id = %q
}
`, cdaAddr, made.ID))
	r := w.mustRun(0, "apply", "-auto-approve")
	if want := "1 imported, 0 added, 1 changed, 0 destroyed"; !strings.Contains(r.output(), want) {
		t.Errorf("apply of the import: want %q:\n%s", want, r.output())
	}
	if a, _ := cdaAt(emu, made.ID); a.Nickname != "payee" || a.TravelruleMetadata == nil || emu.Counters.Requests(cdaPutKey) != 1 {
		t.Errorf("after the import: %+v, %d PUTs; want nickname payee, Travel Rule data, 1 PUT", a, emu.Counters.Requests(cdaPutKey))
	}
	w.mustRun(0, "plan", "-detailed-exitcode")
	r = w.mustRun(0, "destroy", "-auto-approve")
	if want := "stays in the service's address book"; !strings.Contains(strings.Join(strings.Fields(r.output()), " "), want) {
		t.Errorf("destroy output lacks %q:\n%s", want, r.output())
	}
	if _, ok := cdaAt(emu, made.ID); !ok {
		t.Error("destroy removed the address from the book")
	}

	// A PUT processed but answered 500: the state records the attempt,
	// and the next apply adopts the address without a second PUT.
	emu.Counters.Reset()
	emu.Faults.AcceptThenFail(1)
	w.write(provider, cdaConfig(cdaOther, ""))
	r = w.mustRun(1, "apply", "-auto-approve")
	if !strings.Contains(r.output(), "Outcome of crypto destination address create unknown") {
		t.Fatalf("apply output lacks the unknown outcome:\n%s", r.output())
	}
	r = w.mustRun(0, "plan")
	if !strings.Contains(strings.Join(strings.Fields(r.output()), " "), "Applying records it and sends nothing") {
		t.Errorf("the plan after the lost answer does not say the apply records the address:\n%s", r.output())
	}
	r = w.mustRun(0, "apply", "-auto-approve")
	if !strings.Contains(r.output(), "was added earlier, not added again") {
		t.Errorf("second apply does not adopt the address:\n%s", r.output())
	}
	if n := emu.Counters.Requests(cdaPutKey); n != 1 {
		t.Errorf("%d PUTs, want the 1 whose answer was lost", n)
	}
	w.mustRun(0, "plan", "-detailed-exitcode")
}

// TestAccCryptoDestinationAddresses_dataSource reads the seeded book with
// filters and checks the items against the emulator's.
func TestAccCryptoDestinationAddresses_dataSource(t *testing.T) {
	env := newAccEnv(t, emulator.Options{CryptoDestinationAddresses: 60})
	env.needEmulator(t)
	all := env.emu.CryptoDestinationAddresses()
	var want []emulator.CryptoDestinationAddress
	for i := len(all) - 1; i >= 0; i-- {
		if a := all[i]; a.CryptoNetwork == "ETHEREUM" || a.CryptoNetwork == "BITCOIN" {
			if a.Bookmarked {
				want = append(want, a)
			}
		}
	}
	if len(want) < 2 {
		t.Fatalf("the seed gives %d bookmarked addresses on ETHEREUM or BITCOIN, want at least 2", len(want))
	}
	first := want[0]
	const ds = "data.platform_crypto_destination_addresses.book"
	item := tfjsonpath.New("items").AtSliceIndex(0)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: env.config(`
data "platform_crypto_destination_addresses" "book" {
  crypto_networks   = ["ETHEREUM", "BITCOIN"]
  bookmarked_status = true
}
data "platform_crypto_destination_addresses" "one" {
  addresses = [` + fmt.Sprintf("%q", all[5].Address) + `]
  created_at = { lte = "` + rfc3339(all[5].CreatedAt) + `" }
  order     = "ASC"
  max_items = 1
}
`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("items"), knownvalue.ListSizeExact(len(want))),
				statecheck.ExpectKnownValue(ds, item.AtMapKey("id"), knownvalue.StringExact(first.ID)),
				statecheck.ExpectKnownValue(ds, item.AtMapKey("address"), knownvalue.StringExact(first.Address)),
				statecheck.ExpectKnownValue(ds, item.AtMapKey("nickname"), knownvalue.StringExact(first.Nickname)),
				statecheck.ExpectKnownValue(ds, item.AtMapKey("status"), knownvalue.StringExact(first.Status)),
				statecheck.ExpectKnownValue(ds, item.AtMapKey("bookmarked"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue(ds, item.AtMapKey("policy_execution_id"), knownvalue.StringExact(first.PolicyExecutionID)),
				statecheck.ExpectKnownValue(ds, item.AtMapKey("created_at"), knownvalue.StringExact(rfc3339(first.CreatedAt))),
				statecheck.ExpectKnownValue("data.platform_crypto_destination_addresses.one", tfjsonpath.New("items"),
					knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"id": knownvalue.StringExact(all[5].ID), "identity_id": ptrOrNull(all[5].IdentityID),
					})})),
			},
		}},
	})
}

// TestAccCryptoDestinationAddress_query lists the book with `terraform
// query` (Terraform 1.14+).
func TestAccCryptoDestinationAddress_query(t *testing.T) {
	t.Parallel()
	env, emu := emulatorEnv(t, emulator.Options{CryptoDestinationAddresses: 30})
	var eth []string
	for _, a := range emu.CryptoDestinationAddresses() {
		if a.CryptoNetwork == "ETHEREUM" {
			eth = append(eth, a.ID)
		}
	}
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Query: true,
			Config: env.config(`
list "platform_crypto_destination_address" "eth" {
  provider = platform
  config {
    crypto_networks = ["ETHEREUM"]
  }
}
`),
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("platform_crypto_destination_address.eth", len(eth)),
				querycheck.ExpectIdentity("platform_crypto_destination_address.eth", map[string]knownvalue.Check{"id": knownvalue.StringExact(eth[0])}),
			},
		}},
	})
}

// TestCryptoDestinationAddressListThroughProtocol lists the book through
// the protocol server, as Terraform 1.14+ does.
func TestCryptoDestinationAddressListThroughProtocol(t *testing.T) {
	emu := emulator.StartTest(t, emulator.Options{CryptoDestinationAddresses: 40})
	h := newActionHarness(t, emu, NewProtocol6Server, emulator.DefaultClientID, emulator.DefaultClientSecret, nil)
	var want []string
	for _, a := range slices.Backward(emu.CryptoDestinationAddresses()) {
		if a.CryptoNetwork == "SOLANA" || a.CryptoNetwork == "BASE" {
			want = append(want, a.ID)
		}
	}
	ids, diags := listThroughProtocol(t, h, "platform_crypto_destination_address", map[string]tftypes.Value{
		"crypto_networks": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{
			tftypes.NewValue(tftypes.String, "SOLANA"), tftypes.NewValue(tftypes.String, "BASE"),
		}),
	})
	cwaFailOnError(t, "ListResource", diags)
	if !slices.Equal(ids, want) || len(want) < 3 {
		t.Fatalf("listed %v, want %v", ids, want)
	}
}

// TestDestinationAddressShapes checks the address shapes refused at plan.
func TestDestinationAddressShapes(t *testing.T) {
	for _, c := range []struct {
		network, address string
		want             string
	}{
		{"ETHEREUM", cdaAddress, ""},
		{"BASE", "0x12", "0x followed by 40 hexadecimal digits"},
		{"BNB", "e4B0aCA9FB669817775274775b20e52118595515", "0x followed by 40"},
		{"SUI", "0x" + strings.Repeat("a", 64), ""},
		{"SUI", cdaAddress, "0x followed by 64"},
		{"SOLANA", "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV", ""},
		{"SOLANA", "0OIl" + strings.Repeat("1", 30), "base58"},
		{"BITCOIN", "bc1q xyz", "whitespace"},
		{"BITCOIN", "bc1qanything", ""},
		{"FUTURENET", "anything-goes", ""},
	} {
		got := addressShapeProblem(c.network, c.address)
		if (c.want == "") != (got == "") || !regexp.MustCompile(regexp.QuoteMeta(c.want)).MatchString(got) {
			t.Errorf("%s %q: %q, want %q", c.network, c.address, got, c.want)
		}
	}
}

// TestDestinationAddress_serviceTextShown: the address book's messages
// show what the service answered (an entry's id, its status, its Travel
// Rule data) escaped as every other service text is (shown), never raw.
func TestDestinationAddress_serviceTextShown(t *testing.T) {
	args := cryptoDestinationAddressArgs{Address: types.StringValue("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"),
		CryptoNetwork: types.StringValue("BITCOIN"), IdentityID: types.StringNull()}
	status := "APPROVED" + hostileText
	out := fmt.Sprint(alreadyInBook(args, &client.CryptoDestinationAddress{ID: "cda" + hostileText, Status: &status}, "This configuration did not add it"))
	noRawServiceText(t, "an address already in the book", out)
	if want := `platform_crypto_destination_address.<name> cda\x1b[2J\a\u202e);`; !strings.Contains(out, want) {
		t.Errorf("the error does not say %q:\n%s", want, out)
	}
	purpose, answered := "SELF", "SELF"+hostileText
	diffs := strings.Join(travelruleDifferences(&client.TravelruleMetadata{TransferPurpose: &purpose},
		&client.TravelruleMetadata{TransferPurpose: &answered}), "\n")
	noRawServiceText(t, "a Travel Rule difference", diffs)
	if want := `answered {"transfer_purpose":"SELF\u001b[2J\u0007\u202e"}`; !strings.Contains(diffs, want) {
		t.Errorf("the difference does not say %q:\n%s", want, diffs)
	}
}

// TestAddressChecksums: an address whose network has a checksum is held to
// it (addressChecksumProblem): bech32 and bech32m for Bitcoin's segwit addresses (the test
// vectors of BIP-173 and BIP-350), base58check for its legacy ones, and
// EIP-55 for EVM addresses in mixed case (the vectors of EIP-55); all
// lower-case and all upper-case EVM addresses carry no checksum and stay
// accepted. The error says what is wrong and what is allowed.
func TestAddressChecksums(t *testing.T) {
	testnetP2PKH := base58.CheckEncode(bytes.Repeat([]byte{7}, 20), 0x6f)
	testnetP2SH := base58.CheckEncode(bytes.Repeat([]byte{7}, 20), 0xc4)
	for _, c := range []struct {
		network, address string
		want             string
	}{
		// BIP-173 and BIP-350: valid.
		{"BITCOIN", "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4", ""},
		{"BITCOIN", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", ""},
		{"BITCOIN", "bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3", ""},
		{"BITCOIN", "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7", ""},
		{"BITCOIN", "bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y", ""},
		{"BITCOIN", "BC1SW50QGDZ25J", ""},
		{"BITCOIN", "bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs", ""},
		{"BITCOIN", "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0", ""},
		// BIP-173 and BIP-350: invalid.
		{"BITCOIN", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5", "bad checksum"},
		{"BITCOIN", "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd",
			"a witness version 1 or later address takes a bech32m checksum, not bech32"},
		{"BITCOIN", "BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL", "takes a bech32m checksum"},
		{"BITCOIN", "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sL5k7", "mixes upper and lower case"},
		// The provider page's old example and the made-up addresses of tests.
		{"BITCOIN", "bc1qexampleaddress0000000000000000000000", "bad checksum"},
		{"BITCOIN", "bc1qpolicya", "is not a valid segwit address"},
		// Legacy addresses: base58check.
		{"BITCOIN", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", ""},
		{"BITCOIN", "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", ""},
		{"BITCOIN", testnetP2PKH, ""},
		{"BITCOIN", testnetP2SH, ""},
		{"BITCOIN", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3", "has a bad base58check checksum"},
		{"BITCOIN", "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLz", "has a bad base58check checksum"},
		{"BITCOIN", "anything", "is not an address of BITCOIN"},
		// EIP-55.
		{"ETHEREUM", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", ""},
		{"BASE", "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359", ""},
		{"POLYGON_POS", "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", ""},
		{"ARBITRUM_ONE", "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb", ""},
		{"ETHEREUM", "0x52908400098527886E0F7030069857D2E4169EE7", ""},
		{"ETHEREUM", "0xde709f2102306220921060314715629080e2fb77", ""},
		{"ETHEREUM", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", "has a bad EIP-55 checksum"},
		{"BNB", "0xfB6916095Ca1df60bB79Ce92cE3Ea74c37c5d359", "has a bad EIP-55 checksum"},
	} {
		got := addressChecksumProblem(c.network, c.address)
		switch {
		case c.want == "" && got != "":
			t.Errorf("%s %q refused: %s", c.network, c.address, got)
		case c.want != "" && !strings.Contains(got, c.want):
			t.Errorf("%s %q: %q, want it to say %q", c.network, c.address, got, c.want)
		}
	}
	// What is wrong, and what is allowed.
	for network, c := range map[string]struct{ address, want string }{
		"BITCOIN": {"bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5", `is not a valid segwit address, got ` +
			`"bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5": bad checksum (a character was changed or mistyped, or the ` +
			`address was made up). An address on BITCOIN is a segwit address (bc1…, or tb1… and bcrt1… on test ` +
			`networks) with a valid bech32 or bech32m checksum, or a legacy address (1… or 3…, or m…, n… and 2… on ` +
			`test networks) with a valid base58check checksum`},
		"ETHEREUM": {"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD", `has a bad EIP-55 checksum, got ` +
			`"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD": the upper and lower case of its letters do not match the ` +
			`checksum of its digits, so a character was changed or mistyped. An address on ETHEREUM is 0x followed ` +
			`by 40 hexadecimal digits, written in mixed case with a valid EIP-55 checksum (copy it exactly as the ` +
			`wallet gives it) or all in lower case (which carries no checksum)`},
	} {
		if got := addressChecksumProblem(network, c.address); got != c.want {
			t.Errorf("%s %q:\n got %q\nwant %q", network, c.address, got, c.want)
		}
	}
}

// TestDocumentedAddressesValid: every Bitcoin and EVM address the examples
// and the documentation templates show is a valid one, checksum included,
// so that what users copy from the docs is never refused.
func TestDocumentedAddressesValid(t *testing.T) {
	bitcoin := regexp.MustCompile(`\b(bc1|tb1)[0-9A-Za-z]{6,}`)
	evm := regexp.MustCompile(`0x[0-9a-fA-F]+`)
	checked := 0
	for _, root := range []string{"../../examples", "../../templates"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, a := range bitcoin.FindAllString(string(b), -1) {
				checked++
				if why := addressChecksumProblem("BITCOIN", a); why != "" {
					t.Errorf("%s: %s %s", path, a, why)
				}
			}
			for _, a := range evm.FindAllString(string(b), -1) {
				if len(a) != 42 {
					continue // a hash or a SUI address, not an EVM address
				}
				checked++
				if why := addressChecksumProblem("ETHEREUM", a); why != "" {
					t.Errorf("%s: %s %s", path, a, why)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if checked < 5 {
		t.Fatalf("%d addresses found in the examples and templates, want at least 5", checked)
	}
}

// What testdata/upgrade/address_book.tfstate recorded: an entry the
// service confirmed (payee), and one whose PUT was processed but answered
// 500 (lost, tainted, with the attempt in its private state).
const (
	addressBookPayeeID   = "4444a1b6-a944-4b37-8024-95453515ab10"
	addressBookPayeePEID = "8341b04e-a72e-4480-86e7-b28a54d00045"
)

// A state of the address book written before the resource became a
// declaration of the money core plans no change for its confirmed entry,
// and the apply of its unconfirmed one records the entry the lost PUT made,
// sending nothing.
func TestAccCryptoDestinationAddress_upgrade(t *testing.T) {
	t.Parallel()
	requireTFAcc(t)
	emu := emulator.StartTest(t, emulator.Options{})
	c := emulatorClient(t, emu)
	payee := cdaConfig(cdaAddress, `  nickname = "payee"`)
	ids := map[string]string{}
	for _, put := range []client.PutCryptoDestinationAddressRequest{
		{CryptoNetwork: "ETHEREUM", Address: cdaAddress, Nickname: "payee", TravelruleMetadata: &client.TravelruleMetadata{
			CustodianType: new("VASP"),
			Vasp:          &client.Vasp{CustomVaspName: new("Example Exchange"), CustomVaspWebsite: new("https://exchange.example")},
			Beneficiary: &client.Beneficiary{PersonDetails: &client.BeneficiaryPerson{FirstName: new("Ada"), LastName: new("Lovelace"),
				PhysicalAddress: &client.Address{Country: new("GBR")}}},
		}},
		{CryptoNetwork: "ETHEREUM", Address: cdaOther, Nickname: "lost", BookmarkedStatus: new(false)},
	} {
		a, err := c.PutCryptoDestinationAddress(t.Context(), put)
		if err != nil {
			t.Fatal(err)
		}
		if put.Nickname == "payee" {
			ids[addressBookPayeeID], ids[addressBookPayeePEID] = a.ID, deref(a.PolicyExecutionID)
		}
	}
	emu.Counters.Reset()
	w := newCLIWorkdir(t)
	w.write(emulatorProviderBlock(emu, "  max_retries = 0\n"), payee+`
resource "platform_crypto_destination_address" "lost" {
  crypto_network = "ETHEREUM"
  address        = "`+cdaOther+`"
  nickname       = "lost"
}
`)
	upgradeState(t, w, "address_book", ids)
	r := w.mustRun(2, "plan", "-detailed-exitcode")
	mustContain(t, "plan", spaced(r.output()), "Plan: 1 to add, 0 to change, 1 to destroy", "Applying records it and sends nothing")
	if strings.Contains(r.output(), "platform_crypto_destination_address.payee will") ||
		strings.Contains(r.output(), "platform_crypto_destination_address.payee must") {
		t.Errorf("the plan changes the confirmed entry:\n%s", r.output())
	}
	r = w.mustRun(0, "apply", "-auto-approve")
	mustContain(t, "apply", spaced(r.output()), "was added earlier, not added again")
	w.mustRun(0, "plan", "-detailed-exitcode")
	if n := emu.Counters.Requests(cdaPutKey); n != 0 {
		t.Errorf("%d PUTs after the upgrade, want none", n)
	}
	if got := stateOf(t, w, cdaAddr)["id"]; got != ids[addressBookPayeeID] {
		t.Errorf("payee's id %v, want %s", got, ids[addressBookPayeeID])
	}
	if len(emu.CryptoDestinationAddresses()) != 2 {
		t.Errorf("the book holds %d entries, want the 2 made for the test", len(emu.CryptoDestinationAddresses()))
	}
}
