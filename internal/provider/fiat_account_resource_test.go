package provider

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

const (
	faPostKey = "POST /v2/transfer/fiat-accounts"
	// faSecret is the account number of the tests: it must never appear
	// in a plan, a log or an error.
	faSecret = "987654321012"
)

// faConfig declares one wire account of owner (an HCL object) with bank
// name bank, and extra lines.
func faConfig(owner, bank, extra string) string {
	return fmt.Sprintf(`
resource "platform_fiat_account" "test" {
  fiat_account_owner = %s
  fiat_network_instructions = {
    wire = {
      account_number             = %q
      fiat_account_owner_address = { country = "USA", city = "New York" }
      routing_details = {
        routing_number_type = "ABA"
        routing_number      = "031302971"
        bank_name           = %q
        bank_address        = { country = "USA" }
      }
    }
  }
%s
}
`, owner, faSecret, bank, extra)
}

const (
	faPerson      = `{ person_details = { first_name = "Ada", last_name = "Lovelace" } }`
	faInstitution = `{ institution_details = { name = "Analytical Engines Ltd" } }`
)

// faBody is the configuration of the core suite's row.
var faBody = faConfig(faPerson, "Customers Bank", `  metadata = { purpose = "core" }`)

// TestAccFiatAccount_lifecycle drives one account through the CLI: create,
// a refresh after the review approved it, an in-place update that warns it
// goes back to review, a replacement when the owner's kind changes, the
// list data source, and destroy; with the account number never in a plan,
// a TRACE log or an error.
func TestAccFiatAccount_lifecycle(t *testing.T) {
	t.Parallel()
	emu := emulator.StartTest(t, emulator.Options{})
	w := newCLIWorkdir(t)
	logPath := filepath.Join(t.TempDir(), "trace.log")
	w.env = append(w.env, "TF_LOG=TRACE", "TF_LOG_PATH="+logPath)
	noSecret := func(what, text string) {
		t.Helper()
		if strings.Contains(text, faSecret) {
			t.Errorf("the account number appears in %s", what)
		}
	}
	prov := emulatorProviderBlock(emu, "")

	w.write(prov, faConfig(faPerson, "Customers Bank", `  metadata = { purpose = "payroll" }`))
	r := w.mustRun(0, "apply", "-auto-approve")
	noSecret("the create's output", r.output())
	made := emu.MadeFiatAccounts()
	if len(made) != 1 || emu.Counters.Requests(faPostKey) != 1 {
		t.Fatalf("%d accounts and %d creates at the emulator, want 1 and 1", len(made), emu.Counters.Requests(faPostKey))
	}
	a := made[0]
	if got := a.FiatNetworkInstructions.Wire.AccountNumber; got != faSecret {
		t.Errorf("the emulator holds account number %q", got)
	}
	st := stateOf(t, w, "platform_fiat_account.test")
	if st["id"] != a.ID || st["status"] != "PENDING" || st["ref_id"] != *a.RefID || st["metadata"].(map[string]any)["purpose"] != "payroll" {
		t.Errorf("state after create: id %v status %v ref_id %v metadata %v; emulator id %s ref_id %s",
			st["id"], st["status"], st["ref_id"], st["metadata"], a.ID, *a.RefID)
	}

	// The review approves it: the refresh records the status, no change.
	if !emu.SetFiatAccountStatus(a.ID, "APPROVED") {
		t.Fatal("approving the account failed")
	}
	w.mustRun(0, "apply", "-refresh-only", "-auto-approve")
	if st := stateOf(t, w, "platform_fiat_account.test"); st["status"] != "APPROVED" {
		t.Errorf("status after approval: %v, want APPROVED", st["status"])
	}
	w.mustRun(0, "plan", "-detailed-exitcode")

	// An in-place update: one PUT, a warning naming the account, PENDING.
	w.write(prov, faConfig(faPerson, "Customers Bank NA", `  metadata = { purpose = "payroll" }`))
	r = w.mustRun(0, "plan")
	mustContain(t, "update plan", r.output(), "sends it back to review", a.ID, "owner Ada Lovelace", "update in-place")
	noSecret("the update's plan", r.output())
	r = w.mustRun(0, "apply", "-auto-approve")
	noSecret("the update's output", r.output())
	if n := emu.Counters.Requests("PUT /v2/transfer/fiat-accounts/" + a.ID); n != 1 {
		t.Errorf("%d PUTs, want 1", n)
	}
	if got := emu.MadeFiatAccounts()[0]; got.Status != "PENDING" || got.FiatNetworkInstructions.Wire.RoutingDetails.BankName != "Customers Bank NA" {
		t.Errorf("after the update the emulator holds status %s, bank %s", got.Status, got.FiatNetworkInstructions.Wire.RoutingDetails.BankName)
	}
	if st := stateOf(t, w, "platform_fiat_account.test"); st["status"] != "PENDING" || st["id"] != a.ID {
		t.Errorf("state after update: status %v id %v", st["status"], st["id"])
	}

	// The data source sees it (masked, as the list shows it).
	w.write(prov, faConfig(faPerson, "Customers Bank NA", `  metadata = { purpose = "payroll" }`)+`
data "platform_fiat_accounts" "mine" {
  ids = [platform_fiat_account.test.id]
}
output "listed" {
  value = [for i in data.platform_fiat_accounts.mine.items : "${i.id} ${i.fiat_network_instructions.wire.account_number}"]
}
`)
	w.mustRun(0, "apply", "-auto-approve")
	r = w.mustRun(0, "output", "-json", "listed")
	mustContain(t, "listed", r.output(), a.ID+" XXXX1012")

	// The owner's kind changes: one DELETE and one POST.
	w.write(prov, faConfig(faInstitution, "Customers Bank NA", `  metadata = { purpose = "payroll" }`))
	r = w.mustRun(0, "apply", "-auto-approve")
	mustContain(t, "replacement", r.output(), "must be replaced")
	noSecret("the replacement's output", r.output())
	if d, p := emu.Counters.Requests("DELETE /v2/transfer/fiat-accounts/"+a.ID), emu.Counters.Requests(faPostKey); d != 1 || p != 2 {
		t.Errorf("%d DELETEs of the old account and %d creates in all, want 1 and 2", d, p)
	}
	if n := emu.LiveFiatAccounts(); n != 1 {
		t.Errorf("%d live accounts after the replacement, want 1", n)
	}
	second := stateOf(t, w, "platform_fiat_account.test")["id"]

	// Destroy deletes it.
	r = w.mustRun(0, "destroy", "-auto-approve")
	noSecret("the destroy's output", r.output())
	if n := emu.LiveFiatAccounts(); n != 0 {
		t.Errorf("%d live accounts after destroy, want 0", n)
	}
	if n := emu.Counters.Requests(fmt.Sprintf("DELETE /v2/transfer/fiat-accounts/%s", second)); n != 1 {
		t.Errorf("%d DELETEs of the second account, want 1", n)
	}
	logs, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(logs), "/transfer/fiat-accounts") {
		t.Fatal("the TRACE log holds no request: it cannot show that the number stays out")
	}
	noSecret("the TRACE log", string(logs))
}

