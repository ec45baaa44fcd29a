package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// paceClock is the fake clock of the client's tests (fakeClock), whose
// Sleep is the wait of the pacing.
type paceClock = fakeClock

var paceEpoch = fakeEpoch

func newPaceClock() *paceClock { return newFakeClock() }

func (c *paceClock) total() time.Duration {
	var sum time.Duration
	for _, d := range c.waits() {
		sum += d
	}
	return sum
}

// paceClockOf is the fake clock newTestClient gave c's pacing.
func paceClockOf(t *testing.T, c *Client) *paceClock {
	t.Helper()
	clk, ok := c.pace.clock.(*paceClock)
	if !ok {
		t.Fatalf("the pacing runs on %T, not a fake clock", c.pace.clock)
	}
	return clk
}

// TestPublishedRatesByEndpoint: every endpoint takes the rate of its class
// in the published table, and each endpoint of the client is paced apart
// (its operation's template), an unknown one with every other unknown one.
func TestPublishedRatesByEndpoint(t *testing.T) {
	tests := []struct {
		method, path string
		rate         float64
		endpoint     string
	}{
		{"POST", TokenPath, 1, "POST /oauth2/token"},
		{"GET", "/markets/BTCUSD/order-book", 10, "GET /markets/{market}/order-book"},
		{"GET", "/markets/BTCUSD/recent-executions", 10, "GET /markets/{market}/recent-executions"},
		{"POST", "/profiles/p-1/quote-executions", 10, "* /profiles/{profile_id}/quote-executions/..."},
		{"GET", "/profiles/p-1/quote-executions/q-1", 10, "* /profiles/{profile_id}/quote-executions/..."},
		{"GET", "/identity/identities", 10, "* /identity/identities/..."},
		{"PUT", "/identity/identities/i-1/documents", 10, "* /identity/identities/..."},
		{"POST", PathCryptoWithdrawals, 20, "POST /transfer/crypto-withdrawals"},
		{"POST", PathInternalTransfers, 20, "POST /transfer/internal"},
		{"POST", PathFiatWithdrawals, 50, "POST /transfer/fiat-withdrawals"},
		{"GET", PathTransfers, 50, "GET /transfer/transfers"},
		{"GET", PathTransfers + "/t-1", 50, "GET /transfer/transfers/{id}"},
		{"GET", PathTransfers + "/t%2F1", 50, "GET /transfer/transfers/{id}"},
		{"GET", "/markets/BTCUSD/ticker", 50, "GET /markets/{market}/ticker"},
		{"GET", "/profiles/p-1/balances", 50, "GET /profiles/{profile_id}/balances"},
		{"GET", "/somewhere/else", 50, "GET (other)"},
	}
	for _, tc := range tests {
		rate, _, endpoint := PublishedRates.rateOf(tc.method, tc.path)
		if rate != tc.rate || endpoint != tc.endpoint {
			t.Errorf("%s %s: rate %v of %q, want %v of %q", tc.method, tc.path, rate, endpoint, tc.rate, tc.endpoint)
		}
	}
	if PublishedRates.Window != 5*time.Minute {
		t.Errorf("window = %v, want the published 5 minutes", PublishedRates.Window)
	}
}

