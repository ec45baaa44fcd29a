package emulator

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

const (
	fiatWithdrawalsPath = "/v2/transfer/fiat-withdrawals"
	internalPath        = "/v2/transfer/internal"
	conversionsPath     = "/v2/conversion/stablecoins"
	profileA            = "11111111-1111-4111-8111-111111111111"
	profileB            = "22222222-2222-4222-8222-222222222222"
)

// madeAccount makes a fiat account through the API with the given network
// instructions (a wire when ""), moves it to status (unless PENDING) and
// returns its id.
func madeAccount(t *testing.T, e *env, instructions, status string) string {
	t.Helper()
	body := fiatAccountBody
	if instructions != "" {
		body = `{"fiat_account_owner":{"person_details":{"first_name":"Ada","last_name":"Lovelace"}},"fiat_network_instructions":` +
			instructions + `}`
	}
	r := e.post(pathFiatAccounts, body)
	e.wantStatus(r, http.StatusOK)
	var a FiatAccount
	r.decode(t, &a)
	if status != "PENDING" && !e.s.SetFiatAccountStatus(a.ID, status) {
		t.Fatalf("account %s not found", a.ID)
	}
	return a.ID
}

func fiatWithdrawal(account string) map[string]any {
	return map[string]any{"profile_id": profileA, "fiat_account_id": account, "asset": "USD", "amount": "250.50"}
}

// problemOf decodes a problem answer, with its meta.existing into existing
// when not nil.
func problemOf(t *testing.T, r response, existing any) Problem {
	t.Helper()
	var p struct {
		Problem
		Meta struct {
			Existing json.RawMessage `json:"existing"`
		} `json:"meta"`
	}
	r.decode(t, &p)
	if existing != nil {
		if err := json.Unmarshal(p.Meta.Existing, existing); err != nil {
			t.Fatalf("meta.existing of %s: %v", r.body, err)
		}
	}
	if !r.isProblem() {
		t.Errorf("Content-Type %q", r.header.Get("Content-Type"))
	}
	return p.Problem
}

func TestFiatWithdrawal(t *testing.T) {
	e := newEnv(t, Options{Transfers: 20})
	account := madeAccount(t, e, "", "APPROVED")
	body := fiatWithdrawal(account)
	body["ref_id"] = "fiat-1"
	body["memo"] = "invoice 7"
	body["identity_id"], body["account_id"] = "identity-1", "account-1"
	body["metadata"] = map[string]string{"k": "v"}
	r := e.post(fiatWithdrawalsPath, body)
	e.wantStatus(r, http.StatusOK)
	var made Transfer
	r.decode(t, &made)
	if made.Type != "WIRE_WITHDRAWAL" || made.Direction != "DEBIT" || made.Status != "PENDING" || made.Fee != "0" ||
		made.Amount != "250.50" || made.Total != "250.5" || made.Asset != "USD" || made.ProfileID != profileA ||
		made.FiatAccountID == nil || *made.FiatAccountID != account || made.Memo == nil || *made.Memo != "invoice 7" ||
		made.RefID == nil || *made.RefID != "fiat-1" || made.IdentityID == nil || *made.IdentityID != "identity-1" ||
		made.AccountID == nil || *made.AccountID != "account-1" || made.Metadata["k"] != "v" ||
		made.CustomerID != e.s.CustomerID() || made.NotionalValue != nil || made.GroupID != nil {
		t.Errorf("fiat withdrawal %s", r.body)
	}
	// Get Transfer and List Transfers (ref_ids) find it.
	var got Transfer
	e.get(pathTransfers+"/"+made.ID).decode(t, &got)
	if got.ID != made.ID || got.Type != "WIRE_WITHDRAWAL" {
		t.Errorf("get: %+v", got)
	}
	listed := listed[Transfer](e, pathTransfers, url.Values{"ref_ids": {"fiat-1"}})
	if len(listed) != 1 || listed[0].ID != made.ID {
		t.Errorf("listed by ref_id: %+v", listed)
	}
	// total instead of amount: amount = total, as the fee is zero.
	body = fiatWithdrawal(account)
	delete(body, "amount")
	body["total"] = "10"
	r = e.post(fiatWithdrawalsPath, body)
	e.wantStatus(r, http.StatusOK)
	r.decode(t, &got)
	if got.Amount != "10" || got.Total != "10" || got.Fee != "0" {
		t.Errorf("by total: %s", r.body)
	}
	if n := len(e.s.TransfersOfType("WIRE_WITHDRAWAL")); n != 2 {
		t.Errorf("%d wire withdrawals, want 2", n)
	}
	if n := len(e.s.Transfers()); n != 2 {
		t.Errorf("Transfers() has %d, want 2", n)
	}
}

