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
const payroll = `
resource "platform_fiat_withdrawal" "salary" {
  for_each        = { alice = "100", bob = "100" }
  profile_id      = "prof-1"
  fiat_account_id = "` + testPayeeAccount + `"
  asset           = "USD"
  amount          = each.value
  ref_id          = "payroll-2026-11-${each.key}"
}

resource "platform_internal_transfer" "savings" {
  from_profile_id = "prof-1"
  to_profile_id   = "prof-2"
  asset           = "USD"
  amount          = "100"
}
`

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
func TestWithdrawalGuard_checkBalancesFailsClosed(t *testing.T) {
	emu := startCore(t, emulator.Options{Clients: map[string]emulator.ClientCredentials{
		"no-balances":            {Secret: "s", Scopes: []string{client.ScopeWriteFiatWithdrawal}},
		emulator.DefaultClientID: {Secret: emulator.DefaultClientSecret},
	}})
	emu.SetBalance("prof-1", "USD", "1000")
	move := func(profile, asset string) guardedWithdrawal {
		return fiatWithdrawalArgs{ProfileID: types.StringValue(profile), Asset: types.StringValue(asset),
			Amount: types.StringValue("10"), FiatAccountID: types.StringValue(testPayeeAccount)}.
			moves().guarded(profile+asset, profile+asset, "platform_fiat_withdrawal")
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
			data := guardData(t, emu, c.clientID, c.secret, &withdrawalGuard{checkBalances: true})
			var d diag.Diagnostics
			guardWithdrawal(t.Context(), data, move(c.profile, c.asset), &d)
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

// guardData is the provider data of a guard g whose client has the given
// credentials at emu.
func guardData(t *testing.T, emu *emulator.Server, clientID, secret string, g *withdrawalGuard) *providerData {
	t.Helper()
	c, err := client.New(client.Config{ClientID: clientID, ClientSecret: secret, BaseURL: emu.BaseURL(),
		AuthURL: emu.AuthURL(), MaxRetries: 0})
	if err != nil {
		t.Fatal(err)
	}
	return &providerData{client: c, guard: g}
}

// TestAccProfileBalances_read: the data source reads a profile's balances
// as the exact decimal strings the service answered, and none for a
// profile that holds nothing.
func TestAccProfileBalances_read(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	env.needEmulator(t)
	env.emu.SetBalance("prof-1", "USD", "12.50")
	env.emu.SetBalance("prof-1", "btc", "0.00000001")
	balance := func(asset, available string) knownvalue.Check {
		return knownvalue.ObjectExact(map[string]knownvalue.Check{"asset": knownvalue.StringExact(asset),
			"available": knownvalue.StringExact(available), "trading": knownvalue.StringExact("0")})
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
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
		}},
	})
}
