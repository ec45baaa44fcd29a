package provider

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// TestAccFiatWithdrawal_summaryNamesAccount: the money.summary of a fiat
// withdrawal names its account as the service lists it (bank, last four
// digits, nickname, ref_id) and says that applying sends it; the plan of a
// payroll of many withdrawals to as many accounts reads them in one list
// request (and one more for the account the list does not hold); an account the service does not list, or credentials without
// the scope to list them, leave the id and say why, and the plan goes on;
// a saved destroy plan shows that destroying reverses nothing; and an
// object whose state holds the summary of the previous version plans no
// change.
func TestAccFiatWithdrawal_summaryNamesAccount(t *testing.T) {
	t.Parallel()
	const n = 100
	emu := emulatorWithout(t, emulator.Options{}, client.ScopeReadFiatAccount)
	c := emulatorClient(t, emu)
	s := func(v string) *string { return &v }
	accounts := make([]string, n)
	for i := range n {
		a, err := c.CreateFiatAccount(t.Context(), client.CreateFiatAccountRequest{
			RefID: fmt.Sprintf("payee-%d", i),
			FiatAccountOwner: client.FiatAccountOwner{PersonDetails: &client.PersonDetails{
				FirstName: s("Payee"), LastName: s(fmt.Sprint(i))}},
			FiatNetworkInstructions: client.FiatNetworkInstructions{Wire: &client.WireInstructions{
				AccountNumber:           s(fmt.Sprintf("98765432%04d", i)),
				FiatAccountOwnerAddress: &client.Address{Country: s("USA"), City: s("New York")},
				RoutingDetails: &client.RoutingDetails{RoutingNumberType: s("ABA"), RoutingNumber: s("031302971"),
					BankName: s(fmt.Sprintf("Bank %d", i%7)), BankAddress: &client.Address{Country: s("USA")}},
			}},
			Metadata: map[string]string{"nickname": fmt.Sprintf("Payroll %d", i)},
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		accounts[i] = deref(a.ID)
		emu.SetFiatAccountStatus(accounts[i], "APPROVED")
	}
	const unknownAccount = "0c0ffee0-0000-4000-8000-0000000000ff"
	body := fmt.Sprintf(`
variable "accounts" { type = list(string) }

resource "platform_fiat_withdrawal" "payroll" {
  count           = length(var.accounts)
  profile_id      = "prof-1"
  fiat_account_id = var.accounts[count.index]
  asset           = "USD"
  amount          = "10.${count.index}"
}

resource "platform_fiat_withdrawal" "stranger" {
  profile_id      = "prof-1"
  fiat_account_id = %q
  asset           = "USD"
  amount          = "1"
}
`, unknownAccount)
	vars, _ := json.Marshal(map[string]any{"accounts": accounts})

	w := newCLIWorkdir(t)
	w.write(emulatorProviderBlock(emu, ""), body)
	if err := os.WriteFile(filepath.Join(w.dir, "terraform.tfvars.json"), vars, 0o600); err != nil {
		t.Fatal(err)
	}
	before := emu.Counters.AllRequests()
	w.mustRun(0, "plan", "-parallelism=30", "-out=payroll.tfplan")
	got := requestsSince(emu, before)
	// One list of the customer's accounts, and the read by id of the one
	// it does not hold.
	if got[listFiatAccountsKey] != 2 {
		t.Errorf("the plan of %d withdrawals to %d accounts listed the fiat accounts in %d requests, want 2 (%v)",
			n+1, n+1, got[listFiatAccountsKey], got)
	}
	for k, v := range got {
		if strings.HasPrefix(k, "GET /v2"+client.PathFiatAccounts+"/") {
			t.Errorf("the plan read a fiat account by id: %d %s", v, k)
		}
	}
	planned := plannedMoneys(t, w, "payroll.tfplan")
	for i, id := range accounts {
		m := planned[fmt.Sprintf("platform_fiat_withdrawal.payroll[%d]", i)]
		want := fmt.Sprintf(`sends 10.%d USD to fiat account %s (Bank %d, account ending %04d, nickname "Payroll %d", `+
			`ref_id payee-%d) from profile prof-1, ref_id %s; destroying it reverses nothing`, i, id, i%7, i, i, i, m["ref_id"])
		if m["summary"] != want {
			t.Errorf("payroll[%d]: summary %q, want %q", i, m["summary"], want)
		}
		if m["to"] != id {
			t.Errorf("payroll[%d]: money.to %v, want the account id %s", i, m["to"], id)
		}
	}
	if s, _ := planned["platform_fiat_withdrawal.stranger"]["summary"].(string); !strings.HasPrefix(s,
		"sends 1 USD to fiat account "+unknownAccount+" (not listed by the service) from profile prof-1") {
		t.Errorf("stranger: summary %q, want the account not listed", s)
	}
	out := w.mustRun(0, "show", "payroll.tfplan").output()
	mustContain(t, "show", out, `(Bank 3, account ending 0003, nickname \"Payroll 3\", ref_id payee-3)`)

	// Without the scope to list fiat accounts, the summary says so, and
	// the plan goes on.
	blind := newCLIWorkdir(t)
	blind.write(emulatorProviderBlockFor(emu, readOnlyTransfersClient, "s3", ""), fwBody)
	blind.mustRun(0, "plan", "-out=blind.tfplan")
	if s, _ := plannedMoney(t, blind, "blind.tfplan", "platform_fiat_withdrawal.payout")["summary"].(string); !strings.HasPrefix(s,
		"sends 1250.5 USD to fiat account "+testPayeeAccount+" (not read: the credentials lack the OAuth scope "+
			client.ScopeReadFiatAccount+") from profile prof-1, ref_id ") {
		t.Errorf("summary without the scope: %q", s)
	}

	// Applied, then destroyed by a saved plan: the plan shows, from the
	// state, that destroying reverses nothing.
	one := newCLIWorkdir(t)
	one.write(emulatorProviderBlock(emu, ""), fwBody)
	one.mustRun(0, "apply", "-auto-approve")
	summary, _ := stateOf(t, one, "platform_fiat_withdrawal.payout")["money"].(map[string]any)["summary"].(string)
	if !strings.HasPrefix(summary, "sends 1250.5 USD to fiat account "+testPayeeAccount+
		" (Example Bank, account ending 6789) from profile prof-1, ref_id ") ||
		!strings.HasSuffix(summary, "; destroying it reverses nothing") {
		t.Errorf("summary in state: %q", summary)
	}
	one.mustRun(0, "plan", "-destroy", "-out=destroy.tfplan")
	out = one.mustRun(0, "show", "-no-color", "destroy.tfplan").output()
	mustContain(t, "show of the saved destroy plan", out, "will be destroyed", "destroying it reverses nothing", summary)

	// A state written by the previous version holds its summary, without
	// what applying and destroying do: it plans no change, and keeps it.
	old := strings.TrimSuffix(strings.TrimPrefix(summary, "sends "), "; destroying it reverses nothing")
	old = strings.Replace(old, " (Example Bank, account ending 6789)", "", 1)
	path := filepath.Join(one.dir, "terraform.tfstate")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	quoted, _ := json.Marshal(summary)
	oldQuoted, _ := json.Marshal(old)
	if !strings.Contains(string(b), string(quoted)) {
		t.Fatalf("the state does not hold the summary %s", quoted)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), string(quoted), string(oldQuoted), 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	one.mustRun(0, "plan", "-detailed-exitcode")
	one.mustRun(0, "apply", "-auto-approve")
	if got, _ := stateOf(t, one, "platform_fiat_withdrawal.payout")["money"].(map[string]any)["summary"].(string); got != old {
		t.Errorf("summary after the upgrade's refresh: %q, want the previous version's %q", got, old)
	}
	if n := emu.Counters.Requests(fwPostKey); n != 1 {
		t.Errorf("%d fiat withdrawals sent, want 1", n)
	}
}

// plannedMoneys are the planned money manifests of a saved plan, by
// address.
func plannedMoneys(t *testing.T, w *cliWorkdir, planFile string) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for addr, after := range plannedValues(t, w, planFile) {
		m, _ := after["money"].(map[string]any)
		out[addr] = m
	}
	return out
}
