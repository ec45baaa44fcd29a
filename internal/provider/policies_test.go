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
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/tester"
	"github.com/shopspring/decimal"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
	"github.com/platform/terraform-provider-platform/internal/registry"
)

// policiesDir holds the policies shipped with the provider, their tests
// and, under testdata, the plan JSON the tests read.
var policiesDir = filepath.Join("..", "..", "policies")

// The addresses of the policies' plans, valid ones (validBTCAddress of
// "bc1qpolicy" and the name): the policies' own tests
// (policies/platform/money_test.rego) name them too.
const (
	policyAddressA        = "bc1qynuh5zzze09a3kdl2jvurypczq4yqprzah2xt2" // payroll["a"], in the address book
	policyAddressB        = "bc1qszx64wk3y7n7ysy8z29ldwuvz9f9r9qr9gfvsd" // payroll["b"]
	policyAddressOps      = "bc1qq5jmdarwqswfemh74ns43jqrs3kq5jwnj2rkpu"
	policyAddressTreasury = "bc1qpwhhuz6xqcl6lm5rw47rpg9jxhjq27e9tamm76"
	policyAddressAdopted  = "bc1q6rmwegy4xar9dkpy8qu8pp0nvp88hevy87k6sa"
	policyAddressBonus    = "bc1qfmpweveprqulkztrcmnad2kzdcfe3sksmmctd9"
)

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
locals {
  payee_addresses = {
    a = "` + policyAddressA + `"
    b = "` + policyAddressB + `"
  }
}
`)
	b.WriteString(btcWithdrawalOf("payroll", "  for_each            = var.payees\n", "local.payee_addresses[each.key]", "each.value", ""))
	b.WriteString(btcWithdrawalOf("ops", "  provider            = platform.ops\n", fmt.Sprintf("%q", policyAddressOps), opsAmount, ""))
	b.WriteString(btcWithdrawalOf("adopted", "", fmt.Sprintf("%q", policyAddressAdopted), `"0.3"`,
		`  ref_id              = "policy-already-sent"`+"\n"))
	b.WriteString(`
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
var policyModule = `terraform {
  required_providers {
    platform = { source = "platform/platform" }
  }
}
` + btcWithdrawalTo("sweep", "", policyAddressTreasury, "0.1")

// policyAction is an action invocation of policyPlanConfig (Terraform
// 1.14+).
var policyAction = btcAction("bonus", policyAddressBonus, "BITCOIN", `"0.05"`,
	`    ref_id              = "policy-bonus"`+"\n") + "\n" +
	actionTrigger("payday", "  input = \"payday\"\n", "action.platform_crypto_withdrawal.bonus")

// skipBelowTerraform skips t, saying why, when the Terraform of w is older
// than least.
func skipBelowTerraform(t *testing.T, w *cliWorkdir, least, why string) {
	t.Helper()
	if terraformVersion(t, w.tf).LessThan(version.Must(version.NewVersion(least))) {
		t.Skip(why)
	}
}

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
// start from a state whose address book holds that of payee a, APPROVED.
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
	skipBelowTerraform(t, w, "1.14.0", "the policies' plans have an action invocation: Terraform 1.14 or later")
	w.env = append(w.env, "PLATFORM_BASE_URL="+emu.BaseURL(), "PLATFORM_AUTH_URL="+emu.AuthURL(), "PLATFORM_WS_URL="+emu.WSURL(),
		"PLATFORM_CLIENT_ID="+emulator.DefaultClientID, "PLATFORM_CLIENT_SECRET="+emulator.DefaultClientSecret)
	if _, err := emulatorClient(t, emu).CreateCryptoWithdrawal(t.Context(), client.CryptoWithdrawalRequest{
		ProfileID: "prof-1", DestinationAddress: policyAddressAdopted, Asset: "BTC", CryptoNetwork: "BITCOIN", Amount: "0.3",
		RefID: "policy-already-sent"}); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(w.dir, "treasury"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.dir, "treasury", "main.tf"), []byte(policyModule), 0o600); err != nil {
		t.Fatal(err)
	}
	// The address book: the address of payee a, approved by the service.
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
  address        = "` + policyAddressA + `"
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
				`platform_crypto_withdrawal.payroll["b"]: destination ` + policyAddressB + ` on BITCOIN is not an APPROVED`,
				`platform_crypto_withdrawal.ops: destination ` + policyAddressOps,
				`module.treasury.platform_crypto_withdrawal.sweep: destination ` + policyAddressTreasury,
				`action.platform_crypto_withdrawal.bonus (AfterCreate of terraform_data.payday): destination ` + policyAddressBonus,
			},
			not: []string{`payroll["a"]`, "adopted"}},
		{name: "allow list", settings: map[string]any{"allowed_destinations": []any{
			map[string]any{"crypto_network": "BITCOIN", "address": policyAddressA},
			map[string]any{"crypto_network": "BITCOIN", "address": policyAddressB},
			map[string]any{"crypto_network": "BITCOIN", "address": policyAddressOps},
			map[string]any{"crypto_network": "BITCOIN", "address": policyAddressTreasury},
		}}, want: []string{"action.platform_crypto_withdrawal.bonus (AfterCreate of terraform_data.payday): destination " + policyAddressBonus + " on BITCOIN is not in allowed_destinations"},
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
	if passed < 33 {
		t.Errorf("%d policy tests passed, want every one of at least 33", passed)
	}
}

