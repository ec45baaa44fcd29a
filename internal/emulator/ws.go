package emulator

// Stream server (GET /ws).
//
// Handshake: the upgrade request must carry Authorization: Bearer <token>.
// A missing, unknown or expired token answers 401 with
// {"error":"unauthorized","message":...}; a token without the scope
// exchange:read_aggregated_marketdata_stream answers 403 with
// {"error":"forbidden","message":...}. Only then is the connection upgraded.
//
// Requests are JSON text frames with a "type": subscribe, unsubscribe or
// subscription_list, exactly as in the spec. Choices made where the spec is
// silent:
//
//   - Channel params. market_data, market_data.top_of_book and
//     execution_data take {"market": <one of Options.Markets>} and nothing
//     else. heartbeat takes no market: params absent, null or {}.
//   - Replies to subscribe and unsubscribe echo every requested channel in
//     request order: {"type":"subscribe","channels":[{"type":...,
//     "params":<as sent>,"success":true|false}]}. A failed entry also
//     carries "error":<code>, a bare string as the API reference shows it
//     (or "error":{"code":...,"message":...} with
//     Options.ChannelErrorObject), with code UNKNOWN_CHANNEL
//     (unknown channel type), UNKNOWN_CHANNEL_PARAMS_CONFIGURATION (bad or
//     missing params, unknown market) or NO_EFFECT_ACTION (already
//     subscribed, or unsubscribing a channel that is not subscribed). The
//     same channel twice in one request: the second entry is NO_EFFECT_ACTION.
//   - subscription_list answers {"type":"subscription_list","channels":
//     [{"type":...,"params":{"market":...}}]} sorted by type then market
//     (heartbeat without params).
//   - Request-level errors are a standalone frame
//     {"type":"error","code":...,"message":...,"request_type":...}:
//     MALFORMED_REQUEST (not JSON, not an object, binary frame, missing or
//     non-string type, channels missing, empty or not an array of objects),
//     UNKNOWN_ACTION (unknown type) and INTERNAL_SERVER_ERROR (forced with
//     Server.FailNextStreamOps). request_type echoes the request's type when
//     it could be read.
//
// Data frames are {"channel":<type>,"payload":{...}}:
//
//   - market_data: right after the subscribe reply, one payload with type
//     SNAPSHOT holding the whole book (bids highest first, asks lowest
//     first); then a payload with type UPDATE each time the book moves
//     (every Options.BookInterval), holding only the changed levels, where
//     amount "0" removes a level. Payload fields: market, type, time, bids,
//     asks.
//   - market_data.top_of_book: one TOP_OF_BOOK payload right after the
//     subscribe reply, then one whenever the best bid or best ask (price or
//     amount) changes. Fields: market, type, timestamp, bids, asks (one level
//     each).
//   - execution_data: {market, price, amount, executed_at} for each
//     simulated trade (about every other book move).
//   - heartbeat: {timestamp} every Options.HeartbeatInterval.
//
// Timestamps are RFC 3339 with nanoseconds, in UTC. Prices have 2 decimals,
// amounts 4. The books are deterministic for a given Options.Seed and start
// moving when the first stream connection arrives; the best bid is always
// strictly below the best ask.
//
// Subscription rate: one subscription per second per IP address, as
// published (Options.SubscriptionInterval). A subscribe that comes sooner
// waits silently: its reply and first messages come when its turn is due,
// each channel of the request counting as one subscription, and the
// connection reads nothing else meanwhile.
//
// Keepalive: the server pings every Options.WSPingInterval (default 5s) and
// closes a connection that sends nothing (not even a pong) for two intervals
// plus 500ms. Server.Close sends a going-away close frame to every
// connection and waits for all their goroutines. Faults.DropWS makes the next
// connections close their TCP connection abruptly right before their first
// data message (the subscribe reply still arrives). A connection whose
// outgoing queue overflows (a client that stops reading) is closed.

