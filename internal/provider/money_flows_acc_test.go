package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/go-version"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// The money flows through the CLI: each is made once, guarded, follows its
// status, imports, lists and forgets; their actions are guarded at send.

// flowRow is a money flow as its CLI tests drive it: the flow, guard and
// action parts of its fixture.
type flowRow struct {
	// asset is the asset its body moves, over is an amount above the
	// body's (for the guards), kind its money.kind.
	asset, over, kind string
	// settle moves the object id to a later status at the emulator, and
	// says which.
	settle func(emu *emulator.Server, id string) string
	// balance is the profile and asset its body debits; short, a balance
	// that cannot fund the body ("1" when unset).
	balance [2]string
	short   string
	// action declares its action "pay" with the body's arguments and the
	// amount given (HCL expression).
	action func(amount string) string
	// list is whether it has a list resource.
	list bool
}

// flowRows are the money flows, by resource type, each from its fixture.
func flowRows() map[string]flowRow {
	return rowsOf(func(f moneyFixture) (flowRow, bool) {
		if f.flow == nil {
			return flowRow{}, false
		}
		return flowRow{asset: f.guard.asset, over: f.guard.over, kind: f.moves, settle: f.flow.settle,
			balance: f.guard.balance, short: f.guard.short, action: f.action.config, list: f.flow.list}, true
	})
}

// eachFlow runs test, in parallel, for each money flow, through the CLI:
// its type, its row and its fixture's core, with a new emulator and a
// new working directory.
func eachFlow(t *testing.T, test func(t *testing.T, typ string, row flowRow, res moneyResource, emu *emulator.Server, w *cliWorkdir)) {
	t.Parallel()
	rows := flowRows()
	for _, typ := range mapKeys(rows) {
		row, res := rows[typ], moneyRow(t, typ)
		t.Run(res.name, func(t *testing.T) {
			t.Parallel()
			test(t, typ, row, res, startCore(t, emulator.Options{}), newCLIWorkdir(t))
		})
	}
}

