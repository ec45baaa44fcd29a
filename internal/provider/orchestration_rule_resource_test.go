package provider

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

const (
	orAddr     = "platform_orchestration_rule.route"
	orAddress  = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
	orPostKey  = "POST /v2/orchestration/rules"
	orRulesKey = "/v2/orchestration/rules"
)

// orConfig is a rule that converts USDC deposited on ETHEREUM to USDG and
// sends it to orAddress, with extra arguments.
func orConfig(extra string) string {
	return hclResource("platform_orchestration_rule", "route", "", []string{"profile_id", `"profile-1"`,
		"nickname", `"core"`, "source_asset", `"USDC"`, "destination_asset", `"USDG"`,
		"source", `{ crypto = { network = "ETHEREUM" } }`,
		"destination", fmt.Sprintf(`{ crypto = { address = %q, network = "ETHEREUM" } }`, orAddress)}, extra)
}

// orWrites counts the writes of rules the emulator received: creates and
// deletes.
func orWrites(emu *emulator.Server) (posts, deletes int) {
	for k, n := range emu.Counters.AllRequests() {
		switch {
		case k == orPostKey:
			posts += n
		case strings.HasPrefix(k, "DELETE "+orRulesKey+"/"):
			deletes += n
		}
	}
	return posts, deletes
}

// wantWrites fails unless the emulator received exactly posts creates and
// deletes deletes of rules.
func wantWrites(t *testing.T, step string, emu *emulator.Server, posts, deletes int) {
	t.Helper()
	if p, d := orWrites(emu); p != posts || d != deletes {
		t.Fatalf("%s: %d POST and %d DELETE of rules reached the emulator, want %d and %d", step, p, d, posts, deletes)
	}
}

