package emulator

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

const (
	withdrawalsPath  = "/v2/transfer/crypto-withdrawals"
	instructionsPath = "/v2/transfer/fiat-deposit-instructions"
)

func validWithdrawal() map[string]any {
	return map[string]any{
		"profile_id":          "11111111-1111-4111-8111-111111111111",
		"destination_address": "0x00000000000000000000000000000000000000aa",
		"asset":               "ETH",
		"crypto_network":      "ETHEREUM",
		"amount":              "1.5",
	}
}

func TestAuthorization(t *testing.T) {
	e := newEnv(t, Options{StablecoinConversions: 1})
	conv := "/v2/conversion/stablecoins/" + e.s.StablecoinConversions()[0].ID
	ops := []struct {
		method, path, scope string
		body                any
		okStatus            int
	}{
		{http.MethodPost, withdrawalsPath, "transfer:write_crypto_withdrawal", validWithdrawal(), http.StatusOK},
		{http.MethodPost, instructionsPath, "transfer:write_fiat_deposit_instructions", map[string]any{"profile_id": "p", "fiat_network": "WIRE"}, http.StatusOK},
		{http.MethodGet, instructionsPath + "/unknown", "transfer:read_fiat_deposit_instructions", nil, http.StatusNotFound},
		{http.MethodGet, "/v2/transfer/fiat-accounts", "transfer:read_fiat_account", nil, http.StatusOK},
		{http.MethodGet, "/v2/transfer/deposit-addresses", "transfer:read_deposit_address", nil, http.StatusOK},
		{http.MethodGet, "/v2/rewards/claims", "rewards:read_claims", nil, http.StatusOK},
		{http.MethodGet, conv, "conversion:read_conversion_stablecoin", nil, http.StatusOK},
	}
	other := e.tokenFor("exchange:read_aggregated_marketdata_stream")
	for _, op := range ops {
		t.Run(op.method+" "+op.path, func(t *testing.T) {
			r := e.call(op.method, op.path, "", op.body)
			e.wantStatus(r, http.StatusUnauthorized)
			if b := r.errBody(t); b.Code != "UNAUTHENTICATED" {
				t.Errorf("code %q", b.Code)
			}
			if r.header.Get("X-Request-Id") == "" {
				t.Error("no X-Request-Id")
			}
			e.wantStatus(e.call(op.method, op.path, "not-a-token", op.body), http.StatusUnauthorized)
			r = e.call(op.method, op.path, other, op.body)
			e.wantStatus(r, http.StatusForbidden)
			if b := r.errBody(t); b.Code != "PERMISSION_DENIED" || !strings.Contains(b.Message, op.scope) {
				t.Errorf("403 body %+v does not name %s", b, op.scope)
			}
			e.wantStatus(e.call(op.method, op.path, e.tokenFor(op.scope), op.body), op.okStatus)
		})
	}
}

func TestExpiredTokens(t *testing.T) {
	e := newEnv(t, Options{})
	e.wantStatus(e.get("/v2/transfer/fiat-accounts"), http.StatusOK)
	e.s.ExpireTokens()
	e.wantStatus(e.get("/v2/transfer/fiat-accounts"), http.StatusUnauthorized)
	e.token = e.tokenFor("")
	e.wantStatus(e.get("/v2/transfer/fiat-accounts"), http.StatusOK)
}

