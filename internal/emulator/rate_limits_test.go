package emulator

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestRateLimitsBreachThrottlesTheAddress: with the mode on, requests of
// an endpoint within its share of the published rate pass; the one that
// would pass it answers 429 with the problem of RESOURCE_EXHAUSTED and no
// Retry-After, and every request from the address, of any endpoint, then
// answers 429 until the throttle ends.
func TestRateLimitsBreachThrottlesTheAddress(t *testing.T) {
	clk := &atomicTime{t: time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)}
	e := newEnv(t, Options{Now: clk.get, RateLimits: &RateLimits{Window: 10 * time.Second, Throttle: 30 * time.Second, Share: 0.5}})
	// The token endpoint: 1/s × 0.5 over 10 s is 5 requests in any 10 s
	// (newEnv took one). One every 2 s is within it, for as long as it
	// goes on; the window then holds 5, and one more passes it.
	for range 10 {
		clk.set(clk.get().Add(2 * time.Second))
		e.tokenFor("transfer:read_transfer")
	}
	r := e.get("/v2/transfer/transfers")
	e.wantStatus(r, http.StatusOK)
	r = e.call(http.MethodPost, "/oauth2/token", "", "grant_type=client_credentials")
	e.wantStatus(r, http.StatusTooManyRequests)
	if b := r.errBody(t); b.Code != "RESOURCE_EXHAUSTED" || !strings.Contains(b.Message, "POST /oauth2/token allows 0.5 requests/s") {
		t.Errorf("429 body = %+v", b)
	}
	if ra := r.header.Get("Retry-After"); ra != "" {
		t.Errorf("Retry-After = %q, want none (the address is throttled)", ra)
	}
	// Every endpoint, from the address, until the throttle ends.
	e.wantStatus(e.get("/v2/transfer/transfers"), http.StatusTooManyRequests)
	st := e.s.RateLimitsState()
	if st.Breaches != 1 || len(st.Throttled) != 1 || st.Throttled["127.0.0.1"] == "" {
		t.Errorf("state = %+v", st)
	}
	clk.set(clk.get().Add(30 * time.Second))
	e.wantStatus(e.get("/v2/transfer/transfers"), http.StatusOK)
}

// TestRateLimitsByEndpointClass: each endpoint counts apart, at its
// class's published rate.
func TestRateLimitsByEndpointClass(t *testing.T) {
	clk := &atomicTime{t: time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)}
	e := newEnv(t, Options{Now: clk.get, RateLimits: &RateLimits{Window: 4 * time.Second, Share: 0.25}})
	// GET /transfer/transfers/{id}: 50/s × 0.25 over 4 s, 50 requests;
	// GET /transfer/transfers is another endpoint with as many.
	for i := range 50 {
		e.wantStatus(e.get(fmt.Sprintf("/v2/transfer/transfers/t-%d", i)), http.StatusNotFound)
		e.wantStatus(e.get("/v2/transfer/transfers"), http.StatusOK)
	}
	e.wantStatus(e.get("/v2/transfer/transfers/t-z"), http.StatusTooManyRequests)

	for _, tc := range []struct {
		method, pattern string
		want            float64
	}{
		{"POST", "/oauth2/token", 1},
		{"POST", "/transfer/crypto-withdrawals", 20},
		{"POST", "/transfer/internal", 20},
		{"GET", "/markets/{market}/order-book", 10},
		{"POST", "/profiles/{profile_id}/quote-executions", 10},
		{"GET", "/identity/identities/{id}", 10},
		{"POST", "/transfer/fiat-withdrawals", 50},
		{"GET", "/transfer/transfers", 50},
	} {
		if got := ratePerSecond(tc.method, tc.pattern); got != tc.want {
			t.Errorf("%s %s: %v/s, want %v", tc.method, tc.pattern, got, tc.want)
		}
	}
}

// TestRateLimitsAdmin: the admin operation turns the mode on with scaled
// figures (zero ones the published), reports it, and turns it off.
func TestRateLimitsAdmin(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.call(http.MethodGet, "/admin/rate-limits", "", nil)
	e.wantStatus(r, http.StatusOK)
	var st RateLimitsState
	r.decode(t, &st)
	if st.Enabled {
		t.Errorf("on by default: %+v", st)
	}
	r = e.call(http.MethodPut, "/admin/rate-limits", "", map[string]any{"enabled": true, "window_seconds": 30, "share": 0.25})
	e.wantStatus(r, http.StatusOK)
	r.decode(t, &st)
	if !st.Enabled || st.WindowSeconds != 30 || st.ThrottleSeconds != 300 || st.Share != 0.25 {
		t.Errorf("state = %+v", st)
	}
	for _, bad := range []map[string]any{
		{"enabled": true, "share": 1.5}, {"enabled": true, "window_seconds": -1}, {"enabled": true, "throttle_seconds": -2},
	} {
		e.wantStatus(e.call(http.MethodPut, "/admin/rate-limits", "", bad), http.StatusBadRequest)
	}
	r = e.call(http.MethodPut, "/admin/rate-limits", "", map[string]any{"enabled": false})
	e.wantStatus(r, http.StatusOK)
	r.decode(t, &st)
	if st.Enabled {
		t.Errorf("still on: %+v", st)
	}
}

func TestParseRateLimits(t *testing.T) {
	for in, want := range map[string]*RateLimits{
		"":                                   nil,
		"off":                                nil,
		"published":                          {Window: 5 * time.Minute, Throttle: 5 * time.Minute, Share: 1},
		"window=30s,throttle=30s,share=0.25": {Window: 30 * time.Second, Throttle: 30 * time.Second, Share: 0.25},
		"share=0.5":                          {Window: 5 * time.Minute, Throttle: 5 * time.Minute, Share: 0.5},
		" window=1m , throttle=10s ":         {Window: time.Minute, Throttle: 10 * time.Second, Share: 1},
	} {
		got, err := ParseRateLimits(in)
		if err != nil || (got == nil) != (want == nil) || (got != nil && *got != *want) {
			t.Errorf("ParseRateLimits(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, in := range []string{"window=0s", "share=0", "share=2", "speed=3", "window", "throttle=soon"} {
		if _, err := ParseRateLimits(in); err == nil {
			t.Errorf("ParseRateLimits(%q) accepted", in)
		}
	}
}
