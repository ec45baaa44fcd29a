package stream

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"go.uber.org/goleak"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

func TestCheckURL(t *testing.T) {
	cases := []struct {
		url      string
		insecure bool
		wantErr  error
		ok       bool
	}{
		{"ws://127.0.0.1:9000/ws", false, nil, true},
		{"ws://localhost/ws", false, nil, true},
		{"ws://[::1]:80/ws", false, nil, true},
		{"wss://stream.example.com/ws", false, nil, true},
		{"ws://stream.example.com/ws", false, ErrInsecureURL, false},
		{"ws://10.0.0.1/ws", false, ErrInsecureURL, false},
		{"ws://stream.example.com/ws", true, nil, true},
		{"https://stream.example.com/ws", false, nil, false},
		{"wss:///ws", false, nil, false},
	}
	for _, tc := range cases {
		_, err := checkURL(tc.url, tc.insecure)
		if tc.ok != (err == nil) {
			t.Errorf("%s: err %v", tc.url, err)
		}
		if tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
			t.Errorf("%s: err %v, want %v", tc.url, err, tc.wantErr)
		}
	}
	// The query (which could hold anything) never reaches the error.
	_, err := checkURL("ws://stream.example.com/ws?token=s3cr3t", false)
	if err == nil || strings.Contains(err.Error(), "s3cr3t") {
		t.Fatalf("error %v", err)
	}
}

func TestDialRefusesInsecureWithoutNetwork(t *testing.T) {
	_, err := Dial(t.Context(), "ws://stream.example.com/ws", "tok", Options{})
	if !errors.Is(err, ErrInsecureURL) {
		t.Fatalf("err %v", err)
	}
}

func TestHandshakeErrors(t *testing.T) {
	e := newEnv(t, emulator.Options{Clients: map[string]emulator.ClientCredentials{
		emulator.DefaultClientID: {Secret: emulator.DefaultClientSecret},
		"narrow":                 {Secret: "narrow-secret", Scopes: []string{"rewards:read_claims", "transfer:read_fiat_account"}},
	}})
	narrow := e.s.TokenForTest(t, "rewards:read_claims transfer:read_fiat_account", "narrow", "narrow-secret")

	_, err := Dial(t.Context(), e.s.WSURL(), narrow, Options{})
	var he *HandshakeError
	if !errors.Is(err, ErrForbidden) || !errors.As(err, &he) || he.StatusCode != 403 {
		t.Fatalf("403: err %v", err)
	}
	if !strings.Contains(err.Error(), Scope) || strings.Contains(err.Error(), narrow) {
		t.Fatalf("403 message must name the scope and not hold the token: %q", err)
	}

	const bogus = "bogus-token-0123456789"
	_, err = Dial(t.Context(), e.s.WSURL(), bogus, Options{})
	if !errors.Is(err, ErrUnauthorized) || errors.Is(err, ErrForbidden) || strings.Contains(err.Error(), bogus) {
		t.Fatalf("401: err %v", err)
	}

	e.s.ExpireTokens()
	_, err = Dial(t.Context(), e.s.WSURL(), e.token, Options{})
	if !errors.Is(err, ErrUnauthorized) || strings.Contains(err.Error(), e.token) {
		t.Fatalf("expired: err %v", err)
	}
}

func TestSubscribeUnsubscribeList(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	c := e.dial(t, Options{})
	ctx := t.Context()

	subs, err := c.Subscriptions(ctx)
	if err != nil || len(subs) != 0 {
		t.Fatalf("initial list %v %v", subs, err)
	}
	top := Channel{Type: ChannelTopOfBook, Market: "ETHUSD"}
	hb := Channel{Type: ChannelHeartbeat}
	res, err := c.Subscribe(ctx, top, hb)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || res[0].Channel != top || !res[0].Success || res[1].Channel != hb || !res[1].Success {
		t.Fatalf("results %+v", res)
	}
	subs, err = c.Subscriptions(ctx)
	if err != nil || len(subs) != 2 || subs[0] != hb || subs[1] != top {
		t.Fatalf("list %v %v", subs, err)
	}
	if res, err = c.Unsubscribe(ctx, top); err != nil || len(res) != 1 || !res[0].Success {
		t.Fatalf("unsubscribe %+v %v", res, err)
	}
	subs, err = c.Subscriptions(ctx)
	if err != nil || len(subs) != 1 || subs[0] != hb {
		t.Fatalf("list after unsubscribe %v %v", subs, err)
	}
}

