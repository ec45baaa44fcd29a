package client

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	testClientID = "client-id-1"
	testSecret   = "s3cr3t-Value-XYZ"
)

// apiRequest is one request received by the fake API.
type apiRequest struct {
	Method string
	Path   string
	Query  url.Values
	Token  string
	Scope  string // scope of the token used
	Body   []byte
}

// fakeService is a token endpoint and an API on one httptest server.
type fakeService struct {
	t   *testing.T
	srv *httptest.Server

	mu        sync.Mutex
	tokenReqs []url.Values
	issued    map[string]string // token -> scope
	api       []apiRequest

	// tokenHandler, when set, answers token requests instead of the
	// default issuer (after the request has been recorded).
	tokenHandler func(w http.ResponseWriter, r *http.Request, form url.Values) bool
	// tokenGate, when set, is waited on before a token is issued.
	tokenGate chan struct{}
	// handler answers API requests.
	handler func(w http.ResponseWriter, r *http.Request, n int, req apiRequest)
}

func newFake(t *testing.T) *fakeService {
	t.Helper()
	f := &fakeService{t: t, issued: map[string]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /auth/oauth2/token", f.serveToken)
	mux.HandleFunc("/v2/", f.serveAPI)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeService) serveToken(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	form := r.PostForm
	f.mu.Lock()
	f.tokenReqs = append(f.tokenReqs, form)
	n := len(f.tokenReqs)
	f.mu.Unlock()
	if f.tokenGate != nil {
		<-f.tokenGate
	}
	if f.tokenHandler != nil && f.tokenHandler(w, r, form) {
		return
	}
	if form.Get("grant_type") != "client_credentials" || form.Get("client_id") != testClientID || form.Get("client_secret") != testSecret {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, `{"error":"invalid_client","error_description":"bad client credentials"}`)
		return
	}
	tok := fmt.Sprintf("access-%d-%s", n, strings.ReplaceAll(form.Get("scope"), " ", "+"))
	f.mu.Lock()
	f.issued[tok] = form.Get("scope")
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"access_token":  tok,
		"refresh_token": fmt.Sprintf("refresh-%d-zzz", n),
		"token_type":    "bearer",
		"expires_in":    3600,
		"scope":         form.Get("scope"),
	})
}

func (f *fakeService) serveAPI(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	f.mu.Lock()
	scope, ok := f.issued[tok]
	req := apiRequest{
		Method: r.Method,
		Path:   strings.TrimPrefix(r.URL.EscapedPath(), "/v2"),
		Query:  r.URL.Query(),
		Token:  tok,
		Scope:  scope,
		Body:   body,
	}
	f.api = append(f.api, req)
	n := len(f.api)
	f.mu.Unlock()
	if !ok {
		writeJSON(w, http.StatusUnauthorized, `{"message":"unknown token"}`)
		return
	}
	if f.handler == nil {
		writeJSON(w, http.StatusNotFound, `{"message":"no handler"}`)
		return
	}
	f.handler(w, r, n, req)
}

func (f *fakeService) tokenRequests() []url.Values {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]url.Values(nil), f.tokenReqs...)
}

func (f *fakeService) apiRequests() []apiRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]apiRequest(nil), f.api...)
}

// revoke forgets every issued token, so the API answers 401 to them.
func (f *fakeService) revoke() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.issued = map[string]string{}
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// logEntry is one captured log entry.
type logEntry struct {
	Level  Level
	Msg    string
	Fields map[string]any
}

func (e logEntry) String() string {
	return fmt.Sprintf("%s %s %v", e.Level, e.Msg, e.Fields)
}

type captureLogger struct {
	mu      sync.Mutex
	entries []logEntry
}

func (l *captureLogger) Log(_ context.Context, level Level, msg string, fields map[string]any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries = append(l.entries, logEntry{level, msg, fields})
}

func (l *captureLogger) all() []logEntry {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]logEntry(nil), l.entries...)
}

func (l *captureLogger) withMsg(msg string) []logEntry {
	var out []logEntry
	for _, e := range l.all() {
		if e.Msg == msg {
			out = append(out, e)
		}
	}
	return out
}

// newTestClient returns a client of f with fast retries, a capturing
// logger and a fake clock (clockOf): the waits between attempts are those
// the backoff computes, recorded and not slept.
func newTestClient(t *testing.T, f *fakeService, mutate func(*Config)) (*Client, *captureLogger) {
	t.Helper()
	logs := &captureLogger{}
	cfg := Config{
		ClientID:       testClientID,
		ClientSecret:   testSecret,
		BaseURL:        f.srv.URL + "/v2",
		AuthURL:        f.srv.URL + "/auth",
		MaxRetries:     4,
		RetryWaitMin:   time.Millisecond,
		RetryWaitMax:   5 * time.Millisecond,
		RequestTimeout: 5 * time.Second,
		HTTPClient:     f.srv.Client(),
		Logger:         logs,
		RateStateDir:   t.TempDir(),
		pacingClock:    newPaceClock(),
	}
	if mutate != nil {
		mutate(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	c.clock = newFakeClock()
	return c, logs
}

// fakeClock stands still but for the waits between attempts, by which it
// moves at once; it records them.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	paused []time.Duration
}

// fakeEpoch is where a fake clock starts: a whole second, so that an HTTP
// date (whole seconds) a test derives from it loses nothing.
var fakeEpoch = time.Date(2030, time.January, 2, 3, 4, 5, 0, time.UTC)

func newFakeClock() *fakeClock { return &fakeClock{now: fakeEpoch} }

func (f *fakeClock) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fakeClock) pause(d time.Duration) time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
	f.paused = append(f.paused, d)
	return 0
}

// Sleep is a wait of the pacing: the clock moves by d at once, unless ctx
// is done.
func (f *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f.pause(d)
	return nil
}

// set moves the clock to now.
func (f *fakeClock) set(now time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = now
}

// waits returns the waits so far (between attempts, or of the pacing), in
// order.
func (f *fakeClock) waits() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.paused...)
}

// elapsed is how far the clock moved since it started.
func (f *fakeClock) elapsed() time.Duration { return f.Now().Sub(fakeEpoch) }

// clockOf returns the fake clock newTestClient gave c.
func clockOf(t *testing.T, c *Client) *fakeClock {
	t.Helper()
	clk, ok := c.clock.(*fakeClock)
	if !ok {
		t.Fatalf("the client runs on %T, not a fake clock", c.clock)
	}
	return clk
}

const transferJSON = `{"id":"t-1","customer_id":"c-1","profile_id":"p-1","amount":"1.5","total":"1.6","fee":"0.1",
"asset":"BTC","direction":"DEBIT","type":"CRYPTO_WITHDRAWAL","status":"PENDING",
"created_at":"2024-01-02T03:04:05Z","updated_at":"2024-01-02T03:04:05Z","ref_id":"r-1","auto_conversion":{}}`

const instructionsJSON = `{"id":"fdi-1","profile_id":"p-1","identity_id":"i-1","status":"VALID","memo_id":"M1",
"fiat_network_instructions":{"wire":{"account_number":"123","routing_details":{"routing_number_type":"ABA","routing_number":"021","bank_name":"Bank"}}},
"created_at":"2024-01-02T03:04:05Z"}`

const conversionJSON = `{"id":"conv-1","profile_id":"p-1","amount":"10","source_asset":"USD","target_asset":"USDC","status":"CREATED","created_at":"2024-01-02T03:04:05.123Z"}`

// waitFor polls cond until it holds or a deadline passes.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met before the deadline")
		}
		<-tick.C
	}
}