// TestPaceRate: a budget over the window. The window's allowance A is
// the budgeted rate over the window less the margin; an endpoint may send
// a tenth of it at once (at least 4 when the window allows twice as many,
// at most 64, at least 1), then one request every window / (A − burst).
func TestPaceRate(t *testing.T) {
	const published = 5 * time.Minute
	tests := []struct {
		perSecond, budget float64
		window            time.Duration
		burst             int
		rest              float64 // A − burst: the requests the window spaces out
	}{
		{20, 0.5, published, 64, 2850 - 64},
		{20, 0.25, published, 64, 1425 - 64},
		{50, 0.5, published, 64, 7125 - 64},
		{10, 1, published, 64, 2850 - 64},
		{1, 1, published, 28, 285 - 28},
		{1, 0.5, published, 14, 142.5 - 14},
		{1, 0.25, published, 7, 71.25 - 7},
		{1, 0.05, published, 4, 14.25 - 4},
		{1, 0.005, published, 1, 1.425 / 2}, // Fewer than two a window: half of it.
		{20, 0.25, 30 * time.Second, 14, 142.5 - 14},
		{1, 0.25, 30 * time.Second, 3, 7.125 - 3},
	}
	for _, tc := range tests {
		interval, tolerance := paceRate(tc.perSecond, tc.budget, tc.window)
		want := time.Duration(float64(tc.window) / tc.rest)
		if (interval-want).Abs() > time.Microsecond || tolerance != time.Duration(tc.burst-1)*interval {
			t.Errorf("paceRate(%v, %v, %v) = %v, %v; want %v and a burst of %d", tc.perSecond, tc.budget, tc.window,
				interval, tolerance, want, tc.burst)
		}
	}
}

// burstOf is the burst and interval of an endpoint of perSecond under
// budget at the published window.
func burstOf(perSecond, budget float64) (int, time.Duration) {
	interval, tolerance := paceRate(perSecond, budget, PublishedRates.Window)
	return int(tolerance/interval) + 1, interval
}

// TestGrantStaysWithinTheBudget: requests asked at once go a burst, then
// one an interval; in every window the service averages over, they are at
// most the budget's allowance of it (rate × budget × window), whatever the
// rate, budget and window.
func TestGrantStaysWithinTheBudget(t *testing.T) {
	tests := []struct {
		perSecond, budget float64
		window            time.Duration
		n                 int
	}{
		{20, 0.25, PublishedRates.Window, 3000},
		{20, 0.25, 30 * time.Second, 1000},
		{1, 0.5, PublishedRates.Window, 300},
		{1, 0.25, 30 * time.Second, 40},
		{50, 1, 20 * time.Second, 3000},
	}
	for _, tc := range tests {
		interval, tolerance := paceRate(tc.perSecond, tc.budget, tc.window)
		burst := int(tolerance/interval) + 1
		var tat time.Time
		ats := make([]time.Time, tc.n)
		for i := range ats {
			ats[i], tat = grant(tat, paceEpoch, time.Time{}, interval, tolerance)
		}
		for i := range burst {
			if !ats[i].Equal(paceEpoch) {
				t.Fatalf("%+v: request %d goes at +%v, want at once (burst of %d)", tc, i, ats[i].Sub(paceEpoch), burst)
			}
		}
		if d := ats[burst].Sub(paceEpoch); d != interval {
			t.Errorf("%+v: request %d goes at +%v, want +%v", tc, burst, d, interval)
		}
		if last := ats[tc.n-1].Sub(paceEpoch); last != time.Duration(tc.n-burst)*interval {
			t.Errorf("%+v: the last request goes at +%v, want +%v", tc, last, time.Duration(tc.n-burst)*interval)
		}
		limit := int(tc.perSecond * tc.budget * tc.window.Seconds())
		most := 0
		for i := range ats {
			n := 0
			for j := i; j < len(ats) && ats[j].Sub(ats[i]) < tc.window; j++ {
				n++
			}
			most = max(most, n)
		}
		if most > limit {
			t.Errorf("%+v: %d requests in a window, more than the %d the budget allows", tc, most, limit)
		}
		if tc.n-burst > limit && most < limit*85/100 {
			t.Errorf("%+v: at most %d requests in a window, want the budget's %d used (at least 85%%)", tc, most, limit)
		}
	}
}

