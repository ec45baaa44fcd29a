package emulator

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

const (
	fiatAccountsPath     = "/v2/transfer/fiat-accounts"
	depositAddressesPath = "/v2/transfer/deposit-addresses"
	claimsPath           = "/v2/rewards/claims"
)

func ids[T any](items []T, id func(*T) string) []string {
	out := make([]string, len(items))
	for i := range items {
		out[i] = id(&items[i])
	}
	return out
}

func faID(a *FiatAccount) string    { return a.ID }
func daID(d *DepositAddress) string { return d.ID }
func rcID(c *RewardClaim) string    { return c.ID }

// expected returns the ids of the items that match, in the given order.
func expected[T any](items []T, desc bool, match func(*T) bool, id func(*T) string) []string {
	var out []string
	for i := range items {
		if match(&items[i]) {
			out = append(out, id(&items[i]))
		}
	}
	if desc {
		slices.Reverse(out)
	}
	return out
}

// listCase is a query of a list and the items it answers: those match
// takes, newest first when desc.
type listCase[T any] struct {
	name  string
	q     url.Values
	desc  bool
	match func(*T) bool
}

// checkList lists path with each case's query, at each page size of
// limits, and checks the items answered, in order, and the number of pages.
func checkList[T any](t *testing.T, e *env, path string, data []T, id func(*T) string, limits []int, cases []listCase[T]) {
	t.Helper()
	for _, c := range cases {
		for _, limit := range limits {
			t.Run(c.name+"/"+strconv.Itoa(limit), func(t *testing.T) {
				q := cloneValues(c.q)
				q.Set("limit", strconv.Itoa(limit))
				got, pages := listAll[T](e, path, q)
				want := expected(data, c.desc, c.match, id)
				if !slices.Equal(ids(got, id), want) {
					t.Fatalf("got %d items, want %d (%v)", len(got), len(want), c.q)
				}
				if wantPages := max(1, (len(want)+limit-1)/limit); pages != wantPages {
					t.Errorf("pages %d, want %d", pages, wantPages)
				}
			})
		}
	}
}

func TestListFiatAccounts(t *testing.T) {
	e := newEnv(t, Options{Seed: 7, FiatAccounts: 523})
	data := e.s.FiatAccounts()
	mid := data[250].CreatedAt
	midS := mid.Format(time.RFC3339)
	someIDs := []string{data[3].ID, data[100].ID, data[400].ID, data[522].ID}
	deletedIDs := []string{}
	for _, a := range data {
		if a.Deleted {
			deletedIDs = append(deletedIDs, a.ID)
		}
	}
	if len(deletedIDs) == 0 {
		t.Fatal("no deleted accounts seeded")
	}
	ref := func(a *FiatAccount) string {
		if a.RefID == nil {
			return ""
		}
		return *a.RefID
	}
	refs := []string{ref(&data[10]), ref(&data[20]), "no-such-ref"}
	checkList(t, e, fiatAccountsPath, data, faID, []int{1, 7, 100, 1000}, []listCase[FiatAccount]{
		{"default", url.Values{}, true, func(a *FiatAccount) bool { return !a.Deleted }},
		{"asc", url.Values{"order": {"ASC"}, "order_by": {"CREATED_AT"}}, false, func(a *FiatAccount) bool { return !a.Deleted }},
		{"include deleted", url.Values{"include_deleted": {"true"}}, true, func(*FiatAccount) bool { return true }},
		{"include deleted false", url.Values{"include_deleted": {"false"}, "order": {"DESC"}}, true, func(a *FiatAccount) bool { return !a.Deleted }},
		{"ids repeated", url.Values{"ids": someIDs, "include_deleted": {"true"}}, true, func(a *FiatAccount) bool { return slices.Contains(someIDs, a.ID) }},
		{"ids comma", url.Values{"ids": {strings.Join(someIDs, ",")}, "include_deleted": {"true"}}, true, func(a *FiatAccount) bool { return slices.Contains(someIDs, a.ID) }},
		{"deleted ids hidden", url.Values{"ids": deletedIDs}, true, func(*FiatAccount) bool { return false }},
		{"ref_ids", url.Values{"ref_ids": refs, "include_deleted": {"true"}}, true, func(a *FiatAccount) bool { return a.RefID != nil && slices.Contains(refs, *a.RefID) }},
		{"created_at.lt", url.Values{"created_at.lt": {midS}}, true, func(a *FiatAccount) bool { return !a.Deleted && a.CreatedAt.Before(mid) }},
		{"created_at.lte", url.Values{"created_at.lte": {midS}}, true, func(a *FiatAccount) bool { return !a.Deleted && !a.CreatedAt.After(mid) }},
		{"created_at.eq", url.Values{"created_at.eq": {midS}, "include_deleted": {"true"}}, true, func(a *FiatAccount) bool { return a.CreatedAt.Equal(mid) }},
		{"created_at.gte", url.Values{"created_at.gte": {midS}, "order": {"ASC"}}, false, func(a *FiatAccount) bool { return !a.Deleted && !a.CreatedAt.Before(mid) }},
		{"created_at.gt+lt", url.Values{"created_at.gt": {data[100].CreatedAt.Format(time.RFC3339)}, "created_at.lt": {midS}}, true, func(a *FiatAccount) bool {
			return !a.Deleted && a.CreatedAt.After(data[100].CreatedAt) && a.CreatedAt.Before(mid)
		}},
	})
	if n := len(expected(data, false, func(a *FiatAccount) bool { return a.CreatedAt.Equal(mid) }, faID)); n != 1 {
		t.Fatalf("created_at not unique: %d", n)
	}
}

