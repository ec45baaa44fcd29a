package client

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// DefaultRateBudget is the share of each published rate limit a client
// uses when Config.RateBudget is zero: the other half is left to whatever
// else the host's address sends (the user's production traffic).
const DefaultRateBudget = 0.5

// RateClass is one class of endpoints and the rate the service publishes
// for each of them: requests per second per IP address, averaged over the
// table's window. Each endpoint of a class has that rate of its own.
type RateClass struct {
	Name      string
	PerSecond float64
	// Endpoints are "METHOD /path" patterns: {name} is one path segment,
	// a trailing /... any number of them (none included), and the method *
	// any method.
	Endpoints []string
}

// RateTable is the service's published rate limits: the classes, and the
// rate of every endpoint none of them names.
type RateTable struct {
	Classes []RateClass
	// OtherPerSecond is the rate of every other endpoint.
	OtherPerSecond float64
	// Window is the window the service averages the rates over.
	Window time.Duration
}

// PublishedRates are the service's published rate limits (the service's
// rate-limit page): per endpoint and IP address, averaged over five
// minutes; a breach answers 429 and throttles every request from the
// address for five minutes.
var PublishedRates = RateTable{
	Classes: []RateClass{
		{Name: "token endpoint", PerSecond: 1, Endpoints: []string{"POST " + TokenPath}},
		{Name: "order books, recent executions, quote executions and identities", PerSecond: 10, Endpoints: []string{
			"GET /markets/{market}/order-book",
			"GET /markets/{market}/recent-executions",
			"* /profiles/{profile_id}/quote-executions/...",
			"* /identity/identities/...",
		}},
		{Name: "crypto withdrawals and internal transfers", PerSecond: 20, Endpoints: []string{
			"POST " + PathCryptoWithdrawals,
			"POST " + PathInternalTransfers,
		}},
	},
	OtherPerSecond: 50,
	Window:         5 * time.Minute,
}

// Scaled returns a copy of t whose rates are factor times t's: tests run
// the provider many times faster than the service allows, against an
// emulator that does not count.
func (t RateTable) Scaled(factor float64) RateTable {
	out := RateTable{OtherPerSecond: t.OtherPerSecond * factor, Window: t.Window}
	for _, c := range t.Classes {
		c.PerSecond *= factor
		out.Classes = append(out.Classes, c)
	}
	return out
}

// rateOf is the published rate of the endpoint method path (a path under
// the base URL, or TokenPath), the name of its class, and the pattern that
// names the endpoint: the class's pattern, the template of the client's
// operation (Operations), or, for a path the client does not know, the
// method alone (every unknown endpoint shares one rate: never more than
// one endpoint's).
func (t RateTable) rateOf(method, path string) (perSecond float64, class, endpoint string) {
	for _, c := range t.Classes {
		for _, e := range c.Endpoints {
			if endpointMatches(e, method, path) {
				return c.PerSecond, c.Name, e
			}
		}
	}
	for _, op := range Operations {
		if endpointMatches(op.Method+" "+op.Path, method, path) {
			return t.OtherPerSecond, "other", op.Method + " " + op.Path
		}
	}
	return t.OtherPerSecond, "other", method + " (other)"
}

// endpointMatches reports whether the request method path is of the
// endpoint pattern e ("METHOD /path", see RateClass.Endpoints).
func endpointMatches(e, method, path string) bool {
	m, p, ok := strings.Cut(e, " ")
	if !ok || (m != "*" && m != method) {
		return false
	}
	ps, xs := strings.Split(p, "/"), strings.Split(strings.TrimRight(path, "/"), "/")
	if n := len(ps); n > 0 && ps[n-1] == "..." {
		ps = ps[:n-1]
		if len(xs) < len(ps) {
			return false
		}
		xs = xs[:len(ps)]
	}
	if len(ps) != len(xs) {
		return false
	}
	for i, seg := range ps {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			if xs[i] == "" {
				return false
			}
			continue
		}
		if seg != xs[i] {
			return false
		}
	}
	return true
}