func TestFiatWithdrawalTypeByNetwork(t *testing.T) {
	e := newEnv(t, Options{FiatAccounts: 40})
	for instructions, want := range map[string]string{
		`{"rtp":{"account_number":"1234567","routing_details":{"routing_number":"021000021"}}}`: "BANK_WITHDRAWAL",
		`{"scb":{"account_number":"1234567"}}`:                                                  "BANK_WITHDRAWAL",
		`{"cbit":{"wallet_address":"0xabc"}}`:                                                   "CBIT_WITHDRAWAL",
		`{"cubix":{"account_id":"cubix-1"}}`:                                                    "CUBIX_WITHDRAWAL",
	} {
		r := e.post(fiatWithdrawalsPath, fiatWithdrawal(madeAccount(t, e, instructions, "APPROVED")))
		e.wantStatus(r, http.StatusOK)
		var tr Transfer
		r.decode(t, &tr)
		if tr.Type != want {
			t.Errorf("%s: type %s, want %s", instructions, tr.Type, want)
		}
	}
	// A seeded account that is approved and not deleted serves too; one
	// that is not approved does not.
	var approved, other *FiatAccount
	for _, a := range e.s.FiatAccounts() {
		switch {
		case a.Deleted:
		case a.Status == "APPROVED" && approved == nil:
			approved = &a
		case a.Status != "APPROVED" && other == nil:
			other = &a
		}
	}
	if approved == nil || other == nil {
		t.Fatal("the seeded accounts lack an approved or another one")
	}
	e.wantStatus(e.post(fiatWithdrawalsPath, fiatWithdrawal(approved.ID)), http.StatusOK)
	r := e.post(fiatWithdrawalsPath, fiatWithdrawal(other.ID))
	e.wantStatus(r, http.StatusBadRequest)
	if b := r.errBody(t); b.Field != "fiat_account_id" || !strings.Contains(b.Message, other.Status) {
		t.Errorf("not approved: %+v", b)
	}
}

func TestFiatWithdrawalValidation(t *testing.T) {
	e := newEnv(t, Options{})
	approved := madeAccount(t, e, "", "APPROVED")
	pending := madeAccount(t, e, "", "PENDING")
	deleted := madeAccount(t, e, "", "APPROVED")
	e.wantStatus(e.call(http.MethodDelete, pathFiatAccounts+"/"+deleted, e.token, nil), http.StatusOK)
	with := func(change func(map[string]any)) map[string]any {
		b := fiatWithdrawal(approved)
		change(b)
		return b
	}
	for name, c := range map[string]struct {
		body         any
		field, words string
	}{
		"no profile":      {with(func(b map[string]any) { delete(b, "profile_id") }), "profile_id", "required"},
		"no account":      {with(func(b map[string]any) { delete(b, "fiat_account_id") }), "fiat_account_id", "required"},
		"no asset":        {with(func(b map[string]any) { b["asset"] = "" }), "asset", "required"},
		"both":            {with(func(b map[string]any) { b["total"] = "1" }), "amount", "not both"},
		"neither":         {with(func(b map[string]any) { delete(b, "amount") }), "amount", "exactly one"},
		"zero":            {with(func(b map[string]any) { b["amount"] = "0.00" }), "amount", "greater than zero"},
		"pattern":         {with(func(b map[string]any) { b["amount"] = "-1" }), "amount", "must match"},
		"total zero":      {with(func(b map[string]any) { delete(b, "amount"); b["total"] = "0" }), "total", "greater than zero"},
		"unknown field":   {with(func(b map[string]any) { b["fee_id"] = "f" }), "fee_id", "unknown field"},
		"metadata":        {with(func(b map[string]any) { b["metadata"] = map[string]string{"": "v"} }), "metadata", "empty"},
		"unknown account": {with(func(b map[string]any) { b["fiat_account_id"] = "nope" }), "fiat_account_id", "no fiat account"},
		"deleted account": {with(func(b map[string]any) { b["fiat_account_id"] = deleted }), "fiat_account_id", "no fiat account"},
		"pending account": {with(func(b map[string]any) { b["fiat_account_id"] = pending }), "fiat_account_id", "is PENDING"},
	} {
		r := e.post(fiatWithdrawalsPath, c.body)
		e.wantStatus(r, http.StatusBadRequest)
		if b := r.errBody(t); b.Code != "INVALID_ARGUMENT" || b.Field != c.field || !strings.Contains(b.Message, c.words) {
			t.Errorf("%s: %+v", name, b)
		}
	}
	if n := len(e.s.Transfers()); n != 0 {
		t.Errorf("%d transfers made by invalid requests", n)
	}
}