import (
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// StreamScope is the scope a token needs for the stream handshake.
const StreamScope = "exchange:read_aggregated_marketdata_stream"

// Stream channel types.
const (
	chanMarketData = "market_data"
	chanTopOfBook  = "market_data.top_of_book"
	chanExecution  = "execution_data"
	chanHeartbeat  = "heartbeat"
)

// Stream error codes.
const (
	codeUnknownAction  = "UNKNOWN_ACTION"
	codeInternal       = "INTERNAL_SERVER_ERROR"
	codeMalformed      = "MALFORMED_REQUEST"
	codeNoEffect       = "NO_EFFECT_ACTION"
	codeUnknownChannel = "UNKNOWN_CHANNEL"
	codeBadParams      = "UNKNOWN_CHANNEL_PARAMS_CONFIGURATION"
)

const (
	wsSendQueue    = 1024
	wsWriteTimeout = 5 * time.Second
	wsReadLimit    = 64 << 10
)

type wsSub struct {
	typ    string
	market string // empty for heartbeat
}

type wsFrame struct {
	data   []byte
	isData bool // a channel message, as opposed to a reply
}

type wsConn struct {
	ws   *websocket.Conn
	send chan wsFrame
	done chan struct{}
	once sync.Once
	drop bool
	hold *atomic.Bool   // data frames are discarded while set (see ws_faults.go)
	subs map[wsSub]bool // guarded by wsHub.mu
	ip   string         // remote address, for the subscription rate
}

// kill closes the TCP connection at once (no close frame) and stops the writer.
func (c *wsConn) kill() {
	c.once.Do(func() {
		close(c.done)
		_ = c.ws.NetConn().Close()
	})
}

// enqueue queues f without blocking; a full queue closes the connection.
// Callers hold wsHub.mu, which keeps frames in order.
func (c *wsConn) enqueue(f wsFrame) {
	if f.isData && c.hold != nil && c.hold.Load() {
		return
	}
	select {
	case <-c.done:
		return
	default:
	}
	select {
	case c.send <- f:
	default:
		c.kill()
	}
}

type wsHub struct {
	s        *Server
	markets  []string
	upgrader websocket.Upgrader
	ping     time.Duration

	mu      sync.Mutex
	conns   map[*wsConn]struct{}
	books   map[string]*orderBook
	failOps int
	hold    atomic.Bool // see Server.HoldStreamData
	// nextSub is, per remote IP address, the earliest time of its next
	// subscription (see Options.SubscriptionInterval); guarded by subMu.
	subMu   sync.Mutex
	nextSub map[string]time.Time
	// subWaits counts the subscribe requests that had to wait their turn,
	// subsMade the channels subscribed.
	subWaits, subsMade atomic.Int64
	started            bool
	closed             bool
	stop               chan struct{}
	wg                 sync.WaitGroup
}

func newWSHub(s *Server) *wsHub {
	h := &wsHub{
		s:       s,
		markets: slices.Clone(s.opts.Markets),
		ping:    s.opts.WSPingInterval,
		conns:   map[*wsConn]struct{}{},
		books:   map[string]*orderBook{},
		nextSub: map[string]time.Time{},
		stop:    make(chan struct{}),
		upgrader: websocket.Upgrader{
			HandshakeTimeout: 10 * time.Second,
			// Any origin: the emulator authenticates by bearer token only.
			CheckOrigin: func(*http.Request) bool { return true },
		},
	}
	if h.ping <= 0 {
		h.ping = 5 * time.Second
	}
	for _, m := range h.markets {
		h.books[m] = newOrderBook(s.opts.Seed, m)
	}
	return h
}

func (s *Server) registerWS(mux *http.ServeMux) {
	mux.HandleFunc("GET /ws", s.ws.serve)
}

// FailNextStreamOps makes the next n stream operations (subscribe,
// unsubscribe, subscription_list) on any connection answer an
// INTERNAL_SERVER_ERROR error frame instead of being carried out.
func (s *Server) FailNextStreamOps(n int) {
	s.ws.mu.Lock()
	s.ws.failOps = n
	s.ws.mu.Unlock()
}

// StreamConnections is the number of stream connections currently open.
func (s *Server) StreamConnections() int {
	s.ws.mu.Lock()
	defer s.ws.mu.Unlock()
	return len(s.ws.conns)
}

func writeHandshakeError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="stream"`)
	}
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": code, "message": msg})
}

func (h *wsHub) serve(w http.ResponseWriter, r *http.Request) {
	switch err := h.s.authorize(r, StreamScope); {
	case errors.Is(err, errForbidden):
		writeHandshakeError(w, http.StatusForbidden, "forbidden", "token lacks the scope "+StreamScope)
		return
	case err != nil:
		writeHandshakeError(w, http.StatusUnauthorized, "unauthorized", err.Error())
		return
	}
	ws, err := h.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader has answered
	}
	c := &wsConn{
		ws:   ws,
		send: make(chan wsFrame, wsSendQueue),
		done: make(chan struct{}),
		hold: &h.hold,
		subs: map[wsSub]bool{},
		ip:   remoteIP(r),
	}
	if !h.add(c) {
		_ = ws.WriteControl(websocket.CloseMessage,
			websocket.FormatCloseMessage(websocket.CloseGoingAway, "server shutting down"),
			time.Now().Add(100*time.Millisecond))
		_ = ws.Close()
		return
	}
	defer h.wg.Done()
	c.drop = h.s.Faults.takeDropWS()
	if c.drop {
		noteFault(r, "drop-ws")
	}
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		c.writeLoop(h.ping)
	}()
	h.readLoop(c)
	h.remove(c)
	c.kill()
	<-writerDone
}

// add registers c and starts the market loop on the first connection. It
// reports false once the hub is closed.
func (h *wsHub) add(c *wsConn) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	h.wg.Add(1)
	h.conns[c] = struct{}{}
	if !h.started {
		h.started = true
		h.wg.Add(1)
		go h.run()
	}
	return true
}

func (h *wsHub) remove(c *wsConn) {
	h.mu.Lock()
	delete(h.conns, c)
	h.mu.Unlock()
}

// close ends every connection and goroutine of the hub and waits for them.
func (h *wsHub) close() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	close(h.stop)
	conns := make([]*wsConn, 0, len(h.conns))
	for c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.Unlock()
	for _, c := range conns {
		_ = c.ws.WriteControl(websocket.CloseMessage,
			websocket.FormatCloseMessage(websocket.CloseGoingAway, "server shutting down"),
			time.Now().Add(100*time.Millisecond))
		c.kill()
	}
	h.wg.Wait()
}

func (c *wsConn) writeLoop(ping time.Duration) {
	t := time.NewTicker(ping)
	defer t.Stop()
	for {
		select {
		case <-c.done:
			return
		case f := <-c.send:
			if f.isData && c.drop {
				c.kill() // abrupt: no close frame
				return
			}
			_ = c.ws.SetWriteDeadline(time.Now().Add(wsWriteTimeout))
			if err := c.ws.WriteMessage(websocket.TextMessage, f.data); err != nil {
				c.kill()
				return
			}
		case <-t.C:
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(wsWriteTimeout)); err != nil {
				c.kill()
				return
			}
		}
	}
}

func (h *wsHub) readLoop(c *wsConn) {
	wait := 2*h.ping + 500*time.Millisecond
	c.ws.SetReadLimit(wsReadLimit)
	_ = c.ws.SetReadDeadline(time.Now().Add(wait))
	c.ws.SetPongHandler(func(string) error {
		return c.ws.SetReadDeadline(time.Now().Add(wait))
	})
	for {
		mt, data, err := c.ws.ReadMessage()
		if err != nil {
			return
		}
		_ = c.ws.SetReadDeadline(time.Now().Add(wait))
		h.handle(c, mt, data)
	}
}

// Wire shapes.

type wsError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

type wsErrorFrame struct {
	Type        string `json:"type"`
	Code        string `json:"code"`
	Message     string `json:"message"`
	RequestType string `json:"request_type,omitempty"`
}

type wsChannelReq struct {
	Type   string          `json:"type"`
	Params json.RawMessage `json:"params,omitempty"`
}

type wsChannelReply struct {
	Type    string          `json:"type"`
	Params  json.RawMessage `json:"params,omitempty"`
	Success *bool           `json:"success,omitempty"`
	// Error is the failure's code as a bare string (API reference), or
	// the {code, message} object (Options.ChannelErrorObject).
	Error any `json:"error,omitempty"`
}

type wsReply struct {
	Type     string           `json:"type"`
	Channels []wsChannelReply `json:"channels"`
}

type wsLevel struct {
	Price  string `json:"price"`
	Amount string `json:"amount"`
}

type wsMarketData struct {
	Market string    `json:"market"`
	Type   string    `json:"type"`
	Time   string    `json:"time"`
	Bids   []wsLevel `json:"bids"`
	Asks   []wsLevel `json:"asks"`
}

type wsTopOfBook struct {
	Market    string    `json:"market"`
	Type      string    `json:"type"`
	Timestamp string    `json:"timestamp"`
	Bids      []wsLevel `json:"bids"`
	Asks      []wsLevel `json:"asks"`
}

type wsExecution struct {
	Market     string `json:"market"`
	Price      string `json:"price"`
	Amount     string `json:"amount"`
	ExecutedAt string `json:"executed_at"`
}

type wsHeartbeat struct {
	Timestamp string `json:"timestamp"`
}

type wsEnvelope struct {
	Channel string `json:"channel"`
	Payload any    `json:"payload"`
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only fixed, marshalable types reach here
	}
	return b
}

func wireLevels(l []bookLevel) []wsLevel {
	out := make([]wsLevel, 0, len(l))
	for _, x := range l {
		out = append(out, wsLevel{Price: formatFixed(x.price, priceDecimals), Amount: formatFixed(x.amount, amountDecimals)})
	}
	return out
}

func (h *wsHub) stamp() string {
	return h.s.now().UTC().Format(time.RFC3339Nano)
}

func (h *wsHub) sendError(c *wsConn, code, msg, reqType string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	c.enqueue(wsFrame{data: mustJSON(wsErrorFrame{Type: "error", Code: code, Message: msg, RequestType: reqType})})
}

func (h *wsHub) takeFail() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.failOps > 0 {
		h.failOps--
		return true
	}
	return false
}

func (h *wsHub) handle(c *wsConn, mt int, data []byte) {
	if mt != websocket.TextMessage {
		h.sendError(c, codeMalformed, "requests must be JSON text frames", "")
		return
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		h.sendError(c, codeMalformed, "request is not a JSON object", "")
		return
	}
	var typ string
	if raw, ok := top["type"]; !ok || json.Unmarshal(raw, &typ) != nil || typ == "" {
		h.sendError(c, codeMalformed, "request has no string field type", "")
		return
	}
	switch typ {
	case "subscribe", "unsubscribe", "subscription_list":
	default:
		h.sendError(c, codeUnknownAction, "unknown request type "+truncate(typ), truncate(typ))
		return
	}
	if h.takeFail() {
		h.sendError(c, codeInternal, "internal server error", typ)
		return
	}
	if typ == "subscription_list" {
		h.subscriptionList(c)
		return
	}
	var chans []wsChannelReq
	if raw, ok := top["channels"]; !ok || json.Unmarshal(raw, &chans) != nil || len(chans) == 0 {
		h.sendError(c, codeMalformed, "channels must be a non-empty array of {type, params}", typ)
		return
	}
	if typ == "subscribe" && !h.awaitTurn(c, len(chans)) {
		return
	}
	h.subscribe(c, typ == "subscribe", chans)
}

// remoteIP is the IP address of r's client, without the port.
func remoteIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// awaitTurn holds a subscribe of n channels from c's address until its
// turn under the published rate of one subscription per
// Options.SubscriptionInterval per IP address, silently: nothing is sent
// meanwhile. It reports false when the connection or the server closed
// while waiting.
func (h *wsHub) awaitTurn(c *wsConn, n int) bool {
	every := h.s.opts.SubscriptionInterval
	if every <= 0 || n <= 0 {
		return true
	}
	now := time.Now()
	h.subMu.Lock()
	slot := h.nextSub[c.ip]
	if slot.Before(now) {
		slot = now
	}
	// The request is answered when its last channel's turn is due.
	due := slot.Add(time.Duration(n-1) * every)
	h.nextSub[c.ip] = slot.Add(time.Duration(n) * every)
	h.subMu.Unlock()
	wait := due.Sub(now)
	if wait <= 0 {
		return true
	}
	h.subWaits.Add(1)
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
	case <-c.done:
		return false
	case <-h.stop:
		return false
	}
	// Nothing was read while waiting: the client's keepalive still counts.
	_ = c.ws.SetReadDeadline(time.Now().Add(2*h.ping + 500*time.Millisecond))
	return true
}

// SubscriptionWaits is the number of subscribe requests that waited for
// their turn under Options.SubscriptionInterval.
func (s *Server) SubscriptionWaits() int64 { return s.ws.subWaits.Load() }

// StreamSubscriptions is the number of channels subscribed so far, on every
// connection.
func (s *Server) StreamSubscriptions() int64 { return s.ws.subsMade.Load() }

// truncate caps client-supplied text echoed in error messages.
func truncate(s string) string {
	const n = 64
	if len(s) > n {
		return s[:n]
	}
	return s
}

// parseChannel validates one requested channel.
func (h *wsHub) parseChannel(ch wsChannelReq) (wsSub, *wsError) {
	switch ch.Type {
	case chanMarketData, chanTopOfBook, chanExecution:
	case chanHeartbeat:
		var p map[string]json.RawMessage
		if len(ch.Params) > 0 && (json.Unmarshal(ch.Params, &p) != nil || len(p) > 0) {
			return wsSub{}, &wsError{Code: codeBadParams, Message: "heartbeat takes no params"}
		}
		return wsSub{typ: chanHeartbeat}, nil
	default:
		return wsSub{}, &wsError{Code: codeUnknownChannel, Message: "unknown channel type " + truncate(ch.Type)}
	}
	var p struct {
		Market *string `json:"market"`
	}
	var keys map[string]json.RawMessage
	if len(ch.Params) == 0 || json.Unmarshal(ch.Params, &keys) != nil || json.Unmarshal(ch.Params, &p) != nil || p.Market == nil {
		return wsSub{}, &wsError{Code: codeBadParams, Message: ch.Type + " needs params {\"market\": <market>}"}
	}
	if len(keys) != 1 {
		return wsSub{}, &wsError{Code: codeBadParams, Message: ch.Type + " takes only the param market"}
	}
	if !slices.Contains(h.markets, *p.Market) {
		return wsSub{}, &wsError{Code: codeBadParams, Message: "unknown market " + truncate(*p.Market)}
	}
	return wsSub{typ: ch.Type, market: *p.Market}, nil
}

func (h *wsHub) subscribe(c *wsConn, on bool, chans []wsChannelReq) {
	op := "unsubscribe"
	if on {
		op = "subscribe"
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	reply := wsReply{Type: op, Channels: make([]wsChannelReply, 0, len(chans))}
	var added []wsSub
	for _, ch := range chans {
		sub, e := h.parseChannel(ch)
		switch {
		case e != nil:
		case on && c.subs[sub]:
			e = &wsError{Code: codeNoEffect, Message: "already subscribed to " + ch.Type}
		case !on && !c.subs[sub]:
			e = &wsError{Code: codeNoEffect, Message: "not subscribed to " + ch.Type}
		case on:
			c.subs[sub] = true
			added = append(added, sub)
		default:
			delete(c.subs, sub)
		}
		ok := e == nil
		entry := wsChannelReply{Type: ch.Type, Params: ch.Params, Success: &ok}
		if h.s.opts.RepliesWithoutParams {
			entry.Params = nil
		}
		switch {
		case e == nil:
		case h.s.opts.ChannelErrorObject:
			entry.Error = e
		default:
			entry.Error = e.Code
		}
		reply.Channels = append(reply.Channels, entry)
	}
	early := h.s.opts.SnapshotBeforeReply
	if !early {
		c.enqueue(wsFrame{data: mustJSON(reply)})
	}
	h.subsMade.Add(int64(len(added)))
	for _, sub := range added {
		b := h.books[sub.market]
		switch sub.typ {
		case chanMarketData:
			bids, asks := b.snapshot()
			if early {
				// An UPDATE ahead of the snapshot, which is no snapshot.
				c.enqueue(wsFrame{isData: true, data: mustJSON(wsEnvelope{Channel: chanMarketData, Payload: wsMarketData{
					Market: sub.market, Type: "UPDATE", Time: h.stamp(), Bids: wireLevels(bids[:1]), Asks: wireLevels(asks[:1]),
				}})})
			}
			c.enqueue(wsFrame{isData: true, data: mustJSON(wsEnvelope{Channel: chanMarketData, Payload: wsMarketData{
				Market: sub.market, Type: "SNAPSHOT", Time: h.stamp(), Bids: wireLevels(bids), Asks: wireLevels(asks),
			}})})
		case chanTopOfBook:
			c.enqueue(wsFrame{isData: true, data: h.topOfBookFrame(b)})
		}
	}
	if early {
		c.enqueue(wsFrame{data: mustJSON(reply)})
	}
}

func (h *wsHub) topOfBookFrame(b *orderBook) []byte {
	bid, ask := b.top()
	return mustJSON(wsEnvelope{Channel: chanTopOfBook, Payload: wsTopOfBook{
		Market: b.market, Type: "TOP_OF_BOOK", Timestamp: h.stamp(),
		Bids: wireLevels([]bookLevel{bid}), Asks: wireLevels([]bookLevel{ask}),
	}})
}

func (h *wsHub) subscriptionList(c *wsConn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	subs := make([]wsSub, 0, len(c.subs))
	for s := range c.subs {
		subs = append(subs, s)
	}
	slices.SortFunc(subs, func(a, b wsSub) int {
		if a.typ != b.typ {
			if a.typ < b.typ {
				return -1
			}
			return 1
		}
		switch {
		case a.market < b.market:
			return -1
		case a.market > b.market:
			return 1
		}
		return 0
	})
	reply := wsReply{Type: "subscription_list", Channels: make([]wsChannelReply, 0, len(subs))}
	for _, s := range subs {
		e := wsChannelReply{Type: s.typ}
		if s.market != "" {
			e.Params = mustJSON(map[string]string{"market": s.market})
		}
		reply.Channels = append(reply.Channels, e)
	}
	c.enqueue(wsFrame{data: mustJSON(reply)})
}

// run moves the books and sends heartbeats until the hub closes.
func (h *wsHub) run() {
	defer h.wg.Done()
	book := time.NewTicker(h.s.opts.BookInterval)
	defer book.Stop()
	beat := time.NewTicker(h.s.opts.HeartbeatInterval)
	defer beat.Stop()
	for {
		select {
		case <-h.stop:
			return
		case <-book.C:
			h.stepBooks()
		case <-beat.C:
			h.heartbeat()
		}
	}
}

func (h *wsHub) stepBooks() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, m := range h.markets {
		b := h.books[m]
		pb, pa := b.top()
		bidCh, askCh, tr := b.step()
		nb, na := b.top()
		topChanged := pb != nb || pa != na
		var upd, tob, exe []byte
		for c := range h.conns {
			if c.subs[wsSub{chanMarketData, m}] {
				if upd == nil {
					upd = mustJSON(wsEnvelope{Channel: chanMarketData, Payload: wsMarketData{
						Market: m, Type: "UPDATE", Time: h.stamp(), Bids: wireLevels(bidCh), Asks: wireLevels(askCh),
					}})
				}
				c.enqueue(wsFrame{isData: true, data: upd})
			}
			if topChanged && c.subs[wsSub{chanTopOfBook, m}] {
				if tob == nil {
					tob = h.topOfBookFrame(b)
				}
				c.enqueue(wsFrame{isData: true, data: tob})
			}
			if tr != nil && c.subs[wsSub{chanExecution, m}] {
				if exe == nil {
					exe = mustJSON(wsEnvelope{Channel: chanExecution, Payload: wsExecution{
						Market: m, Price: formatFixed(tr.price, priceDecimals),
						Amount: formatFixed(tr.amount, amountDecimals), ExecutedAt: h.stamp(),
					}})
				}
				c.enqueue(wsFrame{isData: true, data: exe})
			}
		}
	}
}

func (h *wsHub) heartbeat() {
	h.mu.Lock()
	defer h.mu.Unlock()
	var msg []byte
	for c := range h.conns {
		if c.subs[wsSub{typ: chanHeartbeat}] {
			if msg == nil {
				msg = mustJSON(wsEnvelope{Channel: chanHeartbeat, Payload: wsHeartbeat{Timestamp: h.stamp()}})
			}
			c.enqueue(wsFrame{isData: true, data: msg})
		}
	}
}
