// Package stream is a client of the service's WebSocket streaming API:
// bearer-token handshake, subscribe, unsubscribe, subscription_list, typed
// channel messages, keepalive, and one-shot snapshots of a channel.
//
// A Conn runs one reader goroutine that hands replies to the waiting
// operation and data messages to Messages(), and one goroutine that pings
// the server. Operations are serialised: one request is outstanding at a
// time, so an error frame (whose envelope the spec does not show) is always
// attributed to the request in flight.
package stream

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// DefaultMaxQueuedBytes is the default of Options.MaxQueuedBytes: 16 MiB of
// frames read and not yet taken by the reader of Messages.
const DefaultMaxQueuedBytes = 16 << 20

// Options tune a connection. The zero value is usable.
type Options struct {
	// AllowInsecure permits a ws:// URL to a host that is not loopback.
	AllowInsecure bool
	// HandshakeTimeout bounds the dial and handshake; default 10s.
	HandshakeTimeout time.Duration
	// PingInterval is how often the client pings the server; default 15s.
	// Negative disables client pings and the read deadline.
	PingInterval time.Duration
	// PongTimeout is how long after PingInterval the connection may stay
	// silent (no frame, no pong) before it is considered dead; default 10s.
	PongTimeout time.Duration
	// WriteTimeout bounds each write; default 10s.
	WriteTimeout time.Duration
	// MessageBuffer is the capacity of Messages(); default 1024. When it is
	// full the connection is closed with ErrSlowConsumer.
	MessageBuffer int
	// MaxQueuedBytes bounds the frames behind the messages read and not
	// yet taken from Messages(), in bytes; default DefaultMaxQueuedBytes.
	// When one more would pass it the connection is closed with
	// ErrSlowConsumer. A single frame is always accepted into an empty
	// queue.
	MaxQueuedBytes int64
	// ReadLimit is the largest accepted frame in bytes; default 1 MiB.
	ReadLimit int64
	// TLSClientConfig for wss:// URLs; nil uses the defaults.
	TLSClientConfig *tls.Config
	// Header holds extra handshake headers. Authorization is always set
	// from the token.
	Header http.Header
}

func (o Options) withDefaults() Options {
	if o.HandshakeTimeout <= 0 {
		o.HandshakeTimeout = 10 * time.Second
	}
	if o.PingInterval == 0 {
		o.PingInterval = 15 * time.Second
	}
	if o.PongTimeout <= 0 {
		o.PongTimeout = 10 * time.Second
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = 10 * time.Second
	}
	if o.MessageBuffer <= 0 {
		o.MessageBuffer = 1024
	}
	if o.ReadLimit <= 0 {
		o.ReadLimit = 1 << 20
	}
	if o.MaxQueuedBytes <= 0 {
		o.MaxQueuedBytes = DefaultMaxQueuedBytes
	}
	return o
}

// Channel names one channel: its type and, except for heartbeat, a market.
type Channel struct {
	Type   string `json:"type"`
	Market string `json:"market,omitempty"`
}

func (c Channel) String() string {
	if c.Market == "" {
		return fmt.Sprintf("channel %.64s", c.Type)
	}
	return fmt.Sprintf("channel %.64s for market %.64q", c.Type, c.Market)
}

// wire form of a requested channel.
func (c Channel) wire() map[string]any {
	m := map[string]any{"type": c.Type}
	if c.Market != "" {
		m["params"] = map[string]string{"market": c.Market}
	}
	return m
}

// ChannelResult is the outcome of one requested channel of subscribe or
// unsubscribe, matched to the request by the echoed type and params.
type ChannelResult struct {
	Channel Channel
	Success bool
	// Code and Message explain a failure when the server gave a reason.
	Code    string
	Message string
}

