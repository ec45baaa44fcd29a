package provider

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/shopspring/decimal"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// The guards hold on every path that sends money: no spelling of an
// amount or asset, no provider block (aliased or a module's own), no
// action and no credentials the service rejects gets a withdrawal past
// them.

// flatOutput is out with its whitespace folded, for matching messages that
// Terraform wraps.
func flatOutput(out string) string { return strings.Join(strings.Fields(out), " ") }

// emulatorProviderBody is the arguments of a provider block for emu.
func emulatorProviderBody(emu *emulator.Server) string {
	return fmt.Sprintf("  client_id     = %q\n  client_secret = %q\n  base_url      = %q\n  auth_url      = %q\n  ws_url        = %q\n",
		emulator.DefaultClientID, emulator.DefaultClientSecret, emu.BaseURL(), emu.AuthURL(), emu.WSURL())
}

// btcWithdrawal is a withdrawal of amount BTC to a distinct address (that
// of name, floorAddress), by the provider configuration provider ("" for
// the default).
func btcWithdrawal(name, amount, provider string) string {
	p := ""
	if provider != "" {
		p = "  provider            = " + provider + "\n"
	}
	return btcWithdrawalTo(name, p, floorAddress(name), amount)
}

// btcWithdrawalTo is a withdrawal name of amount BTC from prof-1 to
// address, its first argument lines lines.
func btcWithdrawalTo(name, lines, address, amount string) string {
	return btcWithdrawalOf(name, lines, fmt.Sprintf("%q", address), fmt.Sprintf("%q", amount), "")
}

// btcWithdrawalOf is a withdrawal name of BTC from prof-1, its address and
// amount HCL expressions, its first argument lines lines and its last
// extra.
func btcWithdrawalOf(name, lines, address, amount, extra string) string {
	return hclResource("platform_crypto_withdrawal", name, lines, []string{"profile_id", `"prof-1"`,
		"destination_address", address, "asset", `"BTC"`, "crypto_network", `"BITCOIN"`, "amount", amount}, extra)
}

// floorAddress is the address of the withdrawal btcWithdrawal names name.
func floorAddress(name string) string { return validBTCAddress("bc1qfloor" + name) }

// btcAction is the crypto withdrawal action name: amount (an HCL
// expression) BTC from prof-1 to address on network, with the argument
// lines extra last.
func btcAction(name, address, network, amount, extra string) string {
	return fmt.Sprintf(`
action "platform_crypto_withdrawal" %q {
  config {
    profile_id          = "prof-1"
    destination_address = %q
    asset               = "BTC"
    crypto_network      = %q
    amount              = %s
%s  }
}
`, name, address, network, amount, extra)
}

// actionTrigger is a terraform_data name, with the argument lines args,
// whose creation invokes the action at address.
func actionTrigger(name, args, address string) string {
	return fmt.Sprintf(`resource "terraform_data" %q {
%s  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [%s]
    }
  }
}
`, name, args, address)
}

