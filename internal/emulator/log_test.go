package emulator

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// syncBuffer is a log destination safe for concurrent writes.
type syncBuffer struct{ LogBuffer }

func (s *syncBuffer) lines(path string) []string {
	var out []string
	for l := range strings.SplitSeq(s.String(), "\n") {
		if strings.Contains(l, "path="+path+" ") {
			out = append(out, l)
		}
	}
	return out
}

func wantLine(t *testing.T, log *syncBuffer, path string, parts ...string) {
	t.Helper()
	for _, l := range log.lines(path) {
		all := true
		for _, p := range parts {
			if !strings.Contains(l, p) {
				all = false
			}
		}
		if all {
			return
		}
	}
	t.Errorf("no log line for %s with %q; log:\n%s", path, parts, log.String())
}

// One line per request, with method, path, status, ref_id and the fault
// applied.
func TestRequestLog_linePerRequest(t *testing.T) {
	log := &syncBuffer{}
	e := newEnv(t, Options{LogLevel: LogInfo, Log: log})
	e.wantStatus(e.get(fiatAccountsPath), http.StatusOK)
	wantLine(t, log, "/v2/transfer/fiat-accounts", "level=INFO", "msg=request", "method=GET", "status=200")

	e.s.Faults.AcceptThenFail(1)
	body := validWithdrawal()
	body["ref_id"] = "log-ref-1"
	e.wantStatus(e.post(withdrawalsPath, body), http.StatusInternalServerError)
	wantLine(t, log, withdrawalsPath, "level=ERROR", "method=POST", "status=500", "ref_id=log-ref-1", "fault=accept-then-fail")
	e.wantStatus(e.post(withdrawalsPath, body), http.StatusConflict)
	wantLine(t, log, withdrawalsPath, "level=INFO", "status=409", "ref_id=log-ref-1")

	e.s.Faults.TooManyRequests(1, -1)
	e.wantStatus(e.get(claimsPath), http.StatusTooManyRequests)
	wantLine(t, log, "/v2/rewards/claims", "status=429", "fault=429")
	e.s.Faults.ServerErrors(1, 502)
	e.wantStatus(e.get(claimsPath), http.StatusBadGateway)
	wantLine(t, log, "/v2/rewards/claims", "level=ERROR", "status=502", "fault=502")

	e.wantStatus(e.call(http.MethodGet, "/admin/counters", "", nil), http.StatusOK)
	wantLine(t, log, "/admin/counters", "status=200")
	wantLine(t, log, "/oauth2/token", "method=POST", "status=200")
	// The query is not logged at info.
	e.wantStatus(e.get(fiatAccountsPath+"?limit=7"), http.StatusOK)
	if strings.Contains(log.String(), "limit=7") {
		t.Errorf("query logged at info:\n%s", log)
	}
}

// No secret and no token in the log, at any level: a token request with
// client_secret in its body (and in its query), an API request with a
// bearer token, an unknown bearer token.
func TestRequestLog_noSecrets(t *testing.T) {
	log := &syncBuffer{}
	e := newEnv(t, Options{LogLevel: LogDebug, Log: log})
	e.wantStatus(e.get(fiatAccountsPath+"?limit=3&access_token=query-token-QT1"), http.StatusBadRequest)
	e.wantStatus(e.call(http.MethodGet, fiatAccountsPath, "unknown-bearer-UB1", nil), http.StatusUnauthorized)
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {DefaultClientID}, "client_secret": {DefaultClientSecret}}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost,
		e.s.AuthURL()+"/oauth2/token?client_secret=query-secret-QS1", strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	e.wantStatus(e.post(withdrawalsPath, validWithdrawal()), http.StatusOK)

	out := log.String()
	wantLine(t, log, "/oauth2/token", "status=200", `query="client_secret=REDACTED"`, "request_id=req-")
	wantLine(t, log, "/v2/transfer/fiat-accounts", "status=401")
	wantLine(t, log, "/v2/transfer/fiat-accounts", "access_token=REDACTED", "limit=3")
	secrets := append([]string{DefaultClientSecret, "query-secret-QS1", "unknown-bearer-UB1", "query-token-QT1", "Bearer"}, e.s.IssuedTokens()...)
	if len(secrets) < 6 {
		t.Fatalf("no token issued")
	}
	for _, s := range secrets {
		if strings.Contains(out, s) {
			t.Errorf("log holds %q:\n%s", s, out)
		}
	}
}

func TestRequestLog_levels(t *testing.T) {
	for _, tc := range []struct {
		level     LogLevel
		want200   bool
		want500   bool
		wantQuery bool
	}{
		{LogOff, false, false, false},
		{LogError, false, true, false},
		{LogInfo, true, true, false},
		{LogDebug, true, true, true},
	} {
		t.Run(tc.level.String(), func(t *testing.T) {
			log := &syncBuffer{}
			e := newEnv(t, Options{LogLevel: tc.level, Log: log})
			e.wantStatus(e.get(fiatAccountsPath+"?limit=9"), http.StatusOK)
			e.s.Faults.ServerErrors(1, 500)
			e.wantStatus(e.get(claimsPath), http.StatusInternalServerError)
			if got := len(log.lines("/v2/transfer/fiat-accounts")) > 0; got != tc.want200 {
				t.Errorf("200 logged: %v, want %v\n%s", got, tc.want200, log)
			}
			if got := len(log.lines("/v2/rewards/claims")) > 0; got != tc.want500 {
				t.Errorf("500 logged: %v, want %v\n%s", got, tc.want500, log)
			}
			if got := strings.Contains(log.String(), `query="limit=9"`); got != tc.wantQuery {
				t.Errorf("query logged: %v, want %v\n%s", got, tc.wantQuery, log)
			}
		})
	}
	// The zero Options log nothing, even with a destination.
	log := &syncBuffer{}
	e := newEnv(t, Options{Log: log})
	e.wantStatus(e.get(fiatAccountsPath), http.StatusOK)
	if log.String() != "" {
		t.Errorf("quiet emulator logged:\n%s", log)
	}
}

func TestParseLogLevel(t *testing.T) {
	for in, want := range map[string]LogLevel{"off": LogOff, "error": LogError, "info": LogInfo, "debug": LogDebug, "DEBUG": LogDebug} {
		got, err := ParseLogLevel(in)
		if err != nil || got != want {
			t.Errorf("ParseLogLevel(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseLogLevel("verbose"); err == nil {
		t.Error("verbose accepted")
	}
}

// A stream connection passes through the log (its upgrade takes the
// connection over) and a dropped one names the fault.
func TestRequestLog_droppedStream(t *testing.T) {
	log := &syncBuffer{}
	s := StartTest(t, Options{LogLevel: LogInfo, Log: log, SubscriptionInterval: -1})
	s.Faults.DropWS(1)
	c := mustDial(t, s)
	send(t, c, `{"type":"subscribe","channels":[{"type":"heartbeat"}]}`)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) && len(log.lines("/ws")) == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	wantLine(t, log, "/ws", "method=GET", "status=101", "fault=drop-ws")
}
