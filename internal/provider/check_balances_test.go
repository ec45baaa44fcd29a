package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// payroll is a payroll of three payouts from prof-1 in USD, one of each
// money type that debits it: two fiat withdrawals of 100 and an internal
// transfer of 100, each with its own ref_id.
var payroll = usdFiatWithdrawal("salary", "  for_each        = { alice = \"100\", bob = \"100\" }\n",
	fmt.Sprintf("%q", testPayeeAccount), "each.value", "  ref_id          = \"payroll-2026-11-${each.key}\"\n") +
	usdInternalTransfer("savings", "100", "")

// TestAccCheckBalances: with check_balances, a payroll above the profile's
// balance is refused at plan, with the figures and without one request
// that moves money, and the same payroll goes through once funded. The
// balances are read once per profile per plan.
func TestAccCheckBalances(t *testing.T) {
	t.Parallel()
	emu := startCore(t, emulator.Options{})
	emu.SetBalance("prof-1", "USD", "250")
	w := newCLIWorkdir(t)
	w.write(emulatorProviderBlock(emu, "  withdrawal_guard {\n    check_balances = true\n  }\n"), payroll)
	emu.Counters.Reset()
	out := flatOutput(w.mustRun(1, "plan").output())
	for _, want := range []string{"Withdrawal guard check_balances refuses this withdrawal",
		"check_balances: profile prof-1 has 250 USD available; 200 USD is already planned or sent from it in this " +
			"run, and this one asks 100 more (300 in all, 50 short)."} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan does not say %q:\n%s", want, out)
		}
	}
	if n := emu.Counters.Requests("GET /v2/profiles/prof-1/balances"); n != 1 {
		t.Errorf("%d balance reads of prof-1 in the plan, want 1", n)
	}
	for _, key := range []string{fwPostKey, itPostKey, scPostKey, cwPostKey} {
		if n := emu.Counters.Requests(key); n != 0 {
			t.Errorf("%d %s after the refused plan, want 0", n, key)
		}
	}

	// Funded, the same payroll goes through, and the balance is what is
	// left.
	emu.SetBalance("prof-1", "USD", "300")
	w.mustRun(0, "apply", "-auto-approve")
	w.mustRun(0, "plan", "-detailed-exitcode")
	if got, _ := emu.Balance("prof-1", "USD"); got != "0" {
		t.Errorf("prof-1 holds %s USD after the payroll, want 0", got)
	}
	if n := len(emu.TransfersOfType(client.FiatWithdrawalTransferTypes...)) +
		len(emu.TransfersOfType(client.TransferTypeInternalDebit)); n != 3 {
		t.Errorf("the emulator holds %d payouts, want 3", n)
	}
}

// check_balances refuses what it cannot judge: balances the credentials
// cannot read, and an asset the profile holds none of.
func TestMoneyGuard_checkBalancesFailsClosed(t *testing.T) {
	emu := startCore(t, emulator.Options{Clients: map[string]emulator.ClientCredentials{
		"no-balances":            {Secret: "s", Scopes: []string{client.ScopeWriteFiatWithdrawal}},
		emulator.DefaultClientID: {Secret: emulator.DefaultClientSecret},
	}})
	emu.SetBalance("prof-1", "USD", "1000")
	move := func(profile, asset string) guardedMovement {
		return fiatWithdrawalArgs{ProfileID: types.StringValue(profile), Asset: types.StringValue(asset),
			Amount: types.StringValue("10"), FiatAccountID: types.StringValue(testPayeeAccount)}.
			moves().guarded(profile+asset, "platform_fiat_withdrawal")
	}
	for _, c := range []struct {
		name, clientID, secret, profile, asset, want string
	}{
		{"unreadable", "no-balances", "s", "prof-1", "USD", "the balances of profile prof-1 could not be read"},
		{"none held", emulator.DefaultClientID, emulator.DefaultClientSecret, "prof-1", "EUR",
			"check_balances: profile prof-1 holds no EUR"},
		{"funded", emulator.DefaultClientID, emulator.DefaultClientSecret, "prof-1", "USD", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := guardRun(t, emu, c.clientID, c.secret, guardOn(settingCheckBalances))
			var d diag.Diagnostics
			guardPlan(t.Context(), data, move(c.profile, c.asset), &d)
			switch {
			case c.want == "" && d.HasError():
				t.Errorf("refused: %v", d)
			case c.want != "" && (!d.HasError() || !strings.Contains(fmt.Sprint(d), c.want)):
				t.Errorf("%v, want an error saying %q", d, c.want)
			}
			if d := guardSend(t.Context(), data, move(c.profile, c.asset)); d.HasError() != (c.want != "") {
				t.Errorf("at send: %v", d)
			}
		})
	}
}

