package emulator

import (
	"net/http"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// Limits are set through the admin API, listed by transfer type, spent by
// withdrawals within their period, and a withdrawal over one is refused
// with 403 and nothing made.
func TestTransferLimits(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.call(http.MethodPut, "/admin/limits", "", `{"limits":[
		{"rule_id":"daily","transfer_types":["CRYPTO_WITHDRAWAL"],"period_seconds":"86400","limit":"10000","limit_asset":"USD"},
		{"rule_id":"single","transfer_types":["CRYPTO_WITHDRAWAL"],"period_seconds":"0","limit":"2","limit_asset":"ETH"},
		{"rule_id":"wire","transfer_types":["WIRE_WITHDRAWAL"],"period_seconds":"3600","limit":"5","limit_asset":"USD"}]}`)
	e.wantStatus(r, http.StatusOK)
	e.wantStatus(e.call(http.MethodPut, "/admin/limits", "", `{"limits":[{"limit":"x","limit_asset":"USD","period_seconds":"0"}]}`), http.StatusBadRequest)

	var page TransferLimitsPage
	e.get(pathTransferLimits+"?transfer_type=CRYPTO_WITHDRAWAL").decode(t, &page)
	if len(page.Items) != 2 || page.Items[0].Remaining != "10000" || page.Items[1].ID != "" || page.Items[1].Remaining != "2" {
		t.Fatalf("limits %+v", page.Items)
	}
	e.wantStatus(e.get(pathTransferLimits), http.StatusBadRequest)
	limited := e.tokenFor("transfer:read_transfer")
	e.wantStatus(e.call(http.MethodGet, pathTransferLimits+"?transfer_type=CRYPTO_WITHDRAWAL", limited, nil), http.StatusForbidden)

	// 1.5 ETH at 3500 USD spends 5250 of the daily limit.
	w := validWithdrawal()
	e.wantStatus(e.post(pathWithdrawals, w), http.StatusOK)
	e.get(pathTransferLimits+"?transfer_type=CRYPTO_WITHDRAWAL").decode(t, &page)
	if page.Items[0].Remaining != "4750" || page.Items[1].Remaining != "2" {
		t.Fatalf("after a withdrawal %+v", page.Items)
	}
	// 1.5 ETH more is over the daily limit; 3 ETH is over the single one.
	w["ref_id"] = "second"
	r = e.post(pathWithdrawals, w)
	e.wantStatus(r, http.StatusForbidden)
	var p Problem
	r.decode(t, &p)
	if p.Title != "Limit Exceeded" || p.Meta["rule_id"] != "daily" || p.Meta["remaining"] != "4750" {
		t.Errorf("refusal %s", r.body)
	}
	w["amount"], w["ref_id"] = "3", "third"
	r = e.post(pathWithdrawals, w)
	e.wantStatus(r, http.StatusForbidden)
	if len(e.s.Transfers()) != 1 {
		t.Errorf("%d transfers, want 1", len(e.s.Transfers()))
	}
	// The period passes.
	e.s.Advance(25 * time.Hour)
	e.token = e.tokenFor("")
	e.get(pathTransferLimits+"?transfer_type=CRYPTO_WITHDRAWAL").decode(t, &page)
	if page.Items[0].Remaining != "10000" {
		t.Errorf("after the period %+v", page.Items[0])
	}
}

// A guaranteed fee is used once, by a withdrawal that pays exactly it; an
// expired one is refused with 403 Expired.
func TestFeeQuotes(t *testing.T) {
	e := newEnv(t, Options{})
	e.s.SetWithdrawalFee("ETH", decimal.RequireFromString("0.002"))
	w := validWithdrawal()
	quote := map[string]any{"asset": "ETH", "destination_address": w["destination_address"], "crypto_network": "ETHEREUM", "amount": "1.5"}
	var q CryptoWithdrawalFee
	r := e.post(pathWithdrawalFee, quote)
	e.wantStatus(r, http.StatusOK)
	r.decode(t, &q)
	if q.Fee != "0.002" || q.Amount != "1.5" || !q.ExpiresAt.After(e.s.Now()) {
		t.Fatalf("quote %+v", q)
	}
	e.s.SetWithdrawalFee("ETH", decimal.RequireFromString("0.009"))
	w["fee_id"], w["ref_id"] = q.ID, "with-fee"
	var tr Transfer
	r = e.post(pathWithdrawals, w)
	e.wantStatus(r, http.StatusOK)
	r.decode(t, &tr)
	if tr.Fee != "0.002" || tr.Total != "1.502" {
		t.Errorf("withdrawal with the quote: fee %s total %s", tr.Fee, tr.Total)
	}
	// Its replay answers the same transfer; another withdrawal cannot use it.
	e.wantStatus(e.post(pathWithdrawals, w), http.StatusConflict)
	w["ref_id"] = "reuse"
	e.wantStatus(e.post(pathWithdrawals, w), http.StatusNotFound)

	e.s.ExpireNextFeeQuotes(1)
	e.post(pathWithdrawalFee, quote).decode(t, &q)
	w["fee_id"], w["ref_id"] = q.ID, "expired"
	r = e.post(pathWithdrawals, w)
	e.wantStatus(r, http.StatusForbidden)
	var p Problem
	r.decode(t, &p)
	if p.Title != "Expired" || p.Meta["expired_at"] == nil {
		t.Errorf("expired quote answered %s", r.body)
	}
	// A quote for a smaller amount does not cover a larger one.
	e.post(pathWithdrawalFee, quote).decode(t, &q)
	w["fee_id"], w["amount"], w["ref_id"] = q.ID, "2", "larger"
	e.wantStatus(e.post(pathWithdrawals, w), http.StatusBadRequest)
	if n := e.s.Counters.Requests("POST " + pathWithdrawalFee); n != 3 {
		t.Errorf("%d quotes counted, want 3", n)
	}
}

// The ticker is public and prices the assets the emulator values.
func TestTicker(t *testing.T) {
	e := newEnv(t, Options{})
	var tk Ticker
	r := e.call(http.MethodGet, "/v2/markets/BTCUSD/ticker", "", nil)
	e.wantStatus(r, http.StatusOK)
	r.decode(t, &tk)
	if tk.Market != "BTCUSD" || tk.LastExecution.Price != "65000" {
		t.Errorf("ticker %+v", tk)
	}
	e.wantStatus(e.call(http.MethodGet, "/v2/markets/DOGEUSD/ticker", "", nil), http.StatusNotFound)
}