// The environment's guard is a floor: a root provider block with an empty
// max_amount, an aliased one with a larger figure, and a module's own
// provider block that switches approved_destinations_only off lift none of
// it, and each provider configuration keeps max_run_total on its own share.
func TestAccGuardFloor_environmentBindsEveryProviderBlock(t *testing.T) {
	t.Parallel()
	emu := emulator.StartTest(t, emulator.Options{})
	w := newCLIWorkdir(t)
	w.env = append(w.env, EnvWithdrawalMaxAmount+"=BTC=1", EnvWithdrawalMaxRunTotal+"=BTC=1.5")
	if err := os.MkdirAll(filepath.Join(w.dir, "legacy"), 0o755); err != nil {
		t.Fatal(err)
	}
	module := func(amount, guard string) {
		t.Helper()
		body := "terraform {\n  required_providers {\n    platform = { source = \"platform/platform\" }\n  }\n}\n" +
			"variable \"amount\" { type = string }\n" +
			"provider \"platform\" {\n" + emulatorProviderBody(emu) + guard + "}\n" +
			btcWithdrawal("legacy", "${var.amount}", "")
		if err := os.WriteFile(filepath.Join(w.dir, "legacy", "main.tf"), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	providers := "provider \"platform\" {\n" + emulatorProviderBody(emu) +
		"  withdrawal_guard {\n    max_amount = {}\n  }\n}\n" +
		"provider \"platform\" {\n  alias = \"loose\"\n" + emulatorProviderBody(emu) +
		"  withdrawal_guard {\n    max_amount    = { BTC = \"100\" }\n    max_run_total = { BTC = \"100\" }\n  }\n}\n"
	legacy := "module \"legacy\" {\n  source = \"./legacy\"\n  amount = \"0.5\"\n}\n"
	noBook := "  withdrawal_guard {\n    max_amount                 = {}\n    approved_destinations_only = false\n  }\n"

	for _, c := range []struct {
		name, body, guard, want string
	}{
		{"root block with an empty map", btcWithdrawal("root", "5", ""), noBook,
			`max_amount of BTC is 1 (` + EnvWithdrawalMaxAmount + `); this withdrawal asks 5 BTC`},
		{"aliased block with a larger figure", btcWithdrawal("alias", "5", "platform.loose"), noBook,
			`max_amount of BTC is 1 (` + EnvWithdrawalMaxAmount + `); this withdrawal asks 5 BTC`},
		{"a module's own block", "module \"legacy\" {\n  source = \"./legacy\"\n  amount = \"5\"\n}\n", noBook,
			`max_amount of BTC is 1 (` + EnvWithdrawalMaxAmount + `); this withdrawal asks 5 BTC`},
		{"aliased block over the run total", btcWithdrawal("a1", "1", "platform.loose") + btcWithdrawal("a2", "1", "platform.loose"),
			noBook, `max_run_total of BTC is 1.5 (` + EnvWithdrawalMaxRunTotal + `) for this provider configuration's share of the run`},
	} {
		module("0.5", c.guard)
		w.write("", providers+c.body)
		w.mustRun(0, "get")
		out := flatOutput(w.mustRun(1, "plan").output())
		if !strings.Contains(out, c.want) {
			t.Errorf("%s: the plan does not say %q:\n%s", c.name, c.want, out)
		}
	}
	// approved_destinations_only from the environment: a module's block
	// that switches it off still has it.
	w.env = append(w.env, EnvApprovedDestinations+"=true")
	module("0.5", noBook)
	w.write("", providers+legacy)
	w.mustRun(0, "get")
	out := flatOutput(w.mustRun(1, "plan").output())
	if want := `approved_destinations_only: ` + floorAddress("legacy") + ` on BITCOIN is not an APPROVED address`; !strings.Contains(out, want) {
		t.Errorf("the module's plan does not say %q:\n%s", want, out)
	}
	if n := emu.Counters.Requests(cwPostKey); n != 0 {
		t.Fatalf("%d withdrawal POSTs after the refused plans, want 0", n)
	}

	// Within the floor: each provider configuration sends its share.
	w.env = w.env[:len(w.env)-1]
	module("1", noBook)
	w.write("", providers+btcWithdrawal("root", "1", "")+btcWithdrawal("alias", "1", "platform.loose")+
		"module \"legacy\" {\n  source = \"./legacy\"\n  amount = \"1\"\n}\n")
	w.mustRun(0, "get")
	w.mustRun(0, "apply", "-auto-approve")
	if n := emu.Counters.Requests(cwPostKey); n != 3 {
		t.Errorf("%d withdrawal POSTs, want 3", n)
	}
}

// An action is judged again when it is invoked: an amount known only at
// apply, an address rejected between the plan and the apply of a saved
// plan, and what the process sent before it, count there as at plan.
func TestAccGuardAtSend_action(t *testing.T) {
	t.Parallel()
	emu := emulator.StartTest(t, emulator.Options{CryptoDestinationAddressStatus: "APPROVED"})
	w := newCLIWorkdir(t)
	if terraformVersion(t, w.tf).LessThan(version.Must(version.NewVersion("1.14.0"))) {
		t.Skip("actions need Terraform 1.14 or later")
	}
	action := func(destination, network, amount string) string {
		return fmt.Sprintf("\nresource \"terraform_data\" \"amount\" {\n  input = %q\n}", amount) +
			btcAction("payout", destination, network, "terraform_data.amount.output", "") +
			actionTrigger("trigger", "  input      = \"go\"\n  depends_on = [terraform_data.amount]\n",
				"action.platform_crypto_withdrawal.payout")
	}

	// An amount known only at apply: a warning at plan, refused at send.
	w.write(emulatorProviderBlock(emu, "  withdrawal_guard {\n    max_amount = { BTC = \"1\" }\n  }\n"),
		action(validBTCAddress("bc1qactionpayee"), "BITCOIN", "5"))
	plan := flatOutput(w.mustRun(0, "plan").output())
	if !strings.Contains(plan, "Withdrawal guard not checked at plan") {
		t.Errorf("the plan does not warn that the action's amount is judged at apply:\n%s", plan)
	}
	out := flatOutput(w.mustRun(1, "apply", "-auto-approve").output())
	if want := `Withdrawal guard max_amount refuses this withdrawal at send`; !strings.Contains(out, want) ||
		!strings.Contains(out, "max_amount of BTC is 1 (withdrawal_guard.max_amount); this withdrawal asks 5 BTC") {
		t.Errorf("the apply does not say %q:\n%s", want, out)
	}
	if n := emu.Counters.Requests(cwPostKey); n != 0 {
		t.Fatalf("%d withdrawal POSTs after the refused invocation, want 0", n)
	}

	// Approved at plan, rejected before the apply of the saved plan: the
	// resource and the action are both refused.
	w.mustRun(0, "destroy", "-auto-approve")
	c := emulatorClient(t, emu)
	entry, err := c.PutCryptoDestinationAddress(t.Context(), client.PutCryptoDestinationAddressRequest{
		CryptoNetwork: "ETHEREUM", Address: cdaAddress})
	if err != nil {
		t.Fatal(err)
	}
	w.write(emulatorProviderBlock(emu, "  withdrawal_guard {\n    approved_destinations_only = true\n  }\n"),
		strings.Replace(action(cdaAddress, "ETHEREUM", "0.2"), `asset               = "BTC"`, `asset               = "ETH"`, 1)+`
resource "platform_crypto_withdrawal" "pay" {
  profile_id          = "prof-1"
  destination_address = "`+cdaAddress+`"
  asset               = "ETH"
  crypto_network      = "ETHEREUM"
  amount              = "0.3"
}
`)
	w.mustRun(0, "plan", "-out=approved.tfplan")
	if !emu.SetCryptoDestinationAddressStatus(entry.ID, "REJECTED") {
		t.Fatalf("no address %s at the emulator", entry.ID)
	}
	out = flatOutput(w.mustRun(1, "apply", "approved.tfplan").output())
	for _, want := range []string{
		`platform_crypto_withdrawal action ` + "0.2 ETH on ETHEREUM to " + cdaAddress,
		`It is in the book, not approved: ` + entry.ID + ` (ETHEREUM, status REJECTED)`,
		`Withdrawal guard approved_destinations_only refuses this withdrawal at send`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the apply of the saved plan does not say %q:\n%s", want, out)
		}
	}
	if n := emu.Counters.Requests(cwPostKey); n != 0 {
		t.Fatalf("%d withdrawal POSTs to a rejected address, want 0", n)
	}

	// max_run_total at apply counts what the process sent: the resource's
	// 0.6 and the action's 0.6, known only at apply, are 1.2 over 1.
	w = newCLIWorkdir(t)
	w.write(emulatorProviderBlock(emu, "  withdrawal_guard {\n    max_run_total = { BTC = \"1\" }\n  }\n"),
		action(validBTCAddress("bc1qactionpayee"), "BITCOIN", "0.6")+btcWithdrawal("sent", "0.6", ""))
	out = flatOutput(w.mustRun(1, "apply", "-auto-approve").output())
	if want := `0.6 BTC is already planned or sent in this run by other withdrawals, and this one asks 0.6 more (1.2 in all)`; !strings.Contains(out, want) {
		t.Errorf("the apply does not say %q:\n%s", want, out)
	}
	if n := emu.Counters.Requests(cwPostKey); n != 1 {
		t.Errorf("%d withdrawal POSTs, want 1 (the second is over max_run_total at send)", n)
	}
}

// Credentials the service rejects are an error on every path: the refresh
// of objects in the state, the plan of a new withdrawal and an import;
// never a green plan. Nothing is sent.
func TestAccCredentialsRejected(t *testing.T) {
	t.Parallel()
	emu := emulator.StartTest(t, emulator.Options{})
	good := emulatorProviderBlock(emu, "")
	bad := emulatorProviderBlockFor(emu, emulator.DefaultClientID, "rotated-secret", "")
	rejected := regexp.MustCompile(`Client credentials rejected by the service`)
	withdrawal := btcWithdrawal("pay", "0.1", "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: good + withdrawal + depositAddressConfig},
			// The refresh of what the state holds.
			{Config: bad + withdrawal + depositAddressConfig, PlanOnly: true, ExpectError: rejected},
		},
	})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			// The plan of a new withdrawal: its ref_id cannot be looked up.
			{Config: bad + withdrawal, PlanOnly: true, ExpectError: rejected},
		},
	})
	if n := emu.Counters.Requests(cwPostKey); n != 1 {
		t.Errorf("%d withdrawal POSTs, want the first step's 1", n)
	}
}