func TestFiatWithdrawalReplay(t *testing.T) {
	e := newEnv(t, Options{})
	account := madeAccount(t, e, "", "APPROVED")
	body := fiatWithdrawal(account)
	body["ref_id"] = "shared-ref"
	first := e.post(fiatWithdrawalsPath, body)
	e.wantStatus(first, http.StatusOK)
	var made Transfer
	first.decode(t, &made)
	// Another body with the same ref_id: 409 and the first, nothing made.
	body["amount"] = "1"
	again := e.post(fiatWithdrawalsPath, body)
	p, existing := alreadyExists[Transfer](t, e, again)
	if !strings.Contains(p.Detail, "'shared-ref'") || existing.ID != made.ID || existing.Amount != "250.50" {
		t.Errorf("replay: %s", again.body)
	}
	if n := len(e.s.Transfers()); n != 1 {
		t.Fatalf("%d transfers after the replay, want 1", n)
	}
	// The ref_id namespaces are per operation.
	w := validWithdrawal()
	w["ref_id"] = "shared-ref"
	e.wantStatus(e.post(withdrawalsPath, w), http.StatusOK)
	e.wantStatus(e.post(internalPath, map[string]any{"from_profile_id": profileA, "to_profile_id": profileB,
		"asset": "USD", "amount": "1", "ref_id": "shared-ref"}), http.StatusOK)
	e.wantStatus(e.post(conversionsPath, map[string]any{"profile_id": profileA, "source_asset": "USD",
		"target_asset": "USDC", "amount": "1", "ref_id": "shared-ref"}), http.StatusOK)
	// Listing by the ref_id finds the transfers of every operation.
	if got := listed[Transfer](e, pathTransfers, url.Values{"ref_ids": {"shared-ref"}}); len(got) != 4 {
		t.Errorf("listed %d transfers with the ref_id, want 4", len(got))
	}
}

