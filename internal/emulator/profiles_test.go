package emulator

import (
	"net/http"
	"net/url"
	"testing"
)

const profilesPath = "/v2/profiles"

func TestProfiles(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.post(profilesPath, map[string]any{"nickname": "Treasury", "description": "Operating funds"})
	e.wantStatus(r, http.StatusOK)
	var made Profile
	r.decode(t, &made)
	if !isUUID(made.ID) || made.Nickname != "Treasury" || made.Type != ProfileTypeNormal || made.Description == nil || *made.Description != "Operating funds" {
		t.Fatalf("created %+v", made)
	}

	// A nickname another active profile holds, in any letter case, is the
	// already-exists problem with that profile.
	r = e.post(profilesPath, map[string]any{"nickname": "treasury"})
	e.wantStatus(r, http.StatusConflict)
	var p Problem
	r.decode(t, &p)
	existing, _ := p.Meta["existing"].(map[string]any)
	if existing["id"] != made.ID || p.Title != "Already Exists" {
		t.Errorf("conflict %s", r.body)
	}
	e.wantStatus(e.post(profilesPath, map[string]any{"nickname": ""}), http.StatusBadRequest)
	e.wantStatus(e.post(profilesPath, map[string]any{"nickname": "x", "type": "NORMAL"}), http.StatusBadRequest)

	var got Profile
	r = e.get(profilesPath + "/" + made.ID)
	e.wantStatus(r, http.StatusOK)
	r.decode(t, &got)
	if got.ID != made.ID || got.Nickname != "Treasury" {
		t.Errorf("get %+v", got)
	}
	r = e.get(profilesPath + "/default")
	e.wantStatus(r, http.StatusOK)
	r.decode(t, &got)
	if got.Type != ProfileTypeDefault || got.ID != e.s.DefaultProfileID() {
		t.Errorf("default %+v", got)
	}
	e.wantStatus(e.get(profilesPath+"/nope"), http.StatusNotFound)

	// Update: the nickname, refused when another profile holds it.
	other := e.post(profilesPath, map[string]any{"nickname": "Payroll"})
	var payroll Profile
	other.decode(t, &payroll)
	e.wantStatus(e.call(http.MethodPut, profilesPath+"/"+made.ID, e.token, map[string]any{"nickname": "PAYROLL"}), http.StatusConflict)
	r = e.call(http.MethodPut, profilesPath+"/"+made.ID, e.token, map[string]any{"nickname": "Treasury EU"})
	e.wantStatus(r, http.StatusOK)
	r.decode(t, &got)
	if got.Nickname != "Treasury EU" || got.ID != made.ID {
		t.Errorf("update %+v", got)
	}
	e.wantStatus(e.call(http.MethodPut, profilesPath+"/nope", e.token, map[string]any{"nickname": "x"}), http.StatusNotFound)

	// List: the default profile and those made, ASC by default; the
	// nickname filter matches a prefix without letter case; paging.
	var page struct {
		Items          []Profile `json:"items"`
		NextPageCursor string    `json:"next_page_cursor"`
	}
	r = e.get(profilesPath)
	e.wantStatus(r, http.StatusOK)
	r.decode(t, &page)
	if len(page.Items) != 3 || page.Items[0].Type != ProfileTypeDefault || page.Items[2].ID != payroll.ID || page.NextPageCursor != "" {
		t.Errorf("list %s", r.body)
	}
	r = e.get(profilesPath + "?nickname=treas")
	r.decode(t, &page)
	if len(page.Items) != 1 || page.Items[0].ID != made.ID {
		t.Errorf("nickname filter %s", r.body)
	}
	r = e.get(profilesPath + "?limit=1&order=DESC")
	r.decode(t, &page)
	if len(page.Items) != 1 || page.Items[0].ID != payroll.ID || page.NextPageCursor == "" {
		t.Fatalf("first page %s", r.body)
	}
	r = e.get(profilesPath + "?limit=1&order=DESC&page_cursor=" + url.QueryEscape(page.NextPageCursor))
	r.decode(t, &page)
	if len(page.Items) != 1 || page.Items[0].ID != made.ID {
		t.Errorf("second page %s", r.body)
	}
	r = e.get(profilesPath + "?ids=" + payroll.ID + "&ids=" + made.ID)
	r.decode(t, &page)
	if len(page.Items) != 2 {
		t.Errorf("ids filter %s", r.body)
	}
	e.wantStatus(e.get(profilesPath+"?nope=1"), http.StatusBadRequest)

	// Deactivate: refused for the default profile and while a balance is
	// above zero; then the profile leaves the list and frees its nickname.
	deactivate := func(id string) response {
		return e.call(http.MethodPut, profilesPath+"/"+id+"/deactivate", e.token, nil)
	}
	e.wantStatus(deactivate(e.s.DefaultProfileID()), http.StatusBadRequest)
	e.wantStatus(deactivate("nope"), http.StatusNotFound)
	e.wantStatus(e.post("/v2/sandbox/profiles/"+payroll.ID+"/deposit", map[string]any{"asset": "USD", "amount": "10"}), http.StatusOK)
	r = deactivate(payroll.ID)
	e.wantStatus(r, http.StatusConflict)
	r.decode(t, &p)
	if b, _ := p.Meta["balances"].([]any); len(b) != 1 || p.Detail == "" {
		t.Errorf("refusal %s", r.body)
	}
	e.s.SetBalance(payroll.ID, "USD", "0")
	e.wantStatus(deactivate(payroll.ID), http.StatusOK)
	e.wantStatus(deactivate(payroll.ID), http.StatusOK)
	if !e.s.ProfileDeactivated(payroll.ID) {
		t.Error("not deactivated")
	}
	e.wantStatus(e.get(profilesPath+"/"+payroll.ID), http.StatusNotFound)
	e.wantStatus(e.get(profilesPath+"/"+payroll.ID+"?include_deactivated=true"), http.StatusOK)
	r = e.get(profilesPath)
	r.decode(t, &page)
	if len(page.Items) != 2 {
		t.Errorf("list after deactivate %s", r.body)
	}
	e.wantStatus(e.post(profilesPath, map[string]any{"nickname": "Payroll"}), http.StatusOK)

	// A deposit to a deactivated profile reactivates it.
	e.wantStatus(e.post("/v2/sandbox/profiles/"+payroll.ID+"/deposit", map[string]any{"asset": "USD", "amount": "1"}), http.StatusOK)
	if e.s.ProfileDeactivated(payroll.ID) {
		t.Error("a funded profile stays deactivated")
	}

	// Scopes: reads need funding:read_profile, writes funding:write_profile.
	read := e.tokenFor("funding:read_profile")
	e.wantStatus(e.call(http.MethodPost, profilesPath, read, map[string]any{"nickname": "y"}), http.StatusForbidden)
	e.wantStatus(e.call(http.MethodGet, profilesPath, read, nil), http.StatusOK)
}

// TestWriteErrorsMakeNothing: a write error answers the next writes 502
// without processing them (no profile is made), and lets reads through.
func TestWriteErrorsMakeNothing(t *testing.T) {
	e := newEnv(t, Options{})
	e.s.Faults.WriteErrors(1, 0)
	e.wantStatus(e.get(profilesPath), http.StatusOK)
	e.wantStatus(e.post(profilesPath, map[string]any{"nickname": "Lost"}), http.StatusBadGateway)
	for _, p := range e.s.Profiles() {
		if p.Nickname == "Lost" {
			t.Fatalf("the lost write made profile %+v", p)
		}
	}
	e.wantStatus(e.post(profilesPath, map[string]any{"nickname": "Lost"}), http.StatusOK)
	e.wantStatus(e.call(http.MethodPut, "/admin/faults", "", `{"write_error_status":404}`), http.StatusBadRequest)
}