// TestAccOrchestrationRule_lifecycle: a rule is created once, its ref_id
// and its money manifest in the saved plan, which the policy judges; it is
// refreshed to ACTIVE with no write, replaced by exactly one DELETE and
// one POST when its nickname changes, said at plan once REJECTED,
// imported by id, and destroyed by exactly one DELETE.
func TestAccOrchestrationRule_lifecycle(t *testing.T) {
	t.Parallel()
	emu := startCore(t, emulator.Options{})
	w := newCLIWorkdir(t)
	w.write(emulatorProviderBlock(emu, ""), orConfig(""))

	w.mustRun(0, "plan", "-out=rule.tfplan")
	money := plannedMoney(t, w, "rule.tfplan", orAddr)
	ref, _ := money["ref_id"].(string)
	if money["kind"] != moneyKindOrchestrationRule || ref == "" || money["sends"] != true || money["to"] != orAddress ||
		money["asset"] != "USDC" || money["from_profile_id"] != "profile-1" || money["amount"] != nil {
		t.Fatalf("planned money %v", money)
	}
	var plan any
	if err := json.Unmarshal([]byte(w.mustRun(0, "show", "-json", "rule.tfplan").stdout), &plan); err != nil {
		t.Fatal(err)
	}
	if got := evalPolicies(t, plan, map[string]any{"allowed_destinations": []any{
		map[string]any{"crypto_network": "ETHEREUM", "address": "0x0000000000000000000000000000000000000001"},
	}}); len(got) != 1 || got[0] != orAddr+": destination "+orAddress+" on ETHEREUM is not in allowed_destinations" {
		t.Errorf("the policy with another allowed destination: %v", got)
	}
	if got := evalPolicies(t, plan, map[string]any{"allowed_destinations": []any{
		map[string]any{"crypto_network": "ETHEREUM", "address": orAddress},
	}, "max_plan_total": map[string]any{"USDC": "1"}}); len(got) != 0 {
		t.Errorf("the policy denies a rule to an allowed destination: %v", got)
	}
	wantWrites(t, "plan", emu, 0, 0)

	w.mustRun(0, "apply", "rule.tfplan")
	wantWrites(t, "apply", emu, 1, 0)
	rules := emu.OrchestrationRules()
	if len(rules) != 1 || rules[0].RefID != ref {
		t.Fatalf("rules at the emulator %+v, want one with ref_id %s", rules, ref)
	}
	first := rules[0]
	st := stateOf(t, w, orAddr)
	if st["id"] != first.ID || st["status"] != "PENDING" || st["ref_id"] != ref ||
		st["deposit_address"] != first.Source.Crypto.Address || st["deposit_address_id"] != first.Source.Crypto.AddressID {
		t.Fatalf("state %v, the emulator's rule %+v", st, first)
	}

	// Approved at the service: a refresh follows it and writes nothing.
	if !emu.SetOrchestrationRuleStatus(first.ID, emulator.RuleActive) {
		t.Fatal("no rule to approve")
	}
	w.mustRun(0, "plan", "-detailed-exitcode")
	w.mustRun(0, "apply", "-refresh-only", "-auto-approve")
	if st := stateOf(t, w, orAddr); st["status"] != "ACTIVE" {
		t.Errorf("status after the refresh %v, want ACTIVE", st["status"])
	}
	wantWrites(t, "refresh", emu, 1, 0)

	// A new nickname replaces it: one DELETE, then one POST.
	w.write(emulatorProviderBlock(emu, ""), strings.Replace(orConfig(""), `"core"`, `"core-2"`, 1))
	r := w.mustRun(0, "plan")
	mustContain(t, "plan of the new nickname", r.output(), "must be replaced", "1 to add, 0 to change, 1 to destroy")
	// The replacement is said, as every money type's is, naming the
	// deposit address that stops routing.
	mustContain(t, "warning of the replacement", flatOutput(r.output()),
		"Changing an orchestration rule replaces it: its deposit address changes",
		`Changed: nickname "core" → "core-2".`,
		"applying deletes the rule "+first.ID+" (USDC deposits on ETHEREUM to USDG, to "+orAddress+" on ETHEREUM, "+
			"for profile profile-1, ref_id "+ref+", status ACTIVE) and creates a NEW rule",
		"Once the old rule is deleted, its deposit_address "+first.Source.Crypto.Address+", the address customers "+
			"pay into, is no longer routed")
	w.mustRun(0, "apply", "-auto-approve")
	wantWrites(t, "replacement", emu, 2, 1)
	rules = emu.OrchestrationRules()
	if len(rules) != 2 || rules[0].Status != emulator.RuleDeleted || rules[1].Status != emulator.RulePending ||
		rules[1].Nickname != "core-2" {
		t.Fatalf("rules after the replacement %+v", rules)
	}
	second := rules[1]
	w.mustRun(0, "plan", "-detailed-exitcode")

	// Rejected at the service: said at plan, nothing planned.
	emu.SetOrchestrationRuleStatus(second.ID, emulator.RuleRejected)
	r = w.mustRun(0, "plan")
	mustContain(t, "plan of a rejected rule", r.output(), "Orchestration rule "+second.ID+" is REJECTED",
		"was rejected by the service's approval", "give it a new ref_id")
	wantWrites(t, "plan of a rejected rule", emu, 2, 1)

	// Imported by id in another configuration: the same rule, no change.
	other := newCLIWorkdir(t)
	other.write(emulatorProviderBlock(emu, ""), strings.Replace(orConfig(""), `"core"`, `"core-2"`, 1))
	other.mustRun(0, "import", orAddr, second.ID)
	other.mustRun(0, "plan", "-detailed-exitcode")
	if st := stateOf(t, other, orAddr); st["ref_id"] != second.RefID || st["status"] != "REJECTED" {
		t.Errorf("imported state %v", st)
	}
	wantWrites(t, "import", emu, 2, 1)

	w.mustRun(0, "destroy", "-auto-approve")
	wantWrites(t, "destroy", emu, 2, 2)
	if rules := emu.OrchestrationRules(); rules[1].Status != emulator.RuleDeleted {
		t.Errorf("after destroy: %+v", rules[1])
	}
}