func TestMultiChannelReply(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	c := e.dial(t, Options{})
	chans := []Channel{
		{Type: ChannelTopOfBook, Market: "BTCUSD"},
		{Type: ChannelMarketData, Market: "DOGE-USD"},
		{Type: "order_book", Market: "BTCUSD"},
		{Type: ChannelHeartbeat},
	}
	res, err := c.Subscribe(t.Context(), chans...)
	if len(res) != 4 {
		t.Fatalf("results %+v", res)
	}
	wantOK := []bool{true, false, false, true}
	wantCode := []string{"", CodeUnknownChannelParamsConfiguration, CodeUnknownChannel, ""}
	for i := range res {
		if res[i].Channel != chans[i] || res[i].Success != wantOK[i] || res[i].Code != wantCode[i] {
			t.Errorf("result %d: %+v", i, res[i])
		}
	}
	joined, ok := err.(interface{ Unwrap() []error })
	if !ok || len(joined.Unwrap()) != 2 {
		t.Fatalf("want two channel errors, got %v", err)
	}
	var ce *ChannelError
	if !errors.As(joined.Unwrap()[0], &ce) || ce.Channel != chans[1] || ce.Code != CodeUnknownChannelParamsConfiguration || ce.Op != OpSubscribe {
		t.Fatalf("first error %+v", ce)
	}
	msg := err.Error()
	for _, want := range []string{"DOGE-USD", "market_data", CodeUnknownChannelParamsConfiguration, "order_book", CodeUnknownChannel} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not mention %s", msg, want)
		}
	}
}

func TestMatchResultsByEcho(t *testing.T) {
	a := Channel{Type: ChannelTopOfBook, Market: "BTCUSD"}
	b := Channel{Type: ChannelTopOfBook, Market: "ETHUSD"}
	h := Channel{Type: ChannelHeartbeat}
	// Reply in another order than the request, with one channel missing.
	entries := []ChannelStatus{
		{Channel: b, Success: false, Code: CodeNoEffectAction},
		{Channel: a, Success: true},
	}
	res := matchResults([]Channel{a, b, h}, entries)
	if !res[0].Success || res[0].Channel != a {
		t.Errorf("a: %+v", res[0])
	}
	if res[1].Success || res[1].Code != CodeNoEffectAction || res[1].Channel != b {
		t.Errorf("b: %+v", res[1])
	}
	if res[2].Success || res[2].Message == "" {
		t.Errorf("missing channel must fail: %+v", res[2])
	}
	// The same channel twice: each reply entry is used once.
	res = matchResults([]Channel{a, a}, []ChannelStatus{{Channel: a, Success: true}, {Channel: a, Code: CodeNoEffectAction}})
	if !res[0].Success || res[1].Success || res[1].Code != CodeNoEffectAction {
		t.Errorf("duplicates: %+v", res)
	}
}

