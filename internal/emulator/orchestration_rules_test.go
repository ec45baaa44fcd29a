package emulator

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

const rulesPath = "/v2/orchestration/rules"

// ruleBody is a rule that converts USDC deposited on ETHEREUM to USDG and
// sends it to an address.
func ruleBody(ref string) map[string]any {
	return map[string]any{
		"ref_id": ref, "nickname": "usdc to usdg", "profile_id": "prof-1",
		"source_asset": "USDC", "destination_asset": "USDG",
		"source":      map[string]any{"crypto": map[string]any{"network": "ETHEREUM"}},
		"destination": map[string]any{"crypto": map[string]any{"address": "0x1111111111111111111111111111111111111111", "network": "ETHEREUM"}},
	}
}

// listRules lists the rules of query and returns their ids and statuses.
func (e *env) listRules(query url.Values) map[string]string {
	e.t.Helper()
	r := e.get(rulesPath + "?" + query.Encode())
	e.wantStatus(r, http.StatusOK)
	var page struct {
		Items []OrchestrationRule `json:"items"`
	}
	r.decode(e.t, &page)
	out := map[string]string{}
	for _, rule := range page.Items {
		out[rule.ID] = rule.Status
	}
	return out
}

// TestOrchestrationRules: a rule is made PENDING with the deposit address
// it watches, listed by its filters, refused a second time under its
// ref_id (409, without the rule), approved, rejected or deleted through
// the admin API, and deleted by the API.
func TestOrchestrationRules(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.post(rulesPath, ruleBody("rule-1"))
	e.wantStatus(r, http.StatusOK)
	var made ruleAnswer
	r.decode(t, &made)
	rule := made.Rule
	if rule.Status != RulePending || rule.Source.Crypto == nil || rule.Source.Crypto.Network != "ETHEREUM" ||
		!strings.HasPrefix(rule.Source.Crypto.Address, "0x") || rule.Destination == nil || rule.Destination.Crypto == nil {
		t.Fatalf("made %s", r.body)
	}

	again := e.post(rulesPath, ruleBody("rule-1"))
	e.wantStatus(again, http.StatusConflict)
	if strings.Contains(string(again.body), rule.ID) {
		t.Errorf("the 409 carries the rule: %s", again.body)
	}

	fiat := ruleBody("rule-2")
	fiat["source"] = map[string]any{"fiat": map[string]any{"network": "WIRE", "account_type": "ABA"}}
	fiat["destination"] = map[string]any{"profile": map[string]any{"profile_id": "prof-2"}}
	r = e.post(rulesPath, fiat)
	e.wantStatus(r, http.StatusOK)
	var second ruleAnswer
	r.decode(t, &second)
	if f := second.Rule.Source.Fiat; f == nil || f.MemoID == "" || f.DepositInstructionsID == "" {
		t.Fatalf("fiat source %s", r.body)
	}

	if got := e.listRules(url.Values{"ids": {rule.ID}}); len(got) != 1 || got[rule.ID] != RulePending {
		t.Errorf("ids filter: %v", got)
	}
	if got := e.listRules(url.Values{"status": {RulePending}, "profile_id": {"prof-1"}}); len(got) != 2 {
		t.Errorf("status and profile filters: %v", got)
	}
	if got := e.listRules(url.Values{"source_asset": {"USDC"}, "destination_asset": {"USD"}}); len(got) != 0 {
		t.Errorf("asset filters: %v", got)
	}
	e.wantStatus(e.get(rulesPath+"?ref_ids=rule-1"), http.StatusBadRequest)
	e.wantStatus(e.get(rulesPath+"?status=NOPE"), http.StatusBadRequest)

	admin := func(id, verb string, want int) {
		t.Helper()
		e.wantStatus(e.call(http.MethodPost, "/admin/orchestration-rules/"+id+"/"+verb, "", nil), want)
	}
	admin(rule.ID, "approve", http.StatusOK)
	admin(rule.ID, "reject", http.StatusConflict)
	admin(second.Rule.ID, "reject", http.StatusOK)
	admin("nope", "approve", http.StatusNotFound)
	if got := e.listRules(url.Values{"ids": {rule.ID, second.Rule.ID}}); got[rule.ID] != RuleActive || got[second.Rule.ID] != RuleRejected {
		t.Errorf("after approve and reject: %v", got)
	}

	r = e.call(http.MethodDelete, rulesPath+"/"+rule.ID, e.token, nil)
	e.wantStatus(r, http.StatusOK)
	var deleted ruleAnswer
	r.decode(t, &deleted)
	if deleted.Rule.ID != rule.ID || deleted.Rule.Status != RuleDeleted {
		t.Errorf("delete answered %s", r.body)
	}
	e.wantStatus(e.call(http.MethodDelete, rulesPath+"/"+rule.ID, e.token, nil), http.StatusOK)
	e.wantStatus(e.call(http.MethodDelete, rulesPath+"/00000000-0000-0000-0000-000000000000", e.token, nil), http.StatusNotFound)
	admin(second.Rule.ID, "delete", http.StatusOK)
	if got := e.s.OrchestrationRules(); len(got) != 2 || got[1].Status != RuleDeleted {
		t.Errorf("rules %+v", got)
	}
}

// TestOrchestrationRuleValidation: what the reference requires or
// enumerates is checked; a fiat destination is an APPROVED fiat account.
func TestOrchestrationRuleValidation(t *testing.T) {
	e := newEnv(t, Options{})
	pending := madeAccount(t, e, "", "PENDING")
	for name, change := range map[string]func(b map[string]any){
		"no ref_id": func(b map[string]any) { delete(b, "ref_id") },
		"asset":     func(b map[string]any) { b["source_asset"] = "BTC" },
		"no source": func(b map[string]any) { delete(b, "source") },
		"two sources": func(b map[string]any) {
			b["source"] = map[string]any{"crypto": map[string]any{"network": "ETHEREUM"}, "fiat": map[string]any{"network": "WIRE", "account_type": "ABA"}}
		},
		"source network": func(b map[string]any) { b["source"] = map[string]any{"crypto": map[string]any{"network": "BITCOIN"}} },
		"two destinations": func(b map[string]any) {
			b["destination"] = map[string]any{"profile": map[string]any{"profile_id": "p"}, "fiat": map[string]any{"fiat_account_id": "f"}}
		},
		"pending account": func(b map[string]any) {
			b["destination"] = map[string]any{"fiat": map[string]any{"fiat_account_id": pending}}
		},
		"deprecated id": func(b map[string]any) {
			b["destination"] = map[string]any{"crypto": map[string]any{"crypto_address_id": "x"}}
		},
	} {
		b := ruleBody("bad-" + name)
		change(b)
		if r := e.post(rulesPath, b); r.status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", name, r.status, r.body)
		}
	}
	if n := len(e.s.OrchestrationRules()); n != 0 {
		t.Errorf("%d rules made", n)
	}
}

// TestOrchestrationRulesStartActive: Options.OrchestrationRuleStatus
// ACTIVE makes rules approved at once.
func TestOrchestrationRulesStartActive(t *testing.T) {
	e := newEnv(t, Options{OrchestrationRuleStatus: RuleActive})
	e.wantStatus(e.post(rulesPath, ruleBody("rule-1")), http.StatusOK)
	if got := e.s.OrchestrationRules(); len(got) != 1 || got[0].Status != RuleActive {
		t.Errorf("rules %+v", got)
	}
}
