package provider

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// A near miss of a known value names it; a value near none, or as near
// two, names none.
func TestNearestValue(t *testing.T) {
	for _, c := range []struct{ value, want string }{
		{"ETHERUM", "ETHEREUM"},
		{"ethereum", "ETHEREUM"},
		{"Etherium", "ETHEREUM"},
		{"BITCON", "BITCOIN"},
		{"BITCOIN-CASH", "BITCOIN_CASH"},
		{"SOLANAA", "SOLANA"},
		{"POLYGON", ""}, // three edits from POLYGON_POS
		{"MONAD", ""},
		{"X", ""},
		{"SU", ""},
		{"ACH", ""},
		{"", ""},
	} {
		if got := nearestValue(c.value, client.CryptoNetworks); got != c.want {
			t.Errorf("nearestValue(%q) = %q, want %q", c.value, got, c.want)
		}
	}
	if got := nearestValue("WIRES", client.FiatNetworks); got != "WIRE" {
		t.Errorf("nearestValue(WIRES) = %q, want WIRE", got)
	}
	// ABC and ABD are each one edit from ABE: no guess.
	if got := nearestValue("ABE", []string{"ABC", "ABD"}); got != "" {
		t.Errorf("nearestValue(ABE) = %q, want none for a tie", got)
	}
	for _, c := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"ETHERUM", "ETHEREUM", 1}, {"kitten", "sitting", 3}, {"", "abc", 3}, {"ab", "ba", 2}} {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// Each mistake of a withdrawal is one error at validation, through the
// protocol server, on the resource's arguments and the action's alike:
// an amount finer than its asset's unit, a network the service does not
// publish (with the nearest one for a typo), a destination address that
// cannot be an address of its network. What is within the rules, or of an
// asset the provider does not know, is said nothing about.
func TestWithdrawalMistakes_oneErrorEach(t *testing.T) {
	emu := emulator.StartTest(t, emulator.Options{})
	h := newActionHarness(t, emu, NewProtocol6Server, emulator.DefaultClientID, emulator.DefaultClientSecret, nil)
	evm := "0x" + strings.Repeat("ab", 20)
	for _, c := range []struct {
		args          cwaArgs
		summary, want string
	}{
		{cwaArgs{"amount": "0.123456789"}, "Amount more precise than its asset", `amount "0.123456789" has 9 decimals, and the smallest unit of BTC has 8`},
		{cwaArgs{"asset": "eth", "crypto_network": "ETHEREUM", "destination_address": evm, "amount": "1." + strings.Repeat("1", 30)}, "Amount more precise than its asset", "has 30 decimals, and the smallest unit of ETH has 18"},
		{cwaArgs{"asset": "USD", "amount": "10.005"}, "Amount more precise than its asset", "has 3 decimals, and the smallest unit of USD has 2"},
		{cwaArgs{"amount": nil, "total": "0.000000001"}, "Amount more precise than its asset", `total "0.000000001" has 9 decimals`},
		{cwaArgs{"crypto_network": "ETHERUM", "destination_address": evm}, "Unknown crypto network", `crypto_network is "ETHERUM", which is not a crypto network the service publishes: did you mean "ETHEREUM"?`},
		{cwaArgs{"crypto_network": "MONAD"}, "Unknown crypto network", `crypto_network is "MONAD", which is not a crypto network the service publishes. crypto_network must be one of BITCOIN,`},
		{cwaArgs{"crypto_network": "ETHEREUM", "destination_address": "0x" + strings.Repeat("7", 39)}, "Invalid address", "an address on ETHEREUM is 0x followed by 40 hexadecimal digits"},
		{cwaArgs{"crypto_network": "SOLANA", "destination_address": "0OIl"}, "Invalid address", "an address on SOLANA is 32 to 44 base58 characters"},
		{cwaArgs{"amount": "0.12345678"}, "", ""},
		{cwaArgs{"amount": "0.123456780000"}, "", ""},
		{cwaArgs{"asset": "XYZ", "amount": "0.123456789123456789123"}, "", ""},
		{cwaArgs{"crypto_network": "ETHEREUM", "destination_address": evm}, "", ""},
		{cwaArgs{"crypto_network": "AVALANCHE", "asset": "AVAX", "destination_address": evm}, "", ""},
	} {
		diags := h.validate(t, baseArgs(c.args))
		var got []string
		for _, d := range diags {
			if d.Severity == tfprotov6.DiagnosticSeverityWarning {
				t.Errorf("%v: warning %s: %s", c.args, d.Summary, d.Detail)
			}
			if d.Severity == tfprotov6.DiagnosticSeverityError {
				got = append(got, d.Summary+": "+d.Detail)
			}
		}
		switch {
		case c.want == "" && len(got) > 0:
			t.Errorf("%v: errors %q, want none", c.args, got)
		case c.want != "" && (len(got) != 1 || !strings.HasPrefix(got[0], c.summary+": ") || !strings.Contains(got[0], c.want)):
			t.Errorf("%v: errors %q, want one %q saying %q", c.args, got, c.summary, c.want)
		}
	}
}

// The mistakes a CI gate must catch fail the plan (exit 1), and Terraform
// prints each diagnostic once: whether the value is written in the
// configuration (refused in Terraform's validation, before the plan) or
// comes from a variable (refused in the plan, per instance). Nothing is
// sent and nothing asked of the service.
func TestAccWithdrawalMistakes_failThePlanOnce(t *testing.T) {
	t.Parallel()
	emu := emulator.StartTest(t, emulator.Options{})
	w := newCLIWorkdir(t)
	literal := `
resource "platform_crypto_withdrawal" "literal" {
  profile_id          = "profile-1"
  destination_address = "0x` + strings.Repeat("7", 40) + `"
  asset               = "ETH"
  crypto_network      = "ETHERUM"
  amount              = "0.1234567890123456789"
}

resource "platform_crypto_withdrawal" "short_address" {
  profile_id          = "profile-1"
  destination_address = "0x` + strings.Repeat("7", 39) + `"
  asset               = "ETH"
  crypto_network      = "ETHEREUM"
  amount              = "0.1"
}
`
	fromVariable := `
variable "network" {
  type    = string
  default = "ETHERUM"
}

resource "platform_crypto_withdrawal" "from_variable" {
  profile_id          = "profile-1"
  destination_address = "0x` + strings.Repeat("7", 40) + `"
  asset               = "BTC"
  crypto_network      = var.network
  amount              = "0.5"
}
`
	count := func(r cliResult) map[string]int {
		n := map[string]int{}
		for _, line := range strings.Split(r.stdout, "\n") {
			var m struct {
				Type       string `json:"type"`
				Diagnostic struct {
					Severity, Summary, Detail, Address string
				} `json:"diagnostic"`
			}
			if json.Unmarshal([]byte(line), &m) != nil || m.Type != "diagnostic" {
				continue
			}
			d := m.Diagnostic
			if d.Severity == "warning" && strings.Contains(d.Summary, "development overrides") {
				continue
			}
			n[d.Severity+" "+d.Summary+" | "+d.Detail]++
		}
		return n
	}
	// Written in the configuration: three errors of validation, each once.
	w.write(emulatorProviderBlock(emu, ""), literal)
	r := w.mustRun(1, "plan", "-json")
	got := count(r)
	for _, want := range []string{
		`error Unknown crypto network | crypto_network is "ETHERUM", which is not a crypto network the service publishes: did you mean "ETHEREUM"?`,
		`error Amount more precise than its asset | amount "0.1234567890123456789" has 19 decimals, and the smallest unit of ETH has 18`,
		`error Invalid address | destination_address an address on ETHEREUM is 0x followed by 40 hexadecimal digits`,
	} {
		found := 0
		for k, n := range got {
			if strings.HasPrefix(k, want) {
				found += n
			}
		}
		if found != 1 {
			t.Errorf("%q printed %d times, want once; diagnostics:\n%v", want, found, got)
		}
	}
	for k, n := range got {
		if n != 1 {
			t.Errorf("printed %d times: %s", n, k)
		}
	}
	// From a variable: known only in the plan, refused there, once.
	w.write(emulatorProviderBlock(emu, ""), fromVariable)
	r = w.mustRun(1, "plan", "-json")
	got = count(r)
	found := 0
	for k, n := range got {
		if strings.HasPrefix(k, `error Unknown crypto network | crypto_network is "ETHERUM"`) {
			found += n
		}
	}
	if found != 1 {
		t.Errorf("the network from a variable is refused %d times, want once; diagnostics:\n%v", found, got)
	}
	for k, n := range got {
		if n != 1 {
			t.Errorf("printed %d times: %s", n, k)
		}
	}
	if c := emu.Counters; c.APIRequests() != 0 {
		t.Errorf("the emulator saw %d API requests, want none", c.APIRequests())
	}
}

// The provider refuses at plan exactly the amounts the emulator refuses as
// the service does (exceed-precision): the same assets, the same decimals.
func TestAssetDecimalsAsTheEmulator(t *testing.T) {
	got := emulator.AssetDecimals()
	if len(got) != len(assetDecimals) {
		t.Errorf("the emulator checks %d assets, the provider %d: %v and %v", len(got), len(assetDecimals), got, assetDecimals)
	}
	for asset, n := range assetDecimals {
		if got[asset] != n {
			t.Errorf("%s: the provider allows %d decimals, the emulator %d", asset, n, got[asset])
		}
	}
}