func TestListFiatAccountsDefaultLimitAndShape(t *testing.T) {
	e := newEnv(t, Options{FiatAccounts: 400})
	r := e.get(fiatAccountsPath)
	e.wantStatus(r, http.StatusOK)
	var p Page[map[string]any]
	r.decode(t, &p)
	if len(p.Items) != 100 || p.NextPageCursor == "" {
		t.Fatalf("default page: %d items, cursor %q", len(p.Items), p.NextPageCursor)
	}
	var noPerson, masked int
	for _, it := range p.Items {
		for k, v := range it {
			if v == "" {
				t.Errorf("%s is an empty string", k)
			}
		}
		owner, _ := it["fiat_account_owner"].(map[string]any)
		if pd, ok := owner["person_details"]; !ok {
			noPerson++
		} else if pd == nil {
			t.Errorf("null person_details: the reference has no null")
		}
		wire := it["fiat_network_instructions"].(map[string]any)["wire"].(map[string]any) //nolint:forcetypeassert // Test.
		if a, ok := wire["fiat_account_owner_address"]; !ok || a == nil {
			t.Errorf("fiat_account_owner_address %v: the reference requires one", a)
		}
		if strings.Contains(wire["account_number"].(string), "*") { //nolint:forcetypeassert // Test.
			masked++
		}
		// The status is at the top level of the item, as published.
		if _, ok := it["status"].(string); !ok {
			t.Errorf("top-level status missing")
		}
		if _, ok := wire["status"]; ok {
			t.Errorf("wire status present in the published form")
		}
	}
	if noPerson == 0 || masked == 0 {
		t.Errorf("variety: without person %d, masked %d", noPerson, masked)
	}
	// Empty data set: one empty page.
	e2 := newEnv(t, Options{})
	r = e2.get(fiatAccountsPath)
	e2.wantStatus(r, http.StatusOK)
	if string(r.body) != "{\"items\":[],\"next_page_cursor\":\"\"}\n" {
		t.Errorf("empty list %s", r.body)
	}
}