func TestErrorCodes(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	c := e.dial(t, Options{})
	ctx := t.Context()
	channelCode := func(err error) string {
		var ce *ChannelError
		if !errors.As(err, &ce) {
			t.Fatalf("want a *ChannelError, got %v", err)
		}
		return ce.Code
	}
	serverErr := func(err error) *ServerError {
		var se *ServerError
		if !errors.As(err, &se) {
			t.Fatalf("want a *ServerError, got %v", err)
		}
		return se
	}

	_, err := c.Subscribe(ctx, Channel{Type: "order_book", Market: "BTCUSD"})
	if got := channelCode(err); got != CodeUnknownChannel {
		t.Errorf("unknown channel: %s", got)
	}
	_, err = c.Subscribe(ctx, Channel{Type: ChannelExecution, Market: "NOPE-USD"})
	if got := channelCode(err); got != CodeUnknownChannelParamsConfiguration {
		t.Errorf("bad params: %s", got)
	}
	_, err = c.Subscribe(ctx, Channel{Type: ChannelExecution})
	if got := channelCode(err); got != CodeUnknownChannelParamsConfiguration {
		t.Errorf("missing market: %s", got)
	}
	sol := Channel{Type: ChannelExecution, Market: "SOLUSD"}
	if _, err := c.Subscribe(ctx, sol); err != nil {
		t.Fatal(err)
	}
	_, err = c.Subscribe(ctx, sol)
	if got := channelCode(err); got != CodeNoEffectAction {
		t.Errorf("duplicate subscribe: %s", got)
	}
	_, err = c.Unsubscribe(ctx, Channel{Type: ChannelExecution, Market: "ETHUSD"})
	if got := channelCode(err); got != CodeNoEffectAction {
		t.Errorf("unsubscribe not subscribed: %s", got)
	}

	_, err = c.RawRequest(ctx, "", []byte(`{"type":`))
	if se := serverErr(err); se.Code != CodeMalformedRequest {
		t.Errorf("malformed: %+v", se)
	}
	_, err = c.RawRequest(ctx, "resubscribe", []byte(`{"type":"resubscribe"}`))
	if se := serverErr(err); se.Code != CodeUnknownAction || se.Op != "resubscribe" {
		t.Errorf("unknown action: %+v", se)
	}
	_, err = c.Subscribe(ctx) // no channels
	if se := serverErr(err); se.Code != CodeMalformedRequest {
		t.Errorf("empty subscribe: %+v", se)
	}

	e.s.FailNextStreamOps(1)
	_, err = c.Subscribe(ctx, Channel{Type: ChannelHeartbeat})
	se := serverErr(err)
	if se.Code != CodeInternalServerError || se.Op != OpSubscribe || !strings.Contains(err.Error(), CodeInternalServerError) {
		t.Errorf("internal: %+v", se)
	}

	// The connection is still usable and holds only the one subscription.
	subs, err := c.Subscriptions(ctx)
	if err != nil || len(subs) != 1 || subs[0] != sol {
		t.Fatalf("list %v %v", subs, err)
	}
}

func TestSnapshotMarketDataLeavesConnectionUsable(t *testing.T) {
	e := newEnv(t, emulator.Options{BookInterval: 2 * time.Millisecond})
	c := e.dial(t, Options{})
	ctx := t.Context()
	for range 2 {
		m, err := Snapshot(ctx, c, ChannelMarketData, "BTCUSD", nil)
		if err != nil {
			t.Fatal(err)
		}
		md, ok := m.(*MarketData)
		if !ok || md.Type != TypeSnapshot || md.Market != "BTCUSD" || len(md.Bids) != 10 || len(md.Asks) != 10 {
			t.Fatalf("snapshot %+v", m)
		}
		subs, err := c.Subscriptions(ctx)
		if err != nil || len(subs) != 0 {
			t.Fatalf("subscriptions after snapshot: %v %v", subs, err)
		}
	}
	m, err := Snapshot(ctx, c, ChannelExecution, "ETHUSD", nil)
	if ex, ok := m.(*Execution); err != nil || !ok || ex.Market != "ETHUSD" || ex.Price == "" {
		t.Fatalf("execution %+v %v", m, err)
	}
	m, err = Snapshot(ctx, c, ChannelMarketData, "ETHUSD", func(m Message) bool {
		md, ok := m.(*MarketData)
		return ok && md.Type == TypeUpdate
	})
	if md, ok := m.(*MarketData); err != nil || !ok || md.Type != TypeUpdate {
		t.Fatalf("update %+v %v", m, err)
	}
	if _, err := Snapshot(ctx, c, ChannelMarketData, "NOPE", nil); err == nil {
		t.Fatal("snapshot of an unknown market succeeded")
	}
}

func decimal(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("not a decimal: %q", s)
	}
	return f
}

