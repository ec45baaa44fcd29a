package provider

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/go-version"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage/inmem"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// policyEngine is an engine that runs the shipped money policy: the files
// its documentation attaches, the query of the rule it reads, and the
// shape in which it hands the plan to OPA (docs/guides/policy-on-plans.md).
type policyEngine struct {
	name string
	// files are the policy's files as the engine attaches them, under
	// policies/; bundle says they are one file with its settings inside.
	files  []string
	bundle bool
	// settingsAsData: the engine loads the settings as a data document
	// (data.platform_policy); else they are a Rego module of the package
	// platform_policy, or the bundle's own rule.
	settingsAsData bool
	query          string
	// wrap is the engine's input around a plan; a nil plan is an input of
	// the engine in which no plan is.
	wrap func(plan map[string]any) map[string]any
}

// policyEngines are the engines of the guide, each with its documented
// input shape: conftest and opa eval read the plan itself; HCP Terraform
// {plan, run}; Scalr {tfplan, tfrun}; env zero {plan, deploymentRequest,
// ...}; Spacelift {spacelift, terraform} with the plan exported by an
// after_plan hook under third_party_metadata.custom.platform_plan.
var policyEngines = []policyEngine{
	{name: "conftest", files: []string{"platform/money.rego", "conftest/main.rego"}, settingsAsData: true,
		query: "data.main.deny", wrap: func(plan map[string]any) map[string]any {
			if plan == nil {
				return map[string]any{}
			}
			return plan
		}},
	{name: "HCP Terraform", files: []string{"platform/money.rego", "hcp/platform_money.rego"},
		query: "data.terraform.platform_money.deny", wrap: func(plan map[string]any) map[string]any {
			in := map[string]any{"run": map[string]any{
				"id": "run-CZcmD7eagjhyX0vN", "is_destroy": false, "refresh": true, "refresh_only": false,
				"speculative": false, "message": "Queued manually", "organization": map[string]any{"name": "treasury"},
				"workspace": map[string]any{"name": "payroll", "execution_mode": "remote"},
			}}
			if plan != nil {
				in["plan"] = plan
			}
			return in
		}},
	{name: "Scalr", files: []string{"scalr/platform_money.rego"}, bundle: true,
		query: "data.terraform.deny", wrap: func(plan map[string]any) map[string]any {
			in := map[string]any{"tfrun": map[string]any{
				"is_destroy": false, "is_dry": false, "source": "vcs",
				"workspace":   map[string]any{"name": "payroll", "auto_apply": false},
				"environment": map[string]any{"name": "production"},
			}}
			if plan != nil {
				in["tfplan"] = plan
			}
			return in
		}},
	{name: "env zero", files: []string{"platform/money.rego", "env0/platform_money.rego"},
		query: "data.env0.deny", wrap: func(plan map[string]any) map[string]any {
			in := map[string]any{
				"deploymentRequest": map[string]any{"type": "deploy", "triggerName": "user", "revision": "main"},
				"template":          map[string]any{"type": "terraform", "repository": "https://example.com/payroll", "path": "", "revision": "main"},
				"costEstimation":    map[string]any{"totalMonthlyCost": 0, "monthlyCostDiff": 0},
				"deployerUser":      map[string]any{"name": "Ada", "email": "ada@example.com"},
				"approvers":         []any{},
			}
			if plan != nil {
				in["plan"] = plan
			}
			return in
		}},
	{name: "Spacelift", files: []string{"spacelift/platform_money.rego"}, bundle: true,
		query: "data.spacelift.deny", wrap: func(plan map[string]any) map[string]any {
			return spaceliftInput(plan, plan)
		}},
}