// TestAccMoneyFlows: for each money flow, through the CLI: the guard
// refuses it at plan above its asset's cap, with nothing sent; the
// service's insufficient funds record nothing; made once, its manifest
// says what it moved; a refresh follows its status and plans nothing; an
// import by id adopts it with nothing to change; a destroy forgets it.
func TestAccMoneyFlows(t *testing.T) {
	eachFlow(t, func(t *testing.T, _ string, row flowRow, res moneyResource, emu *emulator.Server, w *cliWorkdir) {

		// Above the cap of its asset: refused at plan.
		w.write(emulatorProviderBlock(emu, fmt.Sprintf("  withdrawal_guard {\n    max_amount = { %s = %q }\n  }\n",
			strings.ToLower(row.asset), row.over)), res.body)
		out := flatOutput(w.mustRun(1, "plan").output())
		for _, want := range []string{"Withdrawal guard max_amount refuses this withdrawal",
			fmt.Sprintf("max_amount of %s is %s (withdrawal_guard.max_amount)", row.asset, row.over)} {
			if !strings.Contains(out, want) {
				t.Errorf("the plan does not say %q:\n%s", want, out)
			}
		}

		// The service refuses it for insufficient funds: nothing recorded.
		short := row.short
		if short == "" {
			short = "1"
		}
		emu.SetBalance(row.balance[0], row.balance[1], short)
		w.write(emulatorProviderBlock(emu, ""), res.body)
		out = flatOutput(w.mustRun(1, "apply", "-auto-approve").output())
		if !strings.Contains(out, res.words.title+" refused: insufficient funds") ||
			!strings.Contains(out, "nothing was "+res.words.made+" and nothing is recorded") {
			t.Errorf("the apply does not say the funds are insufficient and nothing was sent:\n%s", out)
		}
		if r := w.run("state", "list"); strings.Contains(r.stdout, res.addr) {
			t.Errorf("a refused %s is in the state:\n%s", res.words.noun, r.stdout)
		}
		emu.SetBalance(row.balance[0], row.balance[1], "1000000")

		// Made once; its manifest says what it moved.
		w.mustRun(0, "apply", "-auto-approve")
		objs := res.list(emu)
		if len(objs) != 1 {
			t.Fatalf("the emulator holds %d objects, want 1", len(objs))
		}
		st := stateOf(t, w, res.addr)
		money, _ := st["money"].(map[string]any)
		if st["id"] != objs[0].ID || money["kind"] != row.kind || money["sends"] != true ||
			money["ref_id"] != objs[0].RefID || money["asset"] != row.asset || money["from_profile_id"] != "prof-1" {
			t.Errorf("state id %v, money %v; want id %s, kind %s, sends, ref_id %s", st["id"], money, objs[0].ID,
				row.kind, objs[0].RefID)
		}

		// A refresh follows its status and plans nothing.
		status := row.settle(emu, objs[0].ID)
		w.mustRun(0, "plan", "-detailed-exitcode")
		w.mustRun(0, "apply", "-refresh-only", "-auto-approve")
		if got := stateOf(t, w, res.addr)["status"]; got != status {
			t.Errorf("status after refresh %v, want %s", got, status)
		}

		// Imported by id elsewhere: adopted with nothing to change.
		imp := newCLIWorkdir(t)
		imp.write(emulatorProviderBlock(emu, ""), res.body)
		imp.mustRun(0, "import", res.addr, objs[0].ID)
		if r := imp.run("plan", "-detailed-exitcode"); r.code != 0 {
			t.Errorf("the plan after the import is not empty (exit %d):\n%s", r.code, r.output())
		}

		// A changed argument plans a replacement, which the plan says
		// makes a NEW one, in the flow's words.
		w.write(emulatorProviderBlock(emu, ""), strings.Replace(res.body, "{\n", "{\n  ref_id = \"flow-replaced\"\n", 1))
		out = flatOutput(w.mustRun(0, "plan").output())
		for _, want := range []string{
			fmt.Sprintf("Changing %s %s a NEW %s", aNoun(res.words.noun), doesVerb(res.words), res.words.noun),
			`Changed: ref_id "` + objs[0].RefID + `" → "flow-replaced".`, "ref_id flow-replaced (configured)",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("the plan of a replacement does not say %q:\n%s", want, out)
			}
		}
		w.write(emulatorProviderBlock(emu, ""), res.body)

		// A destroy forgets it.
		out = flatOutput(w.mustRun(0, "destroy", "-auto-approve").output())
		if !strings.Contains(out, "does not reverse it") {
			t.Errorf("the destroy does not warn that it reverses nothing:\n%s", out)
		}
		if n := res.objects(emu); n != 1 {
			t.Errorf("after the destroy the emulator holds %d objects, want 1", n)
		}
		if n := emu.Counters.Requests(res.post); n != 2 {
			t.Errorf("%d creates, want 2 (the refused one and the one made)", n)
		}
	})
}