// Pacing constants: the share of the budget held back as a margin, and
// the burst an endpoint may send at once.
const (
	// paceMargin is held back from the budget's allowance of a window, so
	// that the clocks of the host's processes never take a window past the
	// budget.
	paceMargin = 0.05
	// paceBurstShare is the share of a window's allowance an endpoint may
	// send at once, within [paceMinBurst, paceMaxBurst] requests.
	paceBurstShare = 0.1
	// paceMinBurst is the least burst of an endpoint whose window allows
	// twice as many: the tokens of a command's scopes, the lookups of a
	// plan, are not asked for seconds apart.
	paceMinBurst = 4
	// paceMaxBurst bounds the burst: a command asks for about that many
	// at once; a larger one would only slow the long-run rate.
	paceMaxBurst = 64
	// maxPaceAhead bounds how far ahead a stored reservation may be: one
	// further is not a queue but a damaged state.
	maxPaceAhead = 15 * time.Minute
	// maxThrottle is the service's published throttle: a breach holds
	// every request of the address for 5 minutes. No recorded throttle
	// holds a request longer.
	maxThrottle = 5 * time.Minute
	// sayWaitAfter is the longest wait for the budget that goes unsaid: a
	// longer one is logged at WARN (what it waits for, until when, and the
	// state it read).
	sayWaitAfter = 5 * time.Second
)

// paceRate is the emission interval and burst tolerance of an endpoint
// of the published rate perSecond, averaged over window, under budget: a
// budget over the window, not a fixed spacing. The window's allowance A
// is the budgeted rate times the window, less paceMargin; an endpoint may
// send a burst B at once (a tenth of A, within [paceMinBurst,
// paceMaxBurst], never more than half of A, at least one), and then one
// request every window / (A − B): in every window, B + (A − B) = A
// requests at most, for every process sharing the endpoint's state. A
// window that allows fewer than two requests is paced at half of it.
func paceRate(perSecond, budget float64, window time.Duration) (interval, tolerance time.Duration) {
	allowance := perSecond * budget * window.Seconds() * (1 - paceMargin)
	burst := math.Floor(allowance * paceBurstShare)
	burst = math.Max(burst, math.Min(paceMinBurst, math.Floor(allowance/2)))
	burst = math.Max(1, math.Min(burst, paceMaxBurst))
	rest := math.Max(allowance-burst, allowance/2)
	interval = time.Duration(float64(window) / rest)
	return interval, time.Duration(burst-1) * interval
}

// grant is the generic cell rate algorithm, as a reservation: a request
// arriving at now (or when the throttle ends, if later) of an endpoint
// whose theoretical arrival time is tat goes at the time returned, and the
// endpoint's theoretical arrival time becomes next. A zero tat, or one
// beyond maxPaceAhead (a damaged state), is a quiet endpoint; a throttle
// holds the request for at most maxThrottle.
func grant(tat, now, throttledUntil time.Time, interval, tolerance time.Duration) (at, next time.Time) {
	arrival := now
	if throttledUntil.After(arrival) {
		arrival = throttledUntil
		if most := now.Add(maxThrottle); arrival.After(most) {
			arrival = most
		}
	}
	if tat.After(now.Add(maxPaceAhead)) {
		tat = time.Time{}
	}
	if tat.Before(arrival) {
		tat = arrival
	}
	at = tat.Add(-tolerance)
	if at.Before(arrival) {
		at = arrival
	}
	return at, tat.Add(interval)
}

// pacingClock is what pacing reads the time from and waits on; tests give
// a fake one.
type pacingClock interface {
	Now() time.Time
	// Sleep waits d, or until ctx is done (its error).
	Sleep(ctx context.Context, d time.Duration) error
}

// wallClock is the machine's clock.
type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