var (
	_ registry.MoneyMover = (*moneyCoreResource[cryptoWithdrawalArgs, *client.Transfer, client.CryptoWithdrawalRequest])(nil)
	_ registry.MoneyMover = (*moneyAction[fiatWithdrawalArgs, client.Transfer, client.FiatWithdrawalRequest])(nil)
	_ registry.MoneyMover = (*moneyAction[cryptoWithdrawalArgs, client.Transfer, client.CryptoWithdrawalRequest])(nil)
)

// policyValue is data.platform.money.<name> of the shipped policy.
func policyValue(t *testing.T, name string) any {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(policiesDir, "platform", "money.rego"))
	if err != nil {
		t.Fatal(err)
	}
	rs, err := rego.New(rego.Module("money.rego", string(src)), rego.Query("data.platform.money."+name)).Eval(t.Context())
	if err != nil || len(rs) != 1 || len(rs[0].Expressions) != 1 {
		t.Fatalf("data.platform.money.%s: %v %v", name, rs, err)
	}
	return rs[0].Expressions[0].Value
}

// keysOf are the keys of a policy object, or the members of a policy set.
func keysOf(v any) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		for k := range v {
			out = append(out, k)
		}
	case []any:
		for _, k := range v {
			out = append(out, fmt.Sprint(k))
		}
	}
	slices.Sort(out)
	return out
}

// TestPolicyKnowsEveryType derives the shipped policy's tables from the
// provider's registry: every resource and action is in exactly the table
// of what it moves (money_types with its money.kind, or non_money_types;
// money_actions with its kind and arguments of its schema, or
// non_money_actions), no table names a type the provider does not
// register, a resource's schema has the money manifest exactly when it
// moves money, and the policy reads the manifest's version. A new type or
// action fails here until the policy knows it; a money type's rows (its
// resource and its action) are checked against its fixture by
// TestRegistryMoneyFixtures, and are left out of these tables.
func TestPolicyKnowsEveryType(t *testing.T) {
	types := registeredTypes(t)
	moneyTypes, _ := policyValue(t, "money_types").(map[string]any)
	moneyActions, _ := policyValue(t, "money_actions").(map[string]any)
	fixtured := func(ty registry.Type) bool { _, ok := moneyFixtures[ty.Name]; return ok }
	withoutFixtures := func(rows []string) []string {
		return slices.DeleteFunc(rows, func(r string) bool { _, ok := moneyFixtures[r]; return ok })
	}
	tables := []registry.Table{
		{Name: "money_types (policies/platform/money.rego)", Rows: withoutFixtures(keysOf(moneyTypes)),
			Concerns: func(ty registry.Type) bool { return ty.Kind == registry.Resource && ty.Money != "" && !fixtured(ty) }},
		{Name: "non_money_types (policies/platform/money.rego)", Rows: withoutFixtures(keysOf(policyValue(t, "non_money_types"))),
			Concerns: func(ty registry.Type) bool { return ty.Kind == registry.Resource && ty.Money == "" && !fixtured(ty) }},
		{Name: "money_actions (policies/platform/money.rego)", Rows: withoutFixtures(keysOf(moneyActions)),
			Concerns: func(ty registry.Type) bool { return ty.Kind == registry.Action && ty.Money != "" && !fixtured(ty) }},
		{Name: "non_money_actions (policies/platform/money.rego)", Rows: withoutFixtures(keysOf(policyValue(t, "non_money_actions"))),
			Concerns: func(ty registry.Type) bool { return ty.Kind == registry.Action && ty.Money == "" && !fixtured(ty) }},
	}
	for _, m := range registry.Missing(types, tables...) {
		t.Error(m)
	}

	p := newTestProvider()
	resources := map[string]resource.Resource{}
	for _, f := range p.Resources(t.Context()) {
		r := f()
		var meta resource.MetadataResponse
		r.Metadata(t.Context(), resource.MetadataRequest{ProviderTypeName: "platform"}, &meta)
		resources[meta.TypeName] = r
	}
	actions := map[string]action.Action{}
	pa, _ := p.(provider.ProviderWithActions)
	for _, f := range pa.Actions(t.Context()) {
		a := f()
		var meta action.MetadataResponse
		a.Metadata(t.Context(), action.MetadataRequest{ProviderTypeName: "platform"}, &meta)
		actions[meta.TypeName] = a
	}
	for _, ty := range types {
		switch ty.Kind {
		case registry.Resource:
			var s resource.SchemaResponse
			resources[ty.Name].Schema(t.Context(), resource.SchemaRequest{}, &s)
			if _, manifest := s.Schema.Attributes[moneyAttribute]; manifest != (ty.Money != "") {
				t.Errorf("resource %s: money attribute in its schema %v, moves money (MovesMoney) %q", ty.Name, manifest, ty.Money)
			}
			if got := moneyTypes[ty.Name]; ty.Money != "" && got != ty.Money && !fixtured(ty) {
				t.Errorf("money_types of the policy has %s as %v, the provider moves %s", ty.Name, got, ty.Money)
			}
		case registry.Action:
			row, _ := moneyActions[ty.Name].(map[string]any)
			if ty.Money == "" || row == nil {
				continue
			}
			if row["kind"] != ty.Money && !fixtured(ty) {
				t.Errorf("money_actions of the policy has %s as %v, the provider moves %s", ty.Name, row["kind"], ty.Money)
			}
			var s action.SchemaResponse
			actions[ty.Name].Schema(t.Context(), action.SchemaRequest{}, &s)
			args := append([]string{"amount", fmt.Sprint(row["asset"])}, keysOf(row["to"])...)
			for _, arg := range args {
				if _, ok := s.Schema.Attributes[arg]; !ok {
					t.Errorf("money_actions of the policy reads the argument %s of the action %s, which has none", arg, ty.Name)
				}
			}
		}
	}
	if !slices.Contains(keysOf(policyValue(t, "manifest_versions")), fmt.Sprint(moneyVersion)) {
		t.Errorf("the policy's manifest_versions %v do not include money.version %d", policyValue(t, "manifest_versions"),
			moneyVersion)
	}
}