// TestAccFiatAccount_importAndErrors imports an account by id (the
// arguments read from GET, full account number included) and checks that
// an error of the service that quotes the account number does not show it.
func TestAccFiatAccount_importAndErrors(t *testing.T) {
	t.Parallel()
	emu, first := emulatorWorkdir(t, "", faBody)
	first.mustRun(0, "apply", "-auto-approve")
	id := emu.MadeFiatAccounts()[0].ID

	w := newCLIWorkdir(t)
	w.write(emulatorProviderBlock(emu, ""), faBody+fmt.Sprintf("\nimport {\n  to = platform_fiat_account.test\n  id = %q\n}\n", id))
	r := w.mustRun(0, "plan")
	mustContain(t, "import plan", r.output(), "1 to import, 0 to add, 0 to change, 0 to destroy")
	w.mustRun(0, "apply", "-auto-approve")
	w.mustRun(0, "plan", "-detailed-exitcode")
	st := stateOf(t, w, "platform_fiat_account.test")
	if st["id"] != id || st["status"] != "PENDING" {
		t.Errorf("imported state: id %v status %v", st["id"], st["status"])
	}
	wire := st["fiat_network_instructions"].(map[string]any)["wire"].(map[string]any)
	if wire["account_number"] != faSecret {
		t.Errorf("imported account number is not the full one")
	}
	if n := emu.Counters.Requests(faPostKey); n != 1 {
		t.Errorf("%d creates, want only the first", n)
	}

}