func TestInternalTransfer(t *testing.T) {
	e := newEnv(t, Options{Transfers: 10})
	body := map[string]any{"from_profile_id": profileA, "to_profile_id": profileB, "asset": "USDC", "amount": "40.000",
		"ref_id": "move-1", "identity_id": "identity-1", "metadata": map[string]string{"why": "rebalance"}}
	r := e.post(internalPath, body)
	e.wantStatus(r, http.StatusOK)
	var debit Transfer
	r.decode(t, &debit)
	sides := e.s.TransfersOfType("INTERNAL_TRANSFER_DEBIT", "INTERNAL_TRANSFER_CREDIT")
	if len(sides) != 2 || sides[0].ID != debit.ID {
		t.Fatalf("sides %+v, answered %s", sides, r.body)
	}
	credit := sides[1]
	if debit.Type != "INTERNAL_TRANSFER_DEBIT" || debit.Direction != "DEBIT" || debit.ProfileID != profileA ||
		credit.Type != "INTERNAL_TRANSFER_CREDIT" || credit.Direction != "CREDIT" || credit.ProfileID != profileB {
		t.Errorf("debit %+v\ncredit %+v", debit, credit)
	}
	for _, s := range sides {
		if s.GroupID == nil || *s.GroupID != *debit.GroupID || s.RefID == nil || *s.RefID != "move-1" || s.Fee != "0" ||
			s.Amount != "40.000" || s.Total != "40" || s.Status != "PENDING" || s.Asset != "USDC" ||
			s.Metadata["why"] != "rebalance" || s.IdentityID == nil || *s.IdentityID != "identity-1" {
			t.Errorf("side %+v", s)
		}
	}
	// List Transfers finds both sides by group_id and by ref_id.
	for key, v := range map[string]string{"group_ids": *debit.GroupID, "ref_ids": "move-1"} {
		if got := listed[Transfer](e, pathTransfers, url.Values{key: {v}}); len(got) != 2 {
			t.Errorf("%s: listed %d, want both sides", key, len(got))
		}
	}
	// Each side moves on its own.
	if !e.s.SetTransferStatus(credit.ID, "COMPLETED", "") {
		t.Fatal("credit side unknown to SetTransferStatus")
	}
	e.wantStatus(e.call(http.MethodPost, "/admin/transfers/"+debit.ID+"/status", "", map[string]string{"status": "FAILED"}),
		http.StatusNoContent)
	var d, c Transfer
	e.get(pathTransfers+"/"+debit.ID).decode(t, &d)
	e.get(pathTransfers+"/"+credit.ID).decode(t, &c)
	if d.Status != "FAILED" || c.Status != "COMPLETED" || c.CryptoTxHash != nil {
		t.Errorf("after the moves: debit %s, credit %s", d.Status, c.Status)
	}
	// A replay answers the reference's 409, without the transfer, and
	// makes nothing; the transfer is found by its ref_id.
	body["amount"] = "1"
	again := e.post(internalPath, body)
	e.wantStatus(again, http.StatusConflict)
	if p := problemOf(t, again, nil); p.Detail != "Transfer with ref_id already exists" || strings.Contains(string(again.body), "existing") {
		t.Errorf("replay answer %s, want the reference's", again.body)
	}
	var found struct{ Items []Transfer }
	e.get(pathTransfers+"?ref_ids="+url.QueryEscape(body["ref_id"].(string))).decode(t, &found) //nolint:forcetypeassert // Test body.
	if len(found.Items) != 2 || found.Items[0].GroupID == nil {
		t.Errorf("transfers under the ref_id: %+v, want both sides", found.Items)
	}
	if n := len(e.s.Transfers()); n != 2 {
		t.Errorf("%d transfers after the replay, want 2", n)
	}
	// Validation.
	for name, c := range map[string]struct {
		body  string
		field string
	}{
		"same profile": {`{"from_profile_id":"p","to_profile_id":"p","asset":"USD","amount":"1"}`, "to_profile_id"},
		"no amount":    {`{"from_profile_id":"p","to_profile_id":"q","asset":"USD"}`, "amount"},
		"zero":         {`{"from_profile_id":"p","to_profile_id":"q","asset":"USD","amount":"0"}`, "amount"},
		"no to":        {`{"from_profile_id":"p","asset":"USD","amount":"1"}`, "to_profile_id"},
		"unknown":      {`{"from_profile_id":"p","to_profile_id":"q","asset":"USD","amount":"1","total":"1"}`, "total"},
	} {
		r := e.post(internalPath, c.body)
		e.wantStatus(r, http.StatusBadRequest)
		if b := r.errBody(t); b.Field != c.field {
			t.Errorf("%s: %+v", name, b)
		}
	}
}

func conversionBody() map[string]any {
	return map[string]any{"profile_id": profileA, "source_asset": "USD", "target_asset": "USDC", "amount": "100.25"}
}

