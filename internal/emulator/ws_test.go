package emulator

import (
	"encoding/json"
	"errors"
	"net/http"
	"sort"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"go.uber.org/goleak"
)

// startWS starts an emulator on 127.0.0.1:0 and closes it when the test ends.
// Unless opts sets SubscriptionInterval, subscriptions are not rate-limited:
// the tests of the limit set it.
func startWS(t *testing.T, opts Options) *Server {
	t.Helper()
	if opts.SubscriptionInterval == 0 {
		opts.SubscriptionInterval = -1
	}
	s := New(opts)
	if err := s.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// dialWS opens a stream connection with token and returns the handshake
// status code.
func dialWS(t *testing.T, s *Server, token string) (*websocket.Conn, int, error) {
	t.Helper()
	h := http.Header{}
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	c, resp, err := websocket.DefaultDialer.DialContext(t.Context(), s.WSURL(), h)
	status := 0
	if resp != nil {
		status = resp.StatusCode
		_ = resp.Body.Close()
	}
	if c != nil {
		t.Cleanup(func() { _ = c.Close() })
	}
	return c, status, err
}

func mustDial(t *testing.T, s *Server) *websocket.Conn {
	t.Helper()
	c, _, err := dialWS(t, s, s.TokenForTest(t, StreamScope))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

type frame struct {
	Type        string          `json:"type"`
	Channel     string          `json:"channel"`
	Code        string          `json:"code"`
	Message     string          `json:"message"`
	RequestType string          `json:"request_type"`
	Channels    []frameChannel  `json:"channels"`
	Payload     json.RawMessage `json:"payload"`
}

type frameChannel struct {
	Type    string          `json:"type"`
	Params  json.RawMessage `json:"params"`
	Success *bool           `json:"success"`
	Error   *channelError   `json:"error"`
}

type payload struct {
	Market     string    `json:"market"`
	Type       string    `json:"type"`
	Time       string    `json:"time"`
	Timestamp  string    `json:"timestamp"`
	Bids       []wsLevel `json:"bids"`
	Asks       []wsLevel `json:"asks"`
	Price      string    `json:"price"`
	Amount     string    `json:"amount"`
	ExecutedAt string    `json:"executed_at"`
}

func readFrame(t *testing.T, c *websocket.Conn) frame {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(3 * time.Second))
	_, data, err := c.ReadMessage()
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	var f frame
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("frame %s: %v", data, err)
	}
	return f
}

// readReply skips data frames until a reply (a frame with type) arrives.
func readReply(t *testing.T, c *websocket.Conn) frame {
	t.Helper()
	for {
		if f := readFrame(t, c); f.Type != "" {
			return f
		}
	}
}

// readData skips frames until a data frame of channel arrives.
func readData(t *testing.T, c *websocket.Conn, channel string) payload {
	t.Helper()
	for {
		f := readFrame(t, c)
		if f.Channel != channel {
			continue
		}
		var p payload
		if err := json.Unmarshal(f.Payload, &p); err != nil {
			t.Fatal(err)
		}
		return p
	}
}

func send(t *testing.T, c *websocket.Conn, v string) {
	t.Helper()
	if err := c.WriteMessage(websocket.TextMessage, []byte(v)); err != nil {
		t.Fatal(err)
	}
}

func successes(f frame) []bool {
	out := make([]bool, 0, len(f.Channels))
	for _, c := range f.Channels {
		out = append(out, c.Success != nil && *c.Success)
	}
	return out
}

func TestWSHandshakeAuth(t *testing.T) {
	s := startWS(t, Options{Clients: map[string]ClientCredentials{
		DefaultClientID: {Secret: DefaultClientSecret},
		"narrow":        {Secret: "narrow-secret", Scopes: []string{"rewards:read_claims"}},
	}})
	good := s.TokenForTest(t, StreamScope)
	narrow := s.TokenForTest(t, "rewards:read_claims", "narrow", "narrow-secret")
	otherScope := s.TokenForTest(t, "transfer:read_fiat_account")

	cases := []struct {
		name   string
		token  string
		status int
	}{
		{"missing", "", http.StatusUnauthorized},
		{"unknown", "not-a-token", http.StatusUnauthorized},
		{"narrow client", narrow, http.StatusForbidden},
		{"other scope", otherScope, http.StatusForbidden},
		{"good", good, http.StatusSwitchingProtocols},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, status, err := dialWS(t, s, tc.token)
			if status != tc.status {
				t.Fatalf("status %d, want %d (err %v)", status, tc.status, err)
			}
		})
	}

	s.ExpireTokens()
	_, status, err := dialWS(t, s, good)
	if err == nil || status != http.StatusUnauthorized {
		t.Fatalf("expired token: status %d err %v", status, err)
	}
}

