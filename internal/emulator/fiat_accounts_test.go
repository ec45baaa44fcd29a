package emulator

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// fiatCall sends method path (under /v2) with body ("" for none) and a
// token of scope; it returns the status and the decoded answer.
func fiatCall(t *testing.T, e *env, method, path, scope, body string) (int, map[string]any) {
	t.Helper()
	var b any
	if body != "" {
		b = body
	}
	r := e.call(method, "/v2"+path, e.tokenFor(scope), b)
	var out map[string]any
	_ = json.Unmarshal(r.body, &out)
	return r.status, out
}

const fiatAccountBody = `{"ref_id":"acct-1","fiat_account_owner":{"person_details":{"first_name":"Ada","last_name":"Lovelace"}},
"fiat_network_instructions":{"wire":{"account_number":"123456789012","fiat_account_owner_address":{"country":"USA"},
"routing_details":{"routing_number_type":"ABA","routing_number":"031302971","bank_name":"B","bank_address":{"country":"USA"}}}}}`

func TestFiatAccountLifecycle(t *testing.T) {
	e := newEnv(t, Options{FiatAccounts: 3})
	s := e.s
	const w, r = scopeWriteFiatAccount, scopeReadFiatAccount
	code, a := fiatCall(t, e, http.MethodPost, "/transfer/fiat-accounts", w, fiatAccountBody)
	if code != http.StatusOK || a["status"] != "PENDING" {
		t.Fatalf("create: %d %v", code, a)
	}
	id, _ := a["id"].(string)
	// A repeated ref_id makes another account: no replay answer.
	if code, _ := fiatCall(t, e, http.MethodPost, "/transfer/fiat-accounts", w, fiatAccountBody); code != http.StatusOK || len(s.MadeFiatAccounts()) != 2 {
		t.Fatalf("repeated ref_id: %d, %d accounts", code, len(s.MadeFiatAccounts()))
	}
	// Get answers the full number, the list the last four.
	_, got := fiatCall(t, e, http.MethodGet, "/transfer/fiat-accounts/"+id, r, "")
	if !strings.Contains(faJSON(t, got), `"account_number":"123456789012"`) {
		t.Errorf("get: %v", got)
	}
	_, list := fiatCall(t, e, http.MethodGet, "/transfer/fiat-accounts?ids="+id, r, "")
	if lj := faJSON(t, list); !strings.Contains(lj, `"account_number":"XXXX9012"`) || strings.Contains(lj, "123456789012") || strings.Contains(lj, "Lovelace") {
		t.Errorf("list: %s", lj)
	}
	// Approve, then update: back to PENDING; the owner's kind cannot change.
	if !s.SetFiatAccountStatus(id, "APPROVED") {
		t.Fatal("approve")
	}
	code, u := fiatCall(t, e, http.MethodPut, "/transfer/fiat-accounts/"+id, w,
		`{"fiat_network_instructions":{"wire":{"routing_details":{"bank_name":"C"}}},"metadata":{"k":"v"}}`)
	if code != http.StatusOK || u["status"] != "PENDING" || !strings.Contains(faJSON(t, u), `"bank_name":"C"`) {
		t.Errorf("update: %d %v", code, u)
	}
	if code, _ := fiatCall(t, e, http.MethodPut, "/transfer/fiat-accounts/"+id, w,
		`{"fiat_account_owner":{"institution_details":{"name":"X"}}}`); code != http.StatusBadRequest {
		t.Errorf("owner kind change: %d, want 400", code)
	}
	// Delete: 200, then 404; listed only with include_deleted.
	if code, _ := fiatCall(t, e, http.MethodDelete, "/transfer/fiat-accounts/"+id, w, ""); code != http.StatusOK {
		t.Errorf("delete: %d", code)
	}
	if code, _ := fiatCall(t, e, http.MethodDelete, "/transfer/fiat-accounts/"+id, w, ""); code != http.StatusNotFound {
		t.Errorf("second delete: %d, want 404", code)
	}
	if code, _ := fiatCall(t, e, http.MethodGet, "/transfer/fiat-accounts/"+id, r, ""); code != http.StatusNotFound {
		t.Errorf("get of a deleted account: %d, want 404", code)
	}
	_, list = fiatCall(t, e, http.MethodGet, "/transfer/fiat-accounts?include_deleted=true&ids="+id, r, "")
	if items, _ := list["items"].([]any); len(items) != 1 {
		t.Errorf("include_deleted lists %d items, want 1", len(items))
	}
	// Scopes as published: reading does not allow a create.
	if code, _ := fiatCall(t, e, http.MethodPost, "/transfer/fiat-accounts", r, fiatAccountBody); code != http.StatusForbidden {
		t.Errorf("create with the read scope: %d, want 403", code)
	}
	// Plan-time rules are the service's too: two owners is a 400.
	bad := strings.Replace(fiatAccountBody, `"person_details"`, `"institution_details":{"name":"X"},"person_details"`, 1)
	if code, _ := fiatCall(t, e, http.MethodPost, "/transfer/fiat-accounts", w, bad); code != http.StatusBadRequest {
		t.Errorf("two owners: %d, want 400", code)
	}
}

func faJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