func TestStablecoinConversionLifecycle(t *testing.T) {
	e := newEnv(t, Options{StablecoinConversions: 3})
	body := conversionBody()
	body["ref_id"], body["recipient_profile_id"] = "conv-1", profileB
	body["metadata"] = map[string]string{"purpose": "payroll"}
	r := e.post(conversionsPath, body)
	e.wantStatus(r, http.StatusOK)
	var made StablecoinConversion
	r.decode(t, &made)
	if !isUUID(made.ID) || made.Status != "CREATED" || made.Amount != "100.25" || made.SourceAsset != "USD" ||
		made.TargetAsset != "USDC" || made.RefID == nil || *made.RefID != "conv-1" || made.RecipientProfileID == nil ||
		*made.RecipientProfileID != profileB || made.CreatedAt.IsZero() || !made.UpdatedAt.Equal(made.CreatedAt) ||
		made.SettledAt != nil || made.CancelledAt != nil || made.Metadata["purpose"] != "payroll" {
		t.Errorf("created %s", r.body)
	}
	var got StablecoinConversion
	e.get(conversionsPath+"/"+made.ID).decode(t, &got)
	if got.ID != made.ID || got.Status != "CREATED" {
		t.Errorf("get %+v", got)
	}
	if m := e.s.MadeStablecoinConversions(); len(m) != 1 || m[0].ID != made.ID {
		t.Errorf("MadeStablecoinConversions %+v", m)
	}
	if n := len(e.s.StablecoinConversions()); n != 3 {
		t.Errorf("%d seeded conversions, want 3", n)
	}

	// Cancel: CANCELLED with cancelled_at; a second cancel answers it as it is.
	r = e.call(http.MethodDelete, conversionsPath+"/"+made.ID, e.token, nil)
	e.wantStatus(r, http.StatusOK)
	var cancelled StablecoinConversion
	r.decode(t, &cancelled)
	if cancelled.Status != "CANCELLED" || cancelled.CancelledAt == nil || !cancelled.UpdatedAt.Equal(*cancelled.CancelledAt) {
		t.Errorf("cancelled %s", r.body)
	}
	r = e.call(http.MethodDelete, conversionsPath+"/"+made.ID, e.token, nil)
	e.wantStatus(r, http.StatusOK)
	r.decode(t, &got)
	if got.Status != "CANCELLED" || !got.CancelledAt.Equal(*cancelled.CancelledAt) {
		t.Errorf("cancelled twice %s", r.body)
	}
	// A cancelled conversion does not settle.
	r = e.call(http.MethodPost, "/admin/conversions/"+made.ID+"/settle", "", nil)
	e.wantStatus(r, http.StatusConflict)

	// Settle, then cancel: 409 naming SETTLED.
	second := e.post(conversionsPath, conversionBody())
	e.wantStatus(second, http.StatusOK)
	second.decode(t, &made)
	r = e.call(http.MethodPost, "/admin/conversions/"+made.ID+"/settle", "", nil)
	e.wantStatus(r, http.StatusOK)
	got = StablecoinConversion{}
	r.decode(t, &got)
	if got.Status != "SETTLED" || got.SettledAt == nil || got.CancelledAt != nil {
		t.Errorf("settled %s", r.body)
	}
	if e.s.SettleConversion(made.ID) {
		t.Error("a settled conversion settled again")
	}
	r = e.call(http.MethodDelete, conversionsPath+"/"+made.ID, e.token, nil)
	e.wantStatus(r, http.StatusConflict)
	if b := r.errBody(t); b.Code != "CONFLICT" || !strings.Contains(b.Message, "SETTLED") {
		t.Errorf("cancel after settle: %+v", b)
	}
	third := e.post(conversionsPath, conversionBody())
	third.decode(t, &made)
	if !e.s.SettleConversion(made.ID) {
		t.Error("SettleConversion refused a CREATED conversion")
	}

	// Unknown, malformed and seeded ids.
	unknown := "00000000-0000-4000-8000-000000000000"
	e.wantStatus(e.call(http.MethodDelete, conversionsPath+"/"+unknown, e.token, nil), http.StatusNotFound)
	e.wantStatus(e.call(http.MethodDelete, conversionsPath+"/not-a-uuid", e.token, nil), http.StatusBadRequest)
	e.wantStatus(e.call(http.MethodPost, "/admin/conversions/"+unknown+"/settle", "", nil), http.StatusNotFound)
	seeded := e.s.StablecoinConversions()[0]
	e.wantStatus(e.call(http.MethodDelete, conversionsPath+"/"+seeded.ID, e.token, nil), http.StatusBadRequest)
	if e.s.SettleConversion(seeded.ID) {
		t.Error("a seeded conversion settled")
	}
	// GET and DELETE share the path; other methods answer 405.
	r = e.call(http.MethodPut, conversionsPath+"/"+seeded.ID, e.token, map[string]any{})
	e.wantStatus(r, http.StatusMethodNotAllowed)
	if r.header.Get("Allow") != "GET, DELETE" {
		t.Errorf("Allow %q", r.header.Get("Allow"))
	}
	// List Stablecoin Conversions, by profile and creation time.
	listed := e.get(conversionsPath + "?profile_id=" + made.ProfileID)
	e.wantStatus(listed, http.StatusOK)
	if !strings.Contains(string(listed.body), made.ID) {
		t.Errorf("List Stablecoin Conversions of profile %s does not hold %s: %s", made.ProfileID, made.ID, listed.body)
	}
	later := e.get(conversionsPath + "?profile_id=" + made.ProfileID + "&created_at.begin=" +
		made.CreatedAt.Add(time.Hour).UTC().Format(time.RFC3339))
	e.wantStatus(later, http.StatusOK)
	if strings.Contains(string(later.body), made.ID) {
		t.Errorf("List Stablecoin Conversions from an hour after %s holds it: %s", made.ID, later.body)
	}
	// The scopes: reading does not cancel.
	read := e.tokenFor("conversion:read_conversion_stablecoin")
	e.wantStatus(e.call(http.MethodDelete, conversionsPath+"/"+made.ID, read, nil), http.StatusForbidden)
}

