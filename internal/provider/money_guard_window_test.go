package provider

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// fiatPayout is a fiat withdrawal of amount USD from prof-1 to the payee's
// approved account, as the guard sees it.
func fiatPayout(amount, ref string) guardedMovement {
	return fiatWithdrawalArgs{ProfileID: types.StringValue("prof-1"), Asset: types.StringValue("USD"),
		Amount: types.StringValue(amount), FiatAccountID: types.StringValue(testPayeeAccount)}.
		moves().guarded(ref, "platform_fiat_withdrawal")
}

// TestMoneyGuard_windowTotals: max_daily_total counts what left the profile
// in the last 24 hours by the service's record (a fiat withdrawal, an
// internal transfer out, a conversion by its source asset; not a FAILED
// transfer, a transfer in or a cancelled conversion), what the run sends
// besides, and the movement; max_weekly_total the last 7 days. A retry of
// a movement the service already holds counts it once. What cannot be
// read refuses.
func TestMoneyGuard_windowTotals(t *testing.T) {
	emu := startCore(t, emulator.Options{Clients: map[string]emulator.ClientCredentials{
		"no-transfers":           {Secret: "s", Scopes: []string{client.ScopeWriteFiatWithdrawal}},
		emulator.DefaultClientID: {Secret: emulator.DefaultClientSecret},
	}})
	emu.SetBalance("prof-1", "USD", "100000")
	c := emulatorClient(t, emu)
	ctx := t.Context()
	payout := func(amount, ref string) *client.Transfer {
		tr, err := c.CreateFiatWithdrawal(ctx, client.FiatWithdrawalRequest{ProfileID: "prof-1",
			FiatAccountID: testPayeeAccount, Asset: "USD", Amount: amount, RefID: ref})
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	first := payout("400", "window-1")
	failed := payout("5000", "window-failed")
	if !emu.SetTransferStatus(failed.ID, client.TransferStatusFailed, "") {
		t.Fatal("no failed transfer")
	}
	if _, err := c.CreateInternalTransfer(ctx, client.InternalTransferRequest{FromProfileID: "prof-1",
		ToProfileID: "prof-2", Asset: "USD", Amount: "100", RefID: "window-it"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateStablecoinConversion(ctx, client.StablecoinConversionRequest{ProfileID: "prof-1",
		SourceAsset: "USD", TargetAsset: "USDC", Amount: "50", RefID: "window-conv"}); err != nil {
		t.Fatal(err)
	}
	old := payout("700", "window-old")
	if !emu.BackdateTransfer(old.ID, 3*24*time.Hour) {
		t.Fatal("no old transfer")
	}
	// 400 + 100 + 50 in the last day, 700 more in the week.
	judge := func(g *moneyGuard, clientID, secret string, w guardedMovement) string {
		data := guardRun(t, emu, clientID, secret, g)
		var diags diag.Diagnostics
		guardPlan(ctx, data, w, &diags)
		return flatOutput(fmt.Sprint(diags))
	}
	daily := func(limit string) *moneyGuard {
		return guardCapped(settingMaxDailyTotal, map[string]string{"USD": limit})
	}
	weekly := func(limit string) *moneyGuard {
		return guardCapped(settingMaxWeeklyTotal, map[string]string{"usd": limit})
	}
	for _, tc := range []struct {
		name, clientID string
		g              *moneyGuard
		w              guardedMovement
		want           string
	}{
		{"within the day", emulator.DefaultClientID, daily("1000"), fiatPayout("450", "new-1"), ""},
		{"over the day", emulator.DefaultClientID, daily("1000"), fiatPayout("451", "new-2"),
			"max_daily_total of USD is 1000 (max_daily_total); 550 USD left profile prof-1 in the last 24 hours by the " +
				"service's record (3 movements since"},
		{"the figures", emulator.DefaultClientID, daily("1000"), fiatPayout("451", "new-3"),
			"0 USD is planned or sent from it in this run by other movements, and this one asks 451 more (1001 in all)"},
		{"within the week", emulator.DefaultClientID, weekly("1700"), fiatPayout("450", "new-4"), ""},
		{"over the week", emulator.DefaultClientID, weekly("1700"), fiatPayout("451", "new-5"),
			"1250 USD left profile prof-1 in the last 7 days"},
		{"a retry of what the service holds counts once", emulator.DefaultClientID, daily("550"),
			fiatPayout("400", "window-1"), ""},
		{"unreadable", "no-transfers", daily("1000"), fiatPayout("1", "new-6"),
			"max_daily_total: what left profile prof-1 in the last 24 hours could not be read, and the guard does not count it as nothing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			secret := emulator.DefaultClientSecret
			if tc.clientID != emulator.DefaultClientID {
				secret = "s"
			}
			got := judge(tc.g, tc.clientID, secret, tc.w)
			switch {
			case tc.want == "" && got != "[]":
				t.Errorf("refused: %s", got)
			case tc.want != "" && !strings.Contains(got, tc.want):
				t.Errorf("says %s, want %q", got, tc.want)
			}
		})
	}
	_ = first

	// At send, the record is read again: what left since the plan counts.
	data := guardRun(t, emu, emulator.DefaultClientID, emulator.DefaultClientSecret, daily("1000"))
	var planned diag.Diagnostics
	guardPlan(ctx, data, fiatPayout("400", "send-1"), &planned)
	if planned.HasError() {
		t.Fatalf("the plan of 400 is refused: %v", planned)
	}
	payout("100", "in-between")
	if got := flatOutput(fmt.Sprint(guardSend(ctx, data, fiatPayout("400", "send-1")))); !strings.Contains(got,
		"650 USD left profile prof-1 in the last 24 hours") || !strings.Contains(got, "(1050 in all)") {
		t.Errorf("at send, after 100 more left the profile: %s", got)
	}
}

// dailyPayout is a configuration of one fiat payout of amount USD from
// prof-1 under a max_daily_total of 1000 USD.
func dailyPayout(emu *emulator.Server, name, amount string) (string, string) {
	return emulatorProviderBlock(emu, "  withdrawal_guard {\n    max_daily_total = { USD = \"1000\" }\n  }\n"),
		fmt.Sprintf(`
resource "platform_fiat_withdrawal" %q {
  profile_id      = "prof-1"
  fiat_account_id = %q
  asset           = "USD"
  amount          = %q
}
`, name, testPayeeAccount, amount)
}

// TestAccMaxDailyTotal: under max_daily_total = { USD = "1000" }, a payout
// of 600 applies; a second configuration (its own state) paying 500 from
// the same profile is refused at plan with the figures and sends nothing;
// the same 500 applies once the first is backdated two days; a saved plan
// made within the cap is refused at apply when another payout left the
// profile in between. Under Terraform 1.11, 1.15 and OpenTofu
// (registry.CLITests).
func TestAccMaxDailyTotal(t *testing.T) {
	t.Parallel()
	emu := startCore(t, emulator.Options{})
	emu.SetBalance("prof-1", "USD", "100000")
	first, second, third := newCLIWorkdir(t), newCLIWorkdir(t), newCLIWorkdir(t)
	first.write(dailyPayout(emu, "rent", "600"))
	first.mustRun(0, "apply", "-auto-approve")
	made := emu.TransfersOfType(client.FiatWithdrawalTransferTypes...)
	if len(made) != 1 {
		t.Fatalf("%d fiat withdrawals after the first payout, want 1", len(made))
	}

	second.write(dailyPayout(emu, "bonus", "500"))
	posts := emu.Counters.Requests(fwPostKey)
	out := flatOutput(second.mustRun(1, "plan").output())
	for _, want := range []string{"Withdrawal guard max_daily_total refuses this withdrawal",
		"max_daily_total of USD is 1000 (withdrawal_guard.max_daily_total); 600 USD left profile prof-1 in the last 24 hours by the service's record (1 movement since",
		"and this one asks 500 more (1100 in all)"} {
		if !strings.Contains(out, want) {
			t.Errorf("the second configuration's plan does not say %q:\n%s", want, out)
		}
	}
	if n := emu.Counters.Requests(fwPostKey) - posts; n != 0 {
		t.Errorf("%d fiat withdrawals sent by the refused plan, want 0", n)
	}

	if !emu.BackdateTransfer(made[0].ID, 48*time.Hour) {
		t.Fatal("the first payout cannot be backdated")
	}
	second.mustRun(0, "apply", "-auto-approve")

	// Within the cap at plan (500 + 400), over it at send once another
	// payout of 200 left the profile in between.
	third.write(dailyPayout(emu, "fees", "400"))
	third.mustRun(0, "plan", "-out=fees.tfplan")
	if _, err := emulatorClient(t, emu).CreateFiatWithdrawal(t.Context(), client.FiatWithdrawalRequest{ProfileID: "prof-1",
		FiatAccountID: testPayeeAccount, Asset: "USD", Amount: "200", RefID: "elsewhere-1"}); err != nil {
		t.Fatal(err)
	}
	posts = emu.Counters.Requests(fwPostKey)
	out = flatOutput(third.mustRun(1, "apply", "fees.tfplan").output())
	for _, want := range []string{"Withdrawal guard max_daily_total refuses this withdrawal",
		"700 USD left profile prof-1 in the last 24 hours", "(1100 in all)"} {
		if !strings.Contains(out, want) {
			t.Errorf("the apply of the saved plan does not say %q:\n%s", want, out)
		}
	}
	if n := emu.Counters.Requests(fwPostKey) - posts; n != 0 {
		t.Errorf("%d fiat withdrawals sent by the refused apply, want 0", n)
	}
}
