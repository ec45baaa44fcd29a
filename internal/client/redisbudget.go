package client

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/logging"
	"github.com/redis/go-redis/v9/maintnotifications"
)

// The rate budget of a pool of hosts (Config.RateStore): every process of
// every host that names one Redis (or Valkey) server shares one budget
// through it. Each turn is one script run on the server (EVALSHA), which
// does what grant does, atomically: no two processes read the same state.
//
// Clock: the server's. The script reads the time with TIME and answers how
// long the request waits from then; the process waits that long from its
// own now. Hosts whose clocks disagree thus still share one time line (a
// host whose clock runs ahead cannot take turns that are not yet due), and
// only the wait crosses the network, never a time of the host's.
//
// Fallback: a store that cannot be reached or refuses (a wrong password, a
// server that cannot run scripts) is said once, and the process paces
// alone at its rate_budget divided by RateStoreFallbackDivisor, or by the
// number of processes that shared the store over the published window,
// whichever is larger; it tries the store again every rateStoreRetry.

// RateStoreFallbackDivisor divides the rate_budget of a process that
// cannot use its rate store: it then paces alone at a quarter of its
// budget (or less, see the comment above), so a pool of up to four
// processes that lose the store together stays within the budget.
const RateStoreFallbackDivisor = 4

// Timings of the rate store.
const (
	// rateStoreTimeout bounds one exchange with the store (and the dial
	// of a connection): a store slower than this is lost.
	rateStoreTimeout = 2 * time.Second
	// rateStoreRetry is how long a process paces alone before it tries a
	// lost store again.
	rateStoreRetry = 30 * time.Second
	// rateKeyPrefix is the namespace of the store's keys.
	rateKeyPrefix = "platform:rate:"
)

func init() {
	// The library logs to the standard error, which Terraform records:
	// nothing of it is needed, and a store's address is not for the logs.
	redis.SetLogger(&logging.VoidLogger{})
}

// reserveScript takes the turn of a request: grant (pacing.go) on the
// server's clock, in microseconds. It returns how long the request waits
// from the server's now and how many processes shared the pool over the
// window.
//
// KEYS: the endpoint's theoretical arrival time, the throttle, the pool.
// ARGV: interval, tolerance, the farthest a stored time may be ahead, the
// window (all in microseconds), and the process's name in the pool.
var reserveScript = redis.NewScript(`
if redis.replicate_commands then pcall(redis.replicate_commands) end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval, tolerance = tonumber(ARGV[1]), tonumber(ARGV[2])
local ahead, window = tonumber(ARGV[3]), tonumber(ARGV[4])
local arrival = now
local held = tonumber(redis.call('GET', KEYS[2]) or '0') or 0
if held > arrival and held <= now + ahead then arrival = held end
local tat = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
if tat > now + ahead then tat = 0 end
if tat < arrival then tat = arrival end
local at = tat - tolerance
if at < arrival then at = arrival end
local after = tat + interval
redis.call('SET', KEYS[1], string.format('%d', after), 'PX', math.floor((after - now) / 1000) + 1000)
redis.call('ZADD', KEYS[3], now, ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - window)
redis.call('PEXPIRE', KEYS[3], math.floor(window / 1000))
return {at - now, redis.call('ZCARD', KEYS[3])}
`)

// throttleScript holds every request after the throttle KEYS[1] for
// ARGV[1] microseconds from the server's now, unless it is held longer.
var throttleScript = redis.NewScript(`
if redis.replicate_commands then pcall(redis.replicate_commands) end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local d = tonumber(ARGV[1])
local held = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
if now + d > held then
  redis.call('SET', KEYS[1], string.format('%d', now + d), 'PX', math.floor(d / 1000) + 1000)
end
return 0
`)

// RateStoreError says why a process does not share its rate budget
// through its rate store, and how it paces instead. It never holds the
// store's password.
type RateStoreError struct {
	// Store is the store's URL, its password redacted.
	Store string
	// Divisor divides the process's rate_budget while it paces alone.
	Divisor int
	// Lost is set when the store answered before (lost mid-run).
	Lost bool
	// reason is what went wrong, the password scrubbed.
	reason string
}

func (e *RateStoreError) Error() string {
	return fmt.Sprintf("rate_store %s: %s", e.Store, e.reason)
}