func TestListDepositAddresses(t *testing.T) {
	e := newEnv(t, Options{Seed: 3, DepositAddresses: 611})
	data := e.s.DepositAddresses()
	d0, d1 := data[0], data[300]
	mid := data[305].CreatedAt
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	checkList(t, e, depositAddressesPath, data, daID, []int{3, 50, 1000}, []listCase[DepositAddress]{
		{"all", url.Values{}, true, func(*DepositAddress) bool { return true }},
		{"asc", url.Values{"order": {"ASC"}}, false, func(*DepositAddress) bool { return true }},
		{"profile_ids", url.Values{"profile_ids": {d0.ProfileID}}, true, func(d *DepositAddress) bool { return d.ProfileID == d0.ProfileID }},
		{"identity_ids", url.Values{"identity_ids": {str(d0.IdentityID), str(d1.IdentityID)}}, true, func(d *DepositAddress) bool {
			return d.IdentityID != nil && (*d.IdentityID == str(d0.IdentityID) || *d.IdentityID == str(d1.IdentityID))
		}},
		{"ids", url.Values{"ids": {d0.ID + "," + d1.ID}}, true, func(d *DepositAddress) bool { return d.ID == d0.ID || d.ID == d1.ID }},
		{"ref_ids", url.Values{"ref_ids": {str(d1.RefID)}}, true, func(d *DepositAddress) bool { return d.RefID != nil && *d.RefID == str(d1.RefID) }},
		{"account_ids", url.Values{"account_ids": {d1.AccountID}}, true, func(d *DepositAddress) bool { return d.AccountID == d1.AccountID }},
		{"networks", url.Values{"networks": {"BITCOIN", "SOLANA"}}, true, func(d *DepositAddress) bool {
			return d.CryptoNetwork == "BITCOIN" || d.CryptoNetwork == "SOLANA"
		}},
		{"combined", url.Values{"networks": {"ETHEREUM,BASE"}, "profile_ids": {d0.ProfileID}, "created_at.gte": {mid.Format(time.RFC3339Nano)}}, true, func(d *DepositAddress) bool {
			return (d.CryptoNetwork == "ETHEREUM" || d.CryptoNetwork == "BASE") && d.ProfileID == d0.ProfileID && !d.CreatedAt.Before(mid)
		}},
		{"none", url.Values{"networks": {"INK"}, "ids": {d0.ID}}, true, func(d *DepositAddress) bool { return d.CryptoNetwork == "INK" && d.ID == d0.ID }},
	})
}

func TestListRewardClaims(t *testing.T) {
	e := newEnv(t, Options{Seed: 5, RewardClaims: 733})
	data := e.s.RewardClaims()
	c0 := data[0]
	start, end := data[100].CreatedAt, data[500].CreatedAt
	statuses := map[string]int{}
	for _, c := range data {
		statuses[c.OnchainStatus]++
	}
	if len(statuses) != 4 {
		t.Fatalf("statuses %v", statuses)
	}
	cases := []listCase[RewardClaim]{
		{"all", url.Values{}, true, func(*RewardClaim) bool { return true }},
		{"payout group", url.Values{"payout_group_id": {c0.PayoutGroupID}}, true, func(c *RewardClaim) bool { return c.PayoutGroupID == c0.PayoutGroupID }},
		{"statuses", url.Values{"statuses": {"CONFIRMED", "FAILED"}}, true, func(c *RewardClaim) bool {
			return c.OnchainStatus == "CONFIRMED" || c.OnchainStatus == "FAILED"
		}},
		{"chain", url.Values{"chain": {"solana"}}, true, func(c *RewardClaim) bool { return c.Blockchain == "solana" }},
		{"jurisdiction", url.Values{"jurisdiction": {"EU"}}, true, func(c *RewardClaim) bool { return c.Jurisdiction == "EU" }},
		{"time range inclusive", url.Values{"start_time": {start.Format(time.RFC3339)}, "end_time": {end.Format(time.RFC3339)}}, true, func(c *RewardClaim) bool {
			return !c.CreatedAt.Before(start) && !c.CreatedAt.After(end)
		}},
		{"combined", url.Values{"chain": {"ethereum"}, "onchain_statuses": {"PENDING"}, "jurisdiction": {"US"}}, true, func(c *RewardClaim) bool {
			return c.Blockchain == "ethereum" && c.OnchainStatus == "PENDING" && c.Jurisdiction == "US"
		}},
	}
	for _, c := range cases {
		if len(expected(data, true, c.match, rcID)) == 0 {
			t.Fatalf("case %s matches nothing", c.name)
		}
	}
	checkList(t, e, claimsPath, data, rcID, []int{4, 1000}, cases)
	// Inclusive bounds: a range of exactly one creation time finds it.
	got, _ := listAll[RewardClaim](e, claimsPath, url.Values{"start_time": {start.Format(time.RFC3339)}, "end_time": {start.Format(time.RFC3339)}})
	if len(got) != 1 || got[0].ID != data[100].ID {
		t.Errorf("single-instant range: %d items", len(got))
	}
	// Default limit 100.
	var p Page[map[string]any]
	e.get(claimsPath).decode(t, &p)
	if len(p.Items) != 100 {
		t.Errorf("default limit gave %d", len(p.Items))
	}
	for _, it := range p.Items {
		for k, v := range it {
			if v == "" || v == nil {
				t.Errorf("claim field %s is %v", k, v)
			}
		}
		if _, ok := it["jurisdiction"]; ok {
			t.Error("jurisdiction is sent")
		}
	}
}

