package stream

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	dec "github.com/shopspring/decimal"
)

// The service allows one subscription per second per IP address and makes
// the excess wait silently. A process that opened one connection and one
// subscription per read would make ten reads of one market wait ten
// seconds. A Hub shares instead: every read of a process goes through one
// connection, and reads of the same channel and market share one
// subscription, whose latest state (the book kept up to date from its
// snapshot and updates, the latest top of book) answers each of them.

// DefaultHubIdle is how long a Hub keeps its connection open after the last
// read ended, so that the reads of one run that do not overlap still share
// it.
const DefaultHubIdle = time.Second

// SubscriptionRate is the published limit: one subscription per this
// interval per IP address; the service makes excess subscriptions wait.
const SubscriptionRate = time.Second

// HubOptions tune a Hub. The zero value is usable.
type HubOptions struct {
	// Conn tunes the connection.
	Conn Options
	// Idle is how long the connection stays open after the last read
	// ended; default DefaultHubIdle.
	Idle time.Duration
	// DialTimeout bounds getting a token and opening the connection, which
	// every waiting read shares; default 30s. A read still returns when its
	// own context ends first.
	DialTimeout time.Duration
	// OpTimeout bounds one subscribe on the shared connection (which may
	// wait its turn under the subscription rate); default 5m.
	OpTimeout time.Duration
}

// Hub shares one stream connection among the reads of a process, and one
// subscription among the reads of the same channel and market. Safe for
// concurrent use.
type Hub struct {
	url   string
	token func(context.Context) (string, error)
	opts  HubOptions

	mu     sync.Mutex
	conn   *hubConn    // the open connection, or nil
	dial   *hubDial    // the dial in progress, or nil
	closed bool        // Close was called
	timer  *time.Timer // closes an idle connection

	dials, subscribes atomic.Int64
}

// hubDial is a dial in progress; done is closed when it ends.
type hubDial struct {
	done  chan struct{}
	phase atomic.Int32 // PhaseToken, then PhaseConnect
	conn  *hubConn
	err   error // a *ReadError
}

// hubConn is the shared connection and its subscriptions.
type hubConn struct {
	c *Conn
	// The fields below are guarded by Hub.mu.
	subs map[Channel]*hubSub
	// reads is the number of reads in progress on the connection.
	reads int
	// pending is the number of subscribes sent and not answered yet.
	pending int
	// dead is set when the connection ended.
	dead bool
	// ctx ends when the connection is closed; operations run under it.
	ctx    context.Context
	cancel context.CancelFunc
}

// hubSub is one shared subscription. Its fields are guarded by Hub.mu.
type hubSub struct {
	ch Channel
	// answered is closed when the subscribe was answered; err is then set
	// when it was refused.
	answered chan struct{}
	err      error
	// refused: err is the subscribe's own failure.
	refused bool
	// ahead is how many subscribes were waiting for their answer on the
	// connection when this one was sent.
	ahead int
	// changed is closed (and replaced) whenever the state below changes.
	changed chan struct{}
	// latest is the latest message of the channel (top of book and the
	// channels that are not books).
	latest Message
	// book is the order book of a market_data subscription, built from its
	// snapshot and kept up to date by its updates; nil until the snapshot.
	book *bookState
}

// bookState is an order book kept up to date: price levels by their
// decimal price.
type bookState struct {
	market     string
	time       string
	bids, asks map[string]bookLevel
}

type bookLevel struct {
	price dec.Decimal
	level Level
}

// NewHub returns a Hub for the stream at wsURL, whose connections
// authenticate with a token from token.
func NewHub(wsURL string, token func(context.Context) (string, error), opts HubOptions) *Hub {
	if opts.Idle <= 0 {
		opts.Idle = DefaultHubIdle
	}
	if opts.DialTimeout <= 0 {
		opts.DialTimeout = 30 * time.Second
	}
	if opts.OpTimeout <= 0 {
		opts.OpTimeout = 5 * time.Minute
	}
	return &Hub{url: wsURL, token: token, opts: opts}
}

