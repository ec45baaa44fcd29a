package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// pagedHandler serves total items ("id-0", "id-1", …) in pages of the
// requested limit (default def), with cursors "c<offset>".
func pagedHandler(t *testing.T, total, def int) func(http.ResponseWriter, *http.Request, int, apiRequest) {
	return func(w http.ResponseWriter, _ *http.Request, _ int, req apiRequest) {
		limit := def
		if l := req.Query.Get("limit"); l != "" {
			n, err := strconv.Atoi(l)
			if err != nil || n <= 0 {
				t.Errorf("bad limit %q", l)
			}
			limit = n
		}
		off := 0
		if c := req.Query.Get("page_cursor"); c != "" {
			off, _ = strconv.Atoi(strings.TrimPrefix(c, "c"))
		}
		end := min(off+limit, total)
		items := []map[string]string{}
		for i := off; i < end; i++ {
			items = append(items, map[string]string{"id": fmt.Sprintf("id-%d", i)})
		}
		next := ""
		if end < total {
			next = fmt.Sprintf("c%d", end)
		}
		b, _ := json.Marshal(map[string]any{"items": items, "next_page_cursor": next})
		writeJSON(w, http.StatusOK, string(b))
	}
}

func TestPagingToTheEnd(t *testing.T) {
	f := newFake(t)
	f.handler = pagedHandler(t, 2500, 100)
	c, _ := newTestClient(t, f, nil)
	var ids []string
	for it, err := range c.FiatAccounts(t.Context(), ListFiatAccountsQuery{}) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, *it.ID)
	}
	if len(ids) != 2500 || ids[0] != "id-0" || ids[2499] != "id-2499" {
		t.Fatalf("got %d items", len(ids))
	}
	api := f.apiRequests()
	if len(api) != 3 {
		t.Fatalf("pages = %d, want 3", len(api))
	}
	for i, r := range api {
		if r.Query.Get("limit") != "1000" {
			t.Errorf("page %d limit = %q, want 1000", i+1, r.Query.Get("limit"))
		}
	}
	if api[0].Query.Has("page_cursor") || api[1].Query.Get("page_cursor") != "c1000" || api[2].Query.Get("page_cursor") != "c2000" {
		t.Errorf("cursors = %v %v %v", api[0].Query, api[1].Query, api[2].Query)
	}
	if n := len(f.tokenRequests()); n != 1 {
		t.Errorf("token requests = %d, want 1 for all pages", n)
	}
}

// itemIDs is the id of each item of a list, failing t on an error.
func itemIDs[T any](t *testing.T, list iter.Seq2[T, error], id func(T) *string) []string {
	t.Helper()
	var ids []string
	for it, err := range list {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, *id(it))
	}
	return ids
}

func TestPagingMaxItems(t *testing.T) {
	tests := []struct {
		name       string
		run        func(c *Client, t *testing.T) []string
		wantLimits []string
	}{
		{"deposit addresses 1500 of 5000", func(c *Client, t *testing.T) []string {
			return itemIDs(t, c.DepositAddresses(t.Context(), ListDepositAddressesQuery{MaxItems: 1500}), func(it *DepositAddress) *string { return it.ID })
		}, []string{"1000", "500"}},
		{"fiat accounts 7", func(c *Client, t *testing.T) []string {
			return itemIDs(t, c.FiatAccounts(t.Context(), ListFiatAccountsQuery{MaxItems: 7}), func(it *FiatAccount) *string { return it.ID })
		}, []string{"7"}},
		{"claims 250: no limit until fewer than 100 remain", func(c *Client, t *testing.T) []string {
			return itemIDs(t, c.RewardClaims(t.Context(), ListRewardClaimsQuery{MaxItems: 250}), func(it *RewardClaim) *string { return it.ID })
		}, []string{"", "", "50"}},
		{"claims 30", func(c *Client, t *testing.T) []string {
			return itemIDs(t, c.RewardClaims(t.Context(), ListRewardClaimsQuery{MaxItems: 30}), func(it *RewardClaim) *string { return it.ID })
		}, []string{"30"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			f.handler = pagedHandler(t, 5000, 100)
			c, _ := newTestClient(t, f, nil)
			ids := tc.run(c, t)
			var limits []string
			for _, r := range f.apiRequests() {
				limits = append(limits, r.Query.Get("limit"))
			}
			if !slices.Equal(limits, tc.wantLimits) {
				t.Errorf("limits sent = %q, want %q", limits, tc.wantLimits)
			}
			want := 0
			for _, l := range tc.wantLimits {
				n, _ := strconv.Atoi(l)
				if n == 0 {
					n = 100
				}
				want += n
			}
			if len(ids) != want || ids[len(ids)-1] != fmt.Sprintf("id-%d", want-1) {
				t.Errorf("got %d items, want %d", len(ids), want)
			}
		})
	}
}

