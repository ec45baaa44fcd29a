package provider

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/go-version"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/tester"
	"github.com/shopspring/decimal"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// policiesDir holds the policies shipped with the provider, their tests
// and, under testdata, the plan JSON the tests read.
var policiesDir = filepath.Join("..", "..", "policies")

// policyPlanConfig is a plan over every provider configuration a policy
// must see: the root provider, an aliased one, a module, for_each
// instances, an action invocation, and a withdrawal whose ref_id the
// service already holds (recorded, not sent). amounts sets the for_each
// instances; the last argument is the ops withdrawal's amount expression.
func policyPlanConfig(payees map[string]string, opsAmount string) string {
	var b strings.Builder
	b.WriteString("provider \"platform\" {}\nprovider \"platform\" {\n  alias = \"ops\"\n}\n")
	b.WriteString("variable \"payees\" {\n  type    = map(string)\n  default = {\n")
	for k, v := range payees {
		fmt.Fprintf(&b, "    %s = %q\n", k, v)
	}
	b.WriteString("  }\n}\n")
	b.WriteString(`
resource "platform_crypto_withdrawal" "payroll" {
  for_each            = var.payees
  profile_id          = "prof-1"
  destination_address = "bc1qpolicy${each.key}"
  asset               = "BTC"
  crypto_network      = "BITCOIN"
  amount              = each.value
}

resource "platform_crypto_withdrawal" "ops" {
  provider            = platform.ops
  profile_id          = "prof-1"
  destination_address = "bc1qpolicyops"
  asset               = "BTC"
  crypto_network      = "BITCOIN"
  amount              = ` + opsAmount + `
}

resource "platform_crypto_withdrawal" "adopted" {
  profile_id          = "prof-1"
  destination_address = "bc1qpolicyadopted"
  asset               = "BTC"
  crypto_network      = "BITCOIN"
  amount              = "0.3"
  ref_id              = "policy-already-sent"
}

module "treasury" {
  source = "./treasury"
}

resource "terraform_data" "amount" {
  input = "0.7"
}
`)
	return b.String()
}

// policyModule is the module of policyPlanConfig: one withdrawal through
// the root's default provider.
const policyModule = `terraform {
  required_providers {
    platform = { source = "platform/platform" }
  }
}

resource "platform_crypto_withdrawal" "sweep" {
  profile_id          = "prof-1"
  destination_address = "bc1qpolicytreasury"
  asset               = "BTC"
  crypto_network      = "BITCOIN"
  amount              = "0.1"
}
`

// policyAction is an action invocation of policyPlanConfig (Terraform
// 1.14+).
const policyAction = `
action "platform_crypto_withdrawal" "bonus" {
  config {
    profile_id          = "prof-1"
    destination_address = "bc1qpolicybonus"
    asset               = "BTC"
    crypto_network      = "BITCOIN"
    amount              = "0.05"
    ref_id              = "policy-bonus"
  }
}

resource "terraform_data" "payday" {
  input = "payday"
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.platform_crypto_withdrawal.bonus]
    }
  }
}
`

// planJSON plans the configuration in w and returns terraform show -json
// of the plan.
func planJSON(t *testing.T, w *cliWorkdir) []byte {
	t.Helper()
	w.mustRun(0, "plan", "-out=policy.tfplan")
	return []byte(w.mustRun(0, "show", "-json", "policy.tfplan").stdout)
}

