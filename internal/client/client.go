// Package client is the typed HTTP client of the service: OAuth 2.0 client
// credentials with one cached token per scope, retries with backoff for
// replay-safe requests, error mapping, paging and a redacting logging
// transport.
package client

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-cleanhttp"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// Defaults applied by New to zero Config fields.
const (
	DefaultRequestTimeout = 30 * time.Second
	DefaultRetryWaitMin   = 1 * time.Second
	DefaultRetryWaitMax   = 30 * time.Second
	DefaultUserAgent      = "platform-go-client"
	// TokenPath is appended to Config.AuthURL to form the token endpoint.
	TokenPath = "/oauth2/token" //nolint:gosec // A URL path, not a credential.
)

// Level is the severity of a log entry.
type Level int

// Log levels, from the most to the least verbose.
const (
	LevelTrace Level = iota
	LevelDebug
	LevelInfo
	LevelWarn
	LevelError
)

// String returns the lower-case name of the level.
func (l Level) String() string {
	switch l {
	case LevelTrace:
		return "trace"
	case LevelDebug:
		return "debug"
	case LevelInfo:
		return "info"
	case LevelWarn:
		return "warn"
	case LevelError:
		return "error"
	default:
		return fmt.Sprintf("level(%d)", int(l))
	}
}

// Logger receives the client's log entries. Fields never hold secrets or
// tokens. A nil Logger keeps the client silent.
type Logger interface {
	Log(ctx context.Context, level Level, msg string, fields map[string]any)
}

// LoggerFunc adapts a function to the Logger interface.
type LoggerFunc func(ctx context.Context, level Level, msg string, fields map[string]any)

// Log calls f.
func (f LoggerFunc) Log(ctx context.Context, level Level, msg string, fields map[string]any) {
	f(ctx, level, msg, fields)
}

// Config configures a Client.
type Config struct {
	ClientID     string
	ClientSecret string
	// BaseURL is the root of the HTTP API, including the /v2 segment.
	BaseURL string
	// AuthURL is the root of the authorization server; the token endpoint
	// is AuthURL + "/oauth2/token".
	AuthURL string
	// Scopes, when non-empty, pins one token with exactly these scopes for
	// every operation. When empty, each operation asks for exactly the scope
	// the service names for it.
	Scopes []string
	// RequestTimeout bounds each attempt (token requests included).
	// Zero means DefaultRequestTimeout.
	RequestTimeout time.Duration
	// MaxRetries is the number of retries after the first attempt of a
	// replay-safe request. Zero disables retries; negative is an error.
	MaxRetries int
	// RetryWaitMin and RetryWaitMax bound the backoff between attempts.
	// Zero means DefaultRetryWaitMin and DefaultRetryWaitMax.
	RetryWaitMin, RetryWaitMax time.Duration
	// ListLimits bound one list read; zero fields take the defaults.
	ListLimits ListLimits
	// UserAgent is sent with every request. Empty means DefaultUserAgent.
	UserAgent string
	// HTTPClient optionally provides the base transport. Its Transport is
	// wrapped by the logging transport; its Timeout is replaced by
	// RequestTimeout. Nil means a pooled client from go-cleanhttp.
	HTTPClient *http.Client
	// Logger receives request, retry and token logs. Nil means silent.
	Logger Logger
	// RateBudget is the share, in (0, 1], of each published rate limit
	// (PublishedRates) the client paces its requests to, shared with the
	// other clients of the process and the processes of the host. Zero
	// means DefaultRateBudget.
	RateBudget float64
	// RateStateDir is the directory through which the processes of the
	// host share the budget; empty means DefaultRateStateDir(). When it is
	// unusable the process paces alone (see Client.RateStateError).
	RateStateDir string
	// RateStore, a redis:// or rediss:// URL, is the Redis (or Valkey)
	// server through which every process of every host naming it shares
	// the budget, instead of RateStateDir. When it cannot be used the
	// process paces alone at a share of its budget (see RateStoreError).
	RateStore string
	// Rates replaces PublishedRates; nil means PublishedRates.
	Rates *RateTable
	// pacingClock replaces the machine's clock of the pacing (tests).
	pacingClock pacingClock
}