// Conn is one stream connection. Safe for concurrent use; operations are
// carried out one at a time.
type Conn struct {
	ws   *websocket.Conn
	opts Options

	msgs chan Message
	done chan struct{} // closed when the reader has stopped
	err  error         // why it stopped; written before done is closed

	ops     chan struct{} // one-slot semaphore for operations
	mu      sync.Mutex
	pending *pendingOp

	closing   chan struct{}
	closeOnce sync.Once
	wg        sync.WaitGroup

	undecodable atomic.Int64
	// read is the number of text frames read so far (the seq of the last).
	read atomic.Uint64
}

type pendingOp struct {
	op    string
	chans []Channel
	reply chan Message // capacity 1
}

// redactURL keeps scheme, host and path: no user info, no query.
func redactURL(u *url.URL) string {
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
}

// isLoopback reports whether host is localhost or a loopback address.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// checkURL validates wsURL against the transport policy.
func checkURL(wsURL string, allowInsecure bool) (*url.URL, error) {
	u, err := url.Parse(wsURL)
	if err != nil {
		return nil, errors.New("stream URL cannot be parsed")
	}
	switch u.Scheme {
	case "wss":
	case "ws":
		if !allowInsecure && !isLoopback(u.Hostname()) {
			return nil, fmt.Errorf("%w: %s", ErrInsecureURL, redactURL(u))
		}
	default:
		return nil, fmt.Errorf("stream URL %s must use ws:// or wss://", redactURL(u))
	}
	if u.Host == "" {
		return nil, errors.New("stream URL has no host")
	}
	return u, nil
}

// Dial opens a stream connection to wsURL, authenticating the handshake
// with the bearer token. A refused handshake is a *HandshakeError (wrapping
// ErrUnauthorized or ErrForbidden). ws:// is refused for hosts that are not
// loopback unless opts.AllowInsecure.
func Dial(ctx context.Context, wsURL, token string, opts Options) (*Conn, error) {
	opts = opts.withDefaults()
	u, err := checkURL(wsURL, opts.AllowInsecure)
	if err != nil {
		return nil, err
	}
	h := http.Header{}
	for k, v := range opts.Header {
		h[k] = append([]string(nil), v...)
	}
	h.Set("Authorization", "Bearer "+token)
	d := websocket.Dialer{
		Proxy:            http.ProxyFromEnvironment,
		HandshakeTimeout: opts.HandshakeTimeout,
		TLSClientConfig:  opts.TLSClientConfig,
	}
	dctx, cancel := context.WithTimeout(ctx, opts.HandshakeTimeout)
	defer cancel()
	ws, resp, err := d.DialContext(dctx, u.String(), h)
	if resp != nil && resp.Body != nil {
		_ = resp.Body.Close()
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("stream dial %s: %w", redactURL(u), ctx.Err())
		}
		if resp != nil && resp.StatusCode >= 300 && resp.StatusCode < 400 {
			// Never followed: the handshake carries the access token.
			to := "no location"
			if loc, lerr := resp.Location(); lerr == nil {
				to = "host " + loc.Host
			}
			return nil, fmt.Errorf("stream dial %s: the server answered %d %s, a redirect to %s. The provider never "+
				"follows redirects (the handshake carries the access token): the configured ws_url is probably "+
				"wrong; it must name the service's stream endpoint itself",
				redactURL(u), resp.StatusCode, http.StatusText(resp.StatusCode), to)
		}
		if resp != nil && resp.StatusCode != http.StatusSwitchingProtocols {
			return nil, &HandshakeError{StatusCode: resp.StatusCode}
		}
		return nil, fmt.Errorf("stream dial %s: %w", redactURL(u), err)
	}
	c := &Conn{
		ws:      ws,
		opts:    opts,
		msgs:    make(chan Message, opts.MessageBuffer),
		done:    make(chan struct{}),
		ops:     make(chan struct{}, 1),
		closing: make(chan struct{}),
	}
	ws.SetReadLimit(opts.ReadLimit)
	ws.SetPongHandler(func(string) error { c.extendReadDeadline(); return nil })
	ws.SetPingHandler(func(data string) error {
		// A server ping also proves the connection alive; answer it as
		// gorilla's default handler does.
		c.extendReadDeadline()
		err := ws.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(opts.WriteTimeout))
		var ne net.Error
		if errors.Is(err, websocket.ErrCloseSent) || errors.As(err, &ne) && ne.Timeout() {
			return nil
		}
		return err
	})
	c.extendReadDeadline()
	c.wg.Add(1)
	go c.readLoop()
	if opts.PingInterval > 0 {
		c.wg.Add(1)
		go c.pingLoop()
	}
	return c, nil
}

