package contract

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func newExchange(method, target, body string, status int, answer string, scopes ...string) Exchange {
	u, _ := url.Parse(target)
	return Exchange{
		Method: method, URL: u,
		RequestHeader: http.Header{"Content-Type": {"application/json"}, "Authorization": {"Bearer t"}},
		RequestBody:   []byte(body),
		Status:        status,
		Header:        http.Header{"Content-Type": {"application/json"}},
		Body:          []byte(answer),
		Scopes:        scopes,
	}
}

const transfer = `{"id":"t1","customer_id":"c","profile_id":"p","amount":"1","total":"1","fee":"0","asset":"BTC",` +
	`"direction":"DEBIT","type":"INTERNAL_TRANSFER_DEBIT","status":"PENDING","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}`

// TestCheckerCatchesDrift: each kind of drift the contract exists for is
// a violation, and the exchange without it is none.
func TestCheckerCatchesDrift(t *testing.T) {
	ref, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	const internal = `{"ref_id":"r","from_profile_id":"a","to_profile_id":"b","asset":"BTC","amount":"1"}`
	good := newExchange(http.MethodPost, "/v2/transfer/internal", internal, 200, transfer, "transfer:write_internal_transfer")
	if err := ref.CheckRequest(good); err != nil {
		t.Fatalf("a request of the reference: %v", err)
	}
	if err := ref.CheckResponse(good); err != nil {
		t.Fatalf("an answer of the reference: %v", err)
	}
	balances := newExchange(http.MethodGet, "/v2/profiles/p/balances", "", 200, `{"items":[{"asset":"BTC","available":"1","trading":"0"}]}`, "funding:read_profile")
	if err := ref.CheckRequest(balances); err != nil {
		t.Fatalf("balances: %v", err)
	}
	if err := ref.CheckResponse(balances); err != nil {
		t.Fatalf("balances: %v", err)
	}

	for _, c := range []struct {
		name     string
		ex       Exchange
		response bool
		want     string
	}{
		{"wrong scope", newExchange(http.MethodGet, "/v2/profiles/p/balances", "", 200, "", "profile:read_balances"), false, "hold none of the operation's [funding:read_profile]"},
		{"query parameter it does not have", newExchange(http.MethodGet, "/v2/transfer/transfers?ref_id=x", "", 200, "", "transfer:read_transfer"), false, "query parameters the operation does not have: ref_id"},
		{"body field it does not have", newExchange(http.MethodPost, "/v2/transfer/internal", strings.Replace(internal, `"amount"`, `"amount_value"`, 1), 200, "", "transfer:write_internal_transfer"), false, "amount_value"},
		{"operation it does not have", newExchange(http.MethodGet, "/v2/transfer/internal", "", 200, "", "transfer:write_internal_transfer"), false, "not an operation of the reference"},
		{"renamed answer field", newExchange(http.MethodPost, "/v2/transfer/internal", internal, 200, strings.Replace(transfer, `"fee"`, `"fees"`, 1)), true, "fee"},
		{"balances envelope", newExchange(http.MethodGet, "/v2/profiles/p/balances", "", 200, `{"balances":[{"asset":"BTC","available":"1","trading":"0"}]}`), true, "items"},
		{"undocumented success status", newExchange(http.MethodPost, "/v2/transfer/internal", internal, 201, transfer), true, "status 201 is not an answer"},
	} {
		t.Run(c.name, func(t *testing.T) {
			check := ref.CheckRequest
			if c.response {
				check = ref.CheckResponse
			}
			err := check(c.ex)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one naming %q", err, c.want)
			}
		})
	}
}

// TestCheckerKeepsEachViolationOnce: a checker reports a drift seen twice
// once, and not an answer with a fault.
func TestCheckerKeepsEachViolationOnce(t *testing.T) {
	chk, err := NewChecker(true, true)
	if err != nil {
		t.Fatal(err)
	}
	bad := newExchange(http.MethodGet, "/v2/transfer/transfers?ref_id=x", "", 200, `{"items":[]}`, "transfer:read_transfer")
	chk.Observe(bad)
	chk.Observe(bad)
	faulted := newExchange(http.MethodPost, "/v2/transfer/internal", `{"from_profile_id":"a","to_profile_id":"b","asset":"BTC","amount":"1"}`, 200, `{}`, "transfer:write_internal_transfer")
	faulted.Faults = []string{"accept-then-fail"}
	chk.Observe(faulted)
	if v := chk.Violations(); len(v) != 1 || !strings.Contains(v[0], "ref_id") {
		t.Errorf("violations %q, want the one query parameter", v)
	}
}

// TestLongListsCheckTheirFirstItems: a list answer of more than
// checkedItems items is held against its schema by its first ones; a drift
// among them is still caught.
func TestLongListsCheckTheirFirstItems(t *testing.T) {
	ref, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	item := `{"asset":"BTC","available":"1","trading":"0"}`
	many := func(bad int) string {
		items := make([]string, 3*checkedItems)
		for i := range items {
			items[i] = item + strings.Repeat(" ", 300)
			if i == bad {
				items[i] = `{"asset":"BTC","available":"1"}`
			}
		}
		return `{"items":[` + strings.Join(items, ",") + `]}`
	}
	if err := ref.CheckResponse(newExchange(http.MethodGet, "/v2/profiles/p/balances", "", 200, many(-1))); err != nil {
		t.Errorf("a long list of the reference: %v", err)
	}
	if err := ref.CheckResponse(newExchange(http.MethodGet, "/v2/profiles/p/balances", "", 200, many(7))); err == nil || !strings.Contains(err.Error(), "trading") {
		t.Errorf("a drift in item 7 of a long list: %v, want it named", err)
	}
}