// ConfigError reports an invalid Config field. Field is the snake_case name
// of the setting (client_id, client_secret, base_url, auth_url, ws_url,
// scopes, request_timeout, max_retries, retry_wait_min, retry_wait_max,
// rate_budget).
type ConfigError struct {
	Field string
	Msg   string
}

// Error implements error.
func (e *ConfigError) Error() string { return e.Field + ": " + e.Msg }

// maxIdleConnsPerHost is the idle connection pool size per host of the
// default transport.
const maxIdleConnsPerHost = 32

// Client calls the service's HTTP API. It is safe for concurrent use.
type Client struct {
	base      *url.URL
	tokenURL  string
	clientID  string
	secret    string
	pinned    []string
	userAgent string
	// pace paces every request to the rate budget (pacing.go).
	pace *pacer

	httpClient *http.Client
	retryMax   int
	listLimits ListLimits
	// scrubber removes every spelling of the client secret and of every
	// access token obtained.
	scrubber     *secrets
	retryWaitMin time.Duration
	retryWaitMax time.Duration
	log          Logger

	// clock is the time a Retry-After date is read against and the
	// waits between attempts pass on (realClock; tests give a fake one).
	clock clock

	mu     sync.Mutex
	tokens map[string]*tokenEntry
}

// New validates cfg and returns a Client. It makes no call to the service
// (with a RateStore, it checks once per process that the store answers).
func New(cfg Config) (*Client, error) {
	if strings.TrimSpace(cfg.ClientID) == "" {
		return nil, &ConfigError{Field: "client_id", Msg: "must not be empty"}
	}
	if cfg.ClientSecret == "" {
		return nil, &ConfigError{Field: "client_secret", Msg: "must not be empty"}
	}
	if err := CheckURL("base_url", cfg.BaseURL); err != nil {
		return nil, err
	}
	if err := CheckURL("auth_url", cfg.AuthURL); err != nil {
		return nil, err
	}
	base, _ := url.Parse(cfg.BaseURL) // Parsed successfully by CheckURL.
	base.Path = strings.TrimRight(base.Path, "/")
	base.RawPath = strings.TrimRight(base.RawPath, "/")
	base.RawQuery = ""

	var pinned []string
	for _, s := range cfg.Scopes {
		s = strings.TrimSpace(s)
		if s == "" || strings.ContainsAny(s, " \t\r\n") {
			return nil, &ConfigError{Field: "scopes", Msg: fmt.Sprintf("invalid scope %q: scopes must be non-empty and contain no spaces", s)}
		}
		pinned = append(pinned, s)
	}

	if cfg.RequestTimeout < 0 {
		return nil, &ConfigError{Field: "request_timeout", Msg: "must not be negative"}
	}
	if cfg.RequestTimeout == 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	if cfg.MaxRetries < 0 {
		return nil, &ConfigError{Field: "max_retries", Msg: "must not be negative"}
	}
	if cfg.RetryWaitMin < 0 {
		return nil, &ConfigError{Field: "retry_wait_min", Msg: "must not be negative"}
	}
	if cfg.RetryWaitMax < 0 {
		return nil, &ConfigError{Field: "retry_wait_max", Msg: "must not be negative"}
	}
	if cfg.RetryWaitMin == 0 {
		cfg.RetryWaitMin = DefaultRetryWaitMin
	}
	if cfg.RetryWaitMax == 0 {
		cfg.RetryWaitMax = max(DefaultRetryWaitMax, cfg.RetryWaitMin)
	}
	if cfg.RetryWaitMax < cfg.RetryWaitMin {
		return nil, &ConfigError{Field: "retry_wait_max", Msg: "must not be smaller than retry_wait_min"}
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = DefaultUserAgent
	}
	if err := checkRateBudget(cfg.RateBudget); err != nil {
		return nil, err
	}
	if cfg.RateStore != "" {
		if err := CheckRateStore(cfg.RateStore); err != nil {
			return nil, err
		}
	}

	var baseTransport http.RoundTripper
	if cfg.HTTPClient != nil && cfg.HTTPClient.Transport != nil {
		baseTransport = cfg.HTTPClient.Transport
	} else if cfg.HTTPClient == nil {
		t := cleanhttp.DefaultPooledTransport()
		// Terraform runs up to 10 operations at once by default; keep enough
		// idle connections per host that each reuses a connection instead of
		// opening a new one (the default is GOMAXPROCS+1).
		t.MaxIdleConnsPerHost = maxIdleConnsPerHost
		baseTransport = t
	} else {
		baseTransport = http.DefaultTransport
	}

	c := &Client{
		base:         base,
		tokenURL:     strings.TrimRight(cfg.AuthURL, "/") + TokenPath,
		clientID:     cfg.ClientID,
		secret:       cfg.ClientSecret,
		pinned:       pinned,
		userAgent:    cfg.UserAgent,
		retryMax:     cfg.MaxRetries,
		listLimits:   cfg.ListLimits.withDefaults(),
		retryWaitMin: cfg.RetryWaitMin,
		retryWaitMax: cfg.RetryWaitMax,
		tokens:       map[string]*tokenEntry{},
		scrubber: &secrets{static: newScrubber(append(secretSpellings(cfg.ClientSecret),
			basicAuthSpellings(cfg.ClientID, cfg.ClientSecret)...)...)},
	}
	c.scrubber.addValue(storePassword(cfg.RateStore))
	if cfg.Logger != nil {
		c.log = &scrubLogger{next: cfg.Logger, scrubber: c.scrubber}
	}
	c.clock = realClock{}
	c.httpClient = &http.Client{
		Transport:     &loggingTransport{base: baseTransport, log: c.log, userAgent: cfg.UserAgent, scrub: c.scrub},
		Timeout:       cfg.RequestTimeout,
		CheckRedirect: c.redirectError,
	}
	c.pace = newPacer(cfg, base, c.tokenURL, c.logf)
	return c, nil
}