// Dials is the number of connections the Hub has opened.
func (h *Hub) Dials() int64 { return h.dials.Load() }

// Subscribes is the number of subscribe requests the Hub has sent.
func (h *Hub) Subscribes() int64 { return h.subscribes.Load() }

// ReadPhase is the step of a read that failed.
type ReadPhase int

const (
	// PhaseToken: getting the access token for the connection.
	PhaseToken ReadPhase = iota
	// PhaseConnect: opening the connection.
	PhaseConnect
	// PhaseSubscribe: the subscribe was sent and not answered yet.
	PhaseSubscribe
	// PhaseWait: subscribed, waiting for the channel's first state.
	PhaseWait
)

// ReadError is a failed Hub read. It wraps the cause: the context's error,
// a *HandshakeError, a *ChannelError, a *ServerError, an error wrapping
// ErrConnectionClosed, or the token's error.
type ReadError struct {
	Phase   ReadPhase
	Channel Channel
	// Ahead is, for PhaseSubscribe, how many other subscriptions were
	// waiting for their answer on the shared connection when this one was
	// sent: under the service's rate of one subscription per second per IP
	// address, each of them may have held it up for a second.
	Ahead int
	Err   error
}

func (e *ReadError) Error() string {
	switch e.Phase {
	case PhaseToken:
		return "stream access token: " + e.Err.Error()
	case PhaseConnect:
		return e.Err.Error()
	case PhaseSubscribe:
		return fmt.Sprintf("subscribing to %s: %s", e.Channel, e.Err)
	}
	return fmt.Sprintf("waiting for a message on %s: %s", e.Channel, e.Err)
}

func (e *ReadError) Unwrap() error { return e.Err }

// Read returns the current state of ch: for market_data the whole book
// (a *MarketData of type SNAPSHOT, bids highest first, asks lowest first,
// with the time of the latest message), for market_data.top_of_book the
// latest TOP_OF_BOOK message, for other channels the latest message. A read
// that finds the channel subscribed answers from its state at once;
// otherwise it subscribes on the shared connection (opening it when none
// is open) and waits for the first state. The error is a *ReadError.
func (h *Hub) Read(ctx context.Context, ch Channel) (Message, error) {
	hc, err := h.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer h.release(hc)

	h.mu.Lock()
	sub := hc.subs[ch]
	if sub == nil && !hc.dead {
		sub = &hubSub{ch: ch, answered: make(chan struct{}), changed: make(chan struct{}), ahead: hc.pending}
		hc.subs[ch] = sub
		hc.pending++
		go h.subscribe(hc, sub)
	}
	h.mu.Unlock()
	if sub == nil {
		return nil, &ReadError{Phase: PhaseSubscribe, Channel: ch, Err: hc.c.closedErr()}
	}
	for {
		h.mu.Lock()
		m, answered, err := sub.state()
		changed, ahead, refused := sub.changed, sub.ahead, sub.refused
		h.mu.Unlock()
		switch {
		case err != nil:
			// A refused subscribe, or a connection that ended before the
			// answer, fails the subscribe; anything later, the wait.
			phase := PhaseWait
			if refused || !answered {
				phase = PhaseSubscribe
			}
			return nil, &ReadError{Phase: phase, Channel: ch, Err: err}
		case answered && m != nil:
			return m, nil
		}
		select {
		case <-ctx.Done():
			if !answered {
				return nil, &ReadError{Phase: PhaseSubscribe, Channel: ch, Ahead: ahead, Err: ctx.Err()}
			}
			return nil, &ReadError{Phase: PhaseWait, Channel: ch, Err: ctx.Err()}
		case <-changed:
		case <-sub.answered:
		case <-hc.c.Done():
			h.connEnded(hc)
		}
	}
}

// state returns the message that answers a read (nil while there is none),
// whether the subscribe was answered, and the error that ends the reads.
func (s *hubSub) state() (Message, bool, error) {
	answered := false
	select {
	case <-s.answered:
		answered = true
	default:
	}
	if s.err != nil {
		return nil, answered, s.err
	}
	if s.book != nil {
		return s.book.snapshot(), answered, nil
	}
	return s.latest, answered, nil
}