// secretFromEnvironment is a provider block for emu that takes its client
// secret from the environment of w's commands, and what sets it there.
func secretFromEnvironment(w *cliWorkdir, emu *emulator.Server) (block string, set func(secret string)) {
	block = fmt.Sprintf("provider \"platform\" {\n  client_id = %q\n  base_url  = %q\n  auth_url  = %q\n  ws_url    = %q\n}\n",
		emulator.DefaultClientID, emu.BaseURL(), emu.AuthURL(), emu.WSURL())
	return block, func(secret string) { w.env = append(w.env, EnvClientSecret+"="+secret) }
}

// Credentials rotated between a plan and the apply of the saved plan, an
// import and, with Terraform 1.14+, terraform query and an action's
// invocation: each fails headed as rejected credentials, and nothing is
// sent.
func TestAccCredentialsRejected_cliPaths(t *testing.T) {
	t.Parallel()
	emu := emulator.StartTest(t, emulator.Options{})
	w := newCLIWorkdir(t)
	block, secret := secretFromEnvironment(w, emu)
	rejected := "Client credentials rejected by the service"

	// Planned with the right secret, applied with a rotated one.
	secret(emulator.DefaultClientSecret)
	w.write(block, btcWithdrawal("pay", "0.1", ""))
	w.mustRun(0, "plan", "-out=saved.tfplan")
	secret("rotated-secret")
	if out := flatOutput(w.mustRun(1, "apply", "saved.tfplan").output()); !strings.Contains(out, rejected) {
		t.Errorf("the apply of the saved plan does not say %q:\n%s", rejected, out)
	}
	// An import of a transfer that exists.
	made := postWithdrawal(t, emu, "made-elsewhere")
	w.write(block, btcWithdrawal("pay", "0.1", "")+fmt.Sprintf("import {\n  to = platform_crypto_withdrawal.pay\n  id = %q\n}\n", made))
	if out := flatOutput(w.mustRun(1, "plan").output()); !strings.Contains(out, rejected) {
		t.Errorf("the import does not say %q:\n%s", rejected, out)
	}
	if terraformVersion(t, w.tf).GreaterThanOrEqual(version.Must(version.NewVersion("1.14.0"))) {
		w.write(block, "")
		writeQuery(t, w, listAll("platform_crypto_withdrawal"))
		if out := flatOutput(w.mustRun(1, "query").output()); !strings.Contains(out, rejected) {
			t.Errorf("terraform query does not say %q:\n%s", rejected, out)
		}
		if err := os.Remove(filepath.Join(w.dir, "find.tfquery.hcl")); err != nil {
			t.Fatal(err)
		}
		w.write(block, btcAction("payout", validBTCAddress("bc1qrotated"), "BITCOIN", `"0.1"`,
			`    ref_id              = "rotated-action"`+"\n"))
		if out := flatOutput(w.mustRun(1, "apply", "-auto-approve", "-invoke=action.platform_crypto_withdrawal.payout").output()); !strings.Contains(out, rejected) {
			t.Errorf("the action's invocation does not say %q:\n%s", rejected, out)
		}
	}
	if n := emu.Counters.Requests(cwPostKey); n != 1 {
		t.Errorf("%d withdrawal POSTs, want 1 (the one made elsewhere)", n)
	}
}