func TestWSSubscribeUnsubscribeList(t *testing.T) {
	s := startWS(t, Options{})
	c := mustDial(t, s)

	send(t, c, `{"type":"subscription_list"}`)
	if f := readReply(t, c); f.Type != "subscription_list" || len(f.Channels) != 0 {
		t.Fatalf("initial list: %+v", f)
	}

	send(t, c, `{"type":"subscribe","channels":[{"type":"market_data.top_of_book","params":{"market":"ETHUSD"}},{"type":"heartbeat"}]}`)
	f := readReply(t, c)
	if f.Type != "subscribe" || len(f.Channels) != 2 {
		t.Fatalf("subscribe reply: %+v", f)
	}
	if f.Channels[0].Type != chanTopOfBook || string(f.Channels[0].Params) != `{"market":"ETHUSD"}` || f.Channels[1].Type != chanHeartbeat {
		t.Fatalf("echo: %+v", f.Channels)
	}
	if got := successes(f); !got[0] || !got[1] {
		t.Fatalf("success flags %v", got)
	}

	send(t, c, `{"type":"subscription_list"}`)
	f = readReply(t, c)
	if f.Type != "subscription_list" || len(f.Channels) != 2 ||
		f.Channels[0].Type != chanHeartbeat || f.Channels[0].Params != nil ||
		f.Channels[1].Type != chanTopOfBook || string(f.Channels[1].Params) != `{"market":"ETHUSD"}` {
		t.Fatalf("list: %+v", f)
	}

	send(t, c, `{"type":"unsubscribe","channels":[{"type":"market_data.top_of_book","params":{"market":"ETHUSD"}}]}`)
	f = readReply(t, c)
	if f.Type != "unsubscribe" || len(f.Channels) != 1 || !successes(f)[0] {
		t.Fatalf("unsubscribe: %+v", f)
	}
	send(t, c, `{"type":"subscription_list"}`)
	f = readReply(t, c)
	if len(f.Channels) != 1 || f.Channels[0].Type != chanHeartbeat {
		t.Fatalf("list after unsubscribe: %+v", f)
	}
}

func TestWSMultiChannelMixed(t *testing.T) {
	s := startWS(t, Options{})
	c := mustDial(t, s)
	send(t, c, `{"type":"subscribe","channels":[
		{"type":"execution_data","params":{"market":"SOLUSD"}},
		{"type":"market_data","params":{"market":"DOGE-USD"}},
		{"type":"order_book","params":{"market":"BTCUSD"}},
		{"type":"market_data.top_of_book"},
		{"type":"market_data.top_of_book","params":{"market":"BTCUSD","depth":5}},
		{"type":"heartbeat","params":{"market":"BTCUSD"}},
		{"type":"heartbeat","params":{}},
		{"type":"execution_data","params":{"market":"SOLUSD"}}
	]}`)
	f := readReply(t, c)
	want := []struct {
		ok   bool
		code string
	}{
		{true, ""}, {false, codeBadParams}, {false, codeUnknownChannel}, {false, codeBadParams},
		{false, codeBadParams}, {false, codeBadParams}, {true, ""}, {false, codeNoEffect},
	}
	if len(f.Channels) != len(want) {
		t.Fatalf("reply has %d channels: %+v", len(f.Channels), f)
	}
	for i, w := range want {
		ch := f.Channels[i]
		ok := ch.Success != nil && *ch.Success
		code := ""
		if ch.Error != nil {
			code = ch.Error.Code
		}
		if ok != w.ok || code != w.code {
			t.Errorf("channel %d (%s): success %v code %q, want %v %q", i, ch.Type, ok, code, w.ok, w.code)
		}
	}
	if f.Channels[2].Type != "order_book" || string(f.Channels[1].Params) != `{"market":"DOGE-USD"}` {
		t.Errorf("failed entries must echo type and params: %+v", f.Channels)
	}
}

