package client

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// noKeepAlive makes every request of f use a new connection, so that a
// hang-up is seen as a network error rather than a stale pooled connection
// (which net/http repeats by itself for GETs).
func noKeepAlive(f *fakeService) { f.srv.Config.SetKeepAlivesEnabled(false) }

// hangUp closes the connection without an answer (a network error).
func hangUp(t *testing.T, w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		t.Error("response writer cannot be hijacked")
		return
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		t.Error(err)
		return
	}
	_ = conn.Close()
}

// TestRetryAfterIsHonoured: the wait after a 429 is the one its
// Retry-After asks, a date read against the client's clock (a fake one,
// which only the waits move).
func TestRetryAfterIsHonoured(t *testing.T) {
	tests := []struct {
		name   string
		header func(now time.Time) string
		want   time.Duration
	}{
		{"seconds", func(time.Time) string { return "7" }, 7 * time.Second},
		{"http date", func(now time.Time) string { return now.Add(30 * time.Second).Format(http.TimeFormat) }, 30 * time.Second},
		{"past date", func(time.Time) string { return "Mon, 02 Jan 2006 15:04:05 GMT" }, 0},
		{"capped", func(time.Time) string { return "86400" }, maxRetryAfter},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			c, logs := newTestClient(t, f, nil)
			clk := clockOf(t, c)
			f.handler = okAfter(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Retry-After", tc.header(clk.Now()))
				writeJSON(w, http.StatusTooManyRequests, `{"message":"slow down"}`)
			})
			if _, err := c.GetFiatDepositInstructions(t.Context(), "fdi-1"); err != nil {
				t.Fatal(err)
			}
			if waits := clk.waits(); len(waits) != 1 || waits[0] != tc.want {
				t.Errorf("waits = %v, want one of %v", waits, tc.want)
			}
			checkAttempts(t, f, 2)
			retries := logs.withMsg("retrying request")
			if len(retries) != 1 {
				t.Fatalf("retry log entries = %d, want 1", len(retries))
			}
			e := retries[0].Fields
			if e["method"] != "GET" || e["path"] != PathFiatDepositInstructions+"/fdi-1" || e["attempt"] != 2 || e["reason"] != "429 Too Many Requests" {
				t.Errorf("retry log = %v", e)
			}
		})
	}
}

// checkAttempts checks that f was sent want API requests.
func checkAttempts(t *testing.T, f *fakeService, want int) {
	t.Helper()
	if n := len(f.apiRequests()); n != want {
		t.Errorf("attempts = %d, want %d", n, want)
	}
}

func TestRetryOnServerErrorsThenSuccess(t *testing.T) {
	f := newFake(t)
	f.handler = okAfter(
		func(w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, http.StatusServiceUnavailable, `{"message":"down"}`)
		},
		func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusBadGateway) })
	c, logs := newTestClient(t, f, nil)
	if err := drain(c.FiatAccounts(t.Context(), ListFiatAccountsQuery{})); err != nil {
		t.Fatal(err)
	}
	checkAttempts(t, f, 3)
	// Exponential backoff with jitter within [min, max] = [1ms, 5ms].
	waits := clockOf(t, c).waits()
	if len(waits) != 2 {
		t.Errorf("waits = %v, want two", waits)
	}
	for i, w := range waits {
		if w < time.Millisecond || w > 5*time.Millisecond {
			t.Errorf("wait %d = %v outside the configured bounds", i, w)
		}
	}
	var reasons []string
	for _, e := range logs.withMsg("retrying request") {
		reasons = append(reasons, e.Fields["reason"].(string))
	}
	if strings.Join(reasons, ",") != "503 Service Unavailable,502 Bad Gateway" {
		t.Errorf("retry reasons = %v", reasons)
	}
}

func TestRetryOnNetworkError(t *testing.T) {
	f := newFake(t)
	noKeepAlive(f)
	f.handler = okAfter(func(w http.ResponseWriter, _ *http.Request) { hangUp(t, w) })
	c, logs := newTestClient(t, f, nil)
	if _, err := c.GetStablecoinConversion(t.Context(), "conv-1"); err != nil {
		t.Fatal(err)
	}
	checkAttempts(t, f, 2)
	if len(logs.withMsg("retrying request")) != 1 {
		t.Errorf("retry not logged")
	}
}