// depositAddressConfig is a deposit address, a second kind of object in
// the state of TestAccCredentialsRejected.
const depositAddressConfig = `
resource "platform_deposit_address" "in" {
  profile_id     = "prof-1"
  crypto_network = "BITCOIN"
}
`

// The environment's values are a floor under the block's: the tighter cap
// of an asset binds, assets of either count, a guard switched on in either
// is on, and an unreadable floor is an error that lifts nothing.
func TestMoneyGuard_environmentFloor(t *testing.T) {
	t.Setenv(EnvWithdrawalMaxAmount, "BTC=1,eth=2")
	t.Setenv(EnvWithdrawalMaxRunTotal, "")
	t.Setenv(EnvApprovedDestinations, "true")
	t.Setenv(EnvCheckServiceLimits, "")
	block := func(amounts map[string]string, approved bool) types.Object {
		m, _ := types.MapValueFrom(t.Context(), types.StringType, amounts)
		obj, d := types.ObjectValue(map[string]attr.Type{
			"max_amount": types.MapType{ElemType: types.StringType}, "max_run_total": types.MapType{ElemType: types.StringType},
			"check_service_limits": types.BoolType, "approved_destinations_only": types.BoolType,
			"check_balances": types.BoolType,
		}, map[string]attr.Value{
			"max_amount": m, "max_run_total": types.MapNull(types.StringType),
			"check_service_limits": types.BoolNull(), "approved_destinations_only": types.BoolValue(approved),
			"check_balances": types.BoolNull(),
		})
		if d.HasError() {
			t.Fatal(d)
		}
		return obj
	}
	var d diag.Diagnostics
	g := configMoneyGuard(t.Context(), block(map[string]string{"BTC": "100", "USDC": "5", "ETH": "1.5"}, false), &d)
	if d.HasError() {
		t.Fatal(d)
	}
	for asset, want := range map[string]string{"BTC": "1", "ETH": "1.5", "USDC": "5"} {
		if c := g.caps[settingMaxAmount][asset]; !c.limit.Equal(decimal.RequireFromString(want)) {
			t.Errorf("max_amount of %s is %s (%s), want %s", asset, c.limit, c.from, want)
		}
	}
	if g.caps[settingMaxAmount]["BTC"].from != EnvWithdrawalMaxAmount || g.caps[settingMaxAmount]["ETH"].from != "withdrawal_guard.max_amount" {
		t.Errorf("sources %+v", g.caps[settingMaxAmount])
	}
	if !g.approvedOnly() || g.switchedOnBy["approved_destinations_only"] != EnvApprovedDestinations {
		t.Errorf("approved_destinations_only = %v (%q), want on from the environment", g.approvedOnly(), g.switchedOnBy)
	}
	g = configMoneyGuard(t.Context(), block(map[string]string{}, false), &d)
	if len(g.caps[settingMaxAmount]) != 2 {
		t.Errorf("an empty max_amount lifted the floor: %+v", g.caps[settingMaxAmount])
	}
	t.Setenv(EnvApprovedDestinations, "yes please")
	d = nil
	g = configMoneyGuard(t.Context(), block(nil, false), &d)
	if !d.HasError() || !g.approvedOnly() {
		t.Errorf("an unreadable floor: errors %v, approved_destinations_only %v; want an error and the guard on", d, g.approvedOnly())
	}
	t.Setenv(EnvApprovedDestinations, "")
	d = nil
	configMoneyGuard(t.Context(), block(map[string]string{"BTC ": "1"}, false), &d)
	if !strings.Contains(fmt.Sprint(d), `names the asset "BTC "`) {
		t.Errorf("an asset with a space in the block: %v", d)
	}
}

