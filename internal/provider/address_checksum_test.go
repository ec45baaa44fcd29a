package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// The addresses of the checksum tests: a segwit address whose last
// character was changed (BIP-173's example, its bech32 checksum broken),
// an EIP-55 address with the case of one letter flipped, and that address
// all in lower case, which carries no checksum.
const (
	badBech32    = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5"
	badEIP55     = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"
	lowerCaseEVM = "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"
)

// checksumWrites are the requests of emu that make or send something: any
// but a GET of the API.
func checksumWrites(emu *emulator.Server) map[string]int {
	out := map[string]int{}
	for k, n := range emu.Counters.AllRequests() {
		if strings.Contains(k, "/v2/") && !strings.HasPrefix(k, "GET ") {
			out[k] = n
		}
	}
	return out
}

// A new crypto withdrawal, address book entry or orchestration rule, and
// an action's invocation, to an address whose checksum is bad (a bech32
// checksum on BITCOIN, an EIP-55 one on ETHEREUM) are refused at plan with
// an error on the address's argument, and nothing reaches the service; the
// same address all in lower case, which carries no checksum, is made.
func TestAccAddressChecksum_refusedAtPlan(t *testing.T) {
	t.Parallel()
	emu := emulator.StartTest(t, emulator.Options{})
	w := newCLIWorkdir(t)
	withdrawal := func(address, asset, network string) string {
		return fmt.Sprintf(`
resource "platform_crypto_withdrawal" "pay" {
  profile_id          = "prof-1"
  destination_address = %q
  asset               = %q
  crypto_network      = %q
  amount              = "0.1"
}
`, address, asset, network)
	}
	book := func(address, network string) string {
		return fmt.Sprintf(`
resource "platform_crypto_destination_address" "payee" {
  crypto_network = %q
  address        = %q
}
`, network, address)
	}
	rule := func(address string) string {
		return fmt.Sprintf(`
resource "platform_orchestration_rule" "route" {
  profile_id        = "profile-1"
  source_asset      = "USDC"
  destination_asset = "USDG"
  source            = { crypto = { network = "ETHEREUM" } }
  destination       = { crypto = { address = %q, network = "ETHEREUM" } }
}
`, address)
	}
	action := func(address string) string {
		return btcAction("payout", address, "BITCOIN", `"0.1"`, "") +
			actionTrigger("trigger", "  input = \"go\"\n", "action.platform_crypto_withdrawal.payout")
	}
	// A refusal's error is headed by head, shows the source line line (or,
	// when block is set, that line of the block: Terraform 1.11 shows the
	// error of a nested attribute, the rule's destination, at its
	// resource) and says problem of address.
	type refusal struct {
		name, body, address, head, line, problem, block string
	}
	cases := []refusal{
		{"withdrawal, bech32", withdrawal(badBech32, "BTC", "BITCOIN"), badBech32,
			"Error: Invalid address checksum with platform_crypto_withdrawal.pay", `destination_address = "` + badBech32 + `"`, "bad checksum", ""},
		{"withdrawal, EIP-55", withdrawal(badEIP55, "ETH", "ETHEREUM"), badEIP55,
			"Error: Invalid address checksum with platform_crypto_withdrawal.pay", `destination_address = "` + badEIP55 + `"`, "has a bad EIP-55 checksum", ""},
		{"address book entry, bech32", book(badBech32, "BITCOIN"), badBech32,
			"Error: Invalid address checksum with platform_crypto_destination_address.payee", `address = "` + badBech32 + `"`, "bad checksum", ""},
		{"address book entry, EIP-55", book(badEIP55, "ETHEREUM"), badEIP55,
			"Error: Invalid address checksum with platform_crypto_destination_address.payee", `address = "` + badEIP55 + `"`, "has a bad EIP-55 checksum", ""},
		{"rule, EIP-55", rule(badEIP55), badEIP55,
			"Error: Invalid address checksum with platform_orchestration_rule.route", `destination = { crypto = { address = "` + badEIP55 + `"`, "has a bad EIP-55 checksum",
			`resource "platform_orchestration_rule" "route" {`},
	}
	if terraformVersion(t, w.tf).GreaterThanOrEqual(version.Must(version.NewVersion("1.14.0"))) {
		// Terraform shows an action's plan error under the trigger that
		// invokes it, without its argument: PlanAction puts it on
		// destination_address (TestCryptoWithdrawalAction_badChecksumRefused).
		cases = append(cases, refusal{"action, bech32", action(badBech32), badBech32,
			"Failed to plan action", `actions = [action.platform_crypto_withdrawal.payout]`, "bad checksum", ""})
	}
	for _, c := range cases {
		w.write(emulatorProviderBlock(emu, ""), c.body)
		for _, args := range [][]string{{"plan"}, {"apply", "-auto-approve"}} {
			out := flatOutput(w.mustRun(1, args...).output())
			for _, want := range []string{"Invalid address checksum", c.head, c.line, c.problem, `got "` + c.address + `"`,
				"Nothing was sent"} {
				atBlock := want == c.line && c.block != "" && strings.Contains(out, c.block)
				if !strings.Contains(out, want) && !atBlock {
					t.Errorf("%s: terraform %s does not say %q:\n%s", c.name, args[0], want, out)
				}
			}
		}
		if writes := checksumWrites(emu); len(writes) != 0 {
			t.Fatalf("%s: the refused plans sent %v, want nothing", c.name, writes)
		}
	}

	// All in lower case, the address carries no checksum: it is made.
	w.write(emulatorProviderBlock(emu, ""), withdrawal(lowerCaseEVM, "ETH", "ETHEREUM")+book(lowerCaseEVM, "ETHEREUM")+
		rule(lowerCaseEVM))
	w.mustRun(0, "apply", "-auto-approve")
	tr := onlyTransfer(t, emu)
	if tr.DestinationAddress == nil || *tr.DestinationAddress != lowerCaseEVM {
		t.Errorf("transfer %+v, want one to %s", tr, lowerCaseEVM)
	}
	if n := len(emu.CryptoDestinationAddresses()); n != 1 {
		t.Errorf("the book holds %d entries, want the one made", n)
	}
	if posts, _ := orWrites(emu); posts != 1 {
		t.Errorf("%d rules created, want 1", posts)
	}
	w.mustRun(0, "plan", "-detailed-exitcode")
}

