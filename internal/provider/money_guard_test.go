package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/shopspring/decimal"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// guardModule is a module of the guard tests: withdrawals by for_each,
// each to the valid address of its key.
var guardModule = `
terraform {
  required_providers {
    platform = { source = "platform/platform" }
  }
}
variable "amounts" { type = map(string) }
locals {
` + guardAddresses("module", "x", "y", "z") + "}" +
	btcWithdrawalOf("pay", "  for_each            = var.amounts\n", "local.addresses[each.key]", "each.value", "")

// guardBody is the root of the guard tests: withdrawals by for_each, and
// the module with three more; 2 BTC in all, one of 0.5.
var guardBody = `
locals {
` + guardAddresses("root", "a", "b") + "}" +
	btcWithdrawalOf("root", "  for_each            = { a = \"0.3\", b = \"0.4\" }\n", "local.addresses[each.key]", "each.value", "") +
	`module "payroll" {
  source  = "./payroll"
  amounts = { x = "0.4", y = "0.4", z = "0.5" }
}
`

// guardAddresses is a local value addresses that maps each key to a valid
// address of its own, named for where and the key.
func guardAddresses(where string, keys ...string) string {
	lines := "  addresses = {\n"
	for _, k := range keys {
		lines += fmt.Sprintf("    %s = %q\n", k, validBTCAddress("bc1q"+where+k))
	}
	return lines + "  }\n"
}

func guardBlock(maxAmount, maxRunTotal string) string {
	return "  withdrawal_guard {\n" +
		"    max_amount           = { btc = \"" + maxAmount + "\" }\n" +
		"    max_run_total        = { BTC = \"" + maxRunTotal + "\" }\n" +
		"    check_service_limits = true\n" +
		"  }\n"
}