// logf sends one entry to the configured Logger, if any.
func (c *Client) logf(ctx context.Context, level Level, msg string, fields map[string]any) {
	if c.log != nil {
		c.log.Log(ctx, level, msg, fields)
	}
}

// scrub removes every spelling of the client secret, of its Basic
// authorization with the client id, and of every access token obtained,
// from s.
func (c *Client) scrub(s string) string {
	return c.scrubber.scrub(s)
}

// scrubLogger removes the client secret from every string it forwards, as a
// last line of defence behind the redaction of the logging transport.
type scrubLogger struct {
	next     Logger
	scrubber *secrets
}

func (l *scrubLogger) Log(ctx context.Context, level Level, msg string, fields map[string]any) {
	out := make(map[string]any, len(fields))
	for k, v := range fields {
		out[k] = l.value(v)
	}
	l.next.Log(ctx, level, l.scrubber.scrub(msg), out)
}

// value scrubs one field, inside maps and slices too.
func (l *scrubLogger) value(v any) any {
	switch v := v.(type) {
	case string:
		return l.scrubber.scrub(v)
	case error:
		return l.scrubber.scrub(v.Error())
	case fmt.Stringer:
		return l.scrubber.scrub(v.String())
	case []string:
		out := make([]string, len(v))
		for i, s := range v {
			out[i] = l.scrubber.scrub(s)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = l.value(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = l.value(e)
		}
		return out
	default:
		return v
	}
}

// IsLoopbackURL reports whether raw parses as an absolute URL whose host is
// a loopback address (127.0.0.0/8, ::1) or the name localhost.
func IsLoopbackURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	return isLoopbackHost(u.Hostname())
}

func isLoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// CheckURL validates the URL raw given for the setting field. schemes lists
// the accepted schemes; when empty it is https and http. The plain-text
// schemes http and ws are accepted only for loopback hosts, so that
// credentials never travel unencrypted over a network. The URL must be
// absolute, have a host, and carry neither user information, a query string
// nor a fragment.
// Errors are *ConfigError values naming field.
func CheckURL(field, raw string, schemes ...string) error {
	if len(schemes) == 0 {
		schemes = []string{"https", "http"}
	}
	if strings.TrimSpace(raw) == "" {
		return &ConfigError{Field: field, Msg: "must not be empty"}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return &ConfigError{Field: field, Msg: fmt.Sprintf("is not a valid URL: %v", stripURLError(err))}
	}
	scheme := strings.ToLower(u.Scheme)
	ok := false
	for _, s := range schemes {
		if scheme == strings.ToLower(s) {
			ok = true
			break
		}
	}
	if !ok {
		return &ConfigError{Field: field, Msg: fmt.Sprintf("must be an absolute URL with scheme %s, got %q", strings.Join(schemes, " or "), redactURL(u))}
	}
	if u.Host == "" || u.Hostname() == "" {
		return &ConfigError{Field: field, Msg: fmt.Sprintf("must include a host, got %q", redactURL(u))}
	}
	if u.User != nil {
		return &ConfigError{Field: field, Msg: "must not contain user information (credentials belong in client_id and client_secret)"}
	}
	if u.Fragment != "" {
		return &ConfigError{Field: field, Msg: "must not contain a fragment"}
	}
	if u.RawQuery != "" || u.ForceQuery {
		// A query would be dropped from every request, or carry a key
		// that then reaches logs: refused rather than guessed at.
		return &ConfigError{Field: field, Msg: "must not contain a query string (\"?...\"); give the base URL only"}
	}
	if (scheme == "http" || scheme == "ws") && !isLoopbackHost(u.Hostname()) {
		secure := "https"
		if scheme == "ws" {
			secure = "wss"
		}
		return &ConfigError{Field: field, Msg: fmt.Sprintf("plain %s:// is only allowed for loopback hosts (localhost, 127.0.0.1, ::1); use %s:// for %q", scheme, secure, u.Hostname())}
	}
	return nil
}

// stripURLError drops the offending URL from a url.Parse error, which could
// hold credentials.
func stripURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

func redactURL(u *url.URL) string {
	if u.User == nil {
		return u.String()
	}
	c := *u
	c.User = nil
	return c.String()
}

// PinnedScopes are the scopes of Config.Scopes, or nil when each operation
// asks for its own.
func (c *Client) PinnedScopes() []string {
	return append([]string(nil), c.pinned...)
}

// Token returns a cached access token for scope; with Config.Scopes set it
// returns the token of the pinned scope set whatever scope is given. Tokens
// are renewed shortly before they expire.
func (c *Client) Token(ctx context.Context, scope string) (string, error) {
	tok, _, err := c.token(ctx, scope)
	if err != nil {
		return "", err
	}
	return tok.AccessToken, nil
}

// tokenEntry caches the token of one scope set. sem is a one-slot semaphore
// (cancellable, unlike a mutex) that makes concurrent callers wait for a
// single token request.
type tokenEntry struct {
	sem   chan struct{}
	cfg   *clientcredentials.Config
	scope string
	tok   *oauth2.Token
}

