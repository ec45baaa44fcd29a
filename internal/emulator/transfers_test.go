package emulator

import (
	"net/http"
	"net/url"
	"slices"
	"testing"
)

// listed pages through path with query q and returns every item.
func listed[T any](e *env, path string, q url.Values) []T {
	e.t.Helper()
	all, _ := listAll[T](e, path, q)
	return all
}

func TestListTransfersFilters(t *testing.T) {
	e := newEnv(t, Options{Transfers: 500})
	seeded := e.s.data.seededTransfers
	w := validWithdrawal()
	w["ref_id"] = "made-here"
	e.wantStatus(e.post(withdrawalsPath, w), http.StatusOK)
	all := listed[Transfer](e, pathTransfers, url.Values{"limit": {"37"}})
	if len(all) != len(seeded)+1 {
		t.Fatalf("%d transfers listed, want %d", len(all), len(seeded)+1)
	}
	// Newest first by default: the withdrawal made now comes first.
	if all[0].RefID == nil || *all[0].RefID != "made-here" {
		t.Errorf("first transfer %+v, want the withdrawal made last", all[0])
	}
	want := func(match func(*Transfer) bool) []string {
		var ids []string
		for i := len(seeded) - 1; i >= 0; i-- {
			if match(&seeded[i]) {
				ids = append(ids, seeded[i].ID)
			}
		}
		return ids
	}
	idsOf := func(ts []Transfer) []string {
		out := make([]string, len(ts))
		for i := range ts {
			out[i] = ts[i].ID
		}
		return out
	}
	profile := seeded[3].ProfileID
	cases := map[string]struct {
		q     url.Values
		match func(*Transfer) bool
	}{
		"types": {url.Values{"type": {"CRYPTO_DEPOSIT", "WIRE_DEPOSIT"}}, func(t *Transfer) bool {
			return t.Type == "CRYPTO_DEPOSIT" || t.Type == "WIRE_DEPOSIT"
		}},
		"status": {url.Values{"statuses": {"FAILED"}}, func(t *Transfer) bool { return t.Status == "FAILED" }},
		"profile": {url.Values{"profile_ids": {profile}, "created_at.gte": {seeded[100].CreatedAt.Format("2006-01-02T15:04:05Z07:00")}}, func(t *Transfer) bool {
			return t.ProfileID == profile && !t.CreatedAt.Before(seeded[100].CreatedAt)
		}},
		"unknown type": {url.Values{"type": {"CUBIX_DEPOSIT"}}, func(*Transfer) bool { return false }},
	}
	for name, tc := range cases {
		tc.q.Set("limit", "11")
		got := idsOf(listed[Transfer](e, pathTransfers, tc.q))
		if w := want(tc.match); !slices.Equal(got, w) || len(w) == 0 && name != "unknown type" {
			t.Errorf("%s: listed %d transfers, want %d", name, len(got), len(w))
		}
	}
	// Oldest first.
	asc := listed[Transfer](e, pathTransfers, url.Values{"order": {"ASC"}, "limit": {"1000"}})
	if asc[0].ID != seeded[0].ID || asc[len(asc)-1].RefID == nil || *asc[len(asc)-1].RefID != "made-here" {
		t.Errorf("ASC order starts with %s and ends with %+v", asc[0].ID, asc[len(asc)-1])
	}
	e.wantStatus(e.get(pathTransfers+"?statuses=DONE"), http.StatusBadRequest)
	// ids, ref_ids and type combine with the time filters only.
	for _, q := range []string{"ids=a&ref_ids=b", "ref_ids=b&type=CRYPTO_WITHDRAWAL", "type=CRYPTO_WITHDRAWAL&statuses=FAILED",
		"ids=a&profile_ids=" + profile, "profile_ids=" + profile + "&statuses=FAILED", "account_ids=a&group_ids=g",
		"order_by=CREATED_AT&updated_at.gt=2020-01-01T00:00:00Z", "order_by=UPDATED_AT&created_at.gt=2020-01-01T00:00:00Z"} {
		e.wantStatus(e.get(pathTransfers+"?"+q), http.StatusBadRequest)
	}
	e.wantStatus(e.get(pathTransfers+"?ref_ids=b&created_at.gte=2020-01-01T00:00:00Z"), http.StatusOK)
}

func TestGetTransferAndStatus(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.post(withdrawalsPath, validWithdrawal())
	e.wantStatus(r, http.StatusOK)
	var made Transfer
	r.decode(t, &made)
	if !e.s.SetTransferStatus(made.ID, "COMPLETED", "0xabc") {
		t.Fatal("SetTransferStatus did not find the withdrawal")
	}
	got := e.get(pathTransfers + "/" + made.ID)
	e.wantStatus(got, http.StatusOK)
	var tr Transfer
	got.decode(t, &tr)
	if tr.Status != "COMPLETED" || tr.CryptoTxHash == nil || *tr.CryptoTxHash != "0xabc" || !tr.UpdatedAt.After(made.UpdatedAt) && !tr.UpdatedAt.Equal(made.UpdatedAt) {
		t.Errorf("transfer after completion %+v", tr)
	}
	e.wantStatus(e.get(pathTransfers+"/unknown"), http.StatusNotFound)
	// The scope is transfer:read_transfer.
	other := e.tokenFor("transfer:read_fiat_account")
	e.wantStatus(e.call(http.MethodGet, pathTransfers+"/"+made.ID, other, nil), http.StatusForbidden)
	// The admin API moves a withdrawal too.
	e.wantStatus(e.call(http.MethodPost, "/admin/transfers/"+made.ID+"/status", "", map[string]string{"status": "FAILED"}), http.StatusNoContent)
	got = e.get(pathTransfers + "/" + made.ID)
	got.decode(t, &tr)
	if tr.Status != "FAILED" || tr.StatusDetails == nil {
		t.Errorf("transfer after failure %+v", tr)
	}
}

func TestListInstructions(t *testing.T) {
	e := newEnv(t, Options{})
	for i, ref := range []string{"a", "b", "c"} {
		body := map[string]any{"profile_id": "p", "fiat_network": "WIRE", "ref_id": ref}
		if i == 1 {
			delete(body, "ref_id")
		}
		e.wantStatus(e.post(instructionsPath, body), http.StatusOK)
	}
	all := listed[FiatDepositInstructions](e, instructionsPath, url.Values{"limit": {"2"}})
	if len(all) != 3 || all[0].RefID == nil || *all[0].RefID != "c" {
		t.Fatalf("listed %+v, want 3 newest first", all)
	}
	byRef := listed[FiatDepositInstructions](e, instructionsPath, url.Values{"ref_ids": {"a"}})
	if len(byRef) != 1 || *byRef[0].RefID != "a" {
		t.Errorf("by ref_id: %+v", byRef)
	}
}