// TestGrantAfterQuietAndThrottle: an endpoint quiet for longer than its
// burst takes starts afresh; a throttle holds a request until it ends, for
// at most 5 minutes; a stored time beyond maxPaceAhead is a damaged state,
// not a queue.
func TestGrantAfterQuietAndThrottle(t *testing.T) {
	interval, tolerance := paceRate(20, 0.5, PublishedRates.Window)
	at, next := grant(paceEpoch.Add(-time.Hour), paceEpoch, time.Time{}, interval, tolerance)
	if !at.Equal(paceEpoch) || !next.Equal(paceEpoch.Add(interval)) {
		t.Errorf("quiet endpoint: at +%v, next +%v", at.Sub(paceEpoch), next.Sub(paceEpoch))
	}
	until := paceEpoch.Add(30 * time.Second)
	at, _ = grant(time.Time{}, paceEpoch, until, interval, tolerance)
	if !at.Equal(until) {
		t.Errorf("throttled: goes at +%v, want +30s", at.Sub(paceEpoch))
	}
	at, _ = grant(paceEpoch.Add(24*time.Hour), paceEpoch, time.Time{}, interval, tolerance)
	if !at.Equal(paceEpoch) {
		t.Errorf("damaged state: goes at +%v, want at once", at.Sub(paceEpoch))
	}
	// A throttle is honoured for at most the service's published 5 minutes.
	at, _ = grant(time.Time{}, paceEpoch, paceEpoch.Add(24*time.Hour), interval, tolerance)
	if want := paceEpoch.Add(5 * time.Minute); !at.Equal(want) {
		t.Errorf("throttle of a day: goes at +%v, want +5m", at.Sub(paceEpoch))
	}
}