// spaceliftInput is the input of a Spacelift plan policy for the plan
// Spacelift holds (its subset of each change: address, type, name,
// provider_name, change {actions, before, after}), with export as
// third_party_metadata.custom.platform_plan when not nil.
func spaceliftInput(plan, export map[string]any) map[string]any {
	var changes []any
	version := ""
	if plan != nil {
		rcs, _ := plan["resource_changes"].([]any)
		for _, c := range rcs {
			rc, _ := c.(map[string]any)
			ch, _ := rc["change"].(map[string]any)
			changes = append(changes, map[string]any{
				"address": rc["address"], "type": rc["type"], "name": rc["name"], "provider_name": rc["provider_name"],
				"change": map[string]any{"actions": ch["actions"], "before": ch["before"], "after": ch["after"]},
			})
		}
		version, _ = plan["terraform_version"].(string)
	}
	in := map[string]any{
		"spacelift": map[string]any{
			"run":   map[string]any{"id": "01HZ6ZJ4Q5", "type": "PROPOSED", "state": "PLANNING"},
			"stack": map[string]any{"id": "payroll", "name": "payroll", "branch": "main"},
		},
		"terraform": map[string]any{"resource_changes": changes, "terraform_version": version},
	}
	if export != nil {
		in["third_party_metadata"] = map[string]any{"custom": map[string]any{"platform_plan": export}}
	}
	return in
}

// evalEngine is the engine's rule over input, with the policy's files as
// the engine attaches them and settings where the engine keeps them.
func evalEngine(t *testing.T, e policyEngine, input map[string]any, settings map[string]any) []string {
	t.Helper()
	var opts []func(*rego.Rego)
	for _, f := range e.files {
		src, err := os.ReadFile(filepath.Join(policiesDir, f))
		if err != nil {
			t.Fatal(err)
		}
		text := string(src)
		if e.bundle {
			// As a user sets them: the bundle's rule platform_policy.
			const empty = "\nplatform_policy := {}\n"
			if strings.Count(text, empty) != 1 {
				t.Fatalf("%s: want one %q to set the settings in", f, empty)
			}
			text = strings.Replace(text, empty, "\nplatform_policy := "+mustJSON(t, settings)+"\n", 1)
		}
		opts = append(opts, rego.Module(f, text))
	}
	store := map[string]any{}
	switch {
	case e.bundle:
	case e.settingsAsData:
		store["platform_policy"] = settings
	default:
		opts = append(opts, rego.Module("platform_policy.rego", settingsModule(t, settings)))
	}
	opts = append(opts, rego.Query(e.query), rego.Input(input), rego.Store(inmem.NewFromObject(store)))
	rs, err := rego.New(opts...).Eval(t.Context())
	if err != nil {
		t.Fatalf("%s: %v", e.name, err)
	}
	if len(rs) != 1 || len(rs[0].Expressions) != 1 {
		t.Fatalf("%s: %s is undefined: %v", e.name, e.query, rs)
	}
	var out []string
	for _, v := range rs[0].Expressions[0].Value.([]any) {
		out = append(out, fmt.Sprint(v))
	}
	return out
}