func (wallClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// pacer paces the requests of a client to its budget of the published
// rates: each request reserves its turn in its endpoint's state (shared by
// the host's processes through a rateStore) and waits for it.
type pacer struct {
	budget float64
	table  RateTable
	clock  pacingClock
	store  rateStore
	// storeErr says why the host's state is unusable (store then paces
	// the process alone).
	storeErr error
	// stateDir is the folder of the host's state.
	stateDir string
	// apiHost and authHost are the hosts of the API and of the token
	// endpoint: the states are the service's, not the client's.
	apiHost, authHost string
	log               func(ctx context.Context, level Level, msg string, fields map[string]any)
	// warned is set once the unusable state directory was reported.
	warned sync.Once
}

// endpointKey is the name of the state of the endpoint pattern of host.
func endpointKey(host, endpoint string) string { return host + " " + endpoint }

// throttleKey is the name of the throttle of host.
func throttleKey(host string) string { return host + " throttle" }

// wait waits for the turn of a request method path to the API (or, with
// token, to the token endpoint), or until ctx is done.
func (p *pacer) wait(ctx context.Context, method, path string, token bool) error {
	if p == nil {
		return nil
	}
	host := p.apiHost
	if token {
		host = p.authHost
	}
	perSecond, class, endpoint := p.table.rateOf(method, path)
	interval, tolerance := paceRate(perSecond, p.budget, p.table.Window)
	now := p.clock.Now()
	at, err := p.store.reserve(endpointKey(host, endpoint), throttleKey(p.apiHost), now, interval, tolerance)
	if err == nil {
		err = p.storeErr
	}
	if err != nil {
		p.reportStore(ctx, err)
	}
	d := at.Sub(now)
	if d <= 0 {
		return nil
	}
	level, msg := LevelDebug, "pacing request to the rate budget"
	fields := map[string]any{
		"method": method, "path": path, "class": class, "wait_ms": d.Milliseconds(),
		"rate_per_second": perSecond * p.budget,
	}
	if d > sayWaitAfter {
		level, msg = LevelWarn, p.longWait(method, path, endpointKey(host, endpoint), at, d, fields)
	}
	p.logf(ctx, level, msg, fields)
	if err := p.clock.Sleep(ctx, d); err != nil {
		return fmt.Errorf("%s %s: waiting for its turn in the rate budget: %w", method, path, err)
	}
	return nil
}

// longWait is the message of a wait of d until at for the turn of the
// request method path (the state key), and adds to fields what it waits
// for, until when and the state it read.
func (p *pacer) longWait(method, path, key string, at time.Time, d time.Duration, fields map[string]any) string {
	tk := throttleKey(p.apiHost)
	what := fmt.Sprintf("its turn in the rate budget (%s, %v of the published rate of this endpoint)", key, p.budget)
	state := key
	if ts, ok := p.store.(interface{ throttleSeen(string) time.Time }); ok && !at.After(ts.throttleSeen(tk)) {
		what = fmt.Sprintf("the end of the service's throttle of %s (a 429 answered to this host's requests)", p.apiHost)
		state = tk
	}
	if n, ok := p.store.(interface{ stateOf(string) string }); ok && p.storeErr == nil {
		state = n.stateOf(state)
	} else {
		state = "this process's memory (" + state + ")"
	}
	until := at.UTC().Format(time.RFC3339)
	fields["waits_for"], fields["until"], fields["state"] = what, until, state
	return fmt.Sprintf("%s %s waits %v for %s, until %s, as read from %s", method, path, d.Round(time.Second), what, until, state)
}

// throttle holds every request of the budget until until: the service
// answered 429 with a Retry-After.
func (p *pacer) throttle(ctx context.Context, until time.Time) {
	if p == nil {
		return
	}
	if err := p.store.throttle(throttleKey(p.apiHost), until); err != nil {
		p.reportStore(ctx, err)
	}
	p.logf(ctx, LevelWarn, "the service throttled this address: every request of the rate budget waits", map[string]any{
		"until": until.UTC().Format(time.RFC3339), "wait_ms": until.Sub(p.clock.Now()).Milliseconds(),
	})
}

// reportStore says once that the host's shared state is unusable and the
// process paces alone.
func (p *pacer) reportStore(ctx context.Context, err error) {
	p.warned.Do(func() {
		msg := "the rate budget is not shared with the host's other processes: this process paces alone at its rate_budget"
		var se *RateStoreError
		if errors.As(err, &se) {
			msg = se.logMessage()
		}
		p.logf(ctx, LevelWarn, msg, map[string]any{"error": err.Error()})
	})
}

func (p *pacer) logf(ctx context.Context, level Level, msg string, fields map[string]any) {
	if p.log != nil {
		p.log(ctx, level, msg, fields)
	}
}

// hostOf is the host:port a URL addresses (the port its scheme implies
// when it gives none).
func hostOf(u *url.URL) string {
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if port == "" {
		port = "443"
		if u.Scheme == "http" {
			port = "80"
		}
	}
	return host + ":" + port
}

// newPacer is the pacer of a client of cfg (its RateBudget already
// checked), whose API is at base and token endpoint at tokenURL.
func newPacer(cfg Config, base *url.URL, tokenURL string, log func(context.Context, Level, string, map[string]any)) *pacer {
	p := &pacer{budget: cfg.RateBudget, table: PublishedRates, clock: cfg.pacingClock, apiHost: hostOf(base), log: log}
	if p.budget == 0 {
		p.budget = DefaultRateBudget
	}
	if cfg.Rates != nil {
		p.table = *cfg.Rates
	}
	if p.table.Window <= 0 {
		p.table.Window = PublishedRates.Window
	}
	if p.clock == nil {
		p.clock = wallClock{}
	}
	p.authHost = p.apiHost
	if u, err := url.Parse(tokenURL); err == nil {
		p.authHost = hostOf(u)
	}
	if cfg.RateStore != "" {
		p.store, p.storeErr = poolStore(cfg.RateStore)
		return p
	}
	p.stateDir = cfg.RateStateDir
	if p.stateDir == "" {
		dir, err := DefaultRateStateDir()
		if err != nil {
			p.store, p.storeErr = processRates, err
			return p
		}
		p.stateDir = dir
	}
	p.store, p.storeErr = hostStore(p.stateDir, cfg.RateStateDir != "", p.clock.Now())
	return p
}

// RateStateDir is the folder through which the client shares its rate
// budget with the host's other processes (see RateStateError), or "" when
// the user has none.
func (c *Client) RateStateDir() string {
	if c.pace == nil {
		return ""
	}
	return c.pace.stateDir
}

// checkRateBudget checks Config.RateBudget: zero (the default) or a
// number in (0, 1].
func checkRateBudget(b float64) error {
	if math.IsNaN(b) || b < 0 || b > 1 {
		return &ConfigError{Field: "rate_budget", Msg: fmt.Sprintf("must be a number greater than 0 and at most 1 (the share of each published rate limit), got %v", b)}
	}
	return nil
}

// RateStateError says why the client does not share its rate budget with
// the other processes of the host (its rate_state_dir is unusable), or is
// nil when it does or shares it through a rate store (see RateStoreError).
// Either way the client paces to its budget.
func (c *Client) RateStateError() error {
	var store *RateStoreError
	if c.pace == nil || errors.As(c.pace.storeErr, &store) {
		return nil
	}
	return c.pace.storeErr
}

// RateBudget is the share of each published rate limit the client paces
// its requests to.
func (c *Client) RateBudget() float64 {
	if c.pace == nil {
		return 0
	}
	return c.pace.budget
}

// noteThrottle holds every request of the budget for as long as a 429's
// Retry-After asks (at most maxRetryAfter): the service throttles the
// address, not the request. A 429 without Retry-After is left to the
// request, which fails at once (throttledForMinutes).
func (c *Client) noteThrottle(ctx context.Context, resp *http.Response) {
	if c.pace == nil || resp == nil || resp.StatusCode != http.StatusTooManyRequests {
		return
	}
	now := c.pace.clock.Now()
	d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), now)
	if !ok || d <= 0 {
		return
	}
	c.pace.throttle(ctx, now.Add(min(d, maxRetryAfter)))
}