// The plans of the policies' tests, made by real Terraform (1.14+, for the
// action) against the emulator: policy-known, every amount known, and
// policy-unknown, the ops withdrawal's amount known only at apply. Both
// start from a state whose address book holds bc1qpolicya, APPROVED.
// Each plan is checked here with the shipped policies and, with -update,
// written to policies/testdata/<name>/data.json for their own tests (make
// test runs them: TestPolicies). The known plan is then applied: the
// service receives exactly the sum of money.amount of the creates that
// send, and of the action's amount, per asset; the adopted withdrawal
// sends nothing.
func TestAccPolicies(t *testing.T) {
	t.Parallel()
	emu := emulator.StartTest(t, emulator.Options{})
	w := newCLIWorkdir(t)
	if terraformVersion(t, w.tf).LessThan(version.Must(version.NewVersion("1.14.0"))) {
		t.Skip("the policies' plans have an action invocation: Terraform 1.14 or later")
	}
	w.env = append(w.env, "PLATFORM_BASE_URL="+emu.BaseURL(), "PLATFORM_AUTH_URL="+emu.AuthURL(), "PLATFORM_WS_URL="+emu.WSURL(),
		"PLATFORM_CLIENT_ID="+emulator.DefaultClientID, "PLATFORM_CLIENT_SECRET="+emulator.DefaultClientSecret)
	if _, err := emulatorClient(t, emu).CreateCryptoWithdrawal(t.Context(), client.CryptoWithdrawalRequest{
		ProfileID: "prof-1", DestinationAddress: "bc1qpolicyadopted", Asset: "BTC", CryptoNetwork: "BITCOIN", Amount: "0.3",
		RefID: "policy-already-sent"}); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(w.dir, "treasury"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.dir, "treasury", "main.tf"), []byte(policyModule), 0o600); err != nil {
		t.Fatal(err)
	}
	// The address book: bc1qpolicya, approved by the service.
	w.write("provider \"platform\" {}\n", policyBook)
	w.mustRun(0, "apply", "-auto-approve")
	id := stateOf(t, w, "platform_crypto_destination_address.payee_a")["id"]
	if !emu.SetCryptoDestinationAddressStatus(fmt.Sprint(id), client.DestinationAddressApproved) {
		t.Fatalf("no address %v at the emulator", id)
	}

	payees := map[string]string{"a": "0.25", "b": "0.5"}
	plans := map[string][]byte{}
	w.write("", policyPlanConfig(payees, "terraform_data.amount.output")+policyAction+policyBook)
	w.mustRun(0, "get")
	plans["policy-unknown"] = planJSON(t, w)
	w.write("", policyPlanConfig(payees, `"0.4"`)+policyAction+policyBook)
	plans["policy-known"] = planJSON(t, w)

	for name, plan := range plans {
		checkPolicyCases(t, name, plan)
		if *update {
			var v any
			if err := json.Unmarshal(plan, &v); err != nil {
				t.Fatal(err)
			}
			b, err := json.MarshalIndent(v, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			writeGolden(t, filepath.Join(policiesDir, "testdata", strings.ReplaceAll(name, "-", "_"), "data.json"), append(b, '\n'))
		}
	}

	// What the known plan says it sends is what the service receives.
	planned := map[string]decimal.Decimal{}
	var p struct {
		ResourceChanges []struct {
			Change struct {
				Actions []string `json:"actions"`
				After   struct {
					Money *struct {
						Asset, Amount string
						Sends         *bool
					} `json:"money"`
				} `json:"after"`
			} `json:"change"`
		} `json:"resource_changes"`
		ActionInvocations []struct {
			ConfigValues struct{ Asset, Amount string } `json:"config_values"`
		} `json:"action_invocations"`
	}
	if err := json.Unmarshal(plans["policy-known"], &p); err != nil {
		t.Fatal(err)
	}
	adopted := 0
	for _, rc := range p.ResourceChanges {
		m := rc.Change.After.Money
		if m == nil || !slices.Contains(rc.Change.Actions, "create") {
			continue
		}
		if m.Sends == nil {
			t.Fatalf("a create's money.sends is unknown in the known plan: %+v", m)
		}
		if !*m.Sends {
			adopted++
			continue
		}
		planned[m.Asset] = planned[m.Asset].Add(decimal.RequireFromString(m.Amount))
	}
	for _, a := range p.ActionInvocations {
		planned[a.ConfigValues.Asset] = planned[a.ConfigValues.Asset].Add(decimal.RequireFromString(a.ConfigValues.Amount))
	}
	if adopted != 1 {
		t.Errorf("%d creates with sends = false, want the adopted withdrawal", adopted)
	}
	before := len(emu.Transfers())
	w.mustRun(0, "apply", "policy.tfplan")
	received := map[string]decimal.Decimal{}
	for _, tr := range emu.Transfers()[before:] {
		received[tr.Asset] = received[tr.Asset].Add(decimal.RequireFromString(tr.Amount))
	}
	if len(received) != len(planned) || !received["BTC"].Equal(planned["BTC"]) || !planned["BTC"].Equal(decimal.RequireFromString("1.3")) {
		t.Errorf("the plan's money sends %v, the service received %v; want 1.3 BTC for both", planned, received)
	}
}

// policyBook is the address book of the policies' plans.
const policyBook = `
resource "platform_crypto_destination_address" "payee_a" {
  crypto_network = "BITCOIN"
  address        = "bc1qpolicya"
  nickname       = "payee a"
}
`

// policyCase is a setting of the policies and what they must say of a plan.
type policyCase struct {
	name     string
	settings map[string]any
	// want are parts of deny messages that must be there; none, when the
	// plan must pass.
	want []string
	// not are parts of deny messages that must not be there.
	not []string
}

