package emulator

import (
	"fmt"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// RateLimits make the emulator enforce the service's published rate
// limits (see rateClasses), with the window, the throttle and the share
// scaled for tests. The zero value of a field is the published figure.
type RateLimits struct {
	// Window is the time the rates are averaged over: a request that
	// would make an endpoint's requests from one address within the last
	// Window more than Share × its rate × Window is a breach. Default 5m.
	Window time.Duration
	// Throttle is how long a breach throttles every request from the
	// address. Default 5m.
	Throttle time.Duration
	// Share is the part of each published rate left to the client under
	// test, in (0, 1]: the rest stands for the address's other traffic.
	// Default 1.
	Share float64
}

// Published figures of the rate limits.
const (
	rateWindow   = 5 * time.Minute
	rateThrottle = 5 * time.Minute
)

// withDefaults fills the zero fields with the published figures.
func (l RateLimits) withDefaults() RateLimits {
	if l.Window <= 0 {
		l.Window = rateWindow
	}
	if l.Throttle <= 0 {
		l.Throttle = rateThrottle
	}
	if l.Share <= 0 {
		l.Share = 1
	}
	return l
}

// ParseRateLimits reads the -rate-limits flag: "off" or "" (not enforced),
// "published" (the published window, throttle and rates), or
// comma-separated window=<duration>, throttle=<duration> and
// share=<number in (0, 1]>, each missing one the published figure.
func ParseRateLimits(s string) (*RateLimits, error) {
	switch strings.TrimSpace(s) {
	case "", "off":
		return nil, nil
	case "published", "on":
		l := RateLimits{}.withDefaults()
		return &l, nil
	}
	var l RateLimits
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return nil, fmt.Errorf("rate limits: %q is not key=value (window, throttle or share)", part)
		}
		var err error
		switch k {
		case "window":
			l.Window, err = positiveDuration(v)
		case "throttle":
			l.Throttle, err = positiveDuration(v)
		case "share":
			l.Share, err = strconv.ParseFloat(v, 64)
			if err == nil && (math.IsNaN(l.Share) || l.Share <= 0 || l.Share > 1) {
				err = fmt.Errorf("must be greater than 0 and at most 1, got %v", l.Share)
			}
		default:
			return nil, fmt.Errorf("rate limits: unknown key %q: want window, throttle or share", k)
		}
		if err != nil {
			return nil, fmt.Errorf("rate limits: %s: %w", k, err)
		}
	}
	l = l.withDefaults()
	return &l, nil
}

func positiveDuration(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err == nil && d <= 0 {
		err = fmt.Errorf("must be positive, got %s", v)
	}
	return d, err
}

// rateClass is one class of endpoints of the published rate limits.
type rateClass struct {
	perSecond float64
	// endpoints are "METHOD /path" patterns of the routes (apiRoutes) and
	// of the token endpoint; the method * is any method, a trailing /...
	// any further segments.
	endpoints []string
}

// rateClasses are the published limits, per endpoint and IP address,
// averaged over the window; every other endpoint has otherPerSecond.
var rateClasses = []rateClass{
	{1, []string{"POST /oauth2/token"}},
	{10, []string{
		"GET /markets/{market}/order-book", "GET /markets/{market}/recent-executions",
		"* /profiles/{profile_id}/quote-executions/...", "* /identity/identities/...",
	}},
	{20, []string{"POST /transfer/crypto-withdrawals", "POST /transfer/internal"}},
}

const otherPerSecond = 50

// ratePerSecond is the published rate of the endpoint method pattern.
func ratePerSecond(method, pattern string) float64 {
	for _, c := range rateClasses {
		for _, e := range c.endpoints {
			m, p, _ := strings.Cut(e, " ")
			if m != "*" && m != method {
				continue
			}
			if rest, ok := strings.CutSuffix(p, "/..."); ok {
				if pattern == rest || strings.HasPrefix(pattern, rest+"/") {
					return c.perSecond
				}
				continue
			}
			if pattern == p {
				return c.perSecond
			}
		}
	}
	return otherPerSecond
}

// RateLimitsState is the body of GET and PUT /admin/rate-limits.
type RateLimitsState struct {
	Enabled         bool    `json:"enabled"`
	WindowSeconds   float64 `json:"window_seconds"`
	ThrottleSeconds float64 `json:"throttle_seconds"`
	Share           float64 `json:"share"`
	// Breaches is the number of breaches since the mode was last set.
	Breaches int `json:"breaches"`
	// Throttled are the addresses throttled now, with when it ends
	// (RFC 3339, the emulator's clock); only in answers.
	Throttled map[string]string `json:"throttled,omitempty"`
}

// rateLimiter counts the requests of each endpoint by address.
type rateLimiter struct {
	mu       sync.Mutex
	limits   *RateLimits
	seen     map[string][]time.Time
	until    map[string]time.Time
	breaches int
}