// What no guard can judge is refused, never counted as zero: an amount of
// more than 64 characters, an asset that is not an asset code, a limit
// whose remaining is not a decimal. A spelling within the bound is judged
// by its value.
func TestMoneyGuard_failsClosed(t *testing.T) {
	g := guardCapped(settingMaxAmount, map[string]string{"BTC": "1"})
	data := &moneyRun{guard: g}
	args := func(amount, asset string) cryptoWithdrawalArgs {
		return cryptoWithdrawalArgs{Amount: types.StringValue(amount), Asset: types.StringValue(asset),
			DestinationAddress: types.StringValue("bc1q"), CryptoNetwork: types.StringValue("BITCOIN"),
			ProfileID: types.StringValue("p")}
	}
	for _, c := range []struct {
		amount, asset, want string
	}{
		{strings.Repeat("0", 70) + "5", "BTC", "cannot be judged"},
		{"5." + strings.Repeat("0", 70), "BTC", "cannot be judged"},
		{"0", "BTC", "cannot be judged"},
		{"0.5", "BTC ", "is not an asset code"},
		{strings.Repeat("0", 60) + "5", "BTC", "max_amount of BTC is 1 (max_amount); this withdrawal asks 5 BTC"},
		{"5.0000", "btc", "this withdrawal asks 5 btc"},
	} {
		var d diag.Diagnostics
		guardPlan(t.Context(), data, withdrawalMovement(args(c.amount, c.asset)).guarded("k", "platform_crypto_withdrawal"), &d)
		if !d.HasError() || !strings.Contains(fmt.Sprint(d), c.want) {
			t.Errorf("amount %q of %q: %v, want an error saying %q", c.amount, c.asset, d, c.want)
		}
		if d = guardSend(t.Context(), data, withdrawalMovement(args(c.amount, c.asset)).guarded("k", "platform_crypto_withdrawal")); !d.HasError() {
			t.Errorf("amount %q of %q passed the guard at send", c.amount, c.asset)
		}
	}
	if sum := g.tally.others("")["BTC"].Add(g.sent.others("")["BTC"]); !sum.IsZero() {
		t.Errorf("refused withdrawals were counted: %s BTC", sum)
	}
}