func TestStablecoinConversionValidationAndReplay(t *testing.T) {
	e := newEnv(t, Options{StablecoinConversions: 2})
	for name, c := range map[string]struct {
		change func(map[string]any)
		field  string
	}{
		"same assets":   {func(b map[string]any) { b["target_asset"] = "USD" }, "target_asset"},
		"unknown asset": {func(b map[string]any) { b["source_asset"] = "EUR" }, "source_asset"},
		"no amount":     {func(b map[string]any) { delete(b, "amount") }, "amount"},
		"zero":          {func(b map[string]any) { b["amount"] = "0" }, "amount"},
		"no profile":    {func(b map[string]any) { delete(b, "profile_id") }, "profile_id"},
		"unknown field": {func(b map[string]any) { b["rate"] = "1" }, "rate"},
	} {
		b := conversionBody()
		c.change(b)
		r := e.post(conversionsPath, b)
		e.wantStatus(r, http.StatusBadRequest)
		if got := r.errBody(t); got.Field != c.field {
			t.Errorf("%s: %+v", name, got)
		}
	}
	body := conversionBody()
	body["ref_id"] = "conv-ref"
	first := e.post(conversionsPath, body)
	e.wantStatus(first, http.StatusOK)
	var made, existing StablecoinConversion
	first.decode(t, &made)
	body["amount"] = "5"
	again := e.post(conversionsPath, body)
	e.wantStatus(again, http.StatusConflict)
	if p := problemOf(t, again, &existing); !strings.Contains(p.Detail, "'conv-ref'") || existing.ID != made.ID {
		t.Errorf("replay %s", again.body)
	}
	// A seeded conversion's ref_id is taken too.
	seeded := e.s.StablecoinConversions()[1]
	body["ref_id"] = *seeded.RefID
	again = e.post(conversionsPath, body)
	e.wantStatus(again, http.StatusConflict)
	if problemOf(t, again, &existing); existing.ID != seeded.ID {
		t.Errorf("replay of a seeded ref_id: %s", again.body)
	}
	if n := len(e.s.MadeStablecoinConversions()); n != 1 {
		t.Errorf("%d conversions made, want 1", n)
	}
}