func TestPagingMaxItemsTrimsALongerPage(t *testing.T) {
	f := newFake(t)
	// A server that ignores limit and always answers 100 items.
	f.handler = func(w http.ResponseWriter, r *http.Request, n int, req apiRequest) {
		req.Query.Del("limit")
		pagedHandler(t, 1000, 100)(w, r, n, req)
	}
	c, _ := newTestClient(t, f, nil)
	count := 0
	for _, err := range c.RewardClaims(t.Context(), ListRewardClaimsQuery{MaxItems: 10}) {
		if err != nil {
			t.Fatal(err)
		}
		count++
	}
	if count != 10 || len(f.apiRequests()) != 1 {
		t.Errorf("items = %d after %d requests, want 10 after 1", count, len(f.apiRequests()))
	}
}

func TestPagingEmptyAndAbsentCursor(t *testing.T) {
	for _, body := range []string{`{"items":[],"next_page_cursor":""}`, `{"items":[]}`, `{}`, `{"items":null,"next_page_cursor":null}`} {
		f := newFake(t)
		f.handler = always(http.StatusOK, body)
		c, _ := newTestClient(t, f, nil)
		n := 0
		for _, err := range c.DepositAddresses(t.Context(), ListDepositAddressesQuery{}) {
			if err != nil {
				t.Fatalf("%s: %v", body, err)
			}
			n++
		}
		if n != 0 || len(f.apiRequests()) != 1 {
			t.Errorf("%s: %d items after %d requests", body, n, len(f.apiRequests()))
		}
	}
}

func TestPagingCursorLoop(t *testing.T) {
	f := newFake(t)
	f.handler = func(w http.ResponseWriter, _ *http.Request, n int, _ apiRequest) {
		cursor := []string{"A", "B", "A"}[min(n-1, 2)]
		writeJSON(w, http.StatusOK, fmt.Sprintf(`{"items":[{"id":"x%d"}],"next_page_cursor":%q}`, n, cursor))
	}
	c, _ := newTestClient(t, f, nil)
	var lastErr error
	items := 0
	for it, err := range c.RewardClaims(t.Context(), ListRewardClaimsQuery{}) {
		if err != nil {
			lastErr = err
			break
		}
		if it == nil {
			t.Fatal("nil item without error")
		}
		items++
		if items > 10 {
			break // The loop was not detected.
		}
	}
	if lastErr == nil || !strings.Contains(lastErr.Error(), `GET /rewards/claims: the server returned the cursor "A" again on page 3 (first seen on page 1)`) {
		t.Fatalf("err = %v", lastErr)
	}
	if items != 3 || len(f.apiRequests()) != 3 {
		t.Errorf("items = %d, requests = %d; want 3 and 3", items, len(f.apiRequests()))
	}
}