// TestAccOrchestrationRule_guards: under approved_destinations_only a
// rule to an address that is not an APPROVED entry of the address book,
// or to a fiat account the service has not approved, is refused at plan
// with no POST; approved at plan and rejected before the saved plan is
// applied, it is refused by the apply, with no POST. wait_for_active waits for the approval.
func TestAccOrchestrationRule_guards(t *testing.T) {
	t.Parallel()
	emu := startCore(t, emulator.Options{OrchestrationRuleStatus: emulator.RuleActive})
	guard := "  withdrawal_guard {\n    approved_destinations_only = true\n  }\n"
	w := newCLIWorkdir(t)
	w.write(emulatorProviderBlock(emu, guard), orConfig(`  wait_for_active = "5m"`+"\n"))
	r := w.mustRun(1, "plan")
	mustContain(t, "plan to an address outside the book", r.output(),
		"Withdrawal guard approved_destinations_only refuses this platform_orchestration_rule",
		"would route every future deposit", orAddress+" on ETHEREUM is not an APPROVED address",
		"Nothing was sent. Next step: have "+orAddress+" on ETHEREUM approved")
	wantWrites(t, "plan to an address outside the book", emu, 0, 0)

	c := emulatorClient(t, emu)
	entry, err := c.PutCryptoDestinationAddress(t.Context(), client.PutCryptoDestinationAddressRequest{
		CryptoNetwork: "ETHEREUM", Address: orAddress})
	if err != nil {
		t.Fatal(err)
	}
	r = w.mustRun(1, "plan")
	mustContain(t, "plan to a PENDING address", r.output(), "It is in the book, not approved: "+entry.ID)
	wantWrites(t, "plan to a PENDING address", emu, 0, 0)

	emu.SetCryptoDestinationAddressStatus(entry.ID, client.DestinationAddressApproved)
	w.mustRun(0, "plan", "-out=approved.tfplan")
	emu.SetCryptoDestinationAddressStatus(entry.ID, "REJECTED")
	r = w.mustRun(1, "apply", "approved.tfplan")
	// The apply plans the rule again, and judges it again, before it sends.
	mustContain(t, "apply after the address was rejected", r.output(),
		"Withdrawal guard approved_destinations_only refuses this platform_orchestration_rule",
		"It is in the book, not approved: "+entry.ID+" (ETHEREUM, status REJECTED)")
	wantWrites(t, "apply after the address was rejected", emu, 0, 0)

	emu.SetCryptoDestinationAddressStatus(entry.ID, client.DestinationAddressApproved)
	w.mustRun(0, "apply", "-auto-approve")
	wantWrites(t, "apply to an approved address", emu, 1, 0)
	if st := stateOf(t, w, orAddr); st["status"] != "ACTIVE" || st["wait_for_active"] != "5m" {
		t.Errorf("state %v", st)
	}
	w.mustRun(0, "plan", "-detailed-exitcode")

	// A fiat destination the service has not approved.
	fiat := newCLIWorkdir(t)
	account := madeAccountAt(t, emu, "PENDING")
	fiat.write(emulatorProviderBlock(emu, guard), strings.Replace(orConfig(""),
		`destination       = { crypto = { address = "`+orAddress+`", network = "ETHEREUM" } }`,
		`destination       = { fiat = { fiat_account_id = "`+account+`" } }`, 1))
	r = fiat.mustRun(1, "plan")
	mustContain(t, "plan to a PENDING fiat account", r.output(),
		"Withdrawal guard approved_destinations_only refuses this platform_orchestration_rule",
		"the fiat account "+account+" is PENDING at the service, not APPROVED",
		"Next step: have the account approved by the service's review")
	wantWrites(t, "plan to a PENDING fiat account", emu, 1, 0)
}

// madeAccountAt adds a fiat account to emu whose status is status.
func madeAccountAt(t *testing.T, emu *emulator.Server, status string) string {
	t.Helper()
	id := "fa-" + strings.ToLower(status)
	if !emu.AddApprovedFiatAccount(id) || !emu.SetFiatAccountStatus(id, status) {
		t.Fatalf("fiat account %s not added", id)
	}
	return id
}