// TestAccMoneyFlowActions: each flow's action (Terraform 1.14+) makes one
// object per invocation with its configured ref_id, is judged by the
// guards at send when its amount is known only at apply, and counts with
// the resources toward max_run_total; the conversion's cancel action
// cancels.
func TestAccMoneyFlowActions(t *testing.T) {
	eachFlow(t, func(t *testing.T, typ string, row flowRow, res moneyResource, emu *emulator.Server, w *cliWorkdir) {
		if terraformVersion(t, w.tf).LessThan(version.Must(version.NewVersion("1.14.0"))) {
			t.Skip("actions need Terraform 1.14 or later")
		}
		config := func(amount, extra string) string {
			return fmt.Sprintf(`
resource "terraform_data" "amount" {
  input = %q
}
action %q "pay" {
  config {
    %s
    %s
  }
}
`, amount, typ, row.action("terraform_data.amount.output"), extra) +
				actionTrigger("trigger", "  input      = \"go\"\n  depends_on = [terraform_data.amount]\n", "action."+typ+".pay")
		}
		// Known only at apply, above max_amount: refused at send.
		w.write(emulatorProviderBlock(emu, fmt.Sprintf("  withdrawal_guard {\n    max_amount = { %s = \"10\" }\n  }\n", row.asset)),
			config("50", ""))
		out := flatOutput(w.mustRun(1, "apply", "-auto-approve").output())
		if want := "Withdrawal guard max_amount refuses this withdrawal at send"; !strings.Contains(out, want) {
			t.Errorf("the apply does not say %q:\n%s", want, out)
		}
		if n := emu.Counters.Requests(res.post); n != 0 {
			t.Fatalf("%d creates after the refused invocation, want 0", n)
		}

		// The resource's 6 and the action's 6 are 12 over 10: the
		// second is refused at send.
		w = newCLIWorkdir(t)
		body := strings.Replace(res.body, `amount`, `amount = terraform_data.amount.output
  # amount`, 1)
		w.write(emulatorProviderBlock(emu, fmt.Sprintf("  withdrawal_guard {\n    max_run_total = { %s = \"10\" }\n  }\n", row.asset)),
			config("6", "")+body)
		out = flatOutput(w.mustRun(1, "apply", "-auto-approve").output())
		if want := "(12 in all)"; !strings.Contains(out, want) {
			t.Errorf("the apply does not say %q:\n%s", want, out)
		}
		if n := emu.Counters.Requests(res.post); n != 1 {
			t.Errorf("%d creates, want 1 (the second is over max_run_total at send)", n)
		}

		// With a configured ref_id, invoking twice makes one.
		w = newCLIWorkdir(t)
		w.write(emulatorProviderBlock(emu, ""), config("7", `ref_id = "payout-2026-11"`))
		w.mustRun(0, "apply", "-auto-approve")
		w.mustRun(0, "apply", "-auto-approve", "-invoke=action."+typ+".pay")
		made := 0
		for _, o := range res.list(emu) {
			if o.RefID == "payout-2026-11" {
				made++
			}
		}
		if made != 1 {
			t.Errorf("%d objects with the configured ref_id after two invocations, want 1", made)
		}
		if typ != "platform_stablecoin_conversion" {
			return
		}
		id := ""
		for _, o := range res.list(emu) {
			if o.RefID == "payout-2026-11" {
				id = o.ID
			}
		}
		w.write(emulatorProviderBlock(emu, ""), fmt.Sprintf(`
action "platform_stablecoin_conversion_cancel" "undo" {
  config {
    id = %q
  }
}
`, id))
		out = flatOutput(w.mustRun(0, "apply", "-auto-approve", "-invoke=action.platform_stablecoin_conversion_cancel.undo").output())
		if !strings.Contains(out, "status CANCELLED") {
			t.Errorf("the cancel does not report the status CANCELLED:\n%s", out)
		}
		for _, c := range emu.MadeStablecoinConversions() {
			if c.ID == id && c.Status != emulator.ConversionCancelled {
				t.Errorf("conversion %s has status %s after the cancel, want CANCELLED", id, c.Status)
			}
		}
	})
}

