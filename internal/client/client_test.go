package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// okHandler answers every operation of the spec with a valid body.
// always is a handler answering every request with status and body,
// under the header's names and values, in pairs.
func always(status int, body string, header ...string) func(w http.ResponseWriter, r *http.Request, n int, req apiRequest) {
	return func(w http.ResponseWriter, _ *http.Request, _ int, _ apiRequest) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		writeJSON(w, status, body)
	}
}

// okAfter is a handler answering the nth request with first[n-1] while
// there is one, and every later one as okHandler does.
func okAfter(first ...func(w http.ResponseWriter, r *http.Request)) func(w http.ResponseWriter, r *http.Request, n int, req apiRequest) {
	return func(w http.ResponseWriter, r *http.Request, n int, req apiRequest) {
		if n <= len(first) {
			first[n-1](w, r)
			return
		}
		okHandler(w, r, n, req)
	}
}

func okHandler(w http.ResponseWriter, r *http.Request, _ int, req apiRequest) {
	switch {
	case req.Method == http.MethodPost && req.Path == PathCryptoWithdrawals:
		writeJSON(w, http.StatusCreated, transferJSON)
	case req.Method == http.MethodPost && req.Path == PathFiatDepositInstructions:
		writeJSON(w, http.StatusOK, instructionsJSON)
	case strings.HasPrefix(req.Path, PathFiatDepositInstructions+"/"):
		writeJSON(w, http.StatusOK, instructionsJSON)
	case strings.HasPrefix(req.Path, PathStablecoinConversions+"/"):
		writeJSON(w, http.StatusOK, conversionJSON)
	case req.Path == PathFiatAccounts, req.Path == PathDepositAddresses, req.Path == PathRewardClaims:
		writeJSON(w, http.StatusOK, `{"items":[{"id":"x-1"}],"next_page_cursor":""}`)
	default:
		writeJSON(w, http.StatusNotFound, `{"message":"no such path"}`)
	}
}

// operations runs every operation once.
var operations = []struct {
	name   string
	method string
	path   string
	scope  string
	run    func(ctx context.Context, c *Client) error
}{
	{"CreateCryptoWithdrawal", "POST", PathCryptoWithdrawals, ScopeWriteCryptoWithdrawal, func(ctx context.Context, c *Client) error {
		_, err := c.CreateCryptoWithdrawal(ctx, CryptoWithdrawalRequest{ProfileID: "p", DestinationAddress: "a", Asset: "BTC", CryptoNetwork: "BITCOIN", Amount: "1", RefID: "r"})
		return err
	}},
	{"CreateFiatDepositInstructions", "POST", PathFiatDepositInstructions, ScopeWriteFiatDepositInstr, func(ctx context.Context, c *Client) error {
		_, err := c.CreateFiatDepositInstructions(ctx, FiatDepositInstructionsRequest{ProfileID: "p", FiatNetwork: "WIRE", RefID: "r"})
		return err
	}},
	{"GetFiatDepositInstructions", "GET", PathFiatDepositInstructions + "/fdi-1", ScopeReadFiatDepositInstr, func(ctx context.Context, c *Client) error {
		_, err := c.GetFiatDepositInstructions(ctx, "fdi-1")
		return err
	}},
	{"FiatAccounts", "GET", PathFiatAccounts, ScopeReadFiatAccount, func(ctx context.Context, c *Client) error {
		return drain(c.FiatAccounts(ctx, ListFiatAccountsQuery{}))
	}},
	{"DepositAddresses", "GET", PathDepositAddresses, ScopeReadDepositAddress, func(ctx context.Context, c *Client) error {
		return drain(c.DepositAddresses(ctx, ListDepositAddressesQuery{}))
	}},
	{"RewardClaims", "GET", PathRewardClaims, ScopeReadRewardClaims, func(ctx context.Context, c *Client) error {
		return drain(c.RewardClaims(ctx, ListRewardClaimsQuery{}))
	}},
	{"GetStablecoinConversion", "GET", PathStablecoinConversions + "/conv-1", ScopeReadStablecoinConversion, func(ctx context.Context, c *Client) error {
		_, err := c.GetStablecoinConversion(ctx, "conv-1")
		return err
	}},
}