// guardRun is the money run of a guard g whose client has the given
// credentials at emu.
func guardRun(t *testing.T, emu *emulator.Server, clientID, secret string, g *moneyGuard) *moneyRun {
	t.Helper()
	c, err := client.New(client.Config{RateStateDir: t.TempDir(), ClientID: clientID, ClientSecret: secret, BaseURL: emu.BaseURL(),
		AuthURL: emu.AuthURL(), MaxRetries: 0})
	if err != nil {
		t.Fatal(err)
	}
	return &moneyRun{client: c, guard: g}
}

// TestAccProfileBalances_read: the data source reads a profile's balances
// as the exact decimal strings the service answered, and none for a
// profile that holds nothing.
func TestAccProfileBalances_read(t *testing.T) {
	env, _ := emulatorEnv(t, emulator.Options{})
	env.emu.SetBalance("prof-1", "USD", "12.50")
	env.emu.SetBalance("prof-1", "btc", "0.00000001")
	balance := func(asset, available string) knownvalue.Check {
		return knownvalue.ObjectExact(map[string]knownvalue.Check{"asset": knownvalue.StringExact(asset),
			"available": knownvalue.StringExact(available), "trading": knownvalue.StringExact("0")})
	}
	parallelSteps(t, resource.TestStep{
		Config: env.config(`
data "platform_profile_balances" "treasury" {
  profile_id = "prof-1"
}
data "platform_profile_balances" "empty" {
  profile_id = "prof-9"
}
`),
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue("data.platform_profile_balances.treasury", tfjsonpath.New("balances"),
				knownvalue.ListExact([]knownvalue.Check{balance("BTC", "0.00000001"), balance("USD", "12.5")})),
			statecheck.ExpectKnownValue("data.platform_profile_balances.empty", tfjsonpath.New("balances"),
				knownvalue.ListExact([]knownvalue.Check{})),
		},
	})
}

// sharedRefMoves are three movements of 600 USD from prof-1, one of each
// kind that debits USD, all with the ref_id payroll-11: the service keeps
// each kind's ref_ids apart, so they are three movements.
func sharedRefMoves() []guardedMovement {
	ref := types.StringValue("payroll-11")
	usd, amount, prof := types.StringValue("USD"), types.StringValue("600"), types.StringValue("prof-1")
	return []guardedMovement{
		fiatWithdrawalArgs{ProfileID: prof, FiatAccountID: types.StringValue(testPayeeAccount), Asset: usd,
			Amount: amount, Total: types.StringNull(), RefID: ref}.moves().guarded("payroll-11", "platform_fiat_withdrawal"),
		internalTransferArgs{FromProfileID: prof, ToProfileID: types.StringValue("prof-2"), Asset: usd, Amount: amount,
			RefID: ref}.moves().guarded("payroll-11", "platform_internal_transfer"),
		stablecoinConversionArgs{ProfileID: prof, SourceAsset: usd, TargetAsset: types.StringValue("USDG"),
			Amount: amount, RecipientProfileID: types.StringNull(), RefID: ref}.moves().
			guarded("payroll-11", "platform_stablecoin_conversion"),
	}
}