func TestExpiryByClock(t *testing.T) {
	var now atomicTime
	now.set(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	e := newEnv(t, Options{Now: now.get, TokenTTL: time.Minute})
	e.wantStatus(e.get("/v2/transfer/fiat-accounts"), http.StatusOK)
	now.set(now.get().Add(time.Minute))
	e.wantStatus(e.get("/v2/transfer/fiat-accounts"), http.StatusUnauthorized)
}

func TestRouting(t *testing.T) {
	e := newEnv(t, Options{})
	// A path the service does not have: 404, and not the not-found problem
	// of an object, under either error body.
	for _, opts := range []Options{{}, {ErrorBodyCodeMessage: true}} {
		e := newEnv(t, opts)
		for _, p := range []string{"/nope", "/v2/", "/v2/transfer", "/v2/conversion/stablecoins/", "/v3/transfer/fiat-accounts"} {
			r := e.get(p)
			e.wantStatus(r, http.StatusNotFound)
			if ct := r.header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("%s: Content-Type %q", p, ct)
			}
			var b map[string]any
			r.decode(t, &b)
			if want := "no route matches GET " + p; len(b) != 1 || b["message"] != want {
				t.Errorf("%s: body %s, want only the message %q", p, r.body, want)
			}
		}
	}
	// An unknown id of a path it has: the not-found problem.
	r404 := e.get("/v2/transfer/fiat-accounts/x")
	e.wantStatus(r404, http.StatusNotFound)
	if b := r404.errBody(t); b.Code != "NOT_FOUND" {
		t.Errorf("unknown id: code %q", b.Code)
	}
	r := e.call(http.MethodPatch, "/v2/transfer/fiat-accounts", e.token, map[string]any{})
	e.wantStatus(r, http.StatusMethodNotAllowed)
	if r.header.Get("Allow") != "GET, POST" {
		t.Errorf("Allow %q", r.header.Get("Allow"))
	}
	e.wantStatus(e.get(withdrawalsPath), http.StatusMethodNotAllowed)
}

func TestWithdrawalValidation(t *testing.T) {
	e := newEnv(t, Options{})
	long := strings.Repeat("x", 101)
	with := func(k string, v any) map[string]any {
		m := validWithdrawal()
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	cases := []struct {
		name  string
		body  any
		field string
	}{
		{"no profile_id", with("profile_id", nil), "profile_id"},
		{"empty profile_id", with("profile_id", ""), "profile_id"},
		{"no destination_address", with("destination_address", nil), "destination_address"},
		{"no asset", with("asset", nil), "asset"},
		{"no crypto_network", with("crypto_network", nil), "crypto_network"},
		{"bad crypto_network", with("crypto_network", "ethereum"), "crypto_network"},
		{"neither amount nor total", with("amount", nil), "amount"},
		{"both amount and total", with("total", "2"), "amount"},
		{"amount with sign", with("amount", "-1"), "amount"},
		{"amount with exponent", with("amount", "1e5"), "amount"},
		{"amount trailing dot", with("amount", "1."), "amount"},
		{"amount with space", with("amount", " 1"), "amount"},
		{"amount zero", with("amount", "0"), "amount"},
		{"amount as number", with("amount", 1.5), "amount"},
		{"total bad pattern", func() map[string]any { m := with("amount", nil); m["total"] = "1,5"; return m }(), "total"},
		{"total equal to fee", func() map[string]any { m := with("amount", nil); m["total"] = "0.0015"; return m }(), "total"},
		{"total below fee", func() map[string]any { m := with("amount", nil); m["total"] = "0.001"; return m }(), "total"},
		{"seven metadata pairs", with("metadata", map[string]string{"a": "1", "b": "2", "c": "3", "d": "4", "e": "5", "f": "6", "g": "7"}), "metadata"},
		{"long metadata key", with("metadata", map[string]string{long: "v"}), "metadata"},
		{"long metadata value", with("metadata", map[string]string{"k": long}), "metadata"},
		{"metadata number value", with("metadata", map[string]any{"k": 1}), "metadata"},
		{"beneficiary not object", with("beneficiary", "someone"), "beneficiary"},
		{"unknown field", with("fee", "1"), "fee"},
		{"malformed JSON", `{"profile_id":`, ""},
		{"not an object", `[1,2]`, ""},
		{"trailing data", `{"profile_id":"p"} {}`, ""},
		{"empty body", ``, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.call(http.MethodPost, withdrawalsPath, e.token, c.body)
			if c.body == `` {
				r = e.call(http.MethodPost, withdrawalsPath, e.token, " ")
			}
			e.wantStatus(r, http.StatusBadRequest)
			b := r.errBody(t)
			if b.Code != "INVALID_ARGUMENT" || b.Field != c.field || b.Message == "" {
				t.Errorf("body %+v, want field %q", b, c.field)
			}
		})
	}
	if n := len(e.s.Transfers()); n != 0 {
		t.Fatalf("%d transfers stored after invalid requests", n)
	}
	// Limits themselves are allowed.
	ok := with("metadata", map[string]string{"a": strings.Repeat("é", 100), strings.Repeat("k", 100): "2", "c": "3", "d": "4", "e": "5", "f": ""})
	e.wantStatus(e.post(withdrawalsPath, ok), http.StatusOK)
}