func drain[T any](seq func(yield func(*T, error) bool)) error {
	for _, err := range seq {
		if err != nil {
			return err
		}
	}
	return nil
}

func TestOperationUsesExactlyItsScope(t *testing.T) {
	for _, op := range operations {
		t.Run(op.name, func(t *testing.T) {
			f := newFake(t)
			f.handler = okHandler
			c, _ := newTestClient(t, f, nil)
			if err := op.run(t.Context(), c); err != nil {
				t.Fatalf("%s: %v", op.name, err)
			}
			toks := f.tokenRequests()
			if len(toks) != 1 {
				t.Fatalf("token requests = %d, want 1", len(toks))
			}
			form := toks[0]
			if got := form.Get("scope"); got != op.scope {
				t.Errorf("scope = %q, want %q", got, op.scope)
			}
			if form.Get("grant_type") != "client_credentials" || form.Get("client_id") != testClientID || form.Get("client_secret") != testSecret {
				t.Errorf("token form = %v, want client credentials in the form", form)
			}
			api := f.apiRequests()
			if len(api) != 1 {
				t.Fatalf("API requests = %d, want 1", len(api))
			}
			if api[0].Method != op.method || api[0].Path != op.path || api[0].Scope != op.scope {
				t.Errorf("API request = %s %s with scope %q, want %s %s with %q", api[0].Method, api[0].Path, api[0].Scope, op.method, op.path, op.scope)
			}
		})
	}
}

func TestTokenReusedPerScope(t *testing.T) {
	f := newFake(t)
	f.handler = okHandler
	c, _ := newTestClient(t, f, nil)
	ctx := t.Context()
	for range 3 {
		if _, err := c.GetStablecoinConversion(ctx, "conv-1"); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(f.tokenRequests()); n != 1 {
		t.Fatalf("3 calls of one scope made %d token requests, want 1", n)
	}
	if _, err := c.GetFiatDepositInstructions(ctx, "fdi-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetStablecoinConversion(ctx, "conv-1"); err != nil {
		t.Fatal(err)
	}
	if n := len(f.tokenRequests()); n != 2 {
		t.Fatalf("two scopes made %d token requests, want 2", n)
	}
	api := f.apiRequests()
	if api[0].Token != api[2].Token || api[0].Token != api[4].Token || api[3].Token == api[0].Token {
		t.Errorf("tokens used = %q %q %q %q %q; want the first reused per scope", api[0].Token, api[1].Token, api[2].Token, api[3].Token, api[4].Token)
	}
}

func TestConcurrentFirstCallsRequestOneToken(t *testing.T) {
	f := newFake(t)
	f.tokenGate = make(chan struct{})
	c, _ := newTestClient(t, f, nil)

	const n = 20
	var wg sync.WaitGroup
	tokens := make([]string, n)
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tokens[i], errs[i] = c.Token(t.Context(), ScopeReadFiatAccount)
		}()
	}
	waitFor(t, func() bool { return len(f.tokenRequests()) >= 1 })
	close(f.tokenGate)
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("call %d: %v", i, errs[i])
		}
		if tokens[i] != tokens[0] || tokens[i] == "" {
			t.Fatalf("call %d got token %q, call 0 got %q", i, tokens[i], tokens[0])
		}
	}
	if got := len(f.tokenRequests()); got != 1 {
		t.Fatalf("%d concurrent first calls made %d token requests, want 1", n, got)
	}
}

func TestPinnedScopes(t *testing.T) {
	f := newFake(t)
	f.handler = okHandler
	pinned := []string{ScopeReadFiatAccount, ScopeReadStablecoinConversion, ScopeMarketDataStream}
	c, _ := newTestClient(t, f, func(cfg *Config) { cfg.Scopes = pinned })
	ctx := t.Context()
	if _, err := c.GetStablecoinConversion(ctx, "conv-1"); err != nil {
		t.Fatal(err)
	}
	if err := drain(c.FiatAccounts(ctx, ListFiatAccountsQuery{})); err != nil {
		t.Fatal(err)
	}
	tok, err := c.Token(ctx, ScopeMarketDataStream)
	if err != nil {
		t.Fatal(err)
	}
	toks := f.tokenRequests()
	if len(toks) != 1 {
		t.Fatalf("token requests = %d, want 1 for the pinned scope set", len(toks))
	}
	if got, want := toks[0].Get("scope"), strings.Join(pinned, " "); got != want {
		t.Errorf("scope = %q, want %q", got, want)
	}
	api := f.apiRequests()
	if api[0].Token != tok || api[1].Token != tok {
		t.Errorf("tokens = %q, %q, want both %q", api[0].Token, api[1].Token, tok)
	}
}

