package emulator

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/platform/terraform-provider-platform/internal/contract"
)

// seedOperations are the operations of the seed's api-spec.md (its
// Endpoints table), with their scopes.
var seedOperations = []Route{
	{http.MethodPost, "/transfer/crypto-withdrawals", "transfer:write_crypto_withdrawal", true},
	{http.MethodPost, "/transfer/fiat-deposit-instructions", "transfer:write_fiat_deposit_instructions", true},
	{http.MethodGet, "/transfer/fiat-accounts", "transfer:read_fiat_account", true},
	{http.MethodGet, "/transfer/fiat-deposit-instructions/{id}", "transfer:read_fiat_deposit_instructions", true},
	{http.MethodGet, "/transfer/deposit-addresses", "transfer:read_deposit_address", true},
	{http.MethodGet, "/rewards/claims", "rewards:read_claims", true},
	{http.MethodGet, "/conversion/stablecoins/{id}", "conversion:read_conversion_stablecoin", true},
}

// TestRoutesAreOperationsOfTheReference: every operation the emulator
// serves is an operation of the published reference, with its scope; the
// seed profile serves exactly the operations of the seed's spec.
func TestRoutesAreOperationsOfTheReference(t *testing.T) {
	ref, err := contract.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, rt := range Routes(false) {
		op, ok := ref.Operation(rt.Method, rt.Path)
		if !ok {
			t.Errorf("%s %s is no operation of the reference", rt.Method, rt.Path)
			continue
		}
		want := op.Scopes
		var got []string
		if rt.Scope != "" {
			got = []string{rt.Scope}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s %s (%s): scope %v, the reference's %v", rt.Method, rt.Path, op.ID, got, want)
		}
	}
	seed := Routes(true)
	slices.SortFunc(seed, compareRoutes)
	want := slices.Clone(seedOperations)
	slices.SortFunc(want, compareRoutes)
	if !slices.Equal(seed, want) {
		t.Errorf("seed profile serves\n%v\nthe seed's spec has\n%v", seed, want)
	}
}

func compareRoutes(a, b Route) int {
	return strings.Compare(a.Path+" "+a.Method, b.Path+" "+b.Method)
}

// TestRoutingIsTheTable: every operation of the reference is served when
// it is in the table, for the profile, and is a 404 or a 405 (with the
// methods of its path) when it is not: the emulator serves no operation
// beyond Routes.
func TestRoutingIsTheTable(t *testing.T) {
	ref, err := contract.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, profile := range []string{ProfileReference, ProfileSeed} {
		s := New(Options{Profile: profile})
		served := Routes(profile == ProfileSeed)
		for _, op := range ref.Operations() {
			path := "/v2" + op.Path
			for _, name := range []string{"{id}", "{profile_id}", "{market}", "{asset}", "{client_id}", "{identity_id}", "{quote_id}", "{transaction_id}"} {
				path = strings.ReplaceAll(path, name, "x")
			}
			rt, _, allow, found := s.routeFor(op.Method, path)
			in := slices.ContainsFunc(served, func(r Route) bool { return r.Method == op.Method && r.Path == op.Path })
			switch {
			case in && (!found || allow != nil || rt.Path != op.Path):
				t.Errorf("%s: %s %s is in the table but routed to %+v (found %v, allow %v)", profile, op.Method, op.Path, rt.Route, found, allow)
			case !in && found && allow == nil:
				t.Errorf("%s: %s %s is not in the table but served as %s %s", profile, op.Method, op.Path, rt.Method, rt.Path)
			case !in && found:
				for _, m := range allow {
					if !slices.ContainsFunc(served, func(r Route) bool { return r.Method == m && matches(r.Path, path) }) {
						t.Errorf("%s: a 405 on %s allows %s, which the table does not serve", profile, path, m)
					}
				}
			}
		}
	}
}

func matches(pattern, path string) bool {
	_, ok := match(pattern, strings.TrimPrefix(path, "/v2"))
	return ok
}