func TestWSErrorCodes(t *testing.T) {
	s := startWS(t, Options{})
	c := mustDial(t, s)
	cases := []struct {
		name, req, code, reqType string
	}{
		{"not json", `{"type":`, codeMalformed, ""},
		{"not an object", `[1,2]`, codeMalformed, ""},
		{"no type", `{"channels":[]}`, codeMalformed, ""},
		{"type not a string", `{"type":7}`, codeMalformed, ""},
		{"unknown action", `{"type":"resubscribe"}`, codeUnknownAction, "resubscribe"},
		{"no channels", `{"type":"subscribe"}`, codeMalformed, "subscribe"},
		{"empty channels", `{"type":"unsubscribe","channels":[]}`, codeMalformed, "unsubscribe"},
		{"channels not objects", `{"type":"subscribe","channels":["heartbeat"]}`, codeMalformed, "subscribe"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			send(t, c, tc.req)
			f := readReply(t, c)
			if f.Type != "error" || f.Code != tc.code || f.RequestType != tc.reqType || f.Message == "" {
				t.Fatalf("got %+v, want error %s", f, tc.code)
			}
		})
	}

	t.Run("binary frame", func(t *testing.T) {
		if err := c.WriteMessage(websocket.BinaryMessage, []byte(`{"type":"subscription_list"}`)); err != nil {
			t.Fatal(err)
		}
		if f := readReply(t, c); f.Type != "error" || f.Code != codeMalformed {
			t.Fatalf("got %+v", f)
		}
	})

	t.Run("internal server error", func(t *testing.T) {
		s.FailNextStreamOps(2)
		send(t, c, `{"type":"subscribe","channels":[{"type":"heartbeat"}]}`)
		if f := readReply(t, c); f.Type != "error" || f.Code != codeInternal || f.RequestType != "subscribe" {
			t.Fatalf("got %+v", f)
		}
		send(t, c, `{"type":"subscription_list"}`)
		if f := readReply(t, c); f.Code != codeInternal {
			t.Fatalf("got %+v", f)
		}
		// The switch is used up and the failed subscribe had no effect.
		send(t, c, `{"type":"subscription_list"}`)
		if f := readReply(t, c); f.Type != "subscription_list" || len(f.Channels) != 0 {
			t.Fatalf("got %+v", f)
		}
	})

	t.Run("no effect", func(t *testing.T) {
		sub := `{"type":"subscribe","channels":[{"type":"execution_data","params":{"market":"BTCUSD"}}]}`
		send(t, c, sub)
		if f := readReply(t, c); !successes(f)[0] {
			t.Fatalf("first subscribe: %+v", f)
		}
		send(t, c, sub)
		f := readReply(t, c)
		if successes(f)[0] || f.Channels[0].Error == nil || f.Channels[0].Error.Code != codeNoEffect {
			t.Fatalf("duplicate subscribe: %+v", f)
		}
		send(t, c, `{"type":"unsubscribe","channels":[{"type":"execution_data","params":{"market":"ETHUSD"}}]}`)
		f = readReply(t, c)
		if successes(f)[0] || f.Channels[0].Error == nil || f.Channels[0].Error.Code != codeNoEffect {
			t.Fatalf("unsubscribe of a channel not subscribed: %+v", f)
		}
	})

	// The connection survives every error.
	send(t, c, `{"type":"subscription_list"}`)
	if f := readReply(t, c); f.Type != "subscription_list" || len(f.Channels) != 1 {
		t.Fatalf("final list %+v", f)
	}
}