// firstTopOfBook is the first read of a process through a new Hub: dial,
// subscribe, first TOP_OF_BOOK, close.
func firstTopOfBook(ctx context.Context, e *testEnv, market string) (*TopOfBook, error) {
	hub := NewHub(e.s.WSURL(), func(context.Context) (string, error) { return e.token, nil }, HubOptions{})
	defer hub.Close()
	m, err := hub.Read(ctx, Channel{Type: ChannelTopOfBook, Market: market})
	if err != nil {
		return nil, err
	}
	tob, ok := m.(*TopOfBook)
	if !ok {
		return nil, fmt.Errorf("read %T", m)
	}
	return tob, nil
}

func TestFirstTopOfBook(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	for _, market := range []string{"BTCUSD", "ETHUSD", "SOLUSD"} {
		tob, err := firstTopOfBook(t.Context(), e, market)
		if err != nil {
			t.Fatal(err)
		}
		bid, okB := tob.BestBid()
		ask, okA := tob.BestAsk()
		if tob.Market != market || tob.Type != TypeTopOfBook || !okB || !okA {
			t.Fatalf("%+v", tob)
		}
		if _, err := time.Parse(time.RFC3339Nano, tob.Timestamp); err != nil {
			t.Fatal(err)
		}
		if decimal(t, bid.Price) >= decimal(t, ask.Price) || decimal(t, bid.Amount) <= 0 {
			t.Fatalf("%s: bid %+v ask %+v", market, bid, ask)
		}
	}
	waitFor(t, "stream connections to end", func() bool { return e.s.StreamConnections() == 0 })

	_, err := firstTopOfBook(t.Context(), e, "NOPE")
	var ce *ChannelError
	if !errors.As(err, &ce) || ce.Channel.Market != "NOPE" {
		t.Fatalf("unknown market: %v", err)
	}
}

func TestDroppedConnectionMidWait(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	e.s.Faults.DropWS(1)
	c := e.dial(t, Options{})
	start := time.Now()
	_, err := Snapshot(t.Context(), c, ChannelTopOfBook, "BTCUSD", nil)
	if !errors.Is(err, ErrConnectionClosed) {
		t.Fatalf("err %v", err)
	}
	if d := time.Since(start); d > lateBy {
		t.Fatalf("took %v", d)
	}
	if _, err := c.Subscriptions(t.Context()); !errors.Is(err, ErrConnectionClosed) {
		t.Fatalf("after drop: %v", err)
	}
	if !errors.Is(c.Err(), ErrConnectionClosed) {
		t.Fatalf("Err %v", c.Err())
	}
}

func TestDroppedConnectionWaitingForReply(t *testing.T) {
	wsURL := fakeServer(t, func(ws *websocket.Conn, _ <-chan struct{}) {
		_, _, _ = ws.ReadMessage()
		_ = ws.NetConn().Close() // drop without a reply
	})
	c := dialURL(t, wsURL, "tok", Options{})
	_, err := c.Subscribe(t.Context(), Channel{Type: ChannelHeartbeat})
	if !errors.Is(err, ErrConnectionClosed) {
		t.Fatalf("err %v", err)
	}
}

func TestContextCancelWaitingForReply(t *testing.T) {
	got := make(chan struct{}, 1)
	wsURL := fakeServer(t, func(ws *websocket.Conn, _ <-chan struct{}) {
		for {
			if _, _, err := ws.ReadMessage(); err != nil {
				return
			}
			got <- struct{}{} // never answer
		}
	})
	c := dialURL(t, wsURL, "tok", Options{})
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		<-got
		cancel()
	}()
	_, err := c.Subscribe(ctx, Channel{Type: ChannelHeartbeat})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	// A second operation is not blocked by the abandoned one: the server
	// receives it, and it ends with its own context.
	ctx2, cancel2 := context.WithCancel(t.Context())
	defer cancel2()
	go func() {
		<-got
		cancel2()
	}()
	if _, err := c.Subscriptions(ctx2); !errors.Is(err, context.Canceled) {
		t.Fatalf("second op: %v", err)
	}
}