// settingsModule is settings as the Rego module a user writes for an
// engine that loads no data document: package platform_policy.
func settingsModule(t *testing.T, settings map[string]any) string {
	var b strings.Builder
	b.WriteString("package platform_policy\n\n")
	for _, k := range slices.Sorted(maps.Keys(settings)) {
		fmt.Fprintf(&b, "%s := %s\n\n", k, mustJSON(t, settings[k]))
	}
	return b.String()
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Valid addresses of the engines' plans.
const (
	engineTreasury = "bc1qnnsj8h9aejp7dyun2jf0hc88emdhffh4fyf7cn"
	enginePayee    = "bc1q6fugqm28g3qn0rlvh4dhncw2nyrue32gaykfj3"
)

// enginePlan is a plan of the engines' tests: its configuration, whether
// it needs actions (Terraform 1.14+), the settings it is judged by and the
// reasons the policy must give on every engine (none: not denied).
type enginePlan struct {
	name     string
	config   string
	actions  bool
	settings map[string]any
	denied   []string
}

func engineWithdrawal(amount string) string {
	return btcWithdrawalTo("payout", "", engineTreasury, amount)
}

// engineRecords is an action of amount BTC without a ref_id, triggered
// after_create by a terraform_data for each of records.
func engineRecords(amount string, records ...string) string {
	return btcAction("bonus", enginePayee, "BITCOIN", fmt.Sprintf("%q", amount), "") + "\n" +
		actionTrigger("records", fmt.Sprintf("  for_each = toset(%s)\n  input    = each.key\n", mustJSONString(records)),
			"action.platform_crypto_withdrawal.bonus")
}

func mustJSONString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

var (
	oneBTCCaps   = map[string]any{"max_per_transfer": map[string]any{"BTC": "1"}, "max_plan_total": map[string]any{"BTC": "1"}}
	halfBTCTotal = map[string]any{"max_per_transfer": map[string]any{"BTC": "1"}, "max_plan_total": map[string]any{"BTC": "0.5"}}
)

var enginePlans = []enginePlan{
	{name: "half", config: engineWithdrawal("0.5"), settings: oneBTCCaps},
	{name: "five", config: engineWithdrawal("5"), settings: oneBTCCaps,
		denied: []string{"platform_crypto_withdrawal.payout: sends 5 BTC, over max_per_transfer 1", "the plan sends 5 BTC in all"}},
	{name: "half_and_action_five", actions: true, config: engineWithdrawal("0.5") + engineRecords("5", "payday"), settings: oneBTCCaps,
		denied: []string{
			`action.platform_crypto_withdrawal.bonus (AfterCreate of terraform_data.records["payday"]): sends 5 BTC, over max_per_transfer 1`,
			"the plan sends 5.5 BTC in all",
		}},
	{name: "three_records", actions: true, config: engineRecords("0.4", "a", "b", "c"), settings: halfBTCTotal,
		denied: []string{"the plan sends 1.2 BTC in all (every provider configuration, module, instance and action), over max_plan_total 0.5"}},
	{name: "one_record", actions: true, config: engineRecords("0.4", "a"), settings: halfBTCTotal},
}

// policyCLIName names the CLI that made a plan in the engines' testdata:
// terraform_1_11, terraform_1_15, opentofu_1_12.
func policyCLIName(t *testing.T, tf string) string {
	v := terraformVersion(t, tf).Segments()
	product := "terraform"
	if strings.Contains(filepath.Base(tf), "tofu") {
		product = "opentofu"
	}
	return fmt.Sprintf("%s_%d_%d", product, v[0], v[1])
}

// TestAccPolicies_everyEngine: plans Terraform (or OpenTofu) made against
// the emulator, handed to each engine in its documented shape and judged
// by the files that engine attaches, on the engine's own rule, with
// max_per_transfer and max_plan_total of BTC 1: 0.5 BTC is not denied; 5
// BTC is; 0.5 BTC and an action invocation of 5 BTC is; an action of 0.4
// BTC triggered by three records is over a max_plan_total of 0.5, by one
// record it is not; an input with no plan is denied, on Spacelift a plan
// without its export too. With -update, the plans are written to
// policies/testdata/engines/<cli>/<plan>/data.json for the policies' own
// tests (policies/platform/engines_test.rego).
func TestAccPolicies_everyEngine(t *testing.T) {
	t.Parallel()
	emu := emulator.StartTest(t, emulator.Options{})
	w := newCLIWorkdir(t)
	withActions := !terraformVersion(t, w.tf).LessThan(version.Must(version.NewVersion("1.14.0")))
	if strings.Contains(filepath.Base(w.tf), "tofu") {
		withActions = false
	}
	cli := policyCLIName(t, w.tf)
	judged := 0
	for _, p := range enginePlans {
		if p.actions && !withActions {
			continue
		}
		w.write(emulatorProviderBlock(emu, ""), p.config)
		raw := planJSON(t, w)
		var plan map[string]any
		if err := json.Unmarshal(raw, &plan); err != nil {
			t.Fatal(err)
		}
		judged += checkEngines(t, cli+", "+p.name, p, plan)
		if *update {
			b, err := json.MarshalIndent(plan, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			writeGolden(t, filepath.Join(policiesDir, "testdata", "engines", cli, p.name, "data.json"), append(b, '\n'))
		}
	}
	checkNoPlan(t)
	if want := len(policyEngines) * 2; judged < want {
		t.Errorf("%d verdicts, want at least %d", judged, want)
	}
}

// checkEngines judges plan, made from p's configuration, on every engine
// as that engine attaches the policy, and checks the verdict is p's; it
// returns the number of verdicts. On Spacelift, the plan without its
// export is denied whatever it holds.
func checkEngines(t *testing.T, label string, p enginePlan, plan map[string]any) int {
	t.Helper()
	judged := 0
	for _, e := range policyEngines {
		deny := evalEngine(t, e, e.wrap(plan), p.settings)
		all := strings.Join(deny, "\n")
		if len(p.denied) == 0 && len(deny) > 0 {
			t.Errorf("%s: %s denies a plan it must pass:\n%s", label, e.name, all)
		}
		for _, want := range p.denied {
			if !strings.Contains(all, want) {
				t.Errorf("%s: %s does not say %q:\n%s", label, e.name, want, all)
			}
		}
		judged++
	}
	spacelift := policyEngines[len(policyEngines)-1]
	deny := evalEngine(t, spacelift, spaceliftInput(plan, nil), p.settings)
	if !strings.Contains(strings.Join(deny, "\n"), "platform_plan.custom.spacelift.json") {
		t.Errorf("%s: Spacelift without the plan's export: %q, want a denial naming the file to export", label, deny)
	}
	return judged
}

// checkNoPlan: an input of each engine in which no plan is found is denied.
func checkNoPlan(t *testing.T) {
	t.Helper()
	for _, e := range policyEngines {
		all := strings.Join(evalEngine(t, e, e.wrap(nil), oneBTCCaps), "\n")
		if !strings.Contains(all, "no Terraform plan in the policy's input") && !strings.Contains(all, "no export of the plan") {
			t.Errorf("%s: an input without a plan: %q, want it denied", e.name, all)
		}
	}
}

// TestPolicyEngines judges the plans of policies/testdata/engines, which
// TestAccPolicies_everyEngine made under each CLI, on every engine as it
// attaches the policy: the verdicts of that test, without a CLI.
func TestPolicyEngines(t *testing.T) {
	byName := map[string]enginePlan{}
	for _, p := range enginePlans {
		byName[p.name] = p
	}
	files, err := filepath.Glob(filepath.Join(policiesDir, "testdata", "engines", "*", "*", "data.json"))
	if err != nil {
		t.Fatal(err)
	}
	clis := map[string]int{}
	for _, f := range files {
		name := filepath.Base(filepath.Dir(f))
		cli := filepath.Base(filepath.Dir(filepath.Dir(f)))
		p, ok := byName[name]
		if !ok {
			t.Errorf("%s: no plan %s in enginePlans", f, name)
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var plan map[string]any
		if err := json.Unmarshal(b, &plan); err != nil {
			t.Fatal(err)
		}
		checkEngines(t, cli+", "+name, p, plan)
		clis[cli]++
	}
	if want := map[string]int{"terraform_1_11": 2, "terraform_1_15": len(enginePlans), "opentofu_1_12": 2}; !maps.Equal(clis, want) {
		t.Errorf("plans by CLI in policies/testdata/engines: %v, want %v", clis, want)
	}
	checkNoPlan(t)
}

// TestPoliciesLoadTogether: every policy file under policies/ but the
// tests loads in one evaluation, as engines that load a whole folder do,
// and data.platform.money.deny finds the plan in every engine's shape.
func TestPoliciesLoadTogether(t *testing.T) {
	var opts []func(*rego.Rego)
	err := filepath.WalkDir(policiesDir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".rego") || strings.HasSuffix(path, "_test.rego") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		opts = append(opts, rego.Module(path, string(src)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(opts) < 6 {
		t.Fatalf("%d policy files under %s, want the core and every engine's", len(opts), policiesDir)
	}
	b, err := os.ReadFile(filepath.Join(policiesDir, "testdata", "engines", "terraform_1_15", "five", "data.json"))
	if err != nil {
		t.Fatal(err)
	}
	var plan map[string]any
	if err := json.Unmarshal(b, &plan); err != nil {
		t.Fatal(err)
	}
	// The bundles keep their own settings (none here): they are only
	// evaluated beside the rest.
	queries := []string{"data.platform.money.deny"}
	bundles := map[string]bool{}
	for _, e := range policyEngines {
		queries = append(queries, e.query)
		bundles[e.query] = e.bundle
	}
	for _, e := range policyEngines {
		for _, q := range queries {
			rs, err := rego.New(append(slices.Clone(opts), rego.Query(q), rego.Input(e.wrap(plan)),
				rego.Store(inmem.NewFromObject(map[string]any{"platform_policy": oneBTCCaps})))...).Eval(t.Context())
			if err != nil {
				t.Fatalf("%s over %s's input: %v", q, e.name, err)
			}
			if len(rs) != 1 || len(rs[0].Expressions) != 1 {
				t.Fatalf("%s over %s's input is undefined", q, e.name)
			}
			deny, _ := rs[0].Expressions[0].Value.([]any)
			if len(deny) == 0 && !bundles[q] {
				t.Errorf("%s over %s's input of a 5 BTC withdrawal: nothing denied", q, e.name)
			}
			if q == "data.platform.money.deny" && !slices.Contains(deny, any("platform_crypto_withdrawal.payout: sends 5 BTC, over max_per_transfer 1")) {
				t.Errorf("data.platform.money.deny over %s's input: %v, want the 5 BTC withdrawal over max_per_transfer", e.name, deny)
			}
		}
	}
}

// TestPolicyGuideSnippets: the settings of the policy guide, as a reader
// copies them: its JSON document holds platform_policy, and each Rego
// snippet is a module (the rule of a one-file policy, inside the package
// of its file) that OPA parses.
func TestPolicyGuideSnippets(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(guidesRoot, "policy-on-plans.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := map[string][]string{}
	var lang string
	var body []string
	for _, line := range strings.Split(string(b), "\n") {
		m := fencePattern.FindStringSubmatch(line)
		switch {
		case m != nil && lang == "" && m[1] != "":
			lang, body = m[1], nil
		case m != nil && lang != "":
			blocks[lang] = append(blocks[lang], strings.Join(body, "\n")+"\n")
			lang = ""
		case lang != "":
			body = append(body, line)
		}
	}
	if len(blocks["rego"]) < 2 || len(blocks["json"]) < 1 {
		t.Fatalf("the guide's rego snippets %d and JSON snippets %d, want the settings of each kind", len(blocks["rego"]), len(blocks["json"]))
	}
	for _, src := range blocks["rego"] {
		if !strings.HasPrefix(src, "package ") {
			src = "package terraform\n\n" + src
		}
		if _, err := rego.New(rego.Module("snippet.rego", src), rego.Query("true")).PrepareForEval(t.Context()); err != nil {
			t.Errorf("a Rego snippet of the guide does not parse: %v\n%s", err, src)
		}
	}
	for _, src := range blocks["json"] {
		var doc map[string]any
		if err := json.Unmarshal([]byte(src), &doc); err != nil || doc["platform_policy"] == nil {
			t.Errorf("a JSON snippet of the guide is not a settings document (%v):\n%s", err, src)
		}
	}
}
