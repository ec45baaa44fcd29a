package emulator

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/platform/terraform-provider-platform/internal/contract"
)

// env is a started emulator plus a token with every scope.
type env struct {
	t     testing.TB
	s     *Server
	token string
}

// Unless opts sets SubscriptionInterval, subscriptions are not
// rate-limited.
func newEnv(t testing.TB, opts Options) *env {
	t.Helper()
	if opts.SubscriptionInterval == 0 {
		opts.SubscriptionInterval = -1
	}
	checkAnswers(t, &opts)
	s := StartTest(t, opts)
	e := &env{t: t, s: s}
	e.token = e.tokenFor("")
	return e
}

// tokenFor fetches a token for the space-separated scopes ("" for all).
func (e *env) tokenFor(scope string) string {
	e.t.Helper()
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {DefaultClientID}, "client_secret": {DefaultClientSecret}}
	if scope != "" {
		form.Set("scope", scope)
	}
	req, err := http.NewRequestWithContext(e.t.Context(), http.MethodPost, e.s.AuthURL()+"/oauth2/token", strings.NewReader(form.Encode()))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var tr struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&tr); err != nil || tr.AccessToken == "" {
		e.t.Fatalf("token: status %d, err %v", resp.StatusCode, err)
	}
	return tr.AccessToken
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
}

// errBody reads an error answer, a problem (the default) or an ErrorBody
// (Options.ErrorBodyCodeMessage), as an ErrorBody: the problem's type
// gives the code, its detail the message and meta.field the field.
func (r response) errBody(t testing.TB) ErrorBody {
	t.Helper()
	if !r.isProblem() {
		var b ErrorBody
		r.decode(t, &b)
		return b
	}
	var p Problem
	r.decode(t, &p)
	code, ok := strings.CutPrefix(p.Type, problemTypeBase)
	if !ok || p.Status != r.status || p.Title != http.StatusText(r.status) {
		t.Fatalf("problem %s does not match the answer %d", r.body, r.status)
	}
	field, _ := p.Meta["field"].(string)
	return ErrorBody{Code: strings.ToUpper(strings.ReplaceAll(code, "-", "_")), Message: p.Detail, Field: field}
}

// call sends a request with token (none when ""); body is sent as is when
// it is a string, else JSON-encoded.
func (e *env) call(method, path, token string, body any) response {
	e.t.Helper()
	var rd io.Reader
	if body != nil {
		if s, ok := body.(string); ok {
			rd = strings.NewReader(s)
		} else {
			b, err := json.Marshal(body)
			if err != nil {
				e.t.Fatal(err)
			}
			rd = bytes.NewReader(b)
		}
	}
	target := "http://" + e.s.Addr() + path
	req, err := http.NewRequestWithContext(e.t.Context(), method, target, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: b}
}

func (e *env) get(path string) response { return e.call(http.MethodGet, path, e.token, nil) }

func (e *env) post(path string, body any) response {
	return e.call(http.MethodPost, path, e.token, body)
}

func (e *env) wantStatus(r response, want int) {
	e.t.Helper()
	if r.status != want {
		b := r.body
		if len(b) > 500 {
			b = append(b[:500:500], "..."...)
		}
		e.t.Fatalf("status %d, want %d; body %s", r.status, want, b)
	}
}

// atomicTime is a settable clock.
type atomicTime struct {
	mu sync.Mutex
	t  time.Time
}

func (a *atomicTime) set(t time.Time) { a.mu.Lock(); a.t = t; a.mu.Unlock() }

func (a *atomicTime) get() time.Time { a.mu.Lock(); defer a.mu.Unlock(); return a.t }

// checkAnswers holds every answer of the emulator of opts to an operation
// of the published reference against the reference (internal/contract):
// the test fails on a violation. The requests are not checked: these tests
// send what the reference does not have on purpose. An emulator made to
// answer outside the reference (Options.FiatAccountStatusNested,
// Options.ErrorBodyCodeMessage, the seed profile) is not checked.
func checkAnswers(t testing.TB, opts *Options) {
	t.Helper()
	if opts.FiatAccountStatusNested || opts.ErrorBodyCodeMessage || opts.Profile == ProfileSeed {
		return
	}
	chk, err := contract.NewChecker(false, true)
	if err != nil {
		t.Fatal(err)
	}
	opts.Observe = func(ex Exchange) { chk.Observe(ex) }
	t.Cleanup(func() {
		for _, v := range chk.Violations() {
			t.Errorf("outside the published reference: %s", v)
		}
	})
}

// isProblem reports whether the answer is a problem: application/problem+json,
// or application/json where the reference publishes the problem so (a body
// with a type).
func (r response) isProblem() bool {
	switch r.header.Get("Content-Type") {
	case "application/problem+json":
		return true
	case "application/json":
		var p struct {
			Type *string `json:"type"`
		}
		return json.Unmarshal(r.body, &p) == nil && p.Type != nil
	}
	return false
}

// alreadyExists checks that r is the 409 problem answered for a ref_id
// taken before, and returns the problem and the object it names
// (meta.existing).
func alreadyExists[T any](t *testing.T, e *env, r response) (Problem, T) {
	t.Helper()
	e.wantStatus(r, http.StatusConflict)
	if ct := r.header.Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("Content-Type %q, want application/problem+json", ct)
	}
	var existing T
	p := problemOf(t, r, &existing)
	if p.Status != http.StatusConflict || p.Title != "Already Exists" || !strings.HasSuffix(p.Type, "/already-exists") {
		t.Errorf("problem %+v", p)
	}
	return p, existing
}