// The action's invocation is refused at plan and, were the plan skipped,
// at send, with an error on destination_address; nothing is sent.
func TestCryptoWithdrawalAction_badChecksumRefused(t *testing.T) {
	emu := emulator.StartTest(t, emulator.Options{})
	h := newActionHarness(t, emu, actionServers["served"], emulator.DefaultClientID, emulator.DefaultClientSecret, nil)
	for _, args := range []cwaArgs{
		baseArgs(cwaArgs{"destination_address": badBech32}),
		baseArgs(cwaArgs{"destination_address": badEIP55, "crypto_network": "ETHEREUM", "asset": "ETH"}),
	} {
		refused := func(what, summary string, diags []*tfprotov6.Diagnostic) {
			t.Helper()
			for _, d := range diags {
				if d.Severity == tfprotov6.DiagnosticSeverityError && d.Summary == summary &&
					d.Attribute.String() == "AttributeName(\"destination_address\")" &&
					strings.Contains(d.Detail, fmt.Sprintf("got %q", args["destination_address"])) {
					return
				}
			}
			t.Errorf("%s of %v: no error %q on destination_address: %+v", what, args["destination_address"], summary, diags)
		}
		refused("PlanAction", "Invalid address checksum", h.plan(t, args))
		refused("InvokeAction", "Invalid address checksum at send", h.invokeOnly(t, args).diags)
	}
	lower := baseArgs(cwaArgs{"destination_address": lowerCaseEVM, "crypto_network": "ETHEREUM", "asset": "ETH"})
	cwaFailOnError(t, "PlanAction of the lower-case address", h.plan(t, lower))
	if n := emu.Counters.Requests(cwaPostKey); n != 0 {
		t.Errorf("%d withdrawal POSTs, want none", n)
	}
}

// checksumRefused judges a known address on a known network, and nothing
// else: an unknown or null network or address is judged at send.
func TestChecksumRefused(t *testing.T) {
	attr := path.Root("destination_address")
	for _, c := range []struct {
		network, address types.String
		refused          bool
	}{
		{types.StringValue("BITCOIN"), types.StringValue(badBech32), true},
		{types.StringValue("ETHEREUM"), types.StringValue(badEIP55), true},
		{types.StringValue("ETHEREUM"), types.StringValue(lowerCaseEVM), false},
		{types.StringValue("ETHEREUM"), types.StringValue("0x" + strings.ToUpper(lowerCaseEVM[2:])), false},
		{types.StringValue("BITCOIN"), types.StringValue(validBTCAddress("checksum")), false},
		{types.StringValue("BITCOIN"), types.StringUnknown(), false},
		{types.StringUnknown(), types.StringValue(badBech32), false},
		{types.StringNull(), types.StringNull(), false},
	} {
		var diags diag.Diagnostics
		got := checksumRefused(c.network, c.address, attr, "platform_crypto_withdrawal", "", &diags)
		if got != c.refused || diags.HasError() != c.refused {
			t.Errorf("%v %v: refused %v with %v, want %v", c.network, c.address, got, diags, c.refused)
			continue
		}
		if c.refused {
			d := diags.Errors()[0]
			if d.Summary() != "Invalid address checksum" || !strings.Contains(d.Detail(), "Nothing was sent") {
				t.Errorf("%v: %s: %s", c.address, d.Summary(), d.Detail())
			}
			if wp, ok := d.(diag.DiagnosticWithPath); !ok || !wp.Path().Equal(attr) {
				t.Errorf("%v: the error is not on %s", c.address, attr)
			}
		}
	}
}