// TestPolicyJudgesRuleDestinations: the shipped policy judges the
// destination of a rule as a withdrawal's (allowed_destinations,
// approved_destinations_only), leaves a rule to a profile or a fiat
// account to the customer's own, counts no rule in a total, and refuses a
// rule whose destination the plan does not know.
func TestPolicyJudgesRuleDestinations(t *testing.T) {
	rule := func(to any, destination map[string]any, unknown map[string]any) map[string]any {
		after := map[string]any{
			"profile_id": "p", "source_asset": "USDC", "destination_asset": "USDG", "destination": destination,
			"money": map[string]any{"version": 1, "kind": "orchestration_rule", "asset": "USDC", "amount": nil,
				"from_profile_id": "p", "to": to, "ref_id": "r", "sends": true},
		}
		return map[string]any{"resource_changes": []any{map[string]any{
			"address": orAddr, "mode": "managed", "type": "platform_orchestration_rule",
			"provider_name": "registry.terraform.io/platform/platform",
			"change":        map[string]any{"actions": []any{"create"}, "after": after, "after_unknown": unknown},
		}}}
	}
	// A plan's after_unknown has the manifest's object, with what is
	// unknown in it.
	known := map[string]any{"money": map[string]any{}}
	crypto := rule(orAddress, map[string]any{"crypto": map[string]any{"address": orAddress, "network": "ETHEREUM"}}, known)
	other := []any{map[string]any{"crypto_network": "ETHEREUM", "address": "0x1"}}
	for _, tc := range []struct {
		name     string
		input    map[string]any
		settings map[string]any
		want     string
	}{
		{"outside the allow list", crypto, map[string]any{"allowed_destinations": other},
			orAddr + ": destination " + orAddress + " on ETHEREUM is not in allowed_destinations"},
		{"in the allow list", crypto, map[string]any{"allowed_destinations": []any{
			map[string]any{"crypto_network": "ETHEREUM", "address": orAddress}}}, ""},
		{"not approved in the plan", crypto, map[string]any{"approved_destinations_only": true},
			orAddr + ": destination " + orAddress + " on ETHEREUM is not an APPROVED platform_crypto_destination_address of this plan"},
		{"to a profile", rule("p2", map[string]any{"profile": map[string]any{"profile_id": "p2"}}, known),
			map[string]any{"allowed_destinations": other, "max_plan_total": map[string]any{"USDC": "0"}}, ""},
		{"destination unknown", rule(nil, nil, map[string]any{"money": map[string]any{"to": true}, "destination": true}),
			map[string]any{}, orAddr + ": cannot be judged (unknown or unreadable: to)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := evalPolicies(t, tc.input, tc.settings)
			switch {
			case tc.want == "" && len(got) != 0:
				t.Errorf("denied: %v", got)
			case tc.want != "" && (len(got) != 1 || !strings.HasPrefix(got[0], tc.want)):
				t.Errorf("denied %v, want %q", got, tc.want)
			}
		})
	}
}

// TestWaitForActive: a create that waits for its rule's approval returns
// the rule once ACTIVE, says REJECTED as an error, and records a rule
// still PENDING after the timeout with a warning. The clock is the test's:
// each read of it is a minute later.
func TestWaitForActive(t *testing.T) {
	defer func(d time.Duration) { ruleWaitInterval = d }(ruleWaitInterval)
	ruleWaitInterval = time.Millisecond
	emu := emulator.StartTest(t, emulator.Options{})
	c := emulatorClient(t, emu)
	for _, tc := range []struct {
		name, status string
		// reads is how many reads of the rule the wait makes.
		reads            int
		warning, failure string
	}{
		{"approved", emulator.RuleActive, 1, "", ""},
		{"rejected", emulator.RuleRejected, 1, "", "is REJECTED"},
		{"still pending", emulator.RulePending, 2, "not ACTIVE yet", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := c.CreateOrchestrationRule(t.Context(), client.OrchestrationRuleRequest{RefID: "wait-" + tc.name,
				ProfileID: "p", SourceAsset: "USDC", DestinationAsset: "USDG",
				Source: client.RuleRequestSource{Crypto: &client.RuleCryptoSourceRequest{Network: "ETHEREUM"}}})
			if err != nil {
				t.Fatal(err)
			}
			emu.SetOrchestrationRuleStatus(*r.ID, tc.status)
			now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			data := &moneyRun{client: c, now: func() time.Time { now = now.Add(time.Minute); return now }}
			before := emu.Counters.Requests("GET " + orRulesKey)
			var diags diag.Diagnostics
			got := waitForActive(t.Context(), data, r, 3*time.Minute, &diags)
			if n := emu.Counters.Requests("GET "+orRulesKey) - before; n != tc.reads {
				t.Errorf("%d reads, want %d", n, tc.reads)
			}
			if *got.Status != tc.status {
				t.Errorf("status %s, want %s", *got.Status, tc.status)
			}
			text := fmt.Sprint(diags)
			if diags.HasError() != (tc.failure != "") || !strings.Contains(text, tc.failure) ||
				(tc.warning != "" && (diags.WarningsCount() != 1 || !strings.Contains(text, tc.warning))) {
				t.Errorf("diagnostics %v", diags)
			}
		})
	}
}