// logMessage is what the pacer logs (at WARN) when it first paces alone.
func (e *RateStoreError) logMessage() string {
	what := "the rate store cannot be used"
	if e.Lost {
		what = "the rate store was lost"
	}
	return fmt.Sprintf("%s: this process paces alone at its rate_budget divided by %d until the store answers again",
		what, e.Divisor)
}

// CheckRateStore validates a rate store URL: redis:// or rediss:// with a
// host; a password only over rediss:// unless the host is loopback. Errors
// are *ConfigError values naming rate_store, and never hold the password.
func CheckRateStore(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		// The parser's reason quotes the URL's text, the password's too.
		return &ConfigError{Field: "rate_store", Msg: "is not a valid URL (a password holding any of / ? # @ : " +
			"[ ] must be percent-encoded)"}
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "redis" && scheme != "rediss" {
		return &ConfigError{Field: "rate_store", Msg: fmt.Sprintf("must be a redis:// or rediss:// URL, got %q", RedactStoreURL(raw))}
	}
	if u.Hostname() == "" {
		return &ConfigError{Field: "rate_store", Msg: fmt.Sprintf("must include a host, got %q", RedactStoreURL(raw))}
	}
	if _, has := u.User.Password(); has && scheme == "redis" && !isLoopbackHost(u.Hostname()) {
		return &ConfigError{Field: "rate_store", Msg: fmt.Sprintf("plain redis:// with a password is only allowed "+
			"for loopback hosts (localhost, 127.0.0.1, ::1): use rediss:// for %q", u.Hostname())}
	}
	if _, err := redis.ParseURL(raw); err != nil {
		return &ConfigError{Field: "rate_store", Msg: scrubStore(err.Error(), raw)}
	}
	return nil
}

// RedactStoreURL is raw, a rate store URL, as it may be printed: its
// password replaced by xxxxx, its query left out.
func RedactStoreURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(an unparsable URL)"
	}
	c := *u
	c.RawQuery, c.Fragment, c.RawFragment, c.ForceQuery = "", "", "", false
	return c.Redacted()
}

// storePassword is the password of the rate store URL raw, or "".
func storePassword(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return ""
	}
	p, _ := u.User.Password()
	return p
}

// scrubStore removes every spelling of the password of the store URL raw,
// and the URL itself, from text.
func scrubStore(text, raw string) string {
	text = strings.ReplaceAll(text, raw, RedactStoreURL(raw))
	return scrubSecret(text, storePassword(raw))
}

// redisStore is the state of the rate budget shared through a Redis
// server; once the server is lost the process paces alone (fallback, at
// a share of its budget) and tries the server again every retry.
type redisStore struct {
	raw      string
	rdb      *redis.Client
	member   string
	fallback *memStore
	timeout  time.Duration
	retry    time.Duration

	mu sync.Mutex
	// down is set while the store is not used; since is when it was lost
	// or last tried.
	down  *RateStoreError
	since time.Time
	// pool is the number of processes that shared the store over the
	// published window, when it last answered.
	pool int
}

// openRedisStore opens the store of raw (checked by CheckRateStore) and
// checks that it answers and runs the scripts.
func openRedisStore(raw string, fallback *memStore) (*redisStore, error) {
	opt, err := redis.ParseURL(raw)
	if err != nil {
		s := &redisStore{raw: raw, fallback: fallback, retry: rateStoreRetry}
		return s, s.lose(err, false)
	}
	opt.DialTimeout, opt.ReadTimeout, opt.WriteTimeout = rateStoreTimeout, rateStoreTimeout, rateStoreTimeout
	opt.PoolTimeout = rateStoreTimeout
	opt.MaxRetries = 1
	opt.PoolSize = 8
	opt.DisableIdentity = true
	opt.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
	s := &redisStore{raw: raw, rdb: redis.NewClient(opt), member: processName(), fallback: fallback,
		timeout: rateStoreTimeout, retry: rateStoreRetry}
	if err := s.probe(); err != nil {
		return s, s.lose(err, false)
	}
	return s, nil
}

// processName names the process in the pools it shares.
func processName() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// probe checks that the store answers and holds the scripts.
func (s *redisStore) probe() error {
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	if err := s.rdb.Ping(ctx).Err(); err != nil {
		return err
	}
	for _, sc := range []*redis.Script{reserveScript, throttleScript} {
		if err := sc.Load(ctx, s.rdb).Err(); err != nil {
			return err
		}
	}
	return nil
}

// redisStores are the rate stores of the process by URL, shared by its
// clients.
var redisStores = struct {
	sync.Mutex
	byURL map[string]*redisStore
}{byURL: map[string]*redisStore{}}

