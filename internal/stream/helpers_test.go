package stream

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"go.uber.org/goleak"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// fetchToken asks the emulator's token endpoint for scope, with the default
// client unless id and secret are given.
func fetchToken(tb testing.TB, s *emulator.Server, scope string, cred ...string) string {
	tb.Helper()
	id, secret := emulator.DefaultClientID, emulator.DefaultClientSecret
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

// testEnv is an emulator with a stream token.
type testEnv struct {
	s     *emulator.Server
	token string
}

// Unless opts sets SubscriptionInterval, the emulator does not rate-limit
// subscriptions: the tests of the limit set it.
func newEnv(tb testing.TB, opts emulator.Options) *testEnv {
	tb.Helper()
	if opts.SubscriptionInterval == 0 {
		opts.SubscriptionInterval = -1
	}
	s := emulator.StartTest(tb, opts)
	return &testEnv{s: s, token: fetchToken(tb, s, Scope)}
}

func (e *testEnv) dial(tb testing.TB, opts Options) *Conn {
	tb.Helper()
	return dialURL(tb, e.s.WSURL(), e.token, opts)
}

// dialURL dials wsURL with token and opts; the connection is closed when
// the test ends.
func dialURL(tb testing.TB, wsURL, token string, opts Options) *Conn {
	tb.Helper()
	c, err := Dial(tb.Context(), wsURL, token, opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = c.Close() })
	return c
}

// waitDone waits for c to end, failing with what if it has not ended
// after lateBy.
func waitDone(t *testing.T, c *Conn, what string) {
	t.Helper()
	select {
	case <-c.Done():
	case <-time.After(lateBy):
		t.Fatal(what)
	}
}

// fakeServer serves WebSocket connections with handle, for behaviours the
// emulator does not have. Handlers must return once stop is closed or their
// connection is closed.
func fakeServer(t *testing.T, handle func(ws *websocket.Conn, stop <-chan struct{})) string {
	t.Helper()
	stop := make(chan struct{})
	var (
		mu    sync.Mutex
		conns []*websocket.Conn
		wg    sync.WaitGroup
	)
	up := websocket.Upgrader{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		mu.Lock()
		conns = append(conns, ws)
		wg.Add(1)
		mu.Unlock()
		defer wg.Done()
		handle(ws, stop)
		_ = ws.Close()
	}))
	t.Cleanup(func() {
		close(stop)
		mu.Lock()
		for _, c := range conns {
			_ = c.Close()
		}
		mu.Unlock()
		wg.Wait()
		srv.Close()
	})
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

// lateBy bounds from above how long a test lets pass for what must happen
// at once (a refusal, a dropped connection noticed, a read ending at its
// deadline): far less than what the test would wait otherwise (a read's
// timeout of ten seconds, a flood that never ends), far more than a loaded
// machine's scheduling delays.
const lateBy = 5 * time.Second

// readLater reads ch of h in the background; the read's error comes on
// the channel it returns.
func readLater(ctx context.Context, h *Hub, ch Channel) <-chan error {
	done := make(chan error, 1)
	go func() {
		_, err := h.Read(ctx, ch)
		done <- err
	}()
	return done
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