func TestWithdrawalContentType(t *testing.T) {
	e := newEnv(t, Options{})
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, e.s.BaseURL()+"/transfer/crypto-withdrawals", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+e.token)
	req.Header.Set("Content-Type", "text/plain")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Fatalf("status %d", resp.StatusCode)
	}
}

func TestWithdrawalFees(t *testing.T) {
	e := newEnv(t, Options{})
	cases := []struct {
		asset, amount, total string
		wantAmount, wantFee  string
		wantTotal            string
	}{
		{"BTC", "0.1", "", "0.1", "0.0001", "0.1001"},
		{"ETH", "1.5", "", "1.5", "0.0015", "1.5015"},
		{"USDC", "100", "", "100", "1.5", "101.5"},
		{"DOGE", ".5", "", ".5", "0.01", "0.51"},
		{"BTC", "", "1", "0.9999", "0.0001", "1"},
		{"ETH", "", "0.0016", "0.0001", "0.0015", "0.0016"},
		{"USDC", "", "10.00", "8.5", "1.5", "10.00"},
		{"BTC", "0.00000001", "", "0.00000001", "0.0001", "0.00010001"},
		{"ETH", "123456789012345678901234567890.123456789", "", "123456789012345678901234567890.123456789", "0.0015", "123456789012345678901234567890.124956789"},
	}
	for _, c := range cases {
		body := validWithdrawal()
		body["asset"] = c.asset
		delete(body, "amount")
		if c.amount != "" {
			body["amount"] = c.amount
		} else {
			body["total"] = c.total
		}
		r := e.post(withdrawalsPath, body)
		e.wantStatus(r, http.StatusOK)
		var tr Transfer
		r.decode(t, &tr)
		if tr.Amount != c.wantAmount || tr.Fee != c.wantFee || tr.Total != c.wantTotal {
			t.Errorf("%s %s/%s: got amount %s fee %s total %s", c.asset, c.amount, c.total, tr.Amount, tr.Fee, tr.Total)
		}
		a, f, tot := decimal.RequireFromString(tr.Amount), decimal.RequireFromString(tr.Fee), decimal.RequireFromString(tr.Total)
		if !a.Add(f).Equal(tot) {
			t.Errorf("amount + fee != total: %s + %s != %s", tr.Amount, tr.Fee, tr.Total)
		}
	}
}