func TestUnauthorizedRenewsTokenAndRetriesOnce(t *testing.T) {
	f := newFake(t)
	f.handler = okHandler
	c, logs := newTestClient(t, f, nil)
	ctx := t.Context()
	if _, err := c.GetStablecoinConversion(ctx, "conv-1"); err != nil {
		t.Fatal(err)
	}
	f.revoke() // The cached token is now rejected with 401.
	if _, err := c.GetStablecoinConversion(ctx, "conv-1"); err != nil {
		t.Fatalf("after revocation: %v", err)
	}
	if n := len(f.tokenRequests()); n != 2 {
		t.Errorf("token requests = %d, want 2 (one renewal)", n)
	}
	api := f.apiRequests()
	if len(api) != 3 {
		t.Fatalf("API requests = %d, want 3", len(api))
	}
	if api[1].Token != api[0].Token || api[2].Token == api[1].Token {
		t.Errorf("tokens = %q %q %q, want the renewed token on the repeat", api[0].Token, api[1].Token, api[2].Token)
	}
	if len(logs.withMsg("access token rejected, renewing it and repeating the request once")) != 1 {
		t.Errorf("renewal not logged: %v", logs.all())
	}
}

func TestUnauthorizedTwiceIsAnError(t *testing.T) {
	f := newFake(t)
	f.handler = always(http.StatusUnauthorized, `{"message":"token expired"}`)
	c, _ := newTestClient(t, f, nil)
	_, err := c.CreateCryptoWithdrawal(t.Context(), CryptoWithdrawalRequest{ProfileID: "p"})
	if !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("err = %v, want ErrUnauthorized", err)
	}
	if got := len(f.apiRequests()); got != 2 {
		t.Errorf("API requests = %d, want 2 (one repeat after renewal)", got)
	}
	if got := len(f.tokenRequests()); got != 2 {
		t.Errorf("token requests = %d, want 2", got)
	}
	if !strings.Contains(err.Error(), "POST /transfer/crypto-withdrawals: 401 Unauthorized: token expired") {
		t.Errorf("err = %q", err)
	}
}

func TestTokenEndpointRejection(t *testing.T) {
	f := newFake(t)
	f.tokenHandler = func(w http.ResponseWriter, _ *http.Request, form url.Values) bool {
		// A careless server echoes the secret it was sent.
		writeJSON(w, http.StatusUnauthorized, `{"error":"invalid_client","error_description":"secret `+form.Get("client_secret")+` is wrong"}`)
		return true
	}
	c, logs := newTestClient(t, f, nil)
	_, err := c.GetStablecoinConversion(t.Context(), "conv-1")
	if !errors.Is(err, ErrUnauthorized) {
		t.Fatalf("err = %v, want ErrUnauthorized", err)
	}
	var ae *APIError
	if !errors.As(err, &ae) || ae.Code != "invalid_client" || ae.Status != http.StatusUnauthorized {
		t.Fatalf("err = %#v, want an APIError with code invalid_client", err)
	}
	if strings.Contains(err.Error(), testSecret) {
		t.Errorf("error holds the secret: %q", err)
	}
	if !strings.Contains(err.Error(), ScopeReadStablecoinConversion) || !strings.Contains(err.Error(), "/oauth2/token") {
		t.Errorf("error %q should name the scope and the token endpoint", err)
	}
	for _, e := range logs.all() {
		if strings.Contains(e.String(), testSecret) {
			t.Errorf("log line holds the secret: %s", e)
		}
	}
	if len(f.apiRequests()) != 0 {
		t.Errorf("API called without a token")
	}
}