// notify wakes the reads waiting on s. Callers hold Hub.mu.
func (s *hubSub) notify() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// acquire returns the open connection, opening one when there is none, and
// counts the read on it.
func (h *Hub) acquire(ctx context.Context) (*hubConn, error) {
	for {
		h.mu.Lock()
		if h.closed {
			h.mu.Unlock()
			return nil, &ReadError{Phase: PhaseConnect, Err: fmt.Errorf("%w by the client", ErrConnectionClosed)}
		}
		if hc := h.conn; hc != nil && !hc.dead {
			hc.reads++
			if h.timer != nil {
				h.timer.Stop()
				h.timer = nil
			}
			h.mu.Unlock()
			return hc, nil
		}
		d := h.dial
		if d == nil {
			d = &hubDial{done: make(chan struct{})}
			h.dial = d
			// The dial serves every read waiting on it, so the first
			// read's cancellation must not end it.
			go h.open(context.WithoutCancel(ctx), d)
		}
		h.mu.Unlock()
		select {
		case <-ctx.Done():
			return nil, &ReadError{Phase: ReadPhase(d.phase.Load()), Err: ctx.Err()}
		case <-d.done:
			if d.err != nil {
				return nil, d.err
			}
		}
	}
}

// open gets a token and dials, for every read waiting on d. base carries
// no cancellation; the connection's operations run under it too.
func (h *Hub) open(base context.Context, d *hubDial) {
	ctx, cancel := context.WithTimeout(base, h.opts.DialTimeout)
	defer cancel()
	defer close(d.done)
	token, err := h.token(ctx)
	if err != nil {
		d.err = &ReadError{Phase: PhaseToken, Err: err}
		h.endDial(d, nil)
		return
	}
	d.phase.Store(int32(PhaseConnect))
	c, err := Dial(ctx, h.url, token, h.opts.Conn)
	if err != nil {
		d.err = &ReadError{Phase: PhaseConnect, Err: err}
		h.endDial(d, nil)
		return
	}
	h.dials.Add(1)
	octx, ocancel := context.WithCancel(base)
	hc := &hubConn{c: c, subs: map[Channel]*hubSub{}, ctx: octx, cancel: ocancel}
	go h.dispatch(hc)
	h.endDial(d, hc)
}

// endDial records the outcome of d; a connection that arrives after Close
// is closed at once.
func (h *Hub) endDial(d *hubDial, hc *hubConn) {
	h.mu.Lock()
	if h.dial == d {
		h.dial = nil
	}
	closed := h.closed
	if hc != nil && !closed {
		h.conn = hc
		d.conn = hc
	}
	h.mu.Unlock()
	if hc != nil && closed {
		hc.cancel()
		_ = hc.c.Close()
	}
}

// release ends a read on hc; the last one arms the idle timer.
func (h *Hub) release(hc *hubConn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	hc.reads--
	if hc.reads > 0 || h.conn != hc || hc.dead {
		return
	}
	if h.timer != nil {
		h.timer.Stop()
	}
	h.timer = time.AfterFunc(h.opts.Idle, func() { h.closeIdle(hc) })
}

// closeIdle closes hc when it is still idle.
func (h *Hub) closeIdle(hc *hubConn) {
	h.mu.Lock()
	if h.conn != hc || hc.reads > 0 {
		h.mu.Unlock()
		return
	}
	h.conn = nil
	h.timer = nil
	hc.dead = true
	h.mu.Unlock()
	hc.cancel()
	_ = hc.c.Close()
}

// Close closes the connection and ends the reads in progress; later reads
// fail.
func (h *Hub) Close() {
	h.mu.Lock()
	h.closed = true
	hc := h.conn
	h.conn = nil
	if h.timer != nil {
		h.timer.Stop()
		h.timer = nil
	}
	h.mu.Unlock()
	if hc != nil {
		hc.cancel()
		_ = hc.c.Close()
	}
}