func TestPagingConsumerBreakStopsRequests(t *testing.T) {
	f := newFake(t)
	f.handler = pagedHandler(t, 5000, 100)
	c, _ := newTestClient(t, f, nil)
	n := 0
	for _, err := range c.FiatAccounts(t.Context(), ListFiatAccountsQuery{}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if n == 3 {
			break
		}
	}
	if len(f.apiRequests()) != 1 {
		t.Errorf("requests = %d after break, want 1", len(f.apiRequests()))
	}
}

func TestPagingBadPage(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`{"items":[{"id":"a"}`, "truncated JSON"},
		{`{"items":{"id":"a"}}`, "field items is object, expected an array"},
		{`{"items":[null]}`, "items[0] is null"},
		{`{"items":[],"next_page_cursor":5}`, "field next_page_cursor is number, expected a string"},
		{`<html><body>proxy</body></html>`, "expected JSON, got an HTML page"},
		{`{"items":[{"created_at":"yesterday"}]}`, "yesterday"},
	} {
		f := newFake(t)
		f.handler = always(http.StatusOK, tc.body)
		c, _ := newTestClient(t, f, nil)
		err := drain(c.FiatAccounts(t.Context(), ListFiatAccountsQuery{}))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "GET /transfer/fiat-accounts: decoding page 1: ") {
			t.Errorf("%s: err = %v, want %q", tc.body, err, tc.want)
		}
	}
}

func TestQueryEncoding(t *testing.T) {
	f := newFake(t)
	f.handler = pagedHandler(t, 0, 100)
	c, _ := newTestClient(t, f, nil)
	ctx := t.Context()
	ts := time.Date(2024, 1, 2, 3, 4, 5, 0, time.FixedZone("X", 3600))
	sub := time.Date(2024, 5, 6, 7, 8, 9, 120_000_000, time.UTC)
	yes := false
	if err := drain(c.FiatAccounts(ctx, ListFiatAccountsQuery{
		IDs: []string{"a", "b"}, RefIDs: []string{"r 1"}, IncludeDeleted: &yes, Order: "ASC",
		CreatedAt: CreatedAtFilter{GTE: ts, LT: sub},
	})); err != nil {
		t.Fatal(err)
	}
	if err := drain(c.DepositAddresses(ctx, ListDepositAddressesQuery{
		ProfileIDs: []string{"p1", "p2"}, IdentityIDs: []string{"i"}, IDs: []string{"x"}, RefIDs: []string{"r"},
		AccountIDs: []string{"acc"}, Networks: []string{"BITCOIN", "SOLANA"}, CreatedAt: CreatedAtFilter{EQ: ts, LTE: ts, GT: ts},
	})); err != nil {
		t.Fatal(err)
	}
	if err := drain(c.RewardClaims(ctx, ListRewardClaimsQuery{
		PayoutGroupID: "pg", OnchainStatuses: []string{"PENDING", "FAILED"}, Chain: "solana", Jurisdiction: "US",
		StartTime: ts, EndTime: sub,
	})); err != nil {
		t.Fatal(err)
	}
	if err := drain(c.FiatAccounts(ctx, ListFiatAccountsQuery{})); err != nil {
		t.Fatal(err)
	}
	api := f.apiRequests()
	want := []map[string][]string{
		{"ids": {"a", "b"}, "ref_ids": {"r 1"}, "include_deleted": {"false"}, "order": {"ASC"},
			"created_at.gte": {"2024-01-02T02:04:05Z"}, "created_at.lt": {"2024-05-06T07:08:09.12Z"}, "limit": {"1000"}},
		{"profile_ids": {"p1", "p2"}, "identity_ids": {"i"}, "ids": {"x"}, "ref_ids": {"r"}, "account_ids": {"acc"},
			"networks": {"BITCOIN", "SOLANA"}, "created_at.eq": {"2024-01-02T02:04:05Z"}, "created_at.lte": {"2024-01-02T02:04:05Z"},
			"created_at.gt": {"2024-01-02T02:04:05Z"}, "limit": {"1000"}},
		{"payout_group_id": {"pg"}, "statuses": {"PENDING", "FAILED"}, "chain": {"solana"}, "jurisdiction": {"US"},
			"start_time": {"2024-01-02T02:04:05Z"}, "end_time": {"2024-05-06T07:08:09.12Z"}},
		{"limit": {"1000"}},
	}
	for i := range want {
		got := map[string][]string(api[i].Query)
		if fmt.Sprint(got) != fmt.Sprint(want[i]) {
			t.Errorf("request %d query\n got %v\nwant %v", i+1, got, want[i])
		}
	}
}