func TestTokenRequestIsLoggedAndTimed(t *testing.T) {
	f := newFake(t)
	c, logs := newTestClient(t, f, nil)
	if _, err := c.Token(t.Context(), ScopeReadRewardClaims); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range logs.withMsg("HTTP response") {
		if e.Fields["url"] == "/auth/oauth2/token" && e.Fields["status"] == http.StatusOK {
			found = true
		}
	}
	if !found {
		t.Errorf("token request not logged by the transport: %v", logs.all())
	}
}

func TestTokenHonoursCancelledContext(t *testing.T) {
	f := newFake(t)
	f.tokenGate = make(chan struct{})
	t.Cleanup(func() { close(f.tokenGate) })
	c, _ := newTestClient(t, f, nil)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := c.Token(ctx, ScopeReadRewardClaims)
		done <- err
	}()
	waitFor(t, func() bool { return len(f.tokenRequests()) == 1 })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestUserAgentAndHeaders(t *testing.T) {
	f := newFake(t)
	var got http.Header
	f.handler = func(w http.ResponseWriter, r *http.Request, n int, req apiRequest) {
		got = r.Header.Clone()
		okHandler(w, r, n, req)
	}
	c, _ := newTestClient(t, f, func(cfg *Config) { cfg.UserAgent = "test-agent/1.0" })
	if _, err := c.CreateCryptoWithdrawal(t.Context(), CryptoWithdrawalRequest{RefID: "r"}); err != nil {
		t.Fatal(err)
	}
	if got.Get("User-Agent") != "test-agent/1.0" || got.Get("Content-Type") != "application/json" || !strings.HasPrefix(got.Get("Authorization"), "Bearer access-") {
		t.Errorf("headers = %v", got)
	}
}

func TestNoRequestForNonLoopbackHTTP(t *testing.T) {
	called := false
	rt := roundTripFunc(func(*http.Request) (*http.Response, error) {
		called = true
		return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader("{}"))}, nil
	})
	for _, tc := range []struct{ field, base, auth string }{
		{"base_url", "http://api.example.com/v2", "https://auth.example.com"},
		{"auth_url", "https://api.example.com/v2", "http://10.0.0.1:8080"},
	} {
		_, err := New(Config{ClientID: "id", ClientSecret: "secret", BaseURL: tc.base, AuthURL: tc.auth, HTTPClient: &http.Client{Transport: rt}})
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != tc.field {
			t.Errorf("New(%s, %s) = %v, want a ConfigError for %s", tc.base, tc.auth, err, tc.field)
			continue
		}
		if !strings.HasPrefix(err.Error(), tc.field+": ") {
			t.Errorf("error %q does not name %s first", err, tc.field)
		}
	}
	if called {
		t.Error("New made a request")
	}
}

func TestNewValidatesConfig(t *testing.T) {
	good := Config{ClientID: "id", ClientSecret: "secret", BaseURL: "https://api.example.com/v2", AuthURL: "https://auth.example.com"}
	tests := []struct {
		name   string
		mutate func(*Config)
		field  string
	}{
		{"ok", func(*Config) {}, ""},
		{"loopback http", func(c *Config) { c.BaseURL = "http://127.0.0.1:1234/v2"; c.AuthURL = "http://localhost:1" }, ""},
		{"ipv6 loopback", func(c *Config) { c.BaseURL = "http://[::1]:1234/v2" }, ""},
		{"no client id", func(c *Config) { c.ClientID = " " }, "client_id"},
		{"no secret", func(c *Config) { c.ClientSecret = "" }, "client_secret"},
		{"no base", func(c *Config) { c.BaseURL = "" }, "base_url"},
		{"relative base", func(c *Config) { c.BaseURL = "/v2" }, "base_url"},
		{"ftp auth", func(c *Config) { c.AuthURL = "ftp://auth.example.com" }, "auth_url"},
		{"user info", func(c *Config) { c.BaseURL = "https://u:p@api.example.com/v2" }, "base_url"},
		{"bad scope", func(c *Config) { c.Scopes = []string{"a b"} }, "scopes"},
		{"negative retries", func(c *Config) { c.MaxRetries = -1 }, "max_retries"},
		{"negative timeout", func(c *Config) { c.RequestTimeout = -1 }, "request_timeout"},
		{"max below min", func(c *Config) { c.RetryWaitMin = 2e9; c.RetryWaitMax = 1e9 }, "retry_wait_max"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := good
			tc.mutate(&cfg)
			_, err := New(cfg)
			if tc.field == "" {
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				return
			}
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Field != tc.field {
				t.Fatalf("New = %v, want ConfigError for %s", err, tc.field)
			}
			if strings.Contains(err.Error(), "u:p") {
				t.Errorf("error leaks user info: %q", err)
			}
		})
	}
}