// poolStore is the process's store of the URL raw; the error says why it
// is not used (the process then paces alone at a share of its budget).
func poolStore(raw string) (*redisStore, error) {
	redisStores.Lock()
	defer redisStores.Unlock()
	if s := redisStores.byURL[raw]; s != nil {
		return s, s.downErr()
	}
	s, err := openRedisStore(raw, processRates)
	redisStores.byURL[raw] = s
	return s, err
}

// downErr is why the store is not used, or nil.
func (s *redisStore) downErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down == nil {
		return nil
	}
	return s.down
}

// lose marks the store lost for err; lost says it answered before.
func (s *redisStore) lose(err error, lost bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.down = &RateStoreError{Store: RedactStoreURL(s.raw), Divisor: s.divisorLocked(), Lost: lost,
		reason: scrubStore(err.Error(), s.raw)}
	s.since = time.Now()
	return s.down
}

func (s *redisStore) divisorLocked() int { return max(RateStoreFallbackDivisor, s.pool) }

// use reports whether to ask the store: it is up, or it was lost retry
// ago (this caller tries it, the others wait for another retry). Else it
// returns why not and the divisor of the fallback.
func (s *redisStore) use() (bool, *RateStoreError, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down == nil {
		return true, nil, 0
	}
	if s.rdb != nil && time.Since(s.since) >= s.retry {
		s.since = time.Now()
		return true, s.down, 0
	}
	return false, s.down, s.divisorLocked()
}

// answered records a reply of the store: it is up.
func (s *redisStore) answered(pool int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.down = nil
	if pool > 0 {
		s.pool = pool
	}
}

// storeKey is the store's name of the key of the rate budget.
func storeKey(kind, key string) string {
	sum := sha256.Sum256([]byte(key))
	return rateKeyPrefix + kind + hex.EncodeToString(sum[:12])
}

// micros is d in whole microseconds, rounded up.
func micros(d time.Duration) int64 { return int64((d + time.Microsecond - 1) / time.Microsecond) }

func (s *redisStore) reserve(key, throttleKey string, now time.Time, interval, tolerance time.Duration) (time.Time, error) {
	ok, down, divisor := s.use()
	if !ok {
		at, _ := s.fallback.reserve(key, throttleKey, now, interval*time.Duration(divisor), tolerance)
		return at, down
	}
	wait, pool, err := s.reserveShared(key, throttleKey, interval, tolerance)
	if err != nil {
		lost := s.lose(err, down == nil || down.Lost)
		_, _, divisor = s.use()
		at, _ := s.fallback.reserve(key, throttleKey, now, interval*time.Duration(divisor), tolerance)
		return at, lost
	}
	s.answered(pool)
	return now.Add(wait), nil
}

// reserveShared takes the turn in the store: how long it waits.
func (s *redisStore) reserveShared(key, throttleKey string, interval, tolerance time.Duration) (time.Duration, int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	keys := []string{storeKey("", key), storeKey("", throttleKey), storeKey("pool:", throttleKey)}
	res, err := reserveScript.Run(ctx, s.rdb, keys, micros(interval), micros(tolerance), micros(maxPaceAhead),
		micros(PublishedRates.Window), s.member).Int64Slice()
	if err != nil {
		return 0, 0, err
	}
	if len(res) != 2 {
		return 0, 0, fmt.Errorf("the reservation script answered %d values, not 2", len(res))
	}
	return time.Duration(res[0]) * time.Microsecond, int(res[1]), nil
}

func (s *redisStore) throttle(key string, until time.Time) error {
	_ = s.fallback.throttle(key, until)
	ok, down, _ := s.use()
	if !ok {
		return down
	}
	d := time.Until(until)
	if d <= 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	if err := throttleScript.Run(ctx, s.rdb, []string{storeKey("", key)}, micros(d)).Err(); err != nil {
		return s.lose(err, down == nil || down.Lost)
	}
	s.answered(0)
	return nil
}

// close closes the store's connections (tests).
func (s *redisStore) close() {
	if s.rdb != nil {
		_ = s.rdb.Close()
	}
}

// RateStoreError says why the client does not share its rate budget
// through its rate store (Config.RateStore), or is nil when it does or
// has none.
func (c *Client) RateStoreError() *RateStoreError {
	if c.pace == nil {
		return nil
	}
	var e *RateStoreError
	if errors.As(c.pace.storeErr, &e) {
		return e
	}
	return nil
}