func TestPostWithoutRefIDIsNeverRetried(t *testing.T) {
	for _, tc := range []struct {
		name    string
		handler func(w http.ResponseWriter)
		want    error
	}{
		{"503", func(w http.ResponseWriter) { writeJSON(w, http.StatusServiceUnavailable, `{"message":"down"}`) }, ErrServer},
		{"429", func(w http.ResponseWriter) {
			w.Header().Set("Retry-After", "1")
			writeJSON(w, http.StatusTooManyRequests, `{}`)
		}, ErrRateLimited},
		{"network", func(w http.ResponseWriter) { hangUp(t, w) }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			f.handler = func(w http.ResponseWriter, _ *http.Request, _ int, _ apiRequest) { tc.handler(w) }
			c, logs := newTestClient(t, f, nil)
			_, err := c.CreateCryptoWithdrawal(t.Context(), CryptoWithdrawalRequest{ProfileID: "p", Amount: "1"})
			if err == nil {
				t.Fatal("no error")
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
			checkAttempts(t, f, 1)
			if len(logs.withMsg("retrying request")) != 0 {
				t.Error("a retry was logged")
			}
			if len(logs.withMsg("not retrying: a POST without ref_id is not replay-safe")) != 1 {
				t.Error("the refusal to retry was not logged")
			}
			if !strings.HasPrefix(err.Error(), "POST /transfer/crypto-withdrawals: ") {
				t.Errorf("err = %q does not name the endpoint", err)
			}
		})
	}
}

func TestPostWithRefIDRetriedWithIdenticalBody(t *testing.T) {
	f := newFake(t)
	f.handler = okAfter(
		func(w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, http.StatusInternalServerError, `{"message":"oops"}`)
		},
		func(w http.ResponseWriter, _ *http.Request) { hangUp(t, w) })
	c, _ := newTestClient(t, f, nil)
	req := CryptoWithdrawalRequest{ProfileID: "p", DestinationAddress: "addr", Asset: "BTC", CryptoNetwork: "BITCOIN", Amount: "1.5", RefID: "ref-42", Metadata: map[string]string{"k": "v"}}
	tr, err := c.CreateCryptoWithdrawal(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if tr.ID != "t-1" || tr.Status != "PENDING" {
		t.Errorf("transfer = %+v", tr)
	}
	api := f.apiRequests()
	if len(api) != 3 {
		t.Fatalf("attempts = %d, want 3", len(api))
	}
	for i := 1; i < len(api); i++ {
		if !bytes.Equal(api[i].Body, api[0].Body) {
			t.Errorf("attempt %d body %s differs from %s", i+1, api[i].Body, api[0].Body)
		}
	}
	if !bytes.Contains(api[0].Body, []byte(`"ref_id":"ref-42"`)) {
		t.Errorf("body = %s", api[0].Body)
	}
}

// TestHangingPostWithRefIDTimesOutAndIsRetried: an attempt held past the
// request timeout is retried with the same body. The timeout is the real
// one of net/http, long enough that only the held attempt ever reaches it
// on a busy machine.
func TestHangingPostWithRefIDTimesOutAndIsRetried(t *testing.T) {
	f := newFake(t)
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	f.handler = okAfter(func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	c, _ := newTestClient(t, f, func(cfg *Config) { cfg.RequestTimeout = time.Second })
	if _, err := c.CreateFiatDepositInstructions(t.Context(), FiatDepositInstructionsRequest{ProfileID: "p", FiatNetwork: "WIRE", RefID: "ref-1"}); err != nil {
		t.Fatal(err)
	}
	api := f.apiRequests()
	if len(api) != 2 || !bytes.Equal(api[0].Body, api[1].Body) {
		t.Fatalf("attempts = %d, want 2 with the same body", len(api))
	}
}

func TestRetriesExhausted(t *testing.T) {
	f := newFake(t)
	f.handler = always(http.StatusServiceUnavailable, `{"message":"maintenance"}`, "X-Request-Id", "req-9")
	c, logs := newTestClient(t, f, func(cfg *Config) { cfg.MaxRetries = 4 })
	err := drain(c.FiatAccounts(t.Context(), ListFiatAccountsQuery{}))
	checkAttempts(t, f, 5)
	want := "GET /transfer/fiat-accounts: gave up after 5 attempts: 503 Service Unavailable: maintenance (request id req-9)"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant  %s", err, want)
	}
	if !errors.Is(err, ErrServer) {
		t.Error("not ErrServer")
	}
	if n := len(logs.withMsg("retrying request")); n != 4 {
		t.Errorf("retry log entries = %d, want 4", n)
	}
}

func TestRetriesExhaustedOnNetworkErrors(t *testing.T) {
	f := newFake(t)
	noKeepAlive(f)
	f.handler = func(w http.ResponseWriter, _ *http.Request, _ int, _ apiRequest) { hangUp(t, w) }
	c, _ := newTestClient(t, f, func(cfg *Config) { cfg.MaxRetries = 2 })
	_, err := c.GetStablecoinConversion(t.Context(), "conv-1")
	if err == nil || !strings.HasPrefix(err.Error(), "GET /conversion/stablecoins/conv-1: gave up after 3 attempts: ") {
		t.Fatalf("err = %v", err)
	}
	checkAttempts(t, f, 3)
}