func TestCheckURL(t *testing.T) {
	tests := []struct {
		raw     string
		schemes []string
		ok      bool
	}{
		{"https://api.example.com/v2", nil, true},
		{"http://localhost:8080/v2", nil, true},
		{"http://LOCALHOST./v2", nil, true},
		{"http://127.0.0.2/v2", nil, true},
		{"http://[::1]:80", nil, true},
		{"http://api.example.com", nil, false},
		{"http://127.0.0.1.example.com", nil, false},
		{"http://[::2]:80", nil, false},
		{"wss://stream.example.com", []string{"wss", "ws"}, true},
		{"ws://127.0.0.1:9000/ws", []string{"wss", "ws"}, true},
		{"ws://stream.example.com", []string{"wss", "ws"}, false},
		{"https://stream.example.com", []string{"wss", "ws"}, false},
		{"https://api.example.com/#frag", nil, false},
		{"https://api.example.com/v2?api_key=s3cret", nil, false},
		{"https://api.example.com/v2?", nil, false},
		{"https://", nil, false},
		{"::not a url", nil, false},
	}
	for _, tc := range tests {
		err := CheckURL("ws_url", tc.raw, tc.schemes...)
		if (err == nil) != tc.ok {
			t.Errorf("CheckURL(%q, %v) = %v, want ok=%v", tc.raw, tc.schemes, err, tc.ok)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "ws_url: ") {
			t.Errorf("CheckURL(%q) error %q does not name the field", tc.raw, err)
		}
	}
	if !IsLoopbackURL("http://127.0.0.1:1/x") || IsLoopbackURL("https://example.com") || IsLoopbackURL("::") {
		t.Error("IsLoopbackURL misclassifies")
	}
}

func TestGetRejectsUnusableID(t *testing.T) {
	f := newFake(t)
	c, _ := newTestClient(t, f, nil)
	for _, id := range []string{"", ".", ".."} {
		if _, err := c.GetStablecoinConversion(t.Context(), id); err == nil {
			t.Errorf("id %q accepted", id)
		}
	}
	if len(f.apiRequests()) != 0 || len(f.tokenRequests()) != 0 {
		t.Error("a request was made for an unusable id")
	}
}

func TestIDIsPathEscaped(t *testing.T) {
	f := newFake(t)
	f.handler = okHandler
	c, _ := newTestClient(t, f, nil)
	if _, err := c.GetStablecoinConversion(t.Context(), "a/b c"); err != nil {
		t.Fatal(err)
	}
	if got := f.apiRequests()[0].Path; got != PathStablecoinConversions+"/a%2Fb%20c" {
		t.Errorf("path = %q", got)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestNilLoggerIsSilentAndWorks(t *testing.T) {
	f := newFake(t)
	f.handler = okAfter(func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, http.StatusServiceUnavailable, `{}`) })
	c, _ := newTestClient(t, f, func(cfg *Config) { cfg.Logger = nil })
	if _, err := c.GetStablecoinConversion(t.Context(), "conv-1"); err != nil {
		t.Fatal(err)
	}
	if c.log != nil || len(f.apiRequests()) != 2 {
		t.Errorf("logger %v, %d attempts", c.log, len(f.apiRequests()))
	}
}

func TestLevelString(t *testing.T) {
	got := []string{LevelTrace.String(), LevelDebug.String(), LevelInfo.String(), LevelWarn.String(), LevelError.String(), Level(9).String()}
	if strings.Join(got, ",") != "trace,debug,info,warn,error,level(9)" {
		t.Errorf("levels = %v", got)
	}
}