func TestBalances(t *testing.T) {
	e := newEnv(t, Options{})
	account := madeAccount(t, e, "", "APPROVED")
	// Through the admin API.
	r := e.call(http.MethodPut, "/admin/balances", "", Balance{ProfileID: profileA, Asset: "usd", Available: "300.00"})
	e.wantStatus(r, http.StatusOK)
	e.wantStatus(e.call(http.MethodPut, "/admin/balances", "", `{"profile_id":"p","asset":"USD","available":"-1"}`), http.StatusBadRequest)
	e.wantStatus(e.call(http.MethodPut, "/admin/balances", "", `{"profile_id":"p","asset":"USD"}`), http.StatusBadRequest)
	e.s.SetBalance(profileA, "USDC", "0")
	e.s.SetBalance(profileB, "USDC", "5")
	e.s.SetBalance(profileA, "ETH", "1.5")
	var all AdminBalances
	e.call(http.MethodGet, "/admin/balances", "", nil).decode(t, &all)
	if len(all.Balances) != 4 || all.Balances[0] != (Balance{ProfileID: profileA, Asset: "ETH", Available: "1.5"}) ||
		all.Balances[1] != (Balance{ProfileID: profileA, Asset: "USD", Available: "300"}) {
		t.Errorf("balances %+v", all.Balances)
	}
	if _, ok := e.s.Balance(profileB, "USD"); ok {
		t.Error("a balance that was never set")
	}
	want := func(profile, asset, available string) {
		t.Helper()
		if got, ok := e.s.Balance(profile, asset); !ok || got != available {
			t.Errorf("balance of %s in %s: %q, want %s", profile, asset, got, available)
		}
	}
	refused := func(r response, figures ...string) {
		t.Helper()
		e.wantStatus(r, http.StatusForbidden)
		p := problemOf(t, r, nil)
		if p.Type != problemTypeBase+"insufficient-funds" || p.Title != "Forbidden" || p.Status != http.StatusForbidden {
			t.Errorf("refusal %s", r.body)
		}
		for _, f := range figures {
			if !strings.Contains(p.Detail, f) {
				t.Errorf("detail %q does not name %s", p.Detail, f)
			}
		}
	}

	// Crypto withdrawal: total 1.5015 ETH of 1.5; nothing made.
	refused(e.post(withdrawalsPath, validWithdrawal()), profileA, "ETH", "1.5", "1.5015")
	want(profileA, "ETH", "1.5")
	w := validWithdrawal()
	w["amount"] = "1"
	e.wantStatus(e.post(withdrawalsPath, w), http.StatusOK)
	want(profileA, "ETH", "0.4985")

	// Fiat withdrawal: 250.50 of 300, then 60 of 49.5.
	e.wantStatus(e.post(fiatWithdrawalsPath, fiatWithdrawal(account)), http.StatusOK)
	want(profileA, "USD", "49.5")
	fw := fiatWithdrawal(account)
	fw["amount"] = "60"
	refused(e.post(fiatWithdrawalsPath, fw), "49.5", "60", "USD")
	want(profileA, "USD", "49.5")

	// Internal transfer: from A (USDC 0) refused; from B (5) to A credits A.
	move := map[string]any{"from_profile_id": profileA, "to_profile_id": profileB, "asset": "USDC", "amount": "1"}
	refused(e.post(internalPath, move), profileA, "USDC")
	move["from_profile_id"], move["to_profile_id"], move["amount"] = profileB, profileA, "4.25"
	e.wantStatus(e.post(internalPath, move), http.StatusOK)
	want(profileB, "USDC", "0.75")
	want(profileA, "USDC", "4.25")
	// No balance set for C: neither checked nor made.
	move["to_profile_id"], move["amount"] = "profile-c", "0.75"
	e.wantStatus(e.post(internalPath, move), http.StatusOK)
	if _, ok := e.s.Balance("profile-c", "USDC"); ok {
		t.Error("a credit made a balance")
	}
	want(profileB, "USDC", "0")

	// Conversion: USD to USDC for B; the source is debited when made, the
	// target credited to the recipient when settled.
	conv := conversionBody()
	conv["amount"], conv["recipient_profile_id"] = "49.6", profileB
	refused(e.post(conversionsPath, conv), "49.5", "49.6")
	conv["amount"] = "40"
	r = e.post(conversionsPath, conv)
	e.wantStatus(r, http.StatusOK)
	var c StablecoinConversion
	r.decode(t, &c)
	want(profileA, "USD", "9.5")
	want(profileB, "USDC", "0")
	e.s.SettleConversion(c.ID)
	want(profileB, "USDC", "40")
	// A cancelled conversion gives its amount back.
	conv["amount"] = "9.5"
	r = e.post(conversionsPath, conv)
	r.decode(t, &c)
	want(profileA, "USD", "0")
	e.wantStatus(e.call(http.MethodDelete, conversionsPath+"/"+c.ID, e.token, nil), http.StatusOK)
	want(profileA, "USD", "9.5")
	// Cancelling twice gives it back once.
	e.wantStatus(e.call(http.MethodDelete, conversionsPath+"/"+c.ID, e.token, nil), http.StatusOK)
	want(profileA, "USD", "9.5")
	// A conversion made before its balance was set gives nothing back.
	conv["profile_id"] = profileB
	r = e.post(conversionsPath, conv)
	r.decode(t, &c)
	e.s.SetBalance(profileB, "USD", "1")
	e.wantStatus(e.call(http.MethodDelete, conversionsPath+"/"+c.ID, e.token, nil), http.StatusOK)
	want(profileB, "USD", "1")

	// Every refusal made nothing: one crypto and one fiat withdrawal, two
	// internal transfers of two sides each.
	if n := len(e.s.Transfers()); n != 6 {
		t.Errorf("%d transfers, want 6", n)
	}
	if n := len(e.s.MadeStablecoinConversions()); n != 3 {
		t.Errorf("%d conversions, want 3", n)
	}
}