// TestSeedProfile: the seed's service: the operations of its spec and no
// other (a list of instructions is a 405, transfers a 404), creates
// answered 201, instructions with the customer_id and the nested owner and
// metadata of the spec's example.
func TestSeedProfile(t *testing.T) {
	e := newEnv(t, Options{Profile: ProfileSeed})
	e.wantStatus(e.get(instructionsPath), http.StatusMethodNotAllowed)
	e.wantStatus(e.get("/v2/transfer/transfers?ref_ids=x"), http.StatusNotFound)
	e.wantStatus(e.get("/v2/profiles/p/balances"), http.StatusNotFound)
	e.wantStatus(e.post("/v2/transfer/internal", map[string]any{}), http.StatusNotFound)
	e.wantStatus(e.post(withdrawalsPath, validWithdrawal()), http.StatusCreated)
	r := e.post(instructionsPath, map[string]any{"profile_id": "prof-1", "fiat_network": "WIRE", "metadata": map[string]string{"k": "v"}})
	e.wantStatus(r, http.StatusCreated)
	var fdi FiatDepositInstructions
	r.decode(t, &fdi)
	if fdi.CustomerID == nil || *fdi.CustomerID != e.s.CustomerID() {
		t.Errorf("customer_id %v, want %s", fdi.CustomerID, e.s.CustomerID())
	}
	n := fdi.FiatNetworkInstructions
	if n.FiatAccountOwner == nil || n.Metadata["k"] != "v" || fdi.Metadata["k"] != "v" {
		t.Errorf("owner and metadata not inside fiat_network_instructions too: %s", r.body)
	}
}

// TestSandboxDeposits: the reference's sandbox operations fund a profile:
// a deposit to the profile, and a fiat deposit quoting the memo_id of its
// instructions; the balance is what the money operations are refused by.
func TestSandboxDeposits(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.post("/v2/sandbox/profiles/prof-1/deposit", map[string]any{"asset": "btc", "amount": "0.5", "crypto_network": "BITCOIN"})
	e.wantStatus(r, http.StatusOK)
	var dep SandboxDepositResponse
	r.decode(t, &dep)
	if !isUUID(dep.ActivityID) {
		t.Errorf("activity_id %q", dep.ActivityID)
	}
	e.wantStatus(e.post("/v2/sandbox/profiles/prof-1/deposit", map[string]any{"asset": "BTC", "amount": "0.25"}), http.StatusOK)
	if got, _ := e.s.Balance("prof-1", "BTC"); got != "0.75" {
		t.Errorf("BTC balance %q, want 0.75", got)
	}
	for name, body := range map[string]map[string]any{
		"no amount":  {"asset": "BTC"},
		"bad amount": {"asset": "BTC", "amount": "-1"},
		"network":    {"asset": "BTC", "amount": "1", "crypto_network": "NOPE"},
	} {
		if b := e.post("/v2/sandbox/profiles/prof-1/deposit", body); b.status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", name, b.status, b.body)
		}
	}

	r = e.post(instructionsPath, map[string]any{"profile_id": "prof-2", "fiat_network": "WIRE"})
	var fdi FiatDepositInstructions
	r.decode(t, &fdi)
	wire := map[string]any{"wire": map[string]any{"account_number": "12345678"}}
	fiat := map[string]any{"amount": "10.50", "asset": "USD", "memo_id": fdi.MemoID, "fiat_network_instructions": wire}
	e.wantStatus(e.post("/v2/sandbox/fiat-deposits", fiat), http.StatusOK)
	if got, _ := e.s.Balance("prof-2", "USD"); got != "10.5" {
		t.Errorf("USD balance %q, want 10.5", got)
	}
	for name, change := range map[string][2]any{
		"unknown memo":    {"memo_id", "NOPE"},
		"three decimals":  {"amount", "1.005"},
		"not USD":         {"asset", "EUR"},
		"no instructions": {"fiat_network_instructions", nil},
	} {
		body := map[string]any{}
		for k, v := range fiat {
			body[k] = v
		}
		body[change[0].(string)] = change[1] //nolint:forcetypeassert // Test table.
		if b := e.post("/v2/sandbox/fiat-deposits", body); b.status != http.StatusBadRequest {
			t.Errorf("%s: %d %s", name, b.status, b.body)
		}
	}
	if got, _ := e.s.Balance("prof-2", "USD"); got != "10.5" {
		t.Errorf("USD balance %q after refused deposits, want 10.5", got)
	}
}