// TestWSSnapshotThenUpdates keeps a local book from the SNAPSHOT and the
// UPDATEs that follow it and checks it stays a sane book.
func TestWSSnapshotThenUpdates(t *testing.T) {
	s := startWS(t, Options{BookInterval: 5 * time.Millisecond})
	c := mustDial(t, s)
	send(t, c, `{"type":"subscribe","channels":[{"type":"market_data","params":{"market":"BTCUSD"}}]}`)
	if f := readFrame(t, c); f.Type != "subscribe" || !successes(f)[0] {
		t.Fatalf("the reply must come first: %+v", f)
	}
	first := readFrame(t, c)
	var snap payload
	if err := json.Unmarshal(first.Payload, &snap); err != nil {
		t.Fatal(err)
	}
	if first.Channel != chanMarketData || snap.Type != "SNAPSHOT" || snap.Market != "BTCUSD" {
		t.Fatalf("first data message: %+v %+v", first, snap)
	}
	if len(snap.Bids) != bookDepth || len(snap.Asks) != bookDepth {
		t.Fatalf("snapshot depth %d/%d", len(snap.Bids), len(snap.Asks))
	}
	if _, err := time.Parse(time.RFC3339Nano, snap.Time); err != nil {
		t.Fatalf("time %q: %v", snap.Time, err)
	}
	bids, asks := map[string]string{}, map[string]string{}
	apply := func(side map[string]string, lv []wsLevel) {
		for _, l := range lv {
			if l.Amount == "0" {
				if _, ok := side[l.Price]; !ok {
					t.Fatalf("removal of absent level %s", l.Price)
				}
				delete(side, l.Price)
			} else {
				side[l.Price] = l.Amount
			}
		}
	}
	apply(bids, snap.Bids)
	apply(asks, snap.Asks)
	for range 30 {
		p := readData(t, c, chanMarketData)
		if p.Type != "UPDATE" || len(p.Bids)+len(p.Asks) == 0 {
			t.Fatalf("update: %+v", p)
		}
		apply(bids, p.Bids)
		apply(asks, p.Asks)
		if len(bids) != bookDepth || len(asks) != bookDepth {
			t.Fatalf("book depth %d/%d after update", len(bids), len(asks))
		}
		if best(bids, true) >= best(asks, false) {
			t.Fatalf("crossed book: bid %v ask %v", best(bids, true), best(asks, false))
		}
		if best(bids, true) < 50000 || best(asks, false) > 70000 {
			t.Fatalf("BTCUSD far from 60000: %v", best(bids, true))
		}
	}
}

func best(side map[string]string, highest bool) float64 {
	var ps []float64
	for p := range side {
		var f float64
		_ = json.Unmarshal([]byte(p), &f)
		ps = append(ps, f)
	}
	sort.Float64s(ps)
	if highest {
		return ps[len(ps)-1]
	}
	return ps[0]
}

func TestWSTopOfBook(t *testing.T) {
	s := startWS(t, Options{BookInterval: 5 * time.Millisecond})
	c := mustDial(t, s)
	send(t, c, `{"type":"subscribe","channels":[{"type":"market_data.top_of_book","params":{"market":"SOLUSD"}}]}`)
	if f := readFrame(t, c); !successes(f)[0] {
		t.Fatalf("subscribe: %+v", f)
	}
	var prev payload
	for i := range 10 {
		p := readData(t, c, chanTopOfBook)
		if p.Type != "TOP_OF_BOOK" || p.Market != "SOLUSD" || len(p.Bids) != 1 || len(p.Asks) != 1 {
			t.Fatalf("message %d: %+v", i, p)
		}
		if _, err := time.Parse(time.RFC3339Nano, p.Timestamp); err != nil {
			t.Fatal(err)
		}
		bid, ask := best(map[string]string{p.Bids[0].Price: ""}, true), best(map[string]string{p.Asks[0].Price: ""}, false)
		if bid >= ask || bid < 100 || ask > 200 {
			t.Fatalf("bid %v ask %v", bid, ask)
		}
		if i > 0 && p.Bids[0] == prev.Bids[0] && p.Asks[0] == prev.Asks[0] {
			t.Fatalf("top of book sent without a change: %+v", p)
		}
		prev = p
	}
}

func TestWSExecutionAndHeartbeat(t *testing.T) {
	s := startWS(t, Options{BookInterval: 5 * time.Millisecond, HeartbeatInterval: 10 * time.Millisecond})
	c := mustDial(t, s)
	send(t, c, `{"type":"subscribe","channels":[{"type":"heartbeat"},{"type":"execution_data","params":{"market":"ETHUSD"}}]}`)
	if f := readFrame(t, c); len(f.Channels) != 2 || !successes(f)[0] || !successes(f)[1] {
		t.Fatalf("subscribe: %+v", f)
	}
	var last time.Time
	for range 3 {
		p := readData(t, c, chanHeartbeat)
		ts, err := time.Parse(time.RFC3339Nano, p.Timestamp)
		if err != nil {
			t.Fatal(err)
		}
		if !ts.After(last) {
			t.Fatalf("heartbeat timestamps not increasing: %v then %v", last, ts)
		}
		last = ts
	}
	e := readData(t, c, chanExecution)
	if e.Market != "ETHUSD" || e.Price == "" || e.Amount == "" || e.Amount == "0" {
		t.Fatalf("execution %+v", e)
	}
	if _, err := time.Parse(time.RFC3339Nano, e.ExecutedAt); err != nil {
		t.Fatal(err)
	}
}