// TestMoneyGuard_kindsSharingRefID: a fiat withdrawal, an internal
// transfer and a stablecoin conversion with one ref_id are three
// movements for every guard, at plan and at send: under max_run_total
// 1000 USD, and against a balance of 1000 USD, the first of 600 passes and
// the two others are refused; under max_amount 500 USD, each is.
func TestMoneyGuard_kindsSharingRefID(t *testing.T) {
	emu := startCore(t, emulator.Options{})
	emu.SetBalance("prof-1", "USD", "1000")
	for _, c := range []struct {
		name    string
		guard   func() *moneyGuard
		refused []bool
		want    string
	}{
		{"max_amount", func() *moneyGuard {
			return guardCapped(settingMaxAmount, map[string]string{"USD": "500"})
		}, []bool{true, true, true}, "max_amount of USD is 500"},
		{"max_run_total", func() *moneyGuard {
			return guardCapped(settingMaxRunTotal, map[string]string{"USD": "1000"})
		}, []bool{false, true, true}, "600 USD is already planned or sent in this run by other withdrawals, and this " +
			"one asks 600 more (1200 in all)"},
		{"check_balances", func() *moneyGuard { return guardOn(settingCheckBalances) },
			[]bool{false, true, true}, "check_balances: profile prof-1 has 1000 USD available; 600 USD is already " +
				"planned or sent from it in this run, and this one asks 600 more (1200 in all, 200 short)."},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, at := range []string{"plan", "send"} {
				data := guardRun(t, emu, emulator.DefaultClientID, emulator.DefaultClientSecret, c.guard())
				for i, w := range sharedRefMoves() {
					var d diag.Diagnostics
					if at == "plan" {
						guardPlan(t.Context(), data, w, &d)
					} else {
						d = guardSend(t.Context(), data, w)
					}
					switch {
					case d.HasError() != c.refused[i]:
						t.Errorf("at %s, the %s: refused %v, want %v: %v", at, w.resourceType, d.HasError(), c.refused[i], d)
					case c.refused[i] && !strings.Contains(flatOutput(fmt.Sprint(d)), c.want):
						t.Errorf("at %s, the %s is refused without saying %q: %v", at, w.resourceType, c.want, d)
					}
				}
			}
		})
	}
}

// TestMoneyGuard_checkBalancesOfBalanceAsset: check_balances compares an
// amount only with a balance of its own asset. A withdrawal whose
// balance_asset names another asset (1 BTC debited from a USD balance of
// 100, which is not 100 times 1 BTC) is refused at plan and at send as
// unjudgeable, naming both assets; one whose balance_asset is its own
// asset is compared with that balance, and counted with the others.
func TestMoneyGuard_checkBalancesOfBalanceAsset(t *testing.T) {
	emu := startCore(t, emulator.Options{})
	emu.SetBalance("prof-1", "USD", "100")
	emu.SetBalance("prof-1", "BTC", "2")
	withdrawal := func(asset, balanceAsset, amount string) guardedMovement {
		a := cryptoWithdrawalArgs{ProfileID: types.StringValue("prof-1"), DestinationAddress: types.StringValue("0xabc"),
			Asset: types.StringValue(asset), CryptoNetwork: types.StringValue("ETHEREUM"), BalanceAsset: types.StringValue(balanceAsset),
			Amount: types.StringValue(amount), Total: types.StringNull(), IdentityID: types.StringNull()}
		return withdrawalMovement(a).guarded("w-"+asset+balanceAsset+amount, "platform_crypto_withdrawal")
	}
	for _, c := range []struct{ asset, balanceAsset, amount string }{
		{"BTC", "USD", "1"},
		{"USDG", "USD", "60"},
	} {
		data := guardRun(t, emu, emulator.DefaultClientID, emulator.DefaultClientSecret, guardOn(settingCheckBalances))
		var d diag.Diagnostics
		guardPlan(t.Context(), data, withdrawal(c.asset, c.balanceAsset, c.amount), &d)
		want := fmt.Sprintf("check_balances: it sends %s %s and debits the %s balance (its balance_asset %q). An "+
			"amount is compared only with a balance of its own asset, and %s and %s are different assets",
			c.amount, c.asset, c.balanceAsset, c.balanceAsset, c.asset, c.balanceAsset)
		got := flatOutput(fmt.Sprint(d))
		if !d.HasError() || !strings.Contains(got, want) || !strings.Contains(got, "Nothing was sent.") {
			t.Errorf("%s %s debited from %s: %v, want an error saying %q", c.amount, c.asset, c.balanceAsset, d, want)
		}
		if d := guardSend(t.Context(), data, withdrawal(c.asset, c.balanceAsset, c.amount)); !d.HasError() ||
			!strings.Contains(flatOutput(fmt.Sprint(d)), want) {
			t.Errorf("%s %s debited from %s at send: %v, want an error saying %q", c.amount, c.asset, c.balanceAsset, d, want)
		}
	}

	// Its own asset as balance_asset: compared with that balance.
	data := guardRun(t, emu, emulator.DefaultClientID, emulator.DefaultClientSecret, guardOn(settingCheckBalances))
	var d diag.Diagnostics
	if guardPlan(t.Context(), data, withdrawal("BTC", "btc", "1.5"), &d); d.HasError() {
		t.Fatalf("1.5 BTC debited from 2 BTC refused: %v", d)
	}
	guardPlan(t.Context(), data, withdrawal("BTC", "BTC", "1"), &d)
	want := "check_balances: profile prof-1 has 2 BTC available; 1.5 BTC is already planned or sent from it in this " +
		"run, and this one asks 1 more (2.5 in all, 0.5 short)."
	if !d.HasError() || !strings.Contains(flatOutput(fmt.Sprint(d)), want) {
		t.Errorf("a second withdrawal debited from BTC: %v, want an error saying %q", d, want)
	}
}