// SetRateLimits enforces l (nil: no more), forgetting every count and
// throttle so far.
func (s *Server) SetRateLimits(l *RateLimits) {
	s.rates.mu.Lock()
	defer s.rates.mu.Unlock()
	if l != nil {
		d := l.withDefaults()
		l = &d
	}
	s.rates.limits = l
	s.rates.seen = map[string][]time.Time{}
	s.rates.until = map[string]time.Time{}
	s.rates.breaches = 0
}

// RateLimitsState is the rate-limit mode and what it has done.
func (s *Server) RateLimitsState() RateLimitsState {
	s.rates.mu.Lock()
	defer s.rates.mu.Unlock()
	st := RateLimitsState{Breaches: s.rates.breaches}
	if l := s.rates.limits; l != nil {
		st.Enabled = true
		st.WindowSeconds, st.ThrottleSeconds, st.Share = l.Window.Seconds(), l.Throttle.Seconds(), l.Share
	}
	now := s.now()
	for addr, until := range s.rates.until {
		if until.After(now) {
			if st.Throttled == nil {
				st.Throttled = map[string]string{}
			}
			st.Throttled[addr] = until.UTC().Format(time.RFC3339Nano)
		}
	}
	return st
}

// withRateLimits answers 429 to a request of the API or of the token
// endpoint that breaches its endpoint's limit, or comes from an address a
// breach throttles, when the mode is on.
func (s *Server) withRateLimits(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/oauth2/token" && !strings.HasPrefix(r.URL.Path, "/v2/") {
			next.ServeHTTP(w, r)
			return
		}
		if msg := s.rateLimited(r); msg != "" {
			noteFault(r, "rate-limit")
			if s.opts.ErrorBodyCodeMessage {
				w = codeMessageWriter{w}
			}
			writeError(w, &apiError{status: http.StatusTooManyRequests, body: ErrorBody{Code: "RESOURCE_EXHAUSTED", Message: msg}})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// rateLimited counts r and says why it is refused, or "" when it is not.
func (s *Server) rateLimited(r *http.Request) string {
	s.rates.mu.Lock()
	defer s.rates.mu.Unlock()
	l := s.rates.limits
	if l == nil {
		return ""
	}
	addr := r.RemoteAddr
	if host, _, err := net.SplitHostPort(addr); err == nil {
		addr = host
	}
	now := s.now()
	if until := s.rates.until[addr]; until.After(now) {
		return fmt.Sprintf("rate limit exceeded: this address is throttled until %s", until.UTC().Format(time.RFC3339))
	}
	pattern := r.URL.Path
	if rt, _, _, found := s.routeFor(r.Method, r.URL.Path); found && rt.handler != nil {
		pattern = rt.Path
	}
	endpoint := r.Method + " " + strings.TrimPrefix(pattern, "/v2")
	limit := ratePerSecond(r.Method, strings.TrimPrefix(pattern, "/v2")) * l.Share
	key := addr + " " + endpoint
	seen := s.rates.seen[key]
	from := now.Add(-l.Window)
	i := 0
	for i < len(seen) && !seen[i].After(from) {
		i++
	}
	seen = seen[i:]
	if float64(len(seen)+1) > limit*l.Window.Seconds() {
		s.rates.seen[key] = seen
		until := now.Add(l.Throttle)
		s.rates.until[addr] = until
		s.rates.breaches++
		return fmt.Sprintf("rate limit exceeded: %s allows %g requests/s from an address, averaged over %s; "+
			"every request from this address is throttled until %s", endpoint, limit, l.Window, until.UTC().Format(time.RFC3339))
	}
	s.rates.seen[key] = append(seen, now)
	return ""
}

// rateLimitsOf is the mode the body of PUT /admin/rate-limits asks for:
// nil when it is not enabled; zero figures are the published ones.
func rateLimitsOf(b RateLimitsState) (*RateLimits, *apiError) {
	if !b.Enabled {
		return nil, nil
	}
	switch {
	case b.WindowSeconds < 0 || math.IsNaN(b.WindowSeconds):
		return nil, errInvalid("window_seconds", "window_seconds must be a positive number of seconds (0: the published 300)")
	case b.ThrottleSeconds < 0 || math.IsNaN(b.ThrottleSeconds):
		return nil, errInvalid("throttle_seconds", "throttle_seconds must be a positive number of seconds (0: the published 300)")
	case b.Share < 0 || b.Share > 1 || math.IsNaN(b.Share):
		return nil, errInvalid("share", "share must be greater than 0 and at most 1 (0: the whole published rate)")
	}
	l := RateLimits{
		Window:   time.Duration(b.WindowSeconds * float64(time.Second)),
		Throttle: time.Duration(b.ThrottleSeconds * float64(time.Second)),
		Share:    b.Share,
	}.withDefaults()
	return &l, nil
}