// The answer checks never quote an account or routing number: a create
// answered with other numbers is refused with the fields named, not shown.
func TestFiatAccountDifferencesHideNumbers(t *testing.T) {
	req := client.CreateFiatAccountRequest{RefID: "r", FiatNetworkInstructions: client.FiatNetworkInstructions{
		Wire: &client.WireInstructions{AccountNumber: faPtr(faSecret), RoutingDetails: &client.RoutingDetails{
			RoutingNumber: faPtr("031302971"), BankName: faPtr("B")}},
	}}
	answered := &client.FiatAccount{ID: faPtr("a-1"), RefID: faPtr("r"), FiatNetworkInstructions: &client.FiatNetworkInstructions{
		Wire: &client.WireInstructions{AccountNumber: faPtr("111122223333"), RoutingDetails: &client.RoutingDetails{
			RoutingNumber: faPtr("999999999"), BankName: faPtr("B")}},
	}}
	d := strings.Join(fiatAccountDifferences(req, answered), "\n")
	for _, want := range []string{"wire.account_number: answered another value", "routing_details.routing_number: answered another value"} {
		if !strings.Contains(d, want) {
			t.Errorf("differences %q lack %q", d, want)
		}
	}
	for _, secret := range []string{faSecret, "111122223333", "031302971", "999999999"} {
		if strings.Contains(d, secret) {
			t.Errorf("differences show %s: %q", secret, d)
		}
	}
}

// An error of the service that quotes a registered account number does
// not show it.
func TestFiatAccountNumberScrubbedFromErrors(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/oauth2/token") {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"access_token":"tok-123456789","token_type":"bearer","expires_in":3600}`))
			return
		}
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = fmt.Fprintf(w, `{"type":"about:blank","title":"Bad Request","status":400,"detail":"account %s is closed"}`, faSecret)
	}))
	defer srv.Close()
	c, err := client.New(client.Config{RateStateDir: t.TempDir(), ClientID: "id", ClientSecret: "secret-value", BaseURL: srv.URL + "/v2", AuthURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	c.AddSensitive(faSecret)
	_, err = c.CreateFiatAccount(t.Context(), client.CreateFiatAccountRequest{RefID: "r"}, nil)
	if err == nil || strings.Contains(err.Error(), faSecret) || !strings.Contains(err.Error(), "is closed") {
		t.Errorf("error %v: want the service's detail without the account number", err)
	}
}

func faPtr(s string) *string { return &s }

// TestAccFiatAccount_gatewayPageOnLookupSendsNothing: when a gateway in
// front of the service answers the ref_id lookup of a new fiat account
// with a 404 HTML page, the create sends nothing, and neither does its
// retry: the page says nothing of what the service holds, and nothing the
// service publishes makes an account's ref_id alone prevent a second
// account. Once the lookup is answered again, one account is made.
func TestAccFiatAccount_gatewayPageOnLookupSendsNothing(t *testing.T) {
	env, emu := emulatorEnv(t, emulator.Options{})
	const page = "<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
	emu.GatewayPage(http.MethodGet, "/v2"+client.PathFiatAccounts, http.StatusNotFound, "text/html", page)
	cfg := env.config(faBody)
	nothingSent := func(*terraform.State) error {
		if n := emu.Counters.Requests(faPostKey); n != 0 {
			return fmt.Errorf("%d fiat accounts POSTed, want none", n)
		}
		if n := len(emu.MadeFiatAccounts()); n != 0 {
			return fmt.Errorf("the service holds %d accounts made through the API, want none", n)
		}
		return nil
	}
	refused := regexp.MustCompile(`(?s)Fiat account not created: ref_id not looked up.*404\s+Not\s+Found.*Nothing\s+was\s+created.*not\s+the\s+service.s`)
	parallelSteps(t,
		resource.TestStep{Config: cfg, ExpectError: refused},
		resource.TestStep{Config: cfg, Check: nothingSent, ExpectError: refused},
		resource.TestStep{
			PreConfig: func() {
				if err := nothingSent(nil); err != nil {
					t.Fatal(err)
				}
				emu.GatewayPage(http.MethodGet, "/v2"+client.PathFiatAccounts, 0, "", "")
			},
			Config: cfg,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("platform_fiat_account.test", tfjsonpath.New("status"), knownvalue.StringExact("PENDING")),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				checkRequests(emu, faPostKey, 1, "%d fiat accounts POSTed, want 1"),
				func(*terraform.State) error {
					if n := len(emu.MadeFiatAccounts()); n != 1 {
						return fmt.Errorf("the service holds %d accounts made through the API, want 1", n)
					}
					return nil
				},
			),
		},
	)
}