// plannedChange is the change of addr in the saved plan planFile: its
// actions, and its values before and after.
func plannedChange(t *testing.T, w *cliWorkdir, planFile, addr string) (actions []string, before, after map[string]any) {
	t.Helper()
	rc := savedPlanChange(t, w, planFile, addr)
	return rc.Change.Actions, rc.Change.Before, rc.Change.After
}

// cryptoDestinationOf is the crypto destination address of a rule's state
// or planned values.
func cryptoDestinationOf(v map[string]any) any {
	d, _ := v["destination"].(map[string]any)
	c, _ := d["crypto"].(map[string]any)
	return c["address"]
}

// TestAccOrchestrationRule_destinationDrift: the service answers an ACTIVE
// rule with another destination address (changed outside Terraform). The
// refresh records the address the service answers and warns, naming the
// old and the new destination; the plan shows the difference with the
// configuration, a replacement that puts the configured address back;
// applying it deletes the changed rule and creates one to the configured
// address, after which nothing is planned.
func TestAccOrchestrationRule_destinationDrift(t *testing.T) {
	t.Parallel()
	emu := startCore(t, emulator.Options{OrchestrationRuleStatus: emulator.RuleActive})
	w := newCLIWorkdir(t)
	w.write(emulatorProviderBlock(emu, ""), orConfig(""))
	w.mustRun(0, "apply", "-auto-approve")
	rules := emu.OrchestrationRules()
	if len(rules) != 1 {
		t.Fatalf("rules at the emulator %+v, want one", rules)
	}
	first := rules[0]
	w.mustRun(0, "plan", "-detailed-exitcode")

	const elsewhere = "0x1111111111111111111111111111111111111111"
	var dst emulator.OrchestrationRuleEndpoints
	if err := json.Unmarshal([]byte(`{"crypto":{"address":"`+elsewhere+`","network":"ETHEREUM"}}`), &dst); err != nil {
		t.Fatal(err)
	}
	if _, ok := emu.SetOrchestrationRuleDestination(first.ID, &dst); !ok {
		t.Fatal("no rule to change")
	}

	r := w.mustRun(2, "plan", "-detailed-exitcode", "-out=drift.tfplan")
	mustContain(t, "plan after the change at the service", r.output(),
		"Orchestration rule "+first.ID+" sends deposits to another destination",
		"it sent deposits to "+orAddress+" on ETHEREUM, and the service now answers "+elsewhere+" on ETHEREUM",
		"must be replaced", "1 to add, 0 to change, 1 to destroy")
	actions, before, after := plannedChange(t, w, "drift.tfplan", orAddr)
	if strings.Join(actions, ",") != "delete,create" || cryptoDestinationOf(before) != elsewhere ||
		cryptoDestinationOf(after) != orAddress || before["id"] != first.ID {
		t.Fatalf("planned %v, before %v, after %v", actions, before, after)
	}
	wantWrites(t, "plan", emu, 1, 0)

	// A refresh alone records what the service answers.
	r = w.mustRun(0, "apply", "-refresh-only", "-auto-approve")
	mustContain(t, "refresh", r.output(), "sends deposits to another destination")
	if st := stateOf(t, w, orAddr); cryptoDestinationOf(st) != elsewhere || st["id"] != first.ID || st["status"] != "ACTIVE" {
		t.Fatalf("state after the refresh %v", st)
	}

	// Applying puts the configured destination back: the changed rule is
	// deleted, a new one routes to the configured address.
	w.mustRun(0, "apply", "-auto-approve")
	wantWrites(t, "apply", emu, 2, 1)
	rules = emu.OrchestrationRules()
	if len(rules) != 2 || rules[0].Status != emulator.RuleDeleted || rules[1].Destination == nil ||
		rules[1].Destination.Crypto == nil || rules[1].Destination.Crypto.Address != orAddress {
		t.Fatalf("rules after the apply %+v", rules)
	}
	if st := stateOf(t, w, orAddr); cryptoDestinationOf(st) != orAddress || st["id"] != rules[1].ID {
		t.Fatalf("state after the apply %v", st)
	}
	w.mustRun(0, "plan", "-detailed-exitcode")
}

