package emulator

import (
	"net/http"
	"testing"
)

// PUT /admin/fees changes the fee of the withdrawals made from then on.
func TestAdminFees(t *testing.T) {
	e := newEnv(t, Options{})
	var table FeesTable
	e.call(http.MethodGet, "/admin/fees", "", nil).decode(t, &table)
	if table.WithdrawalFees["BTC"] != "0.0001" || table.WithdrawalFees["USDC"] != "1.5" || table.DefaultWithdrawalFee != "0.01" {
		t.Fatalf("default fees %+v", table)
	}

	r := e.call(http.MethodPut, "/admin/fees", "", `{"withdrawal_fees":{"btc":"0.0002"},"default_withdrawal_fee":"0.05"}`)
	e.wantStatus(r, http.StatusOK)
	r.decode(t, &table)
	if table.WithdrawalFees["BTC"] != "0.0002" || table.WithdrawalFees["ETH"] != "0.0015" || table.DefaultWithdrawalFee != "0.05" {
		t.Fatalf("fees after PUT %+v", table)
	}
	var tr Transfer
	w := validWithdrawal()
	w["amount"], w["asset"], w["crypto_network"] = "1", "BTC", "BITCOIN"
	e.post(withdrawalsPath, w).decode(t, &tr)
	if tr.Fee != "0.0002" || tr.Total != "1.0002" {
		t.Errorf("BTC withdrawal fee %s total %s, want 0.0002 and 1.0002", tr.Fee, tr.Total)
	}
	w["asset"], w["crypto_network"] = "DOGE", "DOGECOIN"
	e.post(withdrawalsPath, w).decode(t, &tr)
	if tr.Fee != "0.05" || tr.Total != "1.05" {
		t.Errorf("DOGE withdrawal fee %s total %s, want 0.05 and 1.05", tr.Fee, tr.Total)
	}
	w["asset"], w["crypto_network"] = "ETH", "ETHEREUM"
	e.post(withdrawalsPath, w).decode(t, &tr)
	if tr.Fee != "0.0015" {
		t.Errorf("ETH withdrawal fee %s, want 0.0015", tr.Fee)
	}

	// A bad value changes nothing.
	for _, bad := range []string{`{"withdrawal_fees":{"BTC":"-1"}}`, `{"withdrawal_fees":{"ETH":"1","BTC":"x"}}`,
		`{"default_withdrawal_fee":"1e3"}`, `{"withdrawal_fees":{"":"1"}}`, `{"fees":{}}`} {
		e.wantStatus(e.call(http.MethodPut, "/admin/fees", "", bad), http.StatusBadRequest)
	}
	e.call(http.MethodGet, "/admin/fees", "", nil).decode(t, &table)
	if table.WithdrawalFees["BTC"] != "0.0002" || table.WithdrawalFees["ETH"] != "0.0015" {
		t.Errorf("a refused PUT changed the fees: %+v", table)
	}

	r = e.call(http.MethodPost, "/admin/fees/reset", "", nil)
	e.wantStatus(r, http.StatusOK)
	r.decode(t, &table)
	if table.WithdrawalFees["BTC"] != "0.0001" || table.DefaultWithdrawalFee != "0.01" || len(table.WithdrawalFees) != 5 {
		t.Errorf("fees after reset %+v", table)
	}
}

// retry_after_seconds -1 answers 429 without Retry-After; other negative
// waits are refused.
func TestAdminFaults_tooManyWithoutRetryAfter(t *testing.T) {
	e := newEnv(t, Options{})
	e.wantStatus(e.call(http.MethodPut, "/admin/faults", "", `{"too_many_requests":1,"retry_after_seconds":-1}`), http.StatusOK)
	var got FaultConfig
	e.call(http.MethodGet, "/admin/faults", "", nil).decode(t, &got)
	if got.TooManyRequests != 1 || got.RetryAfterSeconds != -1 {
		t.Fatalf("faults %+v", got)
	}
	r := e.get(claimsPath)
	e.wantStatus(r, http.StatusTooManyRequests)
	if v, ok := r.header["Retry-After"]; ok {
		t.Errorf("Retry-After %q sent", v)
	}
	e.wantStatus(e.call(http.MethodPut, "/admin/faults", "", `{"too_many_requests":1,"retry_after_seconds":7}`), http.StatusOK)
	r = e.get(claimsPath)
	e.wantStatus(r, http.StatusTooManyRequests)
	if r.header.Get("Retry-After") != "7" {
		t.Errorf("Retry-After %q, want 7", r.header.Get("Retry-After"))
	}
	e.wantStatus(e.call(http.MethodPut, "/admin/faults", "", `{"retry_after_seconds":-2}`), http.StatusBadRequest)
}

// GET /admin/transfers lists the withdrawals made through the API, by ref_id.
func TestAdminTransfers(t *testing.T) {
	e := newEnv(t, Options{Transfers: 3})
	var got AdminTransfers
	e.call(http.MethodGet, "/admin/transfers", "", nil).decode(t, &got)
	if got.Count != 0 || got.Transfers == nil || len(got.Transfers) != 0 {
		t.Fatalf("before any withdrawal: %+v", got)
	}
	w := validWithdrawal()
	w["ref_id"] = "adm-1"
	e.wantStatus(e.post(withdrawalsPath, w), http.StatusOK)
	e.wantStatus(e.post(withdrawalsPath, w), http.StatusConflict)
	w["ref_id"] = "adm-2"
	e.wantStatus(e.post(withdrawalsPath, w), http.StatusOK)
	e.call(http.MethodGet, "/admin/transfers?ref_id=adm-1", "", nil).decode(t, &got)
	if got.Count != 1 || len(got.Transfers) != 1 || *got.Transfers[0].RefID != "adm-1" {
		t.Errorf("ref_id adm-1: %+v", got)
	}
	e.call(http.MethodGet, "/admin/transfers", "", nil).decode(t, &got)
	if got.Count != 2 {
		t.Errorf("all: count %d, want 2", got.Count)
	}
}