// An address book whose list lags behind (or a race with another writer)
// cannot make a create take over an existing entry: the PUT, an upsert,
// answers with an entry made before the lookup, which is refused and not
// recorded, with the import block that adopts it. The lookup compares EVM
// addresses regardless of letter case, as the service does.
func TestAccCryptoDestinationAddress_upsertOfExistingRefused(t *testing.T) {
	t.Parallel()
	requireTFAcc(t)
	var lag atomic.Bool
	var fe *frontedEmulator
	fe = startFrontedEmulator(t, emulator.Options{}, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, client.PathCryptoDestinationAddresses) && lag.Load() {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Date", fe.emu.Now().UTC().Format(http.TimeFormat))
			_, _ = w.Write([]byte(`{"addresses":[]}`))
			return
		}
		next.ServeHTTP(w, r)
	})
	c, err := client.New(client.Config{RateStateDir: t.TempDir(), ClientID: emulator.DefaultClientID, ClientSecret: emulator.DefaultClientSecret,
		BaseURL: fe.srv.URL + "/v2", AuthURL: fe.srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	theirs := "treasury-old"
	prior, err := c.PutCryptoDestinationAddress(t.Context(), client.PutCryptoDestinationAddressRequest{
		CryptoNetwork: "ETHEREUM", Address: cdaAddress, Nickname: theirs})
	if err != nil {
		t.Fatal(err)
	}
	fe.emu.Advance(time.Hour)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				// The same address in another letter case is found at plan.
				Config:      fe.providerBlock("") + cdaConfig(strings.ToLower(cdaAddress), ""),
				ExpectError: regexp.MustCompile(`Address already in the address book(.|\n)*` + prior.ID),
			},
			{
				PreConfig: func() { lag.Store(true) },
				Config:    fe.providerBlock("") + cdaConfig(cdaAddress, ""),
				ExpectError: regexp.MustCompile(`(?s)Address was already in the address book.*` + prior.ID +
					`.*the service made it at.*import \{`),
			},
			{
				// Nothing of it entered the state.
				PreConfig: func() { lag.Store(false) },
				Config:    fe.providerBlock(""),
				Check: func(s *terraform.State) error {
					if len(s.RootModule().Resources) != 0 {
						return fmt.Errorf("the state holds %v", s.RootModule().Resources)
					}
					return nil
				},
			},
		},
	})
}