func TestWithdrawalResponse(t *testing.T) {
	fixed := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	e := newEnv(t, Options{Now: func() time.Time { return fixed }})
	body := validWithdrawal()
	body["ref_id"] = "wd-1"
	body["identity_id"] = "id-1"
	body["account_id"] = "acct-1"
	body["balance_asset"] = "USD"
	body["memo"] = "memo-1"
	body["metadata"] = map[string]string{"k": "v"}
	var quote CryptoWithdrawalFee
	e.post(pathWithdrawalFee, map[string]any{"asset": "ETH", "destination_address": body["destination_address"],
		"crypto_network": "ETHEREUM", "amount": "1.5"}).decode(t, &quote)
	body["fee_id"] = quote.ID
	body["beneficiary"] = map[string]any{"name": "x"}
	r := e.post(withdrawalsPath, body)
	e.wantStatus(r, http.StatusOK)
	var raw map[string]any
	r.decode(t, &raw)
	want := map[string]any{
		"customer_id": e.s.CustomerID(), "profile_id": body["profile_id"], "amount": "1.5", "fee": "0.0015", "total": "1.5015",
		"asset": "ETH", "direction": "DEBIT", "type": "CRYPTO_WITHDRAWAL", "status": "PENDING",
		"created_at": "2025-03-04T05:06:07Z", "updated_at": "2025-03-04T05:06:07Z", "identity_id": "id-1",
		"account_id": "acct-1", "ref_id": "wd-1", "balance_asset": "USD", "destination_address": body["destination_address"],
		"crypto_network": "ETHEREUM", "memo": "memo-1", "notional_value": "5255.25",
	}
	for k, v := range want {
		if raw[k] != v {
			t.Errorf("%s = %v, want %v", k, raw[k], v)
		}
	}
	if ac, ok := raw["auto_conversion"].(map[string]any); !ok || len(ac) != 0 {
		t.Errorf("auto_conversion = %v, want {}", raw["auto_conversion"])
	}
	if md, _ := raw["metadata"].(map[string]any); md["k"] != "v" {
		t.Errorf("metadata = %v", raw["metadata"])
	}
	for _, k := range []string{"fee_id", "beneficiary", "crypto_tx_hash", "group_id"} {
		if _, ok := raw[k]; ok {
			t.Errorf("unexpected field %s", k)
		}
	}
	if id, _ := raw["id"].(string); !isUUID(id) {
		t.Errorf("id %q is not a UUID", id)
	}
	ts := e.s.Transfers()
	if len(ts) != 1 || ts[0].ID != raw["id"] {
		t.Fatalf("Transfers() = %+v", ts)
	}
}

func TestWithdrawalReplayPublished(t *testing.T) {
	e := newEnv(t, Options{})
	body := validWithdrawal()
	body["ref_id"] = "replay-2"
	first := e.post(withdrawalsPath, body)
	e.wantStatus(first, http.StatusOK)
	var original Transfer
	first.decode(t, &original)
	// The same request, then another one, with the same ref_id: both 409
	// with the transfer made first.
	for _, amount := range []string{"1.5", "2"} {
		body["amount"] = amount
		again := e.post(withdrawalsPath, body)
		p, got := alreadyExists[Transfer](t, e, again)
		if !strings.Contains(p.Detail, "'replay-2'") {
			t.Errorf("problem %+v", p)
		}
		if got.ID != original.ID || got.Amount != "1.5" || got.RefID == nil || *got.RefID != "replay-2" {
			t.Errorf("meta.existing = %+v, want the transfer %s of amount 1.5", got, original.ID)
		}
	}
	if n := len(e.s.Transfers()); n != 1 {
		t.Fatalf("%d transfers after replays, want 1", n)
	}
}

func TestWithdrawalReplayOriginal(t *testing.T) {
	e := newEnv(t, Options{WithdrawalReplay: ReplayOriginal})
	body := validWithdrawal()
	body["ref_id"] = "replay-1"
	body["metadata"] = map[string]string{"a": "1", "b": "2"}
	first := e.post(withdrawalsPath, body)
	e.wantStatus(first, http.StatusOK)
	// Same body, other key order and spacing: the original again.
	again := e.call(http.MethodPost, withdrawalsPath, e.token, `{ "metadata": {"b":"2","a":"1"}, "amount":"1.5", "ref_id":"replay-1",
		"crypto_network":"ETHEREUM","asset":"ETH","destination_address":"0x00000000000000000000000000000000000000aa",
		"profile_id":"11111111-1111-4111-8111-111111111111"}`)
	e.wantStatus(again, http.StatusOK)
	var t1, t2 Transfer
	first.decode(t, &t1)
	again.decode(t, &t2)
	if t1.ID != t2.ID || !t1.CreatedAt.Equal(t2.CreatedAt) || t1.Total != t2.Total {
		t.Errorf("replay returned %+v, want %+v", t2, t1)
	}
	if n := len(e.s.Transfers()); n != 1 {
		t.Fatalf("%d transfers after replay, want 1", n)
	}
	body["amount"] = "2"
	conflict := e.post(withdrawalsPath, body)
	e.wantStatus(conflict, http.StatusConflict)
	if b := conflict.errBody(t); b.Code != "CONFLICT" || !strings.Contains(b.Message, "replay-1") {
		t.Errorf("409 body %+v", b)
	}
	// Without ref_id, no replay protection.
	plain := validWithdrawal()
	e.wantStatus(e.post(withdrawalsPath, plain), http.StatusOK)
	e.wantStatus(e.post(withdrawalsPath, plain), http.StatusOK)
	if n := len(e.s.Transfers()); n != 3 {
		t.Fatalf("%d transfers, want 3", n)
	}
	// ref_id namespaces are separate per operation.
	e.wantStatus(e.post(instructionsPath, map[string]any{"profile_id": "p", "fiat_network": "WIRE", "ref_id": "replay-1"}), http.StatusOK)
}