func TestContextCancelWaitingForData(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	c := e.dial(t, Options{})
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Snapshot(ctx, c, ChannelTopOfBook, "BTCUSD", func(Message) bool { return false })
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > lateBy {
		t.Fatalf("err %v after %v", err, time.Since(start))
	}
	if _, err := Dial(ctx, e.s.WSURL(), e.token, Options{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("dial with an expired context: %v", err)
	}
}

func TestKeepaliveDetectsSilentServer(t *testing.T) {
	wsURL := fakeServer(t, func(_ *websocket.Conn, stop <-chan struct{}) {
		<-stop // never read: pings go unanswered
	})
	c := dialURL(t, wsURL, "tok", Options{PingInterval: 20 * time.Millisecond, PongTimeout: 50 * time.Millisecond})
	waitDone(t, c, "silent server not detected")
	if !errors.Is(c.Err(), ErrConnectionClosed) || !strings.Contains(c.Err().Error(), "keepalive") {
		t.Fatalf("Err %v", c.Err())
	}
	if _, ok := <-c.Messages(); ok {
		t.Fatal("Messages not closed")
	}
}

// TestKeepaliveAgainstEmulator: a connection that carries no data stays
// open longer than the keepalive deadlines of both ends (a second or more,
// so that only a pong or a ping missing, not a busy machine, ends it): the
// client's pings and the emulator's keep it alive.
func TestKeepaliveAgainstEmulator(t *testing.T) {
	// The emulator closes a connection silent for twice its ping interval
	// and half a second: 1.5s.
	e := newEnv(t, emulator.Options{WSPingInterval: 500 * time.Millisecond})
	c := e.dial(t, Options{PingInterval: 50 * time.Millisecond, PongTimeout: time.Second})
	select {
	case <-c.Done():
		t.Fatalf("connection ended: %v", c.Err())
	case <-time.After(2500 * time.Millisecond):
	}
	if _, err := c.Subscriptions(t.Context()); err != nil {
		t.Fatal(err)
	}
}

func TestServerCloseEndsConnection(t *testing.T) {
	s := emulator.New(emulator.Options{HeartbeatInterval: time.Millisecond})
	if err := s.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	tok := s.TokenForTest(t, Scope)
	c := dialURL(t, s.WSURL(), tok, Options{})
	if _, err := c.Subscribe(t.Context(), Channel{Type: ChannelHeartbeat}); err != nil {
		t.Fatal(err)
	}
	if m := <-c.Messages(); m == nil {
		t.Fatal("no heartbeat")
	}
	s.Close()
	waitDone(t, c, "server close not noticed")
	if !errors.Is(c.Err(), ErrConnectionClosed) {
		t.Fatalf("Err %v", c.Err())
	}
}

func TestSlowConsumer(t *testing.T) {
	e := newEnv(t, emulator.Options{BookInterval: time.Millisecond})
	c := e.dial(t, Options{MessageBuffer: 2})
	if _, err := c.Subscribe(t.Context(), Channel{Type: ChannelMarketData, Market: "BTCUSD"}); err != nil {
		t.Fatal(err)
	}
	waitDone(t, c, "overflow not detected")
	if !errors.Is(c.Err(), ErrSlowConsumer) || !errors.Is(c.Err(), ErrConnectionClosed) {
		t.Fatalf("Err %v", c.Err())
	}
}

func TestCloseIdempotentNoLeak(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	e := newEnv(t, emulator.Options{HeartbeatInterval: time.Millisecond})
	c, err := Dial(t.Context(), e.s.WSURL(), e.token, Options{PingInterval: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Subscribe(t.Context(), Channel{Type: ChannelHeartbeat}); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	for range 3 {
		go func() {
			_ = c.Close()
			done <- struct{}{}
		}()
	}
	for range 3 {
		<-done
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Subscriptions(t.Context()); !errors.Is(err, ErrConnectionClosed) || !strings.Contains(err.Error(), "by the client") {
		t.Fatalf("after close: %v", err)
	}
	for m := range c.Messages() {
		_ = m // drain until closed
	}
	e.s.Close()
	goleak.VerifyNone(t, ignore)
}