// The new operations are counted, authorized by their scopes and listed in
// AllScopes.
func TestMoneyFlowsCountersAndScopes(t *testing.T) {
	e := newEnv(t, Options{})
	account := madeAccount(t, e, "", "APPROVED")
	ops := []struct {
		path, scope string
		body        any
	}{
		{fiatWithdrawalsPath, "transfer:write_fiat_withdrawal", fiatWithdrawal(account)},
		{internalPath, "transfer:write_internal_transfer", map[string]any{"from_profile_id": "p", "to_profile_id": "q", "asset": "USD", "amount": "1"}},
		{conversionsPath, "conversion:write_conversion_stablecoin", conversionBody()},
	}
	other := e.tokenFor("transfer:write_crypto_withdrawal")
	for _, op := range ops {
		e.wantStatus(e.call(http.MethodPost, op.path, "", op.body), http.StatusUnauthorized)
		r := e.call(http.MethodPost, op.path, other, op.body)
		e.wantStatus(r, http.StatusForbidden)
		if b := r.errBody(t); b.Code != "PERMISSION_DENIED" || !strings.Contains(b.Message, op.scope) {
			t.Errorf("%s: %+v", op.path, b)
		}
		e.wantStatus(e.call(http.MethodPost, op.path, e.tokenFor(op.scope), op.body), http.StatusOK)
		if n := e.s.Counters.Requests("POST " + op.path); n != 3 {
			t.Errorf("POST %s counted %d times, want 3", op.path, n)
		}
	}
	c := e.s.MadeStablecoinConversions()[0]
	e.wantStatus(e.call(http.MethodDelete, conversionsPath+"/"+c.ID, e.token, nil), http.StatusOK)
	if n := e.s.Counters.Requests("DELETE " + conversionsPath + "/" + c.ID); n != 1 {
		t.Errorf("DELETE counted %d times", n)
	}
	e.wantStatus(e.call(http.MethodPost, "/admin/conversions/"+c.ID+"/settle", "", nil), http.StatusConflict)
	if n := e.s.Counters.Requests("POST /admin/conversions/" + c.ID + "/settle"); n != 1 {
		t.Errorf("settle counted %d times", n)
	}
}