// Each guard, broken, fails the plan before any POST with an error naming
// the guard and the figures; max_run_total sums the withdrawals of every
// module and for_each instance. Within the guards, the apply sends each
// withdrawal once, with a handful of reads of limits and prices, and the
// plan JSON carries every figure a policy needs. Withdrawals already in the
// state do not count in a later plan.
func TestAccMoneyGuard(t *testing.T) {
	t.Parallel()
	emu := emulator.StartTest(t, emulator.Options{})
	limits := func(single string, eur bool) {
		set := []emulator.TransferLimit{{RuleID: "single-usd", PeriodSeconds: "0", Limit: single, LimitAsset: "USD"}}
		if eur {
			set = append(set, emulator.TransferLimit{RuleID: "daily-eur", PeriodSeconds: "86400", Limit: "1000000", LimitAsset: "EUR"})
		}
		if err := emu.SetTransferLimits(set); err != nil {
			t.Fatal(err)
		}
	}
	limits("30000", true)
	w := newCLIWorkdir(t)
	if err := os.MkdirAll(filepath.Join(w.dir, "payroll"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.dir, "payroll", "main.tf"), []byte(guardModule), 0o600); err != nil {
		t.Fatal(err)
	}

	// Broken: 0.5 BTC is over max_amount 0.45 and, at 65065 USD, over the
	// single-transaction limit of 30000 USD. (OpenTofu stops planning at the
	// first error, so max_run_total is broken on its own below.)
	w.write(emulatorProviderBlock(emu, guardBlock("0.45", "100")), guardBody)
	w.mustRun(0, "get") // the module; the provider is a development override
	out := w.mustRun(1, "plan").output()
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{
		`Withdrawal guard max_amount refuses this withdrawal`,
		`max_amount of BTC is 0.45 (withdrawal_guard.max_amount); this withdrawal asks 0.5 BTC`,
		`Withdrawal guard check_service_limits refuses this withdrawal`,
		`the service's limit single-usd (single transaction) allows 30000 USD (remaining); this withdrawal asks 32532.5 USD (0.5 BTC at 65065, the highest price of the service's BTCUSD ticker)`,
		`module.payroll.platform_crypto_withdrawal.pay["z"]`,
		// A limit it cannot compare with refuses the withdrawal: the
		// guards fail closed.
		`Withdrawal guard check_service_limits cannot check this withdrawal`,
		`The service's limit daily-eur (1000000 EUR) is in EUR, and the service has no price of BTC in EUR`,
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("the refused plan does not say %q:\n%s", want, out)
		}
	}
	// 2 BTC in all, over max_run_total 1.2, in every module and instance.
	limits("40000", false)
	w.write(emulatorProviderBlock(emu, guardBlock("0.5", "1.2")), guardBody)
	out = w.mustRun(1, "plan").output()
	flat = strings.Join(strings.Fields(out), " ")
	runTotal := regexp.MustCompile(`max_run_total of BTC is 1.2 \(withdrawal_guard.max_run_total\) for this provider ` +
		`configuration's share of the run; (0\.[0-9]+|1\.[0-9]+|1) BTC is already planned or sent in this run by other ` +
		`withdrawals, and this one asks 0\.[345] more \((1\.[3-9]|2(\.0)?)`)
	if !strings.Contains(flat, "Withdrawal guard max_run_total refuses this withdrawal") || !runTotal.MatchString(flat) {
		t.Errorf("the plan over max_run_total does not name the guard and the figures:\n%s", out)
	}
	if n := emu.Counters.Requests(cwPostKey); n != 0 {
		t.Fatalf("%d withdrawal POSTs after the refused plans, want 0", n)
	}

	// Within the guards: a saved plan whose JSON shows every figure, then
	// one POST per withdrawal.
	w.write(emulatorProviderBlock(emu, guardBlock("0.5", "2")), guardBody)
	emu.Counters.Reset()
	w.mustRun(0, "plan", "-out=guarded.tfplan")
	planReads := emu.Counters.Requests("GET /v2/transfer/limits/utilizations")
	planJSON := w.mustRun(0, "show", "-json", "guarded.tfplan").stdout
	checkPlanFigures(t, planJSON, 5)
	w.mustRun(0, "apply", "guarded.tfplan")
	if n := emu.Counters.Requests(cwPostKey); n != 5 {
		t.Errorf("%d withdrawal POSTs, want 5", n)
	}
	if len(emu.Transfers()) != 5 {
		t.Errorf("%d withdrawals at the emulator, want 5", len(emu.Transfers()))
	}
	tickers := emu.Counters.Requests("GET /v2/markets/BTCUSD/ticker") + emu.Counters.Requests("GET /v2/markets/BTCEUR/ticker") +
		emu.Counters.Requests("GET /v2/markets/EURBTC/ticker")
	if planReads != 1 || tickers > 6 {
		t.Errorf("the plan of 5 guarded withdrawals read the limits %d times (want 1) and tickers %d times in plan "+
			"and apply (want at most 3 a process)", planReads, tickers)
	}

	// What the state holds does not count again: a lower max_run_total
	// plans no change.
	w.write(emulatorProviderBlock(emu, guardBlock("0.5", "0.1")), guardBody)
	w.mustRun(0, "plan", "-detailed-exitcode")
}

// checkPlanFigures checks that every withdrawal created in plan has its
// amount, asset, destination and ref_id known in the plan JSON.
func checkPlanFigures(t *testing.T, planJSON string, want int) {
	t.Helper()
	uuid := regexp.MustCompile(`^[0-9a-f-]{36}$`)
	n := 0
	for _, rc := range shownChanges(t, planJSON) {
		if rc.Type != "platform_crypto_withdrawal" {
			continue
		}
		n++
		for _, attr := range []string{"amount", "asset", "destination_address", "ref_id"} {
			v, _ := rc.Change.After[attr].(string)
			if v == "" || rc.Change.AfterUnknown[attr] == true {
				t.Errorf("%s: %s is not a known value in the plan JSON (%v)", rc.Address, attr, rc.Change.After[attr])
			}
		}
		if ref, _ := rc.Change.After["ref_id"].(string); !uuid.MatchString(ref) {
			t.Errorf("%s: ref_id %q in the plan JSON", rc.Address, ref)
		}
		if _, err := decimal.NewFromString(rc.Change.After["amount"].(string)); err != nil {
			t.Errorf("%s: amount %v", rc.Address, rc.Change.After["amount"])
		}
	}
	if n != want {
		t.Errorf("%d withdrawals in the plan JSON, want %d", n, want)
	}
}