// TestRefreshOrchestrationRuleFollowsTheService: a refresh records every
// argument the service reports as it answers it (assets, source,
// destination, nickname, identity), names each change, and warns with the
// old and new destination when that changed; an unchanged answer, a
// field the answer leaves out, and an optional field the create did not
// send (a nickname, a memo: the service's default) change nothing.
func TestRefreshOrchestrationRuleFollowsTheService(t *testing.T) {
	ctx := t.Context()
	str := func(s string) *string { return &s }
	recorded := func(t *testing.T, nickname, memo *string) shapedState[orchestrationRuleArgs] {
		t.Helper()
		var diags diag.Diagnostics
		fiat := ruleObject(ruleFiatDestinationType, map[string]attr.Value{
			"fiat_account_id": types.StringValue("fa-1"), "memo": stringValue(memo)}, &diags)
		dst := ruleObject(types.ObjectType{AttrTypes: ruleDestinationTypes}, map[string]attr.Value{
			"crypto": types.ObjectNull(ruleCryptoDestinationType.AttrTypes), "fiat": fiat,
			"profile": types.ObjectNull(ruleProfileDestinationType.AttrTypes)}, &diags)
		src := answeredSource(&client.OrchestrationRuleSource{Fiat: &struct {
			DepositInstructionsID *string `json:"deposit_instructions_id"`
			Network               *string `json:"network"`
			AccountType           *string `json:"account_type"`
			MemoID                *string `json:"memo_id"`
		}{Network: str("WIRE"), AccountType: str("ABA")}}, &diags)
		if diags.HasError() {
			t.Fatal(diags)
		}
		return shapedState[orchestrationRuleArgs]{args: orchestrationRuleArgs{
			ProfileID: types.StringValue("p-1"), Nickname: stringValue(nickname), SourceAsset: types.StringValue("USD"),
			DestinationAsset: types.StringValue("USDC"), Source: src, Destination: dst,
			IdentityID: types.StringNull(), AccountID: types.StringNull(), RefID: types.StringValue("ref-1"),
			WaitForActive: types.StringNull(),
		}, computed: map[string]attr.Value{"id": types.StringValue("rule-1")}}
	}
	answer := func(mutate func(r *client.OrchestrationRule)) *client.OrchestrationRule {
		var r client.OrchestrationRule
		if err := json.Unmarshal([]byte(`{"id":"rule-1","ref_id":"ref-1","profile_id":"p-1","status":"ACTIVE",
			"nickname":"core","source_asset":"USD","destination_asset":"USDC",
			"source":{"fiat":{"network":"WIRE","account_type":"ABA","memo_id":"m-1","deposit_instructions_id":"fdi-1"}},
			"destination":{"fiat":{"fiat_account_id":"fa-1","memo":"payroll"}}}`), &r); err != nil {
			t.Fatal(err)
		}
		if mutate != nil {
			mutate(&r)
		}
		return &r
	}
	for _, tc := range []struct {
		name           string
		nickname, memo *string
		mutate         func(r *client.OrchestrationRule)
		// want: the warning's summary ("" for none) and what it names.
		want  string
		names []string
		check func(t *testing.T, a orchestrationRuleArgs)
	}{
		{name: "unchanged", nickname: str("core"), memo: str("payroll")},
		{name: "defaults of what was not sent", nickname: nil, memo: nil,
			check: func(t *testing.T, a orchestrationRuleArgs) {
				if !a.Nickname.IsNull() || !strings.Contains(a.Destination.String(), `"memo":<null>`) {
					t.Errorf("unsent nickname %v, destination %v: want both null", a.Nickname, a.Destination)
				}
			}},
		{name: "left out of the answer", nickname: str("core"), memo: str("payroll"),
			mutate: func(r *client.OrchestrationRule) { r.Nickname, r.SourceAsset, r.Source = nil, nil, nil }},
		{name: "identity reported", nickname: str("core"), memo: str("payroll"),
			mutate: func(r *client.OrchestrationRule) { r.IdentityID = str("ident-1") },
			check: func(t *testing.T, a orchestrationRuleArgs) {
				if a.IdentityID.ValueString() != "ident-1" {
					t.Errorf("identity_id %v, want the answered one", a.IdentityID)
				}
			}},
		{name: "assets, nickname and source", nickname: str("core"), memo: str("payroll"),
			mutate: func(r *client.OrchestrationRule) {
				r.Nickname, r.SourceAsset, r.DestinationAsset = str("renamed"), str("USDP"), str("PYUSD")
				r.Source.Fiat.Network = str("CUBIX")
			},
			want: "Orchestration rule rule-1 changed outside Terraform",
			names: []string{`nickname: recorded "core", answered "renamed"`, `source_asset: recorded "USD", answered "USDP"`,
				`destination_asset: recorded "USDC", answered "PYUSD"`, "source: recorded WIRE ABA, answered CUBIX ABA"},
			check: func(t *testing.T, a orchestrationRuleArgs) {
				if a.Nickname.ValueString() != "renamed" || a.SourceAsset.ValueString() != "USDP" ||
					a.DestinationAsset.ValueString() != "PYUSD" || !strings.Contains(a.Source.String(), `"CUBIX"`) {
					t.Errorf("recorded %+v", a)
				}
			}},
		{name: "another destination", nickname: str("core"), memo: str("payroll"),
			mutate: func(r *client.OrchestrationRule) {
				r.Destination.Fiat = nil
				r.Destination.Crypto = &struct {
					Address *string `json:"address"`
					Network *string `json:"network"`
				}{str("0xabc"), str("ETHEREUM")}
			},
			want: "Orchestration rule rule-1 sends deposits to another destination",
			names: []string{"it sent deposits to fiat account fa-1, and the service now answers 0xabc on ETHEREUM",
				"destination: recorded fiat account fa-1, answered 0xabc on ETHEREUM"},
			check: func(t *testing.T, a orchestrationRuleArgs) {
				if d, _ := a.destination(ctx); d.Crypto == nil || d.Crypto.Address.ValueString() != "0xabc" || d.Fiat != nil {
					t.Errorf("recorded destination %v", a.Destination)
				}
			}},
		{name: "no destination any more", nickname: str("core"), memo: str("payroll"),
			mutate: func(r *client.OrchestrationRule) { r.Destination = nil },
			want:   "Orchestration rule rule-1 sends deposits to another destination",
			names: []string{"it sent deposits to fiat account fa-1, and the service now answers no destination " +
				"(its own profile p-1)"},
			check: func(t *testing.T, a orchestrationRuleArgs) {
				if !a.Destination.IsNull() {
					t.Errorf("recorded destination %v, want null", a.Destination)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := recorded(t, tc.nickname, tc.memo)
			before := m.args
			var diags diag.Diagnostics
			refreshOrchestrationRule(ctx, &m, answer(tc.mutate), &diags)
			if diags.HasError() {
				t.Fatal(diags)
			}
			if tc.want == "" {
				if len(diags) != 0 {
					t.Errorf("diagnostics %v, want none", diags)
				}
				if tc.check == nil && (!m.args.Destination.Equal(before.Destination) || !m.args.Source.Equal(before.Source) ||
					!m.args.Nickname.Equal(before.Nickname) || !m.args.SourceAsset.Equal(before.SourceAsset)) {
					t.Errorf("recorded %+v, want %+v", m.args, before)
				}
			} else {
				if len(diags) != 1 || diags[0].Summary() != tc.want {
					t.Fatalf("diagnostics %v, want one warning %q", diags, tc.want)
				}
				for _, want := range tc.names {
					if !strings.Contains(spaced(diags[0].Detail()), want) {
						t.Errorf("warning lacks %q:\n%s", want, diags[0].Detail())
					}
				}
			}
			if tc.check != nil {
				tc.check(t, m.args)
			}
			if m.str("status").ValueString() != "ACTIVE" {
				t.Errorf("status %v, want the answered ACTIVE", m.str("status"))
			}
		})
	}
}