// TestAccMoneyFlows_query: terraform query finds the fiat withdrawals and
// the internal transfers made elsewhere, of their type only, and the
// configuration it generates imports them with nothing sent.
func TestAccMoneyFlows_query(t *testing.T) {
	t.Parallel()
	emu := startCore(t, emulator.Options{})
	w := queryWorkdir(t)
	c := emulatorClient(t, emu)
	if _, err := c.CreateFiatWithdrawal(t.Context(), client.FiatWithdrawalRequest{ProfileID: "prof-1",
		FiatAccountID: testPayeeAccount, Asset: "USD", Amount: "12.5", RefID: "queried-fw"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateInternalTransfer(t.Context(), client.InternalTransferRequest{FromProfileID: "prof-1",
		ToProfileID: "prof-2", Asset: "USD", Amount: "7", RefID: "queried-it"}); err != nil {
		t.Fatal(err)
	}
	w.write(emulatorProviderBlock(emu, ""), "")
	writeQuery(t, w, listAll("platform_fiat_withdrawal", "platform_internal_transfer"))
	r := w.mustRun(0, "query")
	for _, want := range []string{"ref_id queried-fw", "ref_id queried-it"} {
		if !strings.Contains(r.output(), want) {
			t.Errorf("query output lacks %q:\n%s", want, r.output())
		}
	}
	if got := strings.Count(r.output(), "list.platform_internal_transfer.all"); got != 1 {
		t.Errorf("query lists %d internal transfers, want 1 (the debit side):\n%s", got, r.output())
	}
	w.mustRun(0, "query", "-generate-config-out=generated.tf")
	r = w.mustRun(0, "apply", "-auto-approve")
	if want := "2 imported, 0 added, 0 changed, 0 destroyed"; !strings.Contains(r.output(), want) {
		t.Errorf("apply of the generated configuration: want %q:\n%s", want, r.output())
	}
	w.mustRun(0, "plan", "-detailed-exitcode")
	if n := emu.Counters.Requests(fwPostKey) + emu.Counters.Requests(itPostKey); n != 2 {
		t.Errorf("%d creates, want the 2 made before the query", n)
	}
}

// TestAccFiatWithdrawal_accountApproval: a fiat withdrawal to an account
// the service has not approved is refused at plan, with nothing sent: one
// this plan creates, one this configuration manages that is PENDING, and,
// under approved_destinations_only, one the service shows PENDING; once
// the review approves the account, the same withdrawal is sent once.
func TestAccFiatWithdrawal_accountApproval(t *testing.T) {
	t.Parallel()
	emu := startCore(t, emulator.Options{})
	w := newCLIWorkdir(t)
	withdrawal := func(account string) string {
		return `
resource "platform_fiat_withdrawal" "pay" {
  profile_id      = "prof-1"
  fiat_account_id = ` + account + `
  asset           = "USD"
  amount          = "250"
}
`
	}
	w.write(emulatorProviderBlock(emu, ""), faBody+withdrawal("platform_fiat_account.test.id"))
	out := flatOutput(w.mustRun(1, "plan").output())
	if want := "Fiat account not approved yet"; !strings.Contains(out, want) {
		t.Errorf("the plan of a withdrawal to a new account does not say %q:\n%s", want, out)
	}

	// The account applied alone is PENDING review: still refused.
	w.mustRun(0, "apply", "-auto-approve", "-target=platform_fiat_account.test")
	account, _ := stateOf(t, w, "platform_fiat_account.test")["id"].(string)
	out = flatOutput(w.mustRun(1, "plan").output())
	for _, want := range []string{"Fiat account not approved",
		"goes to the fiat account " + account + ", which this configuration manages and whose status is PENDING"} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan of a withdrawal to a PENDING account does not say %q:\n%s", want, out)
		}
	}

	// Under approved_destinations_only, an account of another
	// configuration the service shows PENDING is refused too.
	other := newCLIWorkdir(t)
	other.write(emulatorProviderBlock(emu, "  withdrawal_guard {\n    approved_destinations_only = true\n  }\n"),
		withdrawal(fmt.Sprintf("%q", account)))
	out = flatOutput(other.mustRun(1, "plan").output())
	if want := "approved_destinations_only: the fiat account " + account + " is PENDING at the service, not APPROVED"; !strings.Contains(out, want) {
		t.Errorf("the guarded plan does not say %q:\n%s", want, out)
	}
	if n := emu.Counters.Requests(fwPostKey); n != 0 {
		t.Fatalf("%d fiat withdrawals sent to an account not approved, want 0", n)
	}

	// Approved by the review: sent once, by both ways.
	if !emu.SetFiatAccountStatus(account, "APPROVED") {
		t.Fatalf("no fiat account %s at the emulator", account)
	}
	w.mustRun(0, "apply", "-auto-approve")
	w.mustRun(0, "plan", "-detailed-exitcode")
	other.mustRun(0, "plan")
	if n := len(emu.TransfersOfType(client.FiatWithdrawalTransferTypes...)); n != 1 {
		t.Errorf("the emulator holds %d fiat withdrawals, want 1", n)
	}
}