// Withdrawals planned at once are checked in turn: of five of 0.4 BTC under
// a max_run_total of 1.2, exactly three pass and two are refused, whatever
// the order.
func TestMoneyGuard_concurrentPlans(t *testing.T) {
	g := guardCapped(settingMaxRunTotal, map[string]string{"BTC": "1.2"})
	data := &moneyRun{guard: g}
	var wg sync.WaitGroup
	var refused atomic.Int32
	for i := range 5 {
		wg.Go(func() {
			var d diag.Diagnostics
			guardPlan(t.Context(), data, guardedMovement{key: fmt.Sprint("w", i), asset: "BTC", assetKey: "BTC",
				figure: decimal.RequireFromString("0.4"), figureOK: true}, &d)
			if d.HasError() {
				refused.Add(1)
			}
		})
	}
	wg.Wait()
	if n := refused.Load(); n != 2 {
		t.Errorf("%d of five withdrawals of 0.4 refused under max_run_total 1.2, want 2", n)
	}
	if got := g.tally.others("")["BTC"]; !got.Equal(decimal.RequireFromString("1.2")) {
		t.Errorf("the run's tally is %s BTC, want 1.2", got)
	}
}

// approved_destinations_only refuses at plan, with zero POSTs, a withdrawal
// to an address that is not in the service's address book, then to one
// the review has not approved yet, and a plan whose credentials cannot read
// the book; once the review approves the address, the apply sends the
// withdrawal once. The book is read once per plan.
func TestAccMoneyGuard_approvedDestinationsOnly(t *testing.T) {
	t.Parallel()
	emu := emulator.StartTest(t, emulator.Options{Clients: map[string]emulator.ClientCredentials{
		emulator.DefaultClientID: {Secret: emulator.DefaultClientSecret},
		"payer":                  {Secret: "payer-secret", Scopes: []string{"transfer:write_crypto_withdrawal", "transfer:read_transfer"}},
	}})
	guard := "  withdrawal_guard {\n    approved_destinations_only = true\n  }\n"
	const withdrawal = `
resource "platform_crypto_withdrawal" "pay" {
  profile_id          = "prof-1"
  destination_address = platform_crypto_destination_address.payee.address
  asset               = "ETH"
  crypto_network      = platform_crypto_destination_address.payee.crypto_network
  amount              = "0.25"
}
`
	book := cdaConfig(cdaAddress, "")
	var payee string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				// Not in the book: the whole plan fails, nothing is sent.
				Config: emulatorProviderBlock(emu, guard) + book + withdrawal,
				ExpectError: diagRegexp(`approved_destinations_only: ` + cdaAddress + ` on ETHEREUM is not an APPROVED ` +
					`address of the service's address book (0 entries read). Nothing was sent. Next step: have ` + cdaAddress +
					` on ETHEREUM approved in the service's address book (add it with a platform_crypto_destination_address resource`),
			},
			{
				// A destination known only at apply cannot be checked at plan.
				Config: emulatorProviderBlock(emu, guard) + `
resource "terraform_data" "dest" {
  input = "` + cdaAddress + `"
}
resource "platform_crypto_withdrawal" "pay" {
  profile_id          = "prof-1"
  destination_address = terraform_data.dest.output
  asset               = "ETH"
  crypto_network      = "ETHEREUM"
  amount              = "0.25"
}
`,
				ExpectError: diagRegexp(`The destination_address, crypto_network or identity_id of a platform_crypto_withdrawal is known only at apply`),
			},
			{
				Config: emulatorProviderBlock(emu, guard) + book,
				Check: func(*terraform.State) error {
					if n := emu.Counters.Requests(cwPostKey); n != 0 {
						return fmt.Errorf("%d withdrawal POSTs after the refused plan, want 0", n)
					}
					return nil
				},
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(cdaAddr, tfjsonpath.New("status"), knownvalue.StringExact("PENDING"))},
			},
			{
				// In the book, not approved yet.
				PreConfig: func() {
					emu.Counters.Reset()
					payee = emu.CryptoDestinationAddresses()[0].ID
				},
				Config:      emulatorProviderBlock(emu, guard) + book + withdrawal,
				ExpectError: regexp.MustCompile(`It\s+is\s+in\s+the\s+book,\s+not\s+approved:\s+[0-9a-f-]{36}\s+\(ETHEREUM,\s+status\s+PENDING\)`),
			},
			{
				// Credentials that cannot read the book: refused, not skipped.
				PreConfig: func() {
					if n := emu.Counters.Requests(cwPostKey); n != 0 {
						t.Errorf("%d withdrawal POSTs after the refused plan, want 0", n)
					}
					// The refresh of the address (the list filtered by its
					// id) and the guard's one read of the whole book.
					if n := emu.Counters.Requests(cdaListKey); n != 2 {
						t.Errorf("%d reads of the address book by the plan, want 2", n)
					}
				},
				Config: emulatorProviderBlockFor(emu, "payer", "payer-secret", guard) + `
resource "platform_crypto_withdrawal" "pay" {
  profile_id          = "prof-1"
  destination_address = "` + cdaAddress + `"
  asset               = "ETH"
  crypto_network      = "ETHEREUM"
  amount              = "0.25"
}
`,
				ExpectError: regexp.MustCompile(`(?s)Withdrawal guard approved_destinations_only cannot check this withdrawal.*` +
					`transfer:read_crypto_destination_address`),
			},
			{
				// Approved by the review: sent once.
				PreConfig: func() {
					if !emu.SetCryptoDestinationAddressStatus(payee, "APPROVED") {
						t.Fatalf("no address %s at the emulator", payee)
					}
				},
				Config: emulatorProviderBlock(emu, guard) + book + withdrawal,
				Check: func(*terraform.State) error {
					if n := emu.Counters.Requests(cwPostKey); n != 1 {
						return fmt.Errorf("%d withdrawal POSTs, want 1", n)
					}
					if ts := emu.Transfers(); len(ts) != 1 || deref(ts[0].DestinationAddress) != cdaAddress {
						return fmt.Errorf("transfers %+v, want one to %s", ts, cdaAddress)
					}
					return nil
				},
			},
		},
	})
}