func TestInstructions(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.post(instructionsPath, map[string]any{"profile_id": "prof-1", "fiat_network": "WIRE", "metadata": map[string]string{"k": "v"}, "account_id": "acct"})
	e.wantStatus(r, http.StatusOK)
	var fdi FiatDepositInstructions
	r.decode(t, &fdi)
	if fdi.Status != "VALID" || fdi.MemoID == "" || !isUUID(fdi.ID) || fdi.ProfileID != "prof-1" || fdi.IdentityID == "" {
		t.Fatalf("instructions %+v", fdi)
	}
	// customer_id is the seed's (TestSeedProfile), not the reference's.
	if fdi.CustomerID != nil || fdi.AccountID == nil || *fdi.AccountID != "acct" || fdi.RefID != nil {
		t.Errorf("optional fields %+v", fdi)
	}
	w := fdi.FiatNetworkInstructions.Wire
	if w == nil || w.AccountNumber == "" || w.FiatAccountOwnerAddress == nil || w.RoutingDetails == nil ||
		w.RoutingDetails.RoutingNumberType != "ABA" || len(w.RoutingDetails.RoutingNumber) != 9 || w.RoutingDetails.BankAddress == nil ||
		w.RoutingDetails.BankName == "" {
		t.Fatalf("wire %+v", w)
	}
	if fdi.FiatAccountOwner == nil || fdi.FiatAccountOwner.PersonDetails == nil || fdi.FiatAccountOwner.PersonDetails.FirstName == "" {
		t.Errorf("owner %+v", fdi.FiatAccountOwner)
	}
	// At the top level only, as the reference has it (TestSeedProfile:
	// inside fiat_network_instructions too).
	if fdi.FiatNetworkInstructions.Metadata != nil || fdi.FiatNetworkInstructions.FiatAccountOwner != nil || fdi.Metadata["k"] != "v" {
		t.Errorf("metadata not echoed at the top level only")
	}

	got := e.get(instructionsPath + "/" + fdi.ID)
	e.wantStatus(got, http.StatusOK)
	if string(got.body) != string(r.body) {
		t.Errorf("get %s\ncreate %s", got.body, r.body)
	}
	e.wantStatus(e.get(instructionsPath+"/does-not-exist"), http.StatusNotFound)

	// The same profile gets the same identity; memo ids are unique.
	r2 := e.post(instructionsPath, map[string]any{"profile_id": "prof-1", "fiat_network": "WIRE", "routing_number_type": "SWIFT"})
	var fdi2 FiatDepositInstructions
	r2.decode(t, &fdi2)
	if fdi2.IdentityID != fdi.IdentityID || fdi2.MemoID == fdi.MemoID || fdi2.ID == fdi.ID {
		t.Errorf("second instructions %+v", fdi2)
	}
	if rt := fdi2.FiatNetworkInstructions.Wire.RoutingDetails.RoutingNumberType; rt != "SWIFT" {
		t.Errorf("routing_number_type %s", rt)
	}
	r3 := e.post(instructionsPath, map[string]any{"profile_id": "prof-1", "fiat_network": "WIRE", "identity_id": "given"})
	var fdi3 FiatDepositInstructions
	r3.decode(t, &fdi3)
	if fdi3.IdentityID != "given" {
		t.Errorf("identity %s", fdi3.IdentityID)
	}

	for net, key := range map[string]string{"RTP": "rtp", "SCB": "scb", "CUBIX": "cubix", "DBS_ACT": "dbs_act"} {
		r := e.post(instructionsPath, map[string]any{"profile_id": "p", "fiat_network": net})
		e.wantStatus(r, http.StatusOK)
		var raw struct {
			MemoID string                     `json:"memo_id"`
			FNI    map[string]json.RawMessage `json:"fiat_network_instructions"`
		}
		r.decode(t, &raw)
		// The reference's shapes: an account number, or CUBIX's account id.
		var local struct {
			AccountNumber string `json:"account_number"`
			AccountID     string `json:"account_id"`
		}
		if err := json.Unmarshal(raw.FNI[key], &local); err != nil || (local.AccountNumber == "") == (local.AccountID == "") ||
			(net == "CUBIX") != (local.AccountID != "") {
			t.Errorf("%s: instructions %s", net, r.body)
		}
		if _, ok := raw.FNI["wire"]; ok {
			t.Errorf("%s: wire present", net)
		}
	}
	if n := len(e.s.FiatDepositInstructions()); n != 7 {
		t.Errorf("%d instructions stored", n)
	}
}