// policyCases are the cases of each plan of TestAccPolicies; the policies'
// own tests (policies/platform/money_test.rego) hold the same ones.
var policyCases = map[string][]policyCase{
	"policy-known": {
		{name: "within", settings: map[string]any{
			"max_plan_total": map[string]any{"BTC": "1.3"}, "max_per_transfer": map[string]any{"btc": "0.5"},
		}},
		{name: "over the cap split across two aliases", settings: map[string]any{"max_plan_total": map[string]any{"BTC": "1.2"}},
			want: []string{"the plan sends 1.3 BTC in all"}},
		{name: "per transfer", settings: map[string]any{"max_per_transfer": map[string]any{"BTC": "0.45"}},
			want: []string{`platform_crypto_withdrawal.payroll["b"]: sends 0.5 BTC, over max_per_transfer 0.45`},
			not:  []string{"payroll[\"a\"]", "adopted"}},
		{name: "unapproved destinations", settings: map[string]any{"approved_destinations_only": true},
			want: []string{
				`platform_crypto_withdrawal.payroll["b"]: destination bc1qpolicyb on BITCOIN is not an APPROVED`,
				`platform_crypto_withdrawal.ops: destination bc1qpolicyops`,
				`module.treasury.platform_crypto_withdrawal.sweep: destination bc1qpolicytreasury`,
				`action.platform_crypto_withdrawal.bonus: destination bc1qpolicybonus`,
			},
			not: []string{`payroll["a"]`, "adopted"}},
		{name: "allow list", settings: map[string]any{"allowed_destinations": []any{
			map[string]any{"crypto_network": "BITCOIN", "address": "bc1qpolicya"},
			map[string]any{"crypto_network": "BITCOIN", "address": "bc1qpolicyb"},
			map[string]any{"crypto_network": "BITCOIN", "address": "bc1qpolicyops"},
			map[string]any{"crypto_network": "BITCOIN", "address": "bc1qpolicytreasury"},
		}}, want: []string{"action.platform_crypto_withdrawal.bonus: destination bc1qpolicybonus on BITCOIN is not in allowed_destinations"},
			not: []string{"payroll", "treasury", "ops"}},
	},
	"policy-unknown": {
		{name: "unknown amount", settings: map[string]any{"max_plan_total": map[string]any{"BTC": "100"}},
			want: []string{"platform_crypto_withdrawal.ops: cannot be judged (unknown or unreadable: amount, sends)"},
			not:  []string{"payroll", "over max_plan_total"}},
	},
}

// checkPolicyCases evaluates the shipped policies over plan with each case
// of policyCases[name].
func checkPolicyCases(t *testing.T, name string, plan []byte) {
	t.Helper()
	var input any
	if err := json.Unmarshal(plan, &input); err != nil {
		t.Fatal(err)
	}
	cases := policyCases[name]
	if len(cases) == 0 {
		t.Fatalf("no policy cases for the plan %s", name)
	}
	for _, c := range cases {
		deny := evalPolicies(t, input, c.settings)
		all := strings.Join(deny, "\n")
		if len(c.want) == 0 && len(deny) > 0 {
			t.Errorf("%s, %s: the policies deny a plan they must allow:\n%s", name, c.name, all)
		}
		for _, want := range c.want {
			if !strings.Contains(all, want) {
				t.Errorf("%s, %s: the policies do not say %q:\n%s", name, c.name, want, all)
			}
		}
		for _, not := range c.not {
			if strings.Contains(all, not) {
				t.Errorf("%s, %s: the policies say %q:\n%s", name, c.name, not, all)
			}
		}
	}
}

// evalPolicies is data.platform.money.deny of the shipped policies for
// input, with settings as data.platform_policy.
func evalPolicies(t *testing.T, input any, settings map[string]any) []string {
	t.Helper()
	modules, err := filepath.Glob(filepath.Join(policiesDir, "platform", "*.rego"))
	if err != nil {
		t.Fatal(err)
	}
	var opts []func(*rego.Rego)
	for _, m := range modules {
		if strings.HasSuffix(m, "_test.rego") {
			continue
		}
		src, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		opts = append(opts, rego.Module(m, string(src)))
	}
	opts = append(opts, rego.Query("data.platform.money.deny"), rego.Input(input),
		rego.Store(inmem.NewFromObject(map[string]any{"platform_policy": settings})))
	rs, err := rego.New(opts...).Eval(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 || len(rs[0].Expressions) != 1 {
		t.Fatalf("data.platform.money.deny: %v", rs)
	}
	var out []string
	for _, v := range rs[0].Expressions[0].Value.([]any) {
		out = append(out, fmt.Sprint(v))
	}
	return out
}

// TestPolicies runs the policies' own tests (opa test policies) over the
// plans of TestAccPolicies, as make test does: each must pass, and none may
// be missing.
func TestPolicies(t *testing.T) {
	results, err := tester.Run(t.Context(), policiesDir)
	if err != nil {
		t.Fatal(err)
	}
	passed := 0
	for _, r := range results {
		if !r.Pass() {
			t.Errorf("%s.%s: %v (failed: %v)", r.Package, r.Name, r.Error, r.Fail)
			continue
		}
		passed++
	}
	if passed < 9 {
		t.Errorf("%d policy tests passed, want every one of at least 9", passed)
	}
}
