package client

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/platform/terraform-provider-platform/internal/redistest"
)

// openTestRedisStore opens a store of url with a fallback of its own (the
// state in memory of one host).
func openTestRedisStore(t *testing.T, url string) *redisStore {
	t.Helper()
	s, err := openRedisStore(url, newMemStore())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.close)
	return s
}

// rawRedis is a plain client of srv, to look at what the store keeps.
func rawRedis(t *testing.T, srv *redistest.Server) *redis.Client {
	t.Helper()
	opt, err := redis.ParseURL(srv.URL(""))
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(opt)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// TestRedisBudgetAtomic: three stores (three hosts, each with its own
// connections and state in memory) reserve from many goroutines at once;
// every turn is its own, interval after the one before: no two readers of
// one state, so the budget is never exceeded.
func TestRedisBudgetAtomic(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	stores := []*redisStore{
		openTestRedisStore(t, srv.URL("")), openTestRedisStore(t, srv.URL("")), openTestRedisStore(t, srv.URL("")),
	}
	const (
		interval   = 500 * time.Millisecond
		goroutines = 12
		each       = 25
	)
	key, throttle := endpointKey("h:443", "POST /transfer/crypto-withdrawals"), throttleKey("h:443")
	var (
		mu  sync.Mutex
		ats []time.Time
		wg  sync.WaitGroup
	)
	start := time.Now()
	for g := range goroutines {
		wg.Go(func() {
			s := stores[g%len(stores)]
			for range each {
				at, err := s.reserve(key, throttle, time.Now(), interval, 0)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				ats = append(ats, at)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	slices.SortFunc(ats, func(a, b time.Time) int { return a.Compare(b) })
	// The turns were taken within a short time: each later one is one
	// interval after the one before, give or take the time on the way.
	const slack = 100 * time.Millisecond
	for i := 1; i < len(ats); i++ {
		if gap := ats[i].Sub(ats[i-1]); gap < interval-slack {
			t.Fatalf("turns %d and %d are %v apart, want %v: two processes took one turn", i-1, i, gap, interval)
		}
	}
	n := goroutines * each
	if span, want := ats[n-1].Sub(ats[0]), time.Duration(n-1)*interval; span < want-slack || span > want+slack+time.Since(start) {
		t.Errorf("the %d turns span %v, want %v", n, span, want)
	}
}

// TestRedisBudgetKeysExpire: the store's keys are in its namespace, hold
// no host name, and expire once they no longer matter.
func TestRedisBudgetKeysExpire(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	s := openTestRedisStore(t, srv.URL(""))
	interval, tolerance := paceRate(20, 0.5, PublishedRates.Window)
	key, throttle := endpointKey("api.example.com:443", "POST /transfer/crypto-withdrawals"), throttleKey("api.example.com:443")
	for range 3 {
		if _, err := s.reserve(key, throttle, time.Now(), interval, tolerance); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.throttle(throttle, time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	rdb := rawRedis(t, srv)
	ctx := t.Context()
	keys, err := rdb.Keys(ctx, "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 3 {
		t.Errorf("keys %v, want 3: the endpoint, the throttle and the pool", keys)
	}
	for _, k := range keys {
		if !strings.HasPrefix(k, rateKeyPrefix) || strings.Contains(k, "example") {
			t.Errorf("key %q: want one under %q naming no host", k, rateKeyPrefix)
		}
		ttl, err := rdb.PTTL(ctx, k).Result()
		if err != nil {
			t.Fatal(err)
		}
		limit := PublishedRates.Window
		if k == storeKey("", key) {
			limit = 3*interval + 2*time.Second
		}
		if k == storeKey("", throttle) {
			limit = time.Minute + 2*time.Second
		}
		if ttl <= 0 || ttl > limit {
			t.Errorf("key %q expires in %v, want within %v", k, ttl, limit)
		}
	}
}

// TestRedisBudgetThrottleShared: a throttle one host records holds the
// other's requests, on the server's clock.
func TestRedisBudgetThrottleShared(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	a, b := openTestRedisStore(t, srv.URL("")), openTestRedisStore(t, srv.URL(""))
	interval, tolerance := paceRate(50, 0.5, PublishedRates.Window)
	throttle := throttleKey("h:443")
	if err := a.throttle(throttle, time.Now().Add(10*time.Minute)); err != nil {
		t.Fatal(err)
	}
	// b's clock is an hour behind: the wait is the same.
	now := time.Now().Add(-time.Hour)
	at, err := b.reserve(endpointKey("h:443", "GET /transfer/transfers"), throttle, now, interval, tolerance)
	if err != nil {
		t.Fatal(err)
	}
	if wait := at.Sub(now); wait < 10*time.Minute-5*time.Second || wait > 10*time.Minute {
		t.Errorf("waits %v after the other's throttle, want 10m", wait)
	}
}

// newStoreClient is a client of f sharing its budget through url, its
// store with a fallback of its own, on the machine's clock.
func newStoreClient(t *testing.T, f *fakeService, url string) (*Client, *captureLogger) {
	t.Helper()
	c, logs := newTestClient(t, f, func(cfg *Config) {
		cfg.RateStore = url
		cfg.pacingClock = nil
	})
	s, ok := c.pace.store.(*redisStore)
	if !ok {
		t.Fatalf("the store is %T, not the rate store", c.pace.store)
	}
	s.fallback = newMemStore()
	return c, logs
}

// TestRedisBudgetTwoClientsOneBudget: two clients with stores of their own
// (two hosts) on one server send together what one budget allows: the
// burst of one, then one request an interval.
func TestRedisBudgetTwoClientsOneBudget(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	f := newFake(t)
	f.handler = okHandler
	// Two spellings of one server: two stores in this process.
	a, _ := newStoreClient(t, f, srv.URL(""))
	b, _ := newStoreClient(t, f, "redis://"+srv.Addr)
	if a.pace.store == b.pace.store {
		t.Fatal("the clients share one store: want one each, as two hosts have")
	}
	interval, tolerance := paceRate(50, DefaultRateBudget, PublishedRates.Window)
	burst := int(tolerance/interval) + 1
	each := burst
	start := time.Now()
	var wg sync.WaitGroup
	for _, c := range []*Client{a, b} {
		wg.Go(func() {
			for i := range each {
				if _, err := c.GetFiatDepositInstructions(context.Background(), fmt.Sprintf("fdi-%d", i)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	// Alone, each client's requests fit its burst and go at once.
	want := time.Duration(2*each-burst) * interval
	if elapsed < want-interval || elapsed > want+2*time.Second {
		t.Errorf("two clients sent %d requests in %v, want about %v: one budget for both", 2*each, elapsed, want)
	}
	if a.RateStoreError() != nil || b.RateStoreError() != nil {
		t.Errorf("RateStoreError = %v, %v; want nil", a.RateStoreError(), b.RateStoreError())
	}
}

// TestRedisBudgetStoreKilledMidRun: the server killed between requests,
// the client paces alone at the fallback share, says so once at WARN, and
// no request goes unpaced.
func TestRedisBudgetStoreKilledMidRun(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{})
	f := newFake(t)
	f.handler = okHandler
	c, logs := newStoreClient(t, f, srv.URL(""))
	for i := range 3 {
		if _, err := c.GetFiatDepositInstructions(t.Context(), fmt.Sprintf("fdi-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	srv.Kill()
	clock := newPaceClock()
	c.pace.clock = clock
	const n = 30
	for i := range n {
		if _, err := c.GetFiatDepositInstructions(t.Context(), fmt.Sprintf("fdi-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	// Paced alone, at a quarter of the budget.
	interval, tolerance := paceRate(50, DefaultRateBudget, PublishedRates.Window)
	alone, now, want := newMemStore(), clock.Now(), time.Duration(0)
	now = now.Add(-clock.total())
	for range n {
		at, _ := alone.reserve("k", "t", now, RateStoreFallbackDivisor*interval, tolerance)
		if d := at.Sub(now); d > 0 {
			want += d
			now = at
		}
	}
	if got := clock.total(); got != want {
		t.Errorf("waited %v after the store was lost, want %v (a quarter of the budget)", got, want)
	}
	msg := "the rate store was lost: this process paces alone at its rate_budget divided by 4 until the store answers again"
	said := logs.withMsg(msg)
	if len(said) != 1 || said[0].Level != LevelWarn {
		t.Fatalf("said %v, want once at WARN: %q", said, msg)
	}
	if e, _ := said[0].Fields["error"].(string); !strings.Contains(e, srv.Addr) {
		t.Errorf("error %q, want one naming the store %s", e, srv.Addr)
	}
}

// TestRedisBudgetWrongPassword: a store refusing the password is said,
// and the process paces alone; the password is in no error nor log line.
func TestRedisBudgetWrongPassword(t *testing.T) {
	srv := redistest.Start(t, redistest.Options{Password: "the-right-Secret-42"})
	const wrong = "wrong-Pa55word/xyz"
	f := newFake(t)
	f.handler = okHandler
	c, logs := newStoreClient(t, f, srv.URL(wrong))
	err := c.RateStoreError()
	if err == nil {
		t.Fatal("RateStoreError = nil, want the store's refusal")
	}
	if c.RateStateError() != nil {
		t.Errorf("RateStateError = %v, want nil: the store's refusal is RateStoreError's", c.RateStateError())
	}
	for _, want := range []string{"redis://:xxxxx@" + srv.Addr, "WRONGPASS"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("RateStoreError %q does not say %q", err, want)
		}
	}
	for range 3 {
		if _, err := c.GetFiatDepositInstructions(t.Context(), "fdi-1"); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(logs.withMsg("the rate store cannot be used: this process paces alone at its rate_budget divided by 4 until the store answers again")); n != 1 {
		t.Errorf("said %d times, want once", n)
	}
	text := err.Error() + fmt.Sprint(logs.all())
	for _, spelling := range []string{wrong, "wrong-Pa55word%2Fxyz", "wrong-Pa55word"} {
		if strings.Contains(text, spelling) {
			t.Errorf("the password (%s) was printed: %s", spelling, text)
		}
	}
}

// TestCheckRateStore: what rate_store accepts, and errors that never hold
// the password.
func TestCheckRateStore(t *testing.T) {
	tests := []struct {
		raw, err string
	}{
		{"redis://127.0.0.1:6379/0", ""},
		{"rediss://:s3cret-pw@redis.example.com:6380/2", ""},
		{"redis://user:s3cret-pw@localhost:6379", ""},
		{"redis://redis.example.com:6379", ""},
		{"redis://:s3cret-pw@redis.example.com:6379", "use rediss://"},
		{"http://:s3cret-pw@redis.example.com", "must be a redis:// or rediss:// URL, got \"http://:xxxxx@redis.example.com\""},
		{"redis://:s3cret-pw@", "must include a host"},
		{"redis://:s3cret-pw@[::1", "is not a valid URL"},
		{"redis://:s3cret/pw@localhost:6379", "must be percent-encoded"},
		{"redis://:s3cret-pw@localhost/notanumber", "invalid database"},
	}
	for _, tt := range tests {
		err := CheckRateStore(tt.raw)
		if tt.err == "" {
			if err != nil {
				t.Errorf("%s: %v", RedactStoreURL(tt.raw), err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.err) || !strings.HasPrefix(err.Error(), "rate_store: ") {
			t.Errorf("%s: %v, want a rate_store error saying %q", RedactStoreURL(tt.raw), err, tt.err)
		}
		if err != nil && strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%s: the error holds the password: %v", RedactStoreURL(tt.raw), err)
		}
	}
}