func TestInstructionsValidation(t *testing.T) {
	e := newEnv(t, Options{})
	cases := []struct {
		name  string
		body  any
		field string
	}{
		{"no profile", map[string]any{"fiat_network": "WIRE"}, "profile_id"},
		{"no network", map[string]any{"profile_id": "p"}, "fiat_network"},
		{"bad network", map[string]any{"profile_id": "p", "fiat_network": "ACH"}, "fiat_network"},
		{"bad routing type", map[string]any{"profile_id": "p", "fiat_network": "WIRE", "routing_number_type": "IBAN"}, "routing_number_type"},
		{"metadata too many", map[string]any{"profile_id": "p", "fiat_network": "WIRE", "metadata": map[string]string{"1": "", "2": "", "3": "", "4": "", "5": "", "6": "", "7": ""}}, "metadata"},
		{"metadata long value", map[string]any{"profile_id": "p", "fiat_network": "WIRE", "metadata": map[string]string{"k": strings.Repeat("v", 101)}}, "metadata"},
		{"unknown field", map[string]any{"profile_id": "p", "fiat_network": "WIRE", "memo_id": "x"}, "memo_id"},
		{"wrong type", map[string]any{"profile_id": 5, "fiat_network": "WIRE"}, "profile_id"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.post(instructionsPath, c.body)
			e.wantStatus(r, http.StatusBadRequest)
			if b := r.errBody(t); b.Field != c.field || b.Code != "INVALID_ARGUMENT" {
				t.Errorf("body %+v, want field %s", b, c.field)
			}
		})
	}
}

func TestInstructionsReplayAndAdminMutators(t *testing.T) {
	e := newEnv(t, Options{})
	body := map[string]any{"profile_id": "p", "fiat_network": "WIRE", "ref_id": "fdi-1"}
	first := e.post(instructionsPath, body)
	e.wantStatus(first, http.StatusOK)
	var fdi FiatDepositInstructions
	first.decode(t, &fdi)
	again := e.post(instructionsPath, body)
	e.wantStatus(again, http.StatusOK)
	if string(again.body) != string(first.body) {
		t.Errorf("replay %s, want %s", again.body, first.body)
	}
	body["routing_number_type"] = "SWIFT"
	r := e.post(instructionsPath, body)
	e.wantStatus(r, http.StatusConflict)
	if !strings.Contains(r.errBody(t).Message, "fdi-1") {
		t.Errorf("409 does not name the ref_id: %s", r.body)
	}
	if len(e.s.FiatDepositInstructions()) != 1 {
		t.Fatal("replay created instructions")
	}

	if !e.s.DeprecateInstructions(fdi.ID) || e.s.DeprecateInstructions("nope") {
		t.Fatal("DeprecateInstructions result")
	}
	var got FiatDepositInstructions
	e.get(instructionsPath+"/"+fdi.ID).decode(t, &got)
	if got.Status != "DEPRECATED" {
		t.Errorf("status %s", got.Status)
	}
	if !e.s.DeleteInstructions(fdi.ID) || e.s.DeleteInstructions(fdi.ID) {
		t.Fatal("DeleteInstructions result")
	}
	e.wantStatus(e.get(instructionsPath+"/"+fdi.ID), http.StatusNotFound)
	// The ref_id is free again.
	e.wantStatus(e.post(instructionsPath, body), http.StatusOK)
}