func (c *Conn) extendReadDeadline() {
	if c.opts.PingInterval > 0 {
		_ = c.ws.SetReadDeadline(time.Now().Add(c.opts.PingInterval + c.opts.PongTimeout))
	}
}

// Messages delivers data messages (*MarketData, *TopOfBook, *Execution,
// *Heartbeat) in arrival order. It is closed when the connection ends.
func (c *Conn) Messages() <-chan Message { return c.msgs }

// Done is closed when the connection has ended; Err then says why.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err returns nil while the connection is open, then an error wrapping
// ErrConnectionClosed.
func (c *Conn) Err() error {
	select {
	case <-c.done:
		return c.err
	default:
		return nil
	}
}

// Undecodable counts frames that could not be decoded and were skipped.
func (c *Conn) Undecodable() int64 { return c.undecodable.Load() }

// queuedSizes is the size of the frame of each message in Messages(), in
// the order they were queued: the messages still in the channel are the last
// len(channel) queued, so the sizes of the others, taken by the reader, are
// dropped from the front. Used by the reader goroutine only.
type queuedSizes struct {
	ring        []int
	head, count int
	total       int64
}

// taken drops the sizes of the messages the reader has taken, leaving
// inChannel.
func (q *queuedSizes) taken(inChannel int) {
	for q.count > inChannel {
		q.total -= int64(q.ring[q.head])
		q.head = (q.head + 1) % len(q.ring)
		q.count--
	}
}

func (q *queuedSizes) push(n int) {
	q.ring[(q.head+q.count)%len(q.ring)] = n
	q.count++
	q.total += int64(n)
}

func (c *Conn) readLoop() {
	defer c.wg.Done()
	var seq uint64
	// One more than the channel holds: the reader may take a message
	// between the count and the send.
	queued := queuedSizes{ring: make([]int, c.opts.MessageBuffer+1)}
	fail := func(cause error) {
		select {
		case <-c.closing:
			c.err = fmt.Errorf("%w by the client", ErrConnectionClosed)
		default:
			var ne net.Error
			switch {
			case errors.As(cause, &ne) && ne.Timeout():
				c.err = fmt.Errorf("%w: no frame or pong from the server within the keepalive deadline", ErrConnectionClosed)
			default:
				c.err = fmt.Errorf("%w: %w", ErrConnectionClosed, cause)
			}
		}
		_ = c.ws.Close()
		close(c.msgs)
		close(c.done)
	}
	for {
		mt, data, err := c.ws.ReadMessage()
		if err != nil {
			fail(err)
			return
		}
		c.extendReadDeadline()
		if mt != websocket.TextMessage {
			c.undecodable.Add(1)
			continue
		}
		seq++
		c.read.Store(seq)
		m, err := DecodeMessage(data)
		if err != nil {
			c.undecodable.Add(1)
			continue
		}
		setSeq(m, seq)
		switch m.(type) {
		case *Reply, *ServerError:
			c.deliver(m)
		default:
			queued.taken(len(c.msgs))
			if queued.count > 0 && queued.total+int64(len(data)) > c.opts.MaxQueuedBytes {
				fail(fmt.Errorf("%w: more than %d bytes of messages waiting", ErrSlowConsumer, c.opts.MaxQueuedBytes))
				return
			}
			select {
			case c.msgs <- m:
				queued.push(len(data))
			default:
				fail(ErrSlowConsumer)
				return
			}
		}
	}
}