// TestClientPacesEveryRequest: the client's requests to one endpoint wait
// their turns (a burst, then the interval), on its clock; another
// endpoint has its own turns.
func TestClientPacesEveryRequest(t *testing.T) {
	f := newFake(t)
	f.handler = okHandler
	c, _ := newTestClient(t, f, func(cfg *Config) { cfg.RateBudget = 0.25 })
	clk := paceClockOf(t, c)
	// GET .../{id}: 50/s × 0.25, a burst of 64, then one an interval; the
	// token endpoint's one request goes at once.
	burst, interval := burstOf(50, 0.25)
	for range burst + 8 {
		if _, err := c.GetFiatDepositInstructions(t.Context(), "fdi-1"); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := clk.total(), 8*interval; got != want {
		t.Errorf("waited %v in all, want %v (8 intervals of %v)", got, want, interval)
	}
	if n := len(clk.waits()); n != 8 {
		t.Errorf("%d waits, want 8", n)
	}
	// Another endpoint has turns of its own; its scope's token goes at
	// once (the token endpoint's burst at 0.25 is 7), the eighth waits.
	before := clk.total()
	if _, err := c.GetStablecoinConversion(t.Context(), "sc-1"); err != nil {
		t.Fatal(err)
	}
	if got := clk.total() - before; got != 0 {
		t.Errorf("the second endpoint waited %v", got)
	}
	tokenBurst, tokenInterval := burstOf(1, 0.25)
	for i := 2; i < tokenBurst; i++ {
		if _, err := c.Token(t.Context(), fmt.Sprintf("scope-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if got := clk.total() - before; got != 0 {
		t.Errorf("the first %d tokens waited %v, want a burst", tokenBurst, got)
	}
	if _, err := c.Token(t.Context(), "one-more"); err != nil {
		t.Fatal(err)
	}
	// Its turn is an interval after the first token's, asked before the
	// GETs' waits.
	if got, want := clk.total()-before, tokenInterval-before; got != want {
		t.Errorf("token %d waited %v, want %v", tokenBurst+1, got, want)
	}
}

// TestPacingWaitEndsWithTheContext: a request whose turn is far off ends
// with its context, sending nothing; the machine's clock's wait too.
func TestPacingWaitEndsWithTheContext(t *testing.T) {
	f := newFake(t)
	f.handler = okHandler
	c, _ := newTestClient(t, f, nil)
	c.pace.clock = blockingClock{}
	if err := c.pace.store.throttle(throttleKey(c.pace.apiHost), paceEpoch.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := c.GetFiatDepositInstructions(ctx, "fdi-1")
		done <- err
	}()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the wait for a turn did not end with its context")
	}
	if n := len(f.apiRequests()); n != 0 {
		t.Errorf("%d requests sent while throttled", n)
	}

	ctx, cancel = context.WithCancel(t.Context())
	cancel()
	if err := (wallClock{}).Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("wallClock.Sleep of a done context = %v", err)
	}
}

// blockingClock is a clock at paceEpoch whose waits end only with their
// context.
type blockingClock struct{}

func (blockingClock) Now() time.Time { return paceEpoch }
func (blockingClock) Sleep(ctx context.Context, _ time.Duration) error {
	<-ctx.Done()
	return ctx.Err()
}

// TestRetryAfterHoldsEveryRequest: a 429 with Retry-After holds every
// request of the budget, not only its own retry, until it ends; a second
// client sharing the state directory is held too.
func TestRetryAfterHoldsEveryRequest(t *testing.T) {
	f := newFake(t)
	f.handler = okAfter(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "30")
		writeJSON(w, http.StatusTooManyRequests, `{"message":"slow down"}`)
	})
	// No retries: the request that drew the 429 fails, and the throttle
	// holds the next ones.
	c, logs := newTestClient(t, f, func(cfg *Config) { cfg.MaxRetries = 0 })
	clk := paceClockOf(t, c)
	if _, err := c.GetFiatDepositInstructions(t.Context(), "fdi-1"); !errors.Is(err, ErrRateLimited) {
		t.Fatalf("err = %v, want the 429", err)
	}
	if _, err := c.GetStablecoinConversion(t.Context(), "sc-1"); err != nil {
		t.Fatal(err)
	}
	if got := clk.waits(); !slices.Equal(got, []time.Duration{30 * time.Second}) {
		t.Errorf("waits = %v, want the next request held 30s", got)
	}
	if len(logs.withMsg("the service throttled this address: every request of the rate budget waits")) != 1 {
		t.Error("the throttle is not logged once")
	}

	until := clk.Now().Add(time.Minute)
	if err := c.pace.store.throttle(throttleKey(c.pace.apiHost), until); err != nil {
		t.Fatal(err)
	}
	other, _ := newTestClient(t, f, func(cfg *Config) { cfg.RateStateDir = stateDirOf(t, c) })
	otherClk := paceClockOf(t, other)
	otherClk.set(clk.Now())
	if _, err := other.GetStablecoinConversion(t.Context(), "sc-1"); err != nil {
		t.Fatal(err)
	}
	if got := otherClk.total(); got != time.Minute {
		t.Errorf("the other client waited %v, want the minute of the throttle", got)
	}
}

// stateDirOf is the state directory of c's pacing.
func stateDirOf(t *testing.T, c *Client) string {
	t.Helper()
	fs, ok := c.pace.store.(*fileStore)
	if !ok {
		t.Fatalf("the pacing keeps its state in %T", c.pace.store)
	}
	return fs.dir
}