// Addresses are compared exactly, but for the letter case of EVM
// addresses, which is only a checksum.
func TestMoneyGuard_sameAddress(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{cdaAddress, cdaAddress, true},
		{cdaAddress, strings.ToLower(cdaAddress), true},
		{cdaAddress, cdaOther, false},
		{"bc1qAbc", "bc1qabc", false},
		{"0xabc", "0xabcd", false},
		{"", "", true},
	} {
		if got := sameAddress(c.a, c.b); got != c.want {
			t.Errorf("sameAddress(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// guardOn is a guard with the given bool settings switched on.
func guardOn(settings ...string) *moneyGuard {
	g := &moneyGuard{switchedOnBy: map[string]string{}}
	for _, s := range settings {
		g.switchedOnBy[s] = withdrawalGuardBlock + "." + s
	}
	return g
}

// guardCapped is a guard with the caps of one setting (max_amount,
// max_run_total) from the given figures by asset.
func guardCapped(setting string, figures map[string]string) *moneyGuard {
	return &moneyGuard{caps: map[string]guardCaps{setting: capsOf(setting, figures)}}
}

// Every rule's refusal says its specific next step: fund the profile,
// approve the address or the bank account, split or raise the cap, wait
// for the limit's period or ask for a higher limit.
func TestGuardRules_nextStep(t *testing.T) {
	emu := startCore(t, emulator.Options{})
	emu.SetBalance("prof-1", "USD", "10")
	if err := emu.SetTransferLimits([]emulator.TransferLimit{{RuleID: "single-usd", PeriodSeconds: "0",
		TransferTypes: []string{client.TransferTypeInternalDebit},
		Limit:         "50", LimitAsset: "USD"}}); err != nil {
		t.Fatal(err)
	}
	move := func(key, amount string) guardedMovement {
		return guardedMovement{key: key, refID: key, asset: "USD", assetKey: "USD", debit: "USD", debitKey: "USD",
			figure: decimal.RequireFromString(amount), figureOK: true, raw: amount, figureName: "amount",
			what: amount + " USD", profile: "prof-1", resourceType: "platform_internal_transfer",
			limitTypes: []string{client.TransferTypeInternalDebit}}
	}
	crypto := move("c", "1")
	crypto.destination, crypto.network = validBTCAddress("bc1qnotinthebook"), "BITCOIN"
	fiat := move("f", "1")
	fiat.fiatAccount = "acct-pending"
	for _, c := range []struct {
		rule  string
		guard *moneyGuard
		moves []guardedMovement
		next  []string
	}{
		{"fiat account approval", guardOn(), []guardedMovement{fiat},
			[]string{"Next step: have the service approve the bank account acct-pending"}},
		{settingMaxAmount, guardCapped(settingMaxAmount, map[string]string{"USD": "5"}), []guardedMovement{move("a", "8")},
			[]string{"Next step: split it into movements of at most 5 USD each", "raise max_amount for USD"}},
		{settingMaxRunTotal, guardCapped(settingMaxRunTotal, map[string]string{"USD": "5"}),
			[]guardedMovement{move("a", "3"), move("b", "3")},
			[]string{"Next step: send part of the run's movements in a later run", "raise max_run_total for USD"}},
		{settingCheckServiceLimits, guardOn(settingCheckServiceLimits), []guardedMovement{move("a", "80")},
			[]string{"Next step: wait until the limit's period frees enough of it", "ask the service for a higher limit"}},
		{settingApprovedOnly, guardOn(settingApprovedOnly), []guardedMovement{crypto},
			[]string{"Next step: have " + validBTCAddress("bc1qnotinthebook") + " on BITCOIN approved in the service's address book"}},
		{settingCheckBalances, guardOn(settingCheckBalances), []guardedMovement{move("a", "80")},
			[]string{"Next step: fund profile prof-1 with USD"}},
		{settingMaxDailyTotal, guardCapped(settingMaxDailyTotal, map[string]string{"USD": "5"}),
			[]guardedMovement{move("a", "8")},
			[]string{"Next step: send it once enough of what left profile prof-1 has aged out of the window",
				"raise max_daily_total for USD"}},
		{settingMaxWeeklyTotal, guardCapped(settingMaxWeeklyTotal, map[string]string{"USD": "5"}),
			[]guardedMovement{move("a", "8")},
			[]string{"raise max_weekly_total for USD"}},
	} {
		t.Run(c.rule, func(t *testing.T) {
			if !slices.ContainsFunc(guardRules, func(r guardRule) bool { return cmpOr(r.setting, r.name) == c.rule }) {
				t.Fatalf("no rule %s", c.rule)
			}
			data := guardRun(t, emu, emulator.DefaultClientID, emulator.DefaultClientSecret, c.guard)
			data.sawStatus(fiatAccountNamespace, "acct-pending", "PENDING")
			var d diag.Diagnostics
			for _, w := range c.moves {
				guardPlan(t.Context(), data, w, &d)
			}
			if d.ErrorsCount() != 1 {
				t.Fatalf("%d errors, want one refusal: %v", d.ErrorsCount(), d)
			}
			detail := d.Errors()[0].Detail()
			for _, want := range append([]string{"Nothing was sent."}, c.next...) {
				if !strings.Contains(detail, want) {
					t.Errorf("the refusal does not say %q:\n%s", want, detail)
				}
			}
		})
	}
	// A fiat account known only at apply is one this plan creates: apply it
	// first.
	var d diag.Diagnostics
	guardUnknown(t.Context(), &moneyRun{}, "platform_fiat_withdrawal", movement{asset: types.StringValue("USD"),
		amount: types.StringValue("1"), from: types.StringValue("prof-1"), to: types.StringUnknown(),
		fiatAccount: types.StringUnknown(), address: types.StringNull(), network: types.StringNull(),
		identity: types.StringNull()}, &d)
	if d.ErrorsCount() != 1 || d.Errors()[0].Summary() != "Fiat account not approved yet" ||
		!strings.Contains(d.Errors()[0].Detail(), "Next step: apply the fiat account first") {
		t.Errorf("a fiat account known only at apply: %v", d)
	}
	// Every rule of movements with a figure is above, and every rule says a
	// next step of its own among the rules of its kind (those of standing
	// movements, TestAccOrchestrationRule_guards).
	steps := map[bool]map[string]string{false: {}, true: {}}
	figured := 0
	for _, r := range guardRules {
		standing := r.standing != nil
		if !standing {
			figured++
		}
		step := r.next(guardCapped(settingMaxAmount, map[string]string{"USD": "1"}), move("x", "1"))
		if !strings.HasPrefix(step, "Next step: ") {
			t.Errorf("the next step of %s is %q", cmpOr(r.setting, r.name), step)
		}
		if other, ok := steps[standing][step]; ok {
			t.Errorf("%s and %s advise the same step", other, cmpOr(r.setting, r.name))
		}
		steps[standing][step] = cmpOr(r.setting, r.name)
	}
	if figured != 8 {
		t.Errorf("%d rules of movements with a figure, and this test has 8 cases: give the new rule its case", figured)
	}
}

// hostileText holds what must never reach a terminal from the service: an
// escape sequence that clears the screen, a bell, and a right-to-left
// override that reorders what follows.
const hostileText = "\x1b[2J\a\u202e"

// noRawServiceText fails t when out carries ESC, BEL or RLO.
func noRawServiceText(t *testing.T, what, out string) {
	t.Helper()
	for _, r := range []rune{'\x1b', '\a', '\u202e'} {
		if strings.ContainsRune(out, r) {
			t.Errorf("%s prints %q raw:\n%q", what, r, out)
		}
	}
}

// TestMoneyGuard_serviceTextShown: the withdrawal guard's messages show
// what the service answered (a limit's rule, figures, asset and period, an
// address-book entry's id and network) escaped as every other service
// text is (shown), never raw.
func TestMoneyGuard_serviceTextShown(t *testing.T) {
	emu := startCore(t, emulator.Options{})
	address := "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"
	w := withdrawalMovement(cryptoWithdrawalArgs{ProfileID: types.StringValue("prof-1"),
		DestinationAddress: types.StringValue(address), Asset: types.StringValue("BTC"),
		CryptoNetwork: types.StringValue("BITCOIN"), BalanceAsset: types.StringNull(), Amount: types.StringValue("1"),
		Total: types.StringNull(), IdentityID: types.StringNull()}).guarded("w-hostile", "platform_crypto_withdrawal")
	g := guardOn(settingCheckServiceLimits, settingApprovedOnly)
	for _, typ := range w.limitTypes {
		_, _ = g.reads.limits.get(typ, func() ([]*client.TransferLimit, error) {
			return []*client.TransferLimit{
				{RuleID: "rule" + hostileText, PeriodSeconds: "86400" + hostileText, Limit: "5" + hostileText,
					Remaining: "0.5", LimitAsset: "BTC"},
				{RuleID: "rule-2", PeriodSeconds: "0", Limit: "5", Remaining: "0.5", LimitAsset: "USD" + hostileText},
			}, nil
		})
	}
	g.reads.bookOnce.Do(func() {
		pending := "PENDING" + hostileText
		g.reads.book = []client.CryptoDestinationAddress{{ID: "cda" + hostileText, CryptoNetwork: "BITCOIN",
			Address: address, Status: &pending}, {ID: "cda-2" + hostileText, CryptoNetwork: "LITECOIN" + hostileText,
			Address: address, Status: &pending}}
	})
	data := guardRun(t, emu, emulator.DefaultClientID, emulator.DefaultClientSecret, g)
	var d diag.Diagnostics
	guardPlan(t.Context(), data, w, &d)
	out := fmt.Sprint(d)
	noRawServiceText(t, "the guard", out)
	for _, want := range []string{
		`the service's limit rule\x1b[2J\a\u202e (over 86400\x1b[2J\a\u202e seconds) allows 0.5 BTC (remaining)`,
		`The service's limit rule-2 (5 USD\x1b[2J\a\u202e) is in USD\x1b[2J\a\u202e`,
		`It is in the book, not approved: cda\x1b[2J\a\u202e (BITCOIN, status PENDING\x1b[2J\a\u202e)`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the guard does not say %q:\n%s", want, out)
		}
	}
}