func TestZeroMaxRetriesMeansOneAttempt(t *testing.T) {
	f := newFake(t)
	f.handler = always(http.StatusBadGateway, `{}`)
	c, _ := newTestClient(t, f, func(cfg *Config) { cfg.MaxRetries = 0 })
	_, err := c.GetStablecoinConversion(t.Context(), "conv-1")
	if !errors.Is(err, ErrServer) || strings.Contains(err.Error(), "gave up") {
		t.Fatalf("err = %v", err)
	}
	checkAttempts(t, f, 1)
}

func TestCancelledContextStopsRetrying(t *testing.T) {
	f := newFake(t)
	ctx, cancel := context.WithCancel(t.Context())
	f.handler = func(w http.ResponseWriter, _ *http.Request, _ int, _ apiRequest) {
		cancel()
		writeJSON(w, http.StatusServiceUnavailable, `{}`)
	}
	c, _ := newTestClient(t, f, nil)
	_, err := c.GetStablecoinConversion(ctx, "conv-1")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	checkAttempts(t, f, 1)
}

func TestBackoffBounds(t *testing.T) {
	minW, maxW := 10*time.Millisecond, 100*time.Millisecond
	for attempt := range 10 {
		for _, r := range []float64{0, 0.5, 0.999} {
			w := jitterBackoff(minW, maxW, attempt, r)
			if w < minW || w > maxW {
				t.Errorf("attempt %d r %v: wait %v outside [%v, %v]", attempt, r, w, minW, maxW)
			}
		}
	}
	if a, b := jitterBackoff(minW, maxW, 0, 0.999), jitterBackoff(minW, maxW, 3, 0.999); b <= a {
		t.Errorf("backoff does not grow: %v then %v", a, b)
	}
	if jitterBackoff(minW, maxW, 3, 0) == jitterBackoff(minW, maxW, 3, 0.9) {
		t.Error("no jitter")
	}
	if d, ok := parseRetryAfter("nonsense", time.Now()); ok || d != 0 {
		t.Error("nonsense Retry-After accepted")
	}
	if _, ok := parseRetryAfter("-3", time.Now()); ok {
		t.Error("negative Retry-After accepted")
	}
}

// TestTooManyRequestsWithoutRetryAfterFailsFast: a 429 without
// Retry-After is the published throttle of the whole address for up to
// five minutes, not a transient error: one attempt, and an error that
// says so.
func TestTooManyRequestsWithoutRetryAfterFailsFast(t *testing.T) {
	f := newFake(t)
	f.handler = always(http.StatusTooManyRequests, `{"type":"https://x/problems/rate-limited","title":"Too Many Requests","status":429}`)
	c, _ := newTestClient(t, f, nil)
	_, err := c.GetFiatDepositInstructions(t.Context(), "fdi-1")
	if !errors.Is(err, ErrRateLimited) {
		t.Fatalf("err = %v, want ErrRateLimited", err)
	}
	checkAttempts(t, f, 1)
	if !strings.Contains(err.Error(), "throttles this address for up to 5 minutes") {
		t.Errorf("error %q does not explain the throttle", err)
	}
}

// A server that keeps answering 503 and asks to retry after minutes cannot
// hold a request past its retry budget, however many retries max_retries
// allows: on the client's clock (a fake one, which the waits move), the
// waits add up to maxRetryWait exactly, the last one cut to what is left.
func TestRetryWaitsWithinBudget(t *testing.T) {
	f := newFake(t)
	f.handler = always(http.StatusServiceUnavailable, `{"message":"down"}`, "Retry-After", "250")
	c, logs := newTestClient(t, f, func(cfg *Config) { cfg.MaxRetries = 100 })
	clk := clockOf(t, c)
	err := drain(c.FiatAccounts(t.Context(), ListFiatAccountsQuery{}))
	if err == nil {
		t.Fatal("the list succeeded against a server that only answers 503")
	}
	want := []time.Duration{250 * time.Second, 250 * time.Second, 100 * time.Second}
	if got := clk.waits(); !slices.Equal(got, want) {
		t.Errorf("waits = %v, want %v (twice the Retry-After, then the rest of the %v budget)", got, want, maxRetryWait)
	}
	if d := clk.elapsed(); d != maxRetryWait {
		t.Errorf("the request waited %v between its attempts, want %v", d, maxRetryWait)
	}
	checkAttempts(t, f, 4)
	if len(logs.withMsg("not retrying: the request has waited as long as its retries may")) != 1 {
		t.Errorf("the end of the budget is not logged once")
	}
}