func TestQueryValidation(t *testing.T) {
	f := newFake(t)
	c, _ := newTestClient(t, f, nil)
	many := make([]string, MaxFilterValues+1)
	for i := range many {
		many[i] = strconv.Itoa(i)
	}
	for name, err := range map[string]error{
		"too many ids": drain(c.FiatAccounts(t.Context(), ListFiatAccountsQuery{IDs: many})),
		"bad order":    drain(c.DepositAddresses(t.Context(), ListDepositAddressesQuery{Order: "UP"})),
		"negative max": drain(c.RewardClaims(t.Context(), ListRewardClaimsQuery{MaxItems: -1})),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if len(f.apiRequests())+len(f.tokenRequests()) != 0 {
		t.Error("an invalid query made a request")
	}
}

// A service that sends one huge item per page (9 MiB, under the page cap)
// is stopped at the first page: no honest item comes near the per-item
// cap, so the read never holds more than a page of it.
func TestPagingItemCap(t *testing.T) {
	f := newFake(t)
	huge := strings.Repeat("n", 9<<20)
	f.handler = func(w http.ResponseWriter, _ *http.Request, n int, _ apiRequest) {
		writeJSON(w, http.StatusOK, fmt.Sprintf(`{"items":[{"id":"x%d","nickname":%q}],"next_page_cursor":"c%d"}`, n, huge, n))
	}
	c, _ := newTestClient(t, f, nil)
	err := drain(c.FiatAccounts(t.Context(), ListFiatAccountsQuery{}))
	if !errors.Is(err, ErrListTooLong) || !strings.Contains(err.Error(), "page 1 holds 1 items in") ||
		!strings.Contains(err.Error(), "more than 1048576 bytes an item") {
		t.Fatalf("err = %v", err)
	}
	if n := len(f.apiRequests()); n != 1 {
		t.Errorf("%d pages requested, want 1", n)
	}
}

// The bytes one read takes are bounded, whatever the number of pages and
// items: a read stops at its byte ceiling with an error naming it.
func TestPagingByteCeiling(t *testing.T) {
	f := newFake(t)
	item := strings.Repeat("n", 100<<10)
	f.handler = func(w http.ResponseWriter, _ *http.Request, n int, _ apiRequest) {
		writeJSON(w, http.StatusOK, fmt.Sprintf(`{"items":[{"id":"x%d","nickname":%q}],"next_page_cursor":"c%d"}`, n, item, n))
	}
	c, _ := newTestClient(t, f, func(cfg *Config) { cfg.ListLimits = ListLimits{MaxBytes: 1 << 20} })
	err := drain(c.FiatAccounts(t.Context(), ListFiatAccountsQuery{}))
	if !errors.Is(err, ErrListTooLong) || !strings.Contains(err.Error(), "bytes read in 11 pages (10 items)") {
		t.Fatalf("err = %v", err)
	}
	if n := len(f.apiRequests()); n != 11 {
		t.Errorf("%d pages requested, want 11 (the eleventh passes the ceiling)", n)
	}
}

// A list read holds at most 512 MiB of answers by default (the figure
// max_items documents): a size a CI runner can hold.
func TestPagingDefaultByteCeiling(t *testing.T) {
	if got := (ListLimits{}).withDefaults().MaxBytes; got <= 0 || got > 512<<20 {
		t.Errorf("the default byte ceiling of a list read is %d bytes, want at most 512 MiB", got)
	}
}