func TestWSDropFault(t *testing.T) {
	s := startWS(t, Options{})
	s.Faults.DropWS(1)
	c := mustDial(t, s)
	send(t, c, `{"type":"subscribe","channels":[{"type":"market_data.top_of_book","params":{"market":"BTCUSD"}}]}`)
	if f := readFrame(t, c); f.Type != "subscribe" || !successes(f)[0] {
		t.Fatalf("the reply still arrives: %+v", f)
	}
	_ = c.SetReadDeadline(time.Now().Add(3 * time.Second))
	_, data, err := c.ReadMessage()
	if err == nil {
		t.Fatalf("data arrived on a dropped connection: %s", data)
	}
	// Gorilla reports a TCP end without a close frame as 1006.
	var ce *websocket.CloseError
	if errors.As(err, &ce) && ce.Code != websocket.CloseAbnormalClosure {
		t.Fatalf("abrupt drop expected, got a close frame: %v", err)
	}
	var ne interface{ Timeout() bool }
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("connection was not dropped: %v", err)
	}
	// The switch is used up: the next connection gets its data.
	c2 := mustDial(t, s)
	send(t, c2, `{"type":"subscribe","channels":[{"type":"market_data.top_of_book","params":{"market":"BTCUSD"}}]}`)
	if p := readData(t, c2, chanTopOfBook); p.Type != "TOP_OF_BOOK" {
		t.Fatalf("second connection: %+v", p)
	}
}

// TestWSServerPings: a client that answers the emulator's pings stays
// connected past the silence limit, twice the ping interval and half a
// second (1.5s here, so that only a missing pong, not a busy machine, ends
// the connection): its fifth ping comes 2s after the first, and the
// emulator still holds the connection then.
func TestWSServerPings(t *testing.T) {
	s := startWS(t, Options{WSPingInterval: 500 * time.Millisecond})
	c := mustDial(t, s)
	pings, open := 0, false
	// The handler runs in ReadMessage below, on this goroutine.
	c.SetPingHandler(func(data string) error {
		pings++
		if pings == 5 {
			open = s.StreamConnections() == 1
			_ = c.SetReadDeadline(time.Now()) // ends the read below
		}
		return c.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(time.Second))
	})
	_ = c.SetReadDeadline(time.Now().Add(time.Minute))
	_, _, err := c.ReadMessage()
	var ne interface{ Timeout() bool }
	if !errors.As(err, &ne) || !ne.Timeout() || pings != 5 {
		t.Fatalf("connection ended after %d pings: %v", pings, err)
	}
	if !open {
		t.Fatalf("connection was closed although it answered pings")
	}
}

