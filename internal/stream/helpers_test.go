package stream

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"go.uber.org/goleak"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

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
	return &testEnv{s: s, token: s.TokenForTest(tb, Scope)}
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