func TestListValidation(t *testing.T) {
	e := newEnv(t, Options{FiatAccounts: 10, DepositAddresses: 10, RewardClaims: 10})
	hundred := make([]string, 100)
	for i := range hundred {
		hundred[i] = "v" + strconv.Itoa(i)
	}
	cases := []struct {
		path, query, field string
	}{
		{fiatAccountsPath, "limit=0", "limit"},
		{fiatAccountsPath, "limit=1001", "limit"},
		{fiatAccountsPath, "limit=abc", "limit"},
		{fiatAccountsPath, "limit=1&limit=2", "limit"},
		{fiatAccountsPath, "order=asc", "order"},
		{fiatAccountsPath, "order=UP", "order"},
		{fiatAccountsPath, "order_by=UPDATED_AT", "order_by"},
		{fiatAccountsPath, "include_deleted=yes", "include_deleted"},
		{fiatAccountsPath, "include_deleted=1", "include_deleted"},
		{fiatAccountsPath, "created_at.lt=2024-01-01", "created_at.lt"},
		{fiatAccountsPath, "created_at.gte=yesterday", "created_at.gte"},
		{fiatAccountsPath, "created_at.eq=2024-01-01T00:00:00", "created_at.eq"},
		{fiatAccountsPath, "created_at.gt=2024-01-01T00:00:00+01:00", "created_at.gt"}, // unescaped '+' is a space
		{fiatAccountsPath, "ids=" + strings.Join(hundred, ",") + ",x", "ids"},
		{fiatAccountsPath, "ref_ids=a&ref_ids=", "ref_ids"},
		{fiatAccountsPath, "ids=a,,b", "ids"},
		{fiatAccountsPath, "created_at_gte=2024-01-01T00:00:00Z", "created_at_gte"},
		{fiatAccountsPath, "networks=BITCOIN", "networks"},
		{fiatAccountsPath, "page_cursor=garbage", "page_cursor"},
		{fiatAccountsPath, "page_cursor=", "page_cursor"},
		{depositAddressesPath, "networks=bitcoin", "networks"},
		{depositAddressesPath, "networks=BITCOIN,DOGE", "networks"},
		{depositAddressesPath, "profile_ids=" + strings.Join(append(slices.Clone(hundred), "x"), "&profile_ids="), "profile_ids"},
		{depositAddressesPath, "include_deleted=true", "include_deleted"},
		{depositAddressesPath, "order=ASC&order_by=ID", "order_by"},
		{claimsPath, "onchain_statuses=DONE", "onchain_statuses"},
		{claimsPath, "start_time=now", "start_time"},
		{claimsPath, "end_time=2024-13-01T00:00:00Z", "end_time"},
		{claimsPath, "start_time=2024-02-01T00:00:00Z&end_time=2024-01-01T00:00:00Z", "start_time"},
		{claimsPath, "limit=1001", "limit"},
		{claimsPath, "limit=-1", "limit"},
		{claimsPath, "order=ASC", "order"},
		{claimsPath, "chain=", "chain"},
		{claimsPath, "chain=a&chain=b", "chain"},
	}
	for _, c := range cases {
		t.Run(c.path+"?"+c.query, func(t *testing.T) {
			r := e.get(c.path + "?" + c.query)
			e.wantStatus(r, http.StatusBadRequest)
			if b := r.errBody(t); b.Field != c.field || b.Code != "INVALID_ARGUMENT" {
				t.Errorf("body %+v, want field %s", b, c.field)
			}
		})
	}
	// The limits themselves are accepted.
	for _, q := range []string{
		"limit=1000", "limit=1", "ids=" + strings.Join(hundred, ","), "order=ASC&order_by=CREATED_AT",
		"created_at.gt=2024-01-01T00:00:00%2B01:00", "created_at.lt=2024-01-01T00:00:00.123456Z",
	} {
		e.wantStatus(e.get(fiatAccountsPath+"?"+q), http.StatusOK)
	}
	e.wantStatus(e.get(claimsPath+"?limit=1000&onchain_statuses=PENDING,SUBMITTED&onchain_statuses=CONFIRMED"), http.StatusOK)
}