func TestWSSilentClientIsClosed(t *testing.T) {
	s := startWS(t, Options{WSPingInterval: 20 * time.Millisecond})
	_ = mustDial(t, s) // never read: pings are never answered
	deadline := time.Now().Add(3 * time.Second)
	for s.StreamConnections() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("silent connection still open")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestWSCloseLeavesNoGoroutines(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	s := New(Options{BookInterval: time.Millisecond, HeartbeatInterval: time.Millisecond, SubscriptionInterval: -1})
	if err := s.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	tok := s.TokenForTest(t, StreamScope)
	var conns []*websocket.Conn
	for range 3 {
		c, _, err := dialWS(t, s, tok)
		if err != nil {
			t.Fatal(err)
		}
		send(t, c, `{"type":"subscribe","channels":[{"type":"heartbeat"},{"type":"market_data","params":{"market":"BTCUSD"}}]}`)
		if f := readFrame(t, c); !successes(f)[0] {
			t.Fatalf("subscribe: %+v", f)
		}
		conns = append(conns, c)
	}
	if n := s.StreamConnections(); n != 3 {
		t.Fatalf("%d connections", n)
	}
	s.Close()
	s.Close() // idempotent
	if n := s.StreamConnections(); n != 0 {
		t.Fatalf("%d connections after Close", n)
	}
	for _, c := range conns {
		// Drain until the connection reports its end.
		_ = c.SetReadDeadline(time.Now().Add(3 * time.Second))
		for {
			if _, _, err := c.ReadMessage(); err != nil {
				var ne interface{ Timeout() bool }
				if errors.As(err, &ne) && ne.Timeout() {
					t.Fatal("connection still open after Close")
				}
				break
			}
		}
		_ = c.Close()
	}
	goleak.VerifyNone(t, ignore)
}

func TestOrderBookDeterministicAndSane(t *testing.T) {
	a, b := newOrderBook(7, "ETHUSD"), newOrderBook(7, "ETHUSD")
	other := newOrderBook(8, "ETHUSD")
	differs := false
	for i := range 2000 {
		ab, aa, at := a.step()
		bb, ba, bt := b.step()
		other.step()
		if len(ab) != len(bb) || len(aa) != len(ba) || (at == nil) != (bt == nil) {
			t.Fatalf("step %d differs for the same seed", i)
		}
		if x, y := a.snapshot(); len(x) != bookDepth || len(y) != bookDepth {
			t.Fatalf("depth %d/%d", len(x), len(y))
		}
		bid, ask := a.top()
		if bid.price >= ask.price || bid.amount <= 0 || ask.amount <= 0 {
			t.Fatalf("step %d: bid %+v ask %+v", i, bid, ask)
		}
		if bid.price < 270_000 || ask.price > 330_000 {
			t.Fatalf("step %d: ETHUSD drifted to %d", i, bid.price)
		}
		if at != nil && at.price != bid.price && at.price != ask.price {
			t.Fatalf("trade off the top of book: %+v", at)
		}
		if ob, _ := other.top(); ob != bid {
			differs = true
		}
	}
	x1, y1 := a.snapshot()
	x2, y2 := b.snapshot()
	for i := range x1 {
		if x1[i] != x2[i] || y1[i] != y2[i] {
			t.Fatal("same seed, different books")
		}
	}
	if !differs {
		t.Fatal("different seeds gave identical books")
	}
}

func TestFormatFixed(t *testing.T) {
	cases := map[int64][2]string{
		0:       {"0", "0"},
		5:       {"0.05", "0.0005"},
		6000050: {"60000.50", "600.0050"},
		-12:     {"-0.12", "-0.0012"},
	}
	for v, want := range cases {
		if got := formatFixed(v, 2); got != want[0] {
			t.Errorf("formatFixed(%d, 2) = %q, want %q", v, got, want[0])
		}
		if got := formatFixed(v, 4); got != want[1] {
			t.Errorf("formatFixed(%d, 4) = %q, want %q", v, got, want[1])
		}
	}
}

// channelError is the error of a failed channel: a bare code string (the
// published form) or a {code, message} object.
type channelError struct {
	Code    string
	Message string
}

func (e *channelError) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		e.Code = s
		return nil
	}
	var o wsError
	if err := json.Unmarshal(b, &o); err != nil {
		return err
	}
	e.Code, e.Message = o.Code, o.Message
	return nil
}

// TestWSSubscriptionRate checks the published limit of one subscription per
// interval per IP address: subscriptions from two connections of the same
// address are answered one interval apart, silently (nothing arrives
// before the reply), and each channel of a request counts as one.
func TestWSSubscriptionRate(t *testing.T) {
	const every = 150 * time.Millisecond
	s := startWS(t, Options{SubscriptionInterval: every})
	a, b := mustDial(t, s), mustDial(t, s)
	start := time.Now()
	replyAt := func(c *websocket.Conn, req string) time.Duration {
		t.Helper()
		send(t, c, req)
		f := readFrame(t, c)
		if f.Type != "subscribe" {
			t.Fatalf("first frame after subscribe is %+v, want the reply", f)
		}
		for i, ok := range successes(f) {
			if !ok {
				t.Fatalf("channel %d refused: %+v", i, f)
			}
		}
		return time.Since(start)
	}
	replyAt(a, `{"type":"subscribe","channels":[{"type":"heartbeat"}]}`)
	if n := s.SubscriptionWaits(); n != 0 {
		t.Errorf("the first subscription waited its turn (%d waits after it); only later ones wait", n)
	}
	second := replyAt(b, `{"type":"subscribe","channels":[{"type":"market_data.top_of_book","params":{"market":"BTCUSD"}}]}`)
	// Two channels: the reply comes when the second one's turn is due.
	third := replyAt(a, `{"type":"subscribe","channels":[{"type":"market_data","params":{"market":"ETHUSD"}},`+
		`{"type":"market_data.top_of_book","params":{"market":"ETHUSD"}}]}`)
	if second < every {
		t.Errorf("the second subscription was answered after %s, before its turn at %s", second, every)
	}
	if third < 3*every {
		t.Errorf("a request of two channels was answered after %s, before the second channel's turn at %s", third, 3*every)
	}
	// The request of two channels waits whatever the timing; the second
	// request waits unless the test stalled for an interval.
	if n := s.SubscriptionWaits(); n < 1 || n > 2 {
		t.Errorf("SubscriptionWaits = %d, want 1 or 2", n)
	}
}