func TestGetConversion(t *testing.T) {
	e := newEnv(t, Options{StablecoinConversions: 20})
	convs := e.s.StablecoinConversions()
	var settled, unsettled int
	for _, c := range convs {
		r := e.get("/v2/conversion/stablecoins/" + c.ID)
		e.wantStatus(r, http.StatusOK)
		var raw map[string]any
		r.decode(t, &raw)
		if raw["id"] != c.ID || raw["status"] != "CREATED" || raw["amount"] != c.Amount || raw["source_asset"] != c.SourceAsset {
			t.Errorf("conversion %s", r.body)
		}
		for k, v := range raw {
			if v == "" {
				t.Errorf("%s is an empty string", k)
			}
		}
		if _, ok := raw["settled_at"]; ok {
			settled++
		} else {
			unsettled++
		}
	}
	if settled == 0 || unsettled == 0 {
		t.Errorf("settled %d, unsettled %d: want both", settled, unsettled)
	}
	e.wantStatus(e.get("/v2/conversion/stablecoins/00000000-0000-4000-8000-000000000000"), http.StatusNotFound)
	r := e.get("/v2/conversion/stablecoins/not-a-uuid")
	e.wantStatus(r, http.StatusBadRequest)
	if r.errBody(t).Field != "id" {
		t.Errorf("field %s", r.body)
	}
}

// listAll pages through path with q and returns the items and the number of pages.
func listAll[T any](e *env, path string, q url.Values) ([]T, int) {
	e.t.Helper()
	var all []T
	pages := 0
	q = cloneValues(q)
	for {
		r := e.get(path + "?" + q.Encode())
		e.wantStatus(r, http.StatusOK)
		var p Page[T]
		r.decode(e.t, &p)
		all = append(all, p.Items...)
		pages++
		if p.NextPageCursor == "" {
			return all, pages
		}
		if pages > 100000 {
			e.t.Fatal("paging does not end")
		}
		q.Set("page_cursor", p.NextPageCursor)
	}
}

func cloneValues(q url.Values) url.Values {
	out := url.Values{}
	for k, v := range q {
		out[k] = append([]string(nil), v...)
	}
	return out
}

// TestErrorBodyForms checks an error answer in the published form, an RFC
// 7807 problem, and in the {code, message, field} form of
// Options.ErrorBodyCodeMessage.
func TestErrorBodyForms(t *testing.T) {
	const query = "/v2/transfer/fiat-accounts?limit=0"
	published := newEnv(t, Options{})
	r := published.call(http.MethodGet, query, published.token, nil)
	published.wantStatus(r, http.StatusBadRequest)
	var p map[string]any
	r.decode(t, &p)
	want := map[string]any{
		"type": problemTypeBase + "invalid-argument", "title": "Bad Request", "status": float64(400),
		"detail": `limit: must be an integer from 1 to 1000, got "0"`, "meta": map[string]any{"field": "limit"},
	}
	if ct := r.header.Get("Content-Type"); ct != "application/problem+json" || fmt.Sprint(p) != fmt.Sprint(want) {
		t.Errorf("published form: %s %v\nwant application/problem+json %v", ct, p, want)
	}

	legacy := newEnv(t, Options{ErrorBodyCodeMessage: true})
	r = legacy.call(http.MethodGet, query, legacy.token, nil)
	legacy.wantStatus(r, http.StatusBadRequest)
	var b map[string]any
	r.decode(t, &b)
	wantB := map[string]any{"code": "INVALID_ARGUMENT", "message": `limit: must be an integer from 1 to 1000, got "0"`, "field": "limit"}
	if ct := r.header.Get("Content-Type"); ct != "application/json" || fmt.Sprint(b) != fmt.Sprint(wantB) {
		t.Errorf("code-message form: %s %v\nwant application/json %v", ct, b, wantB)
	}
}