func TestCursorMisuse(t *testing.T) {
	e := newEnv(t, Options{FiatAccounts: 50, DepositAddresses: 50, RewardClaims: 50})
	var p Page[FiatAccount]
	e.get(fiatAccountsPath+"?limit=5&include_deleted=true").decode(t, &p)
	c := p.NextPageCursor
	if c == "" {
		t.Fatal("no cursor")
	}
	// Same filters, another limit: fine.
	e.wantStatus(e.get(fiatAccountsPath+"?limit=7&include_deleted=true&page_cursor="+c), http.StatusOK)
	bad := []string{
		fiatAccountsPath + "?limit=5&page_cursor=" + c,                                // filters changed
		fiatAccountsPath + "?limit=5&include_deleted=true&order=ASC&page_cursor=" + c, // order changed
		depositAddressesPath + "?limit=5&page_cursor=" + c,                            // another list
		fiatAccountsPath + "?include_deleted=true&page_cursor=" + c[:10] + flip(c[10:11]) + c[11:],
		fiatAccountsPath + "?include_deleted=true&page_cursor=" + c[:len(c)-1] + flip(c[len(c)-1:]),
		fiatAccountsPath + "?include_deleted=true&page_cursor=" + c + "AA",
	}
	for _, u := range bad {
		r := e.get(u)
		e.wantStatus(r, http.StatusBadRequest)
		if r.errBody(t).Field != "page_cursor" {
			t.Errorf("%s: %s", u, r.body)
		}
	}
	// A cursor from another emulator is not accepted.
	other := newEnv(t, Options{FiatAccounts: 50})
	e.wantStatus(other.get(fiatAccountsPath+"?limit=5&include_deleted=true&page_cursor="+c), http.StatusBadRequest)
	// Cursors carry over filters given in another spelling.
	var p2 Page[DepositAddress]
	all := e.s.DepositAddresses()
	e.get(depositAddressesPath+"?limit=1&ids="+all[0].ID+"&ids="+all[1].ID).decode(t, &p2)
	e.wantStatus(e.get(depositAddressesPath+"?limit=1&ids="+all[1].ID+","+all[0].ID+"&page_cursor="+p2.NextPageCursor), http.StatusOK)
}

func flip(s string) string {
	if s == "A" {
		return "B"
	}
	return "A"
}