// subscribe sends the subscribe of sub and records its answer.
func (h *Hub) subscribe(hc *hubConn, sub *hubSub) {
	ctx, cancel := context.WithTimeout(hc.ctx, h.opts.OpTimeout)
	defer cancel()
	h.subscribes.Add(1)
	_, err := hc.c.channelOp(ctx, OpSubscribe, []Channel{sub.ch})
	h.mu.Lock()
	defer h.mu.Unlock()
	hc.pending--
	if err != nil {
		if ctx.Err() != nil && hc.c.Err() != nil {
			err = hc.c.Err()
		}
		sub.err, sub.refused = err, true
		// A later read asks again.
		if hc.subs[sub.ch] == sub {
			delete(hc.subs, sub.ch)
		}
	}
	close(sub.answered)
}

// dispatch hands the connection's data messages to their subscriptions
// until the connection ends.
func (h *Hub) dispatch(hc *hubConn) {
	for m := range hc.c.Messages() {
		ch, ok := channelOf(m)
		if !ok {
			continue
		}
		h.mu.Lock()
		if sub := hc.subs[ch]; sub != nil && sub.err == nil && sub.apply(m) {
			sub.notify()
		}
		h.mu.Unlock()
	}
	h.connEnded(hc)
}

// connEnded marks hc dead and ends the reads waiting on it.
func (h *Hub) connEnded(hc *hubConn) {
	err := hc.c.closedErr()
	h.mu.Lock()
	defer h.mu.Unlock()
	if hc.dead && len(hc.subs) == 0 {
		return
	}
	hc.dead = true
	if h.conn == hc {
		h.conn = nil
	}
	for ch, sub := range hc.subs {
		if sub.err == nil {
			sub.err = err
			sub.notify()
		}
		delete(hc.subs, ch)
	}
	hc.cancel()
}

// apply takes m into the subscription's state and reports whether it
// changed. A market_data subscription starts from its first message that
// is not an UPDATE (the snapshot, sent once); UPDATEs before it are
// dropped, and later ones change the book (an amount of zero removes the
// level). A later snapshot replaces the book.
func (s *hubSub) apply(m Message) bool {
	switch v := m.(type) {
	case *MarketData:
		if v.Type != TypeUpdate {
			s.book = newBookState(v)
			return true
		}
		if s.book == nil {
			return false
		}
		s.book.update(v)
		return true
	case *TopOfBook:
		if v.Type != TypeTopOfBook {
			return false
		}
	}
	s.latest = m
	return true
}

func newBookState(m *MarketData) *bookState {
	b := &bookState{market: m.Market, time: m.Time, bids: map[string]bookLevel{}, asks: map[string]bookLevel{}}
	b.set(b.bids, m.Bids)
	b.set(b.asks, m.Asks)
	return b
}

func (b *bookState) update(m *MarketData) {
	b.time = m.Time
	b.set(b.bids, m.Bids)
	b.set(b.asks, m.Asks)
}

// set applies levels to side: a level whose amount is zero is removed. A
// price that is not a decimal is kept under its text.
func (b *bookState) set(side map[string]bookLevel, levels []Level) {
	for _, l := range levels {
		p, err := dec.NewFromString(l.Price)
		key := l.Price
		if err == nil {
			key = p.String()
		}
		if a, err := dec.NewFromString(l.Amount); err == nil && a.IsZero() {
			delete(side, key)
			continue
		}
		side[key] = bookLevel{price: p, level: l}
	}
}

// snapshot is the book as a SNAPSHOT message, best levels first.
func (b *bookState) snapshot() *MarketData {
	side := func(m map[string]bookLevel, desc bool) []Level {
		ls := make([]bookLevel, 0, len(m))
		for _, l := range m {
			ls = append(ls, l)
		}
		slices.SortFunc(ls, func(x, y bookLevel) int {
			if desc {
				return y.price.Cmp(x.price)
			}
			return x.price.Cmp(y.price)
		})
		out := make([]Level, len(ls))
		for i, l := range ls {
			out[i] = l.level
		}
		return out
	}
	return &MarketData{Market: b.market, Type: TypeSnapshot, Time: b.time, Bids: side(b.bids, true), Asks: side(b.asks, false)}
}