// TestAccPolicies_whatCannotBeJudgedIsDenied: the shipped policy, run over
// the plan JSON of a 5 BTC withdrawal under a cap of 1 BTC, denies it as
// Terraform planned it, with its money removed or null (a provider release
// from before the manifest), under a type name the policy has never heard
// of, and beside an invocation of an action of the provider it does not
// know; the plan of 0.5 BTC is not denied.
func TestAccPolicies_whatCannotBeJudgedIsDenied(t *testing.T) {
	t.Parallel()
	emu := emulator.StartTest(t, emulator.Options{})
	w := newCLIWorkdir(t)
	plans := map[string][]byte{}
	for _, amount := range []string{"0.5", "5"} {
		w.write(emulatorProviderBlock(emu, ""), btcWithdrawal("big", amount, ""))
		plans[amount] = planJSON(t, w)
	}
	plan := func(amount string) map[string]any {
		var p map[string]any
		if err := json.Unmarshal(plans[amount], &p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	oneBTC := map[string]any{"max_per_transfer": map[string]any{"BTC": "1"}, "max_plan_total": map[string]any{"BTC": "1"}}
	if deny := evalPolicies(t, plan("0.5"), oneBTC); len(deny) > 0 {
		t.Errorf("the plan of 0.5 BTC under a cap of 1 BTC is denied: %v", deny)
	}
	change := func(p map[string]any) map[string]any {
		rcs, _ := p["resource_changes"].([]any)
		if len(rcs) != 1 {
			t.Fatalf("%d resource changes in the plan, want the withdrawal", len(rcs))
		}
		rc, _ := rcs[0].(map[string]any)
		return rc
	}
	after := func(p map[string]any, part string) map[string]any {
		c, _ := change(p)["change"].(map[string]any)
		m, _ := c[part].(map[string]any)
		return m
	}
	for _, c := range []struct {
		name  string
		edit  func(p map[string]any)
		wants string
	}{
		{"as made", func(map[string]any) {}, "platform_crypto_withdrawal.big: sends 5 BTC, over max_per_transfer 1"},
		{"money removed", func(p map[string]any) {
			delete(after(p, "after"), "money")
			delete(after(p, "after_unknown"), "money")
		}, "without its money manifest (money is missing or null)"},
		{"money null", func(p map[string]any) { after(p, "after")["money"] = nil },
			"without its money manifest (money is missing or null)"},
		{"unknown type", func(p map[string]any) { change(p)["type"] = "platform_crypto_payout" },
			"sends 5 BTC, over max_per_transfer 1"},
		{"unknown type without money", func(p map[string]any) {
			change(p)["type"] = "platform_crypto_payout"
			delete(after(p, "after"), "money")
		}, "a type of the platform provider this policy does not know"},
		{"unknown action", func(p map[string]any) {
			p["resource_changes"] = []any{}
			p["action_invocations"] = []any{map[string]any{
				"address": "action.platform_crypto_withdrawal_batch.all", "type": "platform_crypto_withdrawal_batch",
				"name": "all", "provider_name": "registry.terraform.io/platform/platform",
				"config_values":  map[string]any{"profile_id": "prof-1", "asset": "BTC", "amount": "5"},
				"config_unknown": map[string]any{},
			}}
		}, "an invocation of platform_crypto_withdrawal_batch, an action of the platform provider this policy does not know"},
	} {
		p := plan("5")
		c.edit(p)
		deny := evalPolicies(t, p, oneBTC)
		if !strings.Contains(strings.Join(deny, "\n"), c.wants) {
			t.Errorf("%s: the policy says %q, want %q", c.name, deny, c.wants)
		}
	}
}