func (e *tokenEntry) lock(ctx context.Context) error {
	select {
	case e.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (e *tokenEntry) unlock() { <-e.sem }

// entry returns the cache entry of an operation's scope: the pinned scope
// set when Config.Scopes is set, otherwise exactly scope.
func (c *Client) entry(scope string) (*tokenEntry, error) {
	if len(c.pinned) > 0 {
		return c.entryFor(c.pinned), nil
	}
	if strings.TrimSpace(scope) == "" {
		return nil, errors.New("access token: no scope given")
	}
	return c.entryFor([]string{scope}), nil
}

// entryFor returns the cache entry of exactly the scope set scopes (keyed by
// the space-joined scope string), creating it on first use.
func (c *Client) entryFor(scopes []string) *tokenEntry {
	key := strings.Join(scopes, " ")
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.tokens[key]
	if e == nil {
		e = &tokenEntry{
			sem:   make(chan struct{}, 1),
			scope: key,
			cfg: &clientcredentials.Config{
				ClientID:     c.clientID,
				ClientSecret: c.secret,
				TokenURL:     c.tokenURL,
				Scopes:       append([]string(nil), scopes...),
				AuthStyle:    oauth2.AuthStyleInParams,
			},
		}
		c.tokens[key] = e
	}
	return e
}

// token returns a valid token for an operation's scope.
func (c *Client) token(ctx context.Context, scope string) (*oauth2.Token, *tokenEntry, error) {
	e, err := c.entry(scope)
	if err != nil {
		return nil, nil, err
	}
	tok, err := c.entryToken(ctx, e, 0)
	if err != nil {
		return nil, nil, err
	}
	return tok, e, nil
}

// entryToken returns the token cached in e when it stays valid for at least
// minValidity (and beyond the oauth2 package's own expiry margin), and
// otherwise requests a new one. Concurrent callers wait for a single token
// request. The request runs with the caller's context (cancellation and
// logging) through the logging transport.
func (c *Client) entryToken(ctx context.Context, e *tokenEntry, minValidity time.Duration) (*oauth2.Token, error) {
	if err := e.lock(ctx); err != nil {
		return nil, fmt.Errorf("waiting for an access token for scope %q: %w", e.scope, err)
	}
	defer e.unlock()
	if e.tok.Valid() && (minValidity <= 0 || e.tok.Expiry.IsZero() || time.Until(e.tok.Expiry) >= minValidity) {
		return e.tok, nil
	}
	c.logf(ctx, LevelDebug, "requesting access token", map[string]any{"scope": e.scope, "token_url": c.tokenURL})
	if err := c.pace.wait(ctx, http.MethodPost, TokenPath, true); err != nil {
		return nil, fmt.Errorf("access token for scope %q: %w", e.scope, err)
	}
	start := time.Now()
	tok, err := e.cfg.Token(context.WithValue(ctx, oauth2.HTTPClient, c.httpClient))
	if err != nil {
		err = c.tokenError(e.scope, err)
		c.logf(ctx, LevelWarn, "access token request failed", map[string]any{"scope": e.scope, "error": err.Error()})
		return nil, err
	}
	fields := map[string]any{"scope": e.scope, "duration_ms": time.Since(start).Milliseconds()}
	if !tok.Expiry.IsZero() {
		fields["expires_at"] = tok.Expiry.UTC().Format(time.RFC3339)
	}
	c.scrubber.addToken(tok.AccessToken)
	c.logf(ctx, LevelDebug, "access token obtained", fields)
	e.tok = tok
	return tok, nil
}

// invalidate drops the cached token of e if it is still the one given, so
// that the next call requests a fresh one.
func (c *Client) invalidate(ctx context.Context, e *tokenEntry, used string) {
	if err := e.lock(ctx); err != nil {
		return
	}
	defer e.unlock()
	if e.tok != nil && e.tok.AccessToken == used {
		e.tok = nil
	}
}

// tokenError turns an error of the token request into one without secrets.
// An error answer of the authorization server becomes an *APIError, so that
// errors.Is(err, ErrUnauthorized) holds for rejected credentials.
func (c *Client) tokenError(scope string, err error) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) && re.Response != nil {
		ae := newAPIError(http.MethodPost, c.tokenURL, re.Response.StatusCode, re.Response.Header, re.Body)
		// The OAuth error code and description only, never the body as
		// the server sent it (it may echo the request).
		// Scrubbed first, then cleaned and capped: a secret never straddles
		// the cut, and no control character reaches a terminal.
		ae.Code = cleanText(c.scrub(re.ErrorCode), maxCodeLen)
		ae.Message = cleanText(c.scrub(re.ErrorDescription), maxMessageLen)
		ae.Scope = scope
		// No object is asked of the token endpoint: a 404 there is always
		// an address that issues no tokens (see APIError.ObjectNotFound).
		ae.token = true
		return fmt.Errorf("obtaining an access token for scope %q: %w", scope, ae)
	}
	var redirect *RedirectError
	if errors.As(err, &redirect) {
		return fmt.Errorf("obtaining an access token for scope %q: %w", scope, redirect)
	}
	return &scrubbedError{
		msg: fmt.Sprintf("obtaining an access token for scope %q from %s: %s", scope, c.tokenURL, c.scrub(err.Error())),
		err: err,
	}
}

// scrubbedError carries a message cleaned of secrets while keeping the
// original error reachable for errors.Is and errors.As.
type scrubbedError struct {
	msg string
	err error
}

func (e *scrubbedError) Error() string { return e.msg }
func (e *scrubbedError) Unwrap() error { return e.err }

// minSensitiveLength is the shortest value AddSensitive registers: a
// shorter one would be scrubbed from ordinary text by chance.
const minSensitiveLength = 6

// AddSensitive registers values (bank account numbers, for example) to be
// scrubbed, in every spelling, from the client's log lines and errors from
// then on, as the secret and the tokens are. Values shorter than six
// characters are not registered.
func (c *Client) AddSensitive(values ...string) {
	for _, v := range values {
		if len(v) >= minSensitiveLength {
			c.scrubber.addValue(v)
		}
	}
}
