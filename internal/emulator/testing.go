package emulator

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// StartTest starts an emulator on 127.0.0.1:0 for the test tb and closes it
// when the test ends.
func StartTest(tb testing.TB, opts Options) *Server {
	tb.Helper()
	s := New(opts)
	if err := s.Start("127.0.0.1:0"); err != nil {
		tb.Fatalf("start emulator: %v", err)
	}
	tb.Cleanup(s.Close)
	return s
}

// TokenForTest obtains a token for scope from s's token endpoint, as a
// client does: with the default client, or with the client id and secret
// of cred.
func (s *Server) TokenForTest(tb testing.TB, scope string, cred ...string) string {
	tb.Helper()
	id, secret := DefaultClientID, DefaultClientSecret
	if len(cred) == 2 {
		id, secret = cred[0], cred[1]
	}
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {id}, "client_secret": {secret}, "scope": {scope}}
	req, err := http.NewRequestWithContext(tb.Context(), http.MethodPost, s.AuthURL()+"/oauth2/token", strings.NewReader(form.Encode()))
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := hc.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		tb.Fatalf("token endpoint answered %d", resp.StatusCode)
	}
	var body struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || body.AccessToken == "" {
		tb.Fatalf("token response: %v", err)
	}
	return body.AccessToken
}

// LogBuffer is a log destination (Options.Log, or a command's stdout and
// stderr) that tests read while the emulator writes to it.
type LogBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *LogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String is what was written so far.
func (l *LogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