func (c *Conn) pingLoop() {
	defer c.wg.Done()
	t := time.NewTicker(c.opts.PingInterval)
	defer t.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-c.closing:
			return
		case <-t.C:
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(c.opts.WriteTimeout)); err != nil {
				_ = c.ws.Close() // the reader reports the end
				return
			}
		}
	}
}

// deliver hands a reply or error frame to the operation in flight, when it
// belongs to it; stray frames are dropped.
func (c *Conn) deliver(m Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.pending
	if p == nil || !p.accepts(m) {
		return
	}
	c.pending = nil
	p.reply <- m
}

func (p *pendingOp) accepts(m Message) bool {
	switch v := m.(type) {
	case *ServerError:
		return v.Op == "" || p.op == "" || v.Op == p.op
	case *Reply:
		if v.Type != p.op {
			return false
		}
		if p.op == OpSubscriptionList || len(v.Channels) == 0 || len(p.chans) == 0 {
			return true
		}
		for _, want := range p.chans {
			for _, got := range v.Channels {
				if got.Channel == want || got.answersByType(want) {
					return true
				}
			}
		}
	}
	return false
}

// Close ends the connection: a close frame, a short wait for the server's
// answer, then the TCP connection. It waits for the connection's goroutines
// and is idempotent. It always returns nil.
func (c *Conn) Close() error {
	c.closeOnce.Do(func() {
		close(c.closing)
		_ = c.ws.WriteControl(websocket.CloseMessage,
			websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
		t := time.NewTimer(time.Second)
		select {
		case <-c.done:
		case <-t.C:
		}
		t.Stop()
		_ = c.ws.Close()
		c.wg.Wait()
	})
	return nil
}

func (c *Conn) closedErr() error {
	<-c.done
	return c.err
}

// write sends one text frame; ctx cancellation interrupts a blocked write.
func (c *Conn) write(ctx context.Context, data []byte) error {
	deadline := time.Now().Add(c.opts.WriteTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	stop := context.AfterFunc(ctx, func() { _ = c.ws.NetConn().SetWriteDeadline(time.Now()) })
	defer stop()
	_ = c.ws.SetWriteDeadline(deadline)
	if err := c.ws.WriteMessage(websocket.TextMessage, data); err != nil {
		_ = c.ws.Close() // a failed write leaves the stream unusable
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%w: write failed: %w", ErrConnectionClosed, err)
	}
	return nil
}

// do sends one request and waits for its reply or error frame.
func (c *Conn) do(ctx context.Context, op string, chans []Channel, data []byte) (Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	select {
	case c.ops <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.done:
		return nil, c.closedErr()
	}
	defer func() { <-c.ops }()
	select {
	case <-c.done:
		return nil, c.closedErr()
	default:
	}
	p := &pendingOp{op: op, chans: chans, reply: make(chan Message, 1)}
	c.mu.Lock()
	c.pending = p
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		if c.pending == p {
			c.pending = nil
		}
		c.mu.Unlock()
	}()
	if err := c.write(ctx, data); err != nil {
		return nil, err
	}
	var m Message
	select {
	case m = <-p.reply:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.done:
		select {
		case m = <-p.reply:
		default:
			return nil, c.closedErr()
		}
	}
	if se, ok := m.(*ServerError); ok {
		if se.Op == "" {
			se.Op = op
		}
		return nil, se
	}
	return m, nil
}

func (c *Conn) channelOp(ctx context.Context, op string, chans []Channel) ([]ChannelResult, error) {
	wire := make([]map[string]any, 0, len(chans))
	for _, ch := range chans {
		wire = append(wire, ch.wire())
	}
	data, err := json.Marshal(map[string]any{"type": op, "channels": wire})
	if err != nil {
		return nil, err
	}
	m, err := c.do(ctx, op, chans, data)
	if err != nil {
		return nil, err
	}
	r, ok := m.(*Reply)
	if !ok {
		return nil, fmt.Errorf("stream %s: unexpected reply %T", op, m)
	}
	results := matchResults(chans, r.Channels)
	var errs []error
	for _, res := range results {
		if !res.Success {
			errs = append(errs, &ChannelError{Op: op, Channel: res.Channel, Code: res.Code, Message: res.Message})
		}
	}
	return results, errors.Join(errs...)
}

// answersByType reports whether e, a reply entry without params (an older
// form of the service's replies, which does not echo them), can answer a
// request for want: it has want's type.
func (e ChannelStatus) answersByType(want Channel) bool {
	return e.Channel.Type == want.Type && e.Channel.Market == "" && len(e.Params) == 0
}

// matchResults pairs each requested channel with the reply entry echoing the
// same type and market (each entry used once), whatever the order. Entries
// without params (as an older page of the service's docs shows replies)
// are then matched by type alone, in order, to the requests of that type
// still unmatched.
func matchResults(requested []Channel, entries []ChannelStatus) []ChannelResult {
	used := make([]bool, len(entries))
	matched := make([]bool, len(requested))
	out := make([]ChannelResult, len(requested))
	pair := func(r, i int) {
		used[i], matched[r] = true, true
		e := entries[i]
		out[r] = ChannelResult{Channel: requested[r], Success: e.Success, Code: e.Code, Message: e.Message}
	}
	for r, want := range requested {
		out[r] = ChannelResult{Channel: want, Message: "the server's reply does not mention this channel"}
		for i, e := range entries {
			if !used[i] && e.Channel == want {
				pair(r, i)
				break
			}
		}
	}
	for r, want := range requested {
		if matched[r] {
			continue
		}
		for i, e := range entries {
			if !used[i] && e.answersByType(want) {
				pair(r, i)
				break
			}
		}
	}
	return out
}

// Subscribe subscribes to channels and returns one result per requested
// channel, in request order. The error is a *ServerError when the request
// as a whole was refused, and joins one *ChannelError per refused channel
// otherwise (the results are returned too).
func (c *Conn) Subscribe(ctx context.Context, channels ...Channel) ([]ChannelResult, error) {
	res, err := c.channelOp(ctx, OpSubscribe, channels)
	return res, err
}

// Unsubscribe unsubscribes from channels; results and errors as for Subscribe.
func (c *Conn) Unsubscribe(ctx context.Context, channels ...Channel) ([]ChannelResult, error) {
	res, err := c.channelOp(ctx, OpUnsubscribe, channels)
	return res, err
}

// Subscriptions lists the connection's active subscriptions
// (subscription_list).
func (c *Conn) Subscriptions(ctx context.Context) ([]Channel, error) {
	m, err := c.do(ctx, OpSubscriptionList, nil, []byte(`{"type":"subscription_list"}`))
	if err != nil {
		return nil, err
	}
	r, ok := m.(*Reply)
	if !ok {
		return nil, fmt.Errorf("stream subscription_list: unexpected reply %T", m)
	}
	out := make([]Channel, 0, len(r.Channels))
	for _, e := range r.Channels {
		out = append(out, e.Channel)
	}
	return out, nil
}

// RawRequest sends frame as is and waits for the reply whose type is op, or
// for an error frame. It exists for requests the typed methods cannot
// express; a *ServerError comes back as the error.
func (c *Conn) RawRequest(ctx context.Context, op string, frame []byte) (*Reply, error) {
	m, err := c.do(ctx, op, nil, frame)
	if err != nil {
		return nil, err
	}
	r, ok := m.(*Reply)
	if !ok {
		return nil, fmt.Errorf("stream %s: unexpected reply %T", op, m)
	}
	return r, nil
}