// TestRateBudgetChecked: the budget is a number in (0, 1]; zero is the
// default.
func TestRateBudgetChecked(t *testing.T) {
	for _, b := range []float64{-0.1, 1.01, 2} {
		_, err := New(Config{ClientID: "id", ClientSecret: "secret", BaseURL: "http://127.0.0.1:1/v2",
			AuthURL: "http://127.0.0.1:1", RateBudget: b, RateStateDir: t.TempDir()})
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != "rate_budget" {
			t.Errorf("RateBudget %v: err = %v, want a ConfigError of rate_budget", b, err)
		}
	}
	c, err := New(Config{ClientID: "id", ClientSecret: "secret", BaseURL: "http://127.0.0.1:1/v2",
		AuthURL: "http://127.0.0.1:1", RateStateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if c.RateBudget() != DefaultRateBudget {
		t.Errorf("budget = %v, want the default %v", c.RateBudget(), DefaultRateBudget)
	}
}

func TestHostOf(t *testing.T) {
	for raw, want := range map[string]string{
		"https://API.example.com/v2": "api.example.com:443",
		"http://127.0.0.1:8080/v2":   "127.0.0.1:8080",
		"http://localhost/v2":        "localhost:80",
	} {
		u, _ := url.Parse(raw)
		if got := hostOf(u); got != want {
			t.Errorf("hostOf(%s) = %s, want %s", raw, got, want)
		}
	}
}

// TestLongWaitIsSaid: a wait for the budget longer than 5 seconds is
// logged at WARN, saying what it waits for (the service's throttle, or the
// turn of its endpoint), until when, and the state file it read; a
// shorter one is not.
func TestLongWaitIsSaid(t *testing.T) {
	warns := func(logs *captureLogger) []logEntry {
		var out []logEntry
		for _, e := range logs.all() {
			if e.Level == LevelWarn && strings.Contains(e.Msg, " waits ") {
				out = append(out, e)
			}
		}
		return out
	}
	f := newFake(t)
	f.handler = okHandler

	c, logs := newTestClient(t, f, nil)
	clk := paceClockOf(t, c)
	tk := throttleKey(c.pace.apiHost)
	if err := c.pace.store.throttle(tk, clk.Now().Add(4*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetFiatDepositInstructions(t.Context(), "fdi-1"); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(stateDirOf(t, c), stateFileName(tk))
	w := warns(logs)
	if len(w) != 1 {
		t.Fatalf("%d long waits said, want 1: %v", len(w), logs.all())
	}
	for _, want := range []string{"POST /oauth2/token waits 4m0s for the end of the service's throttle of " + c.pace.apiHost,
		"until 2030-01-02T03:08:05Z", "as read from " + file} {
		if !strings.Contains(w[0].Msg, want) {
			t.Errorf("said %q, want %q in it", w[0].Msg, want)
		}
	}
	if w[0].Fields["state"] != file || w[0].Fields["until"] != "2030-01-02T03:08:05Z" {
		t.Errorf("fields %v", w[0].Fields)
	}

	// 50/s at 0.002: a burst of 4, then one request every 12.2 s.
	c, logs = newTestClient(t, f, func(cfg *Config) { cfg.RateBudget = 0.002 })
	for range 5 {
		if _, err := c.GetFiatDepositInstructions(t.Context(), "fdi-1"); err != nil {
			t.Fatal(err)
		}
	}
	w = warns(logs)
	key := endpointKey(c.pace.apiHost, "GET /transfer/fiat-deposit-instructions/{id}")
	if len(w) != 1 || !strings.Contains(w[0].Msg, "GET /transfer/fiat-deposit-instructions/fdi-1 waits 12s for its turn in the rate budget ("+key) ||
		!strings.Contains(w[0].Msg, "as read from "+filepath.Join(stateDirOf(t, c), stateFileName(key))) {
		t.Errorf("said %v, want the turn of the endpoint and its file", w)
	}

	// 50/s at 0.005: 4.7 s, unsaid.
	c, logs = newTestClient(t, f, func(cfg *Config) { cfg.RateBudget = 0.005 })
	if interval, _ := paceRate(50, 0.005, PublishedRates.Window); interval >= sayWaitAfter {
		t.Fatalf("interval %v", interval)
	}
	for range 10 {
		if _, err := c.GetFiatDepositInstructions(t.Context(), "fdi-1"); err != nil {
			t.Fatal(err)
		}
	}
	if w := warns(logs); len(w) != 0 || paceClockOf(t, c).total() == 0 {
		t.Errorf("a wait of %v said: %v", paceClockOf(t, c).total(), w)
	}
}