// TestMoneyGuard_checkBalancesAssetListedTwice: a balance answer that
// lists one asset twice refuses the movement, whichever entry comes first.
func TestMoneyGuard_checkBalancesAssetListedTwice(t *testing.T) {
	for _, order := range [][]string{{"1000", "0"}, {"0", "1000"}} {
		g := guardOn(settingCheckBalances)
		_, _ = g.reads.balances.get("prof-1", func() ([]client.ProfileBalance, error) {
			return []client.ProfileBalance{{Asset: "USD", Available: order[0]}, {Asset: "usd", Available: order[1]}}, nil
		})
		var d diag.Diagnostics
		guardPlan(t.Context(), &moneyRun{guard: g}, sharedRefMoves()[0], &d)
		want := "the service lists the balance of USD in profile prof-1 more than once"
		if !d.HasError() || !strings.Contains(fmt.Sprint(d), want) {
			t.Errorf("balances %v: %v, want an error saying %q", order, d, want)
		}
	}
}

// sharedRefBody is a fiat withdrawal and a stablecoin conversion of 600 USD
// each from prof-1, with one ref_id.
var sharedRefBody = usdFiatWithdrawal("payout", "", fmt.Sprintf("%q", testPayeeAccount), `"600"`,
	"  ref_id          = \"payroll-11\"\n") + usdConversion("convert", "600", "  ref_id       = \"payroll-11\"\n")

// TestAccGuards_kindsSharingRefID: through the CLI, a fiat withdrawal and
// a conversion sharing one ref_id are two movements: refused at plan under
// max_run_total and under check_balances, with the figures and without
// one POST; within the guards both are made.
func TestAccGuards_kindsSharingRefID(t *testing.T) {
	t.Parallel()
	emu := startCore(t, emulator.Options{})
	emu.SetBalance("prof-1", "USD", "1000")
	w := newCLIWorkdir(t)
	for _, c := range []struct{ guard, want string }{
		{"max_run_total = { USD = \"1000\" }", "600 USD is already planned or sent in this run by other withdrawals, " +
			"and this one asks 600 more (1200 in all)."},
		{"check_balances = true", "check_balances: profile prof-1 has 1000 USD available; 600 USD is already planned " +
			"or sent from it in this run, and this one asks 600 more (1200 in all, 200 short)."},
	} {
		w.write(emulatorProviderBlock(emu, "  withdrawal_guard {\n    "+c.guard+"\n  }\n"), sharedRefBody)
		emu.Counters.Reset()
		if out := flatOutput(w.mustRun(1, "plan").output()); !strings.Contains(out, c.want) {
			t.Errorf("under %s, the plan does not say %q:\n%s", c.guard, c.want, out)
		}
		for _, key := range []string{fwPostKey, scPostKey} {
			if n := emu.Counters.Requests(key); n != 0 {
				t.Errorf("%d %s after the plan refused under %s, want 0", n, key, c.guard)
			}
		}
	}

	emu.SetBalance("prof-1", "USD", "1200")
	w.write(emulatorProviderBlock(emu, "  withdrawal_guard {\n    max_run_total = { USD = \"1200\" }\n"+
		"    check_balances = true\n  }\n"), sharedRefBody)
	w.mustRun(0, "apply", "-auto-approve")
	if n := emu.Counters.Requests(fwPostKey) + emu.Counters.Requests(scPostKey); n != 2 {
		t.Errorf("%d POSTs of the fiat withdrawal and the conversion, want 2", n)
	}
	if got, _ := emu.Balance("prof-1", "USD"); got != "0" {
		t.Errorf("prof-1 holds %s USD after both, want 0", got)
	}
}
