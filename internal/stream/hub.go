package stream

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// The service allows one subscription per second per IP address and makes
// the excess wait silently. A process that opened one connection and one
// subscription per read would make ten reads of one market wait ten
// seconds. A Hub shares instead: every read of a process goes through one
// connection, and reads of the same channel and market share one
// subscription, whose latest state (the book kept up to date from its
// snapshot and updates, the latest top of book) answers each of them. A
// subscription no read has used for HubOptions.Idle is unsubscribed, even
// while other reads keep the connection open. What a subscription keeps is
// bounded (bounds.go).

// DefaultHubIdle is how long a Hub keeps its connection open after the last
// read ended, and a subscription after the last read of it ended, so that
// the reads of one run that do not overlap still share them.
const DefaultHubIdle = time.Second

// SubscriptionRate is the published limit: one subscription per this
// interval per IP address; the service makes excess subscriptions wait.
const SubscriptionRate = time.Second

// HubOptions tune a Hub. The zero value is usable.
type HubOptions struct {
	// Conn tunes the connection.
	Conn Options
	// Idle is how long the connection stays open after the last read
	// ended, and a subscription after the last read of its channel ended
	// (it is then unsubscribed); default DefaultHubIdle.
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

	dials, subscribes, unsubscribes atomic.Int64
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
	// unsubscribing holds, per channel, the unsubscribe in progress of a
	// subscription dropped for want of a reader; it is closed when it
	// ends. A new subscribe of the channel waits for it.
	unsubscribing map[Channel]chan struct{}
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
	// readers is the number of reads in progress of the channel; idle
	// drops the subscription once none has used it for HubOptions.Idle.
	readers int
	idle    *time.Timer
}

// errNoReader ends a subscription dropped because no read used it.
var errNoReader = errors.New("the subscription was dropped: no read used it")

// bookState is an order book kept up to date: price levels by the
// canonical text of their price (normDecimal).
type bookState struct {
	market     string
	time       string
	bids, asks map[string]Level
	// version counts the changes; sorted is the book sorted at version
	// sortedAt, or nil.
	version  uint64
	sorted   *MarketData
	sortedAt uint64
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

// Unsubscribes is the number of unsubscribe requests the Hub has sent for
// the subscriptions it dropped: those no read used for HubOptions.Idle, and
// those whose messages it refused (bounds.go).
func (h *Hub) Unsubscribes() int64 { return h.unsubscribes.Load() }

// Subscriptions is the number of subscriptions on the open connection
// (subscribed or being subscribed); 0 when none is open.
func (h *Hub) Subscriptions() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.conn == nil {
		return 0
	}
	return len(h.conn.subs)
}

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
		go h.subscribe(hc, sub, hc.unsubscribing[ch])
	}
	if sub != nil {
		sub.readers++
		if sub.idle != nil {
			sub.idle.Stop()
			sub.idle = nil
		}
	}
	h.mu.Unlock()
	if sub == nil {
		return nil, &ReadError{Phase: PhaseSubscribe, Channel: ch, Err: hc.c.closedErr()}
	}
	defer h.leave(hc, sub)
	for {
		// Nothing is sorted or copied here: a wake-up costs the same
		// whatever the size of the book.
		h.mu.Lock()
		answered := sub.isAnswered()
		err, book, latest := sub.err, sub.book, sub.latest
		changed, ahead, refused := sub.changed, sub.ahead, sub.refused
		var view *bookView
		if err == nil && answered && book != nil {
			view = book.view()
		}
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
		case view != nil:
			return h.sortedBook(sub, view), nil
		case answered && book == nil && latest != nil:
			return latest, nil
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

// isAnswered reports whether the subscribe was answered.
func (s *hubSub) isAnswered() bool {
	select {
	case <-s.answered:
		return true
	default:
		return false
	}
}

// sortedBook returns the book of v sorted, best levels first: the cached
// one when the book has not changed since it was sorted, otherwise one
// sorted here, outside the Hub's lock, and cached for the reads that follow.
// Each read gets slices of its own.
func (h *Hub) sortedBook(sub *hubSub, v *bookView) *MarketData {
	md := v.sorted
	if md == nil {
		md = v.sort()
		h.mu.Lock()
		if b := sub.book; b == v.book && b.version == v.version {
			b.sorted, b.sortedAt = md, v.version
		}
		h.mu.Unlock()
	}
	out := *md
	out.Bids, out.Asks = slices.Clone(md.Bids), slices.Clone(md.Asks)
	return &out
}

// leave ends a read of sub; when it was the last, sub is unsubscribed
// unless another read uses it within HubOptions.Idle.
func (h *Hub) leave(hc *hubConn, sub *hubSub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	sub.readers--
	if sub.readers > 0 || hc.subs[sub.ch] != sub || hc.dead || sub.err != nil {
		return
	}
	if sub.idle != nil {
		sub.idle.Stop()
	}
	sub.idle = time.AfterFunc(h.opts.Idle, func() { h.dropIdle(hc, sub) })
}

// dropIdle unsubscribes sub when still no read uses it.
func (h *Hub) dropIdle(hc *hubConn, sub *hubSub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if hc.subs[sub.ch] != sub || sub.readers > 0 || hc.dead {
		return
	}
	sub.idle = nil
	h.drop(hc, sub, errNoReader)
}

// drop removes sub from hc, ends its reads with cause, forgets its state
// and unsubscribes it. A subscribe of the same channel made meanwhile is
// sent once the unsubscribe has ended. Callers hold Hub.mu.
func (h *Hub) drop(hc *hubConn, sub *hubSub, cause error) {
	if hc.subs[sub.ch] == sub {
		delete(hc.subs, sub.ch)
	}
	if sub.idle != nil {
		sub.idle.Stop()
		sub.idle = nil
	}
	sub.book, sub.latest = nil, nil
	if sub.err == nil {
		sub.err = cause
		sub.notify()
	}
	done := make(chan struct{})
	hc.unsubscribing[sub.ch] = done
	go h.unsubscribe(hc, sub, done)
}

// unsubscribe sends the unsubscribe of a dropped sub once its subscribe was
// answered (not when it was refused), then closes done.
func (h *Hub) unsubscribe(hc *hubConn, sub *hubSub, done chan struct{}) {
	defer func() {
		h.mu.Lock()
		if hc.unsubscribing[sub.ch] == done {
			delete(hc.unsubscribing, sub.ch)
		}
		h.mu.Unlock()
		close(done)
	}()
	select {
	case <-sub.answered:
	case <-hc.ctx.Done():
		return
	}
	h.mu.Lock()
	refused := sub.refused
	h.mu.Unlock()
	if refused {
		return
	}
	ctx, cancel := context.WithTimeout(hc.ctx, h.opts.OpTimeout)
	defer cancel()
	h.unsubscribes.Add(1)
	// A failure leaves nothing to do: the channel's messages that still
	// arrive have no subscription and are dropped.
	_, _ = hc.c.channelOp(ctx, OpUnsubscribe, []Channel{sub.ch})
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
	hc := &hubConn{c: c, subs: map[Channel]*hubSub{}, unsubscribing: map[Channel]chan struct{}{}, ctx: octx, cancel: ocancel}
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

// subscribe sends the subscribe of sub, once the unsubscribe of the same
// channel in progress (after, when not nil) has ended, and records its
// answer.
func (h *Hub) subscribe(hc *hubConn, sub *hubSub, after <-chan struct{}) {
	ctx, cancel := context.WithTimeout(hc.ctx, h.opts.OpTimeout)
	defer cancel()
	var err error
	if after != nil {
		select {
		case <-after:
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	if err == nil {
		h.subscribes.Add(1)
		_, err = hc.c.channelOp(ctx, OpSubscribe, []Channel{sub.ch})
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	hc.pending--
	if err != nil {
		if ctx.Err() != nil && hc.c.Err() != nil {
			err = hc.c.Err()
		}
		if sub.err == nil {
			sub.err = err
		}
		sub.refused = true
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
		// The check of the message's decimals takes no lock.
		bad := checkMessage(ch, m)
		h.mu.Lock()
		if sub := hc.subs[ch]; sub != nil && sub.err == nil {
			changed, err := sub.apply(m, bad)
			if err != nil {
				h.failSub(hc, sub, err)
			} else if changed {
				sub.notify()
			}
		}
		h.mu.Unlock()
	}
	h.connEnded(hc)
}

// failSub ends sub with err, a refusal of what the stream sent: its reads
// fail with err, and it is unsubscribed (a later read subscribes again).
// Callers hold Hub.mu.
func (h *Hub) failSub(hc *hubConn, sub *hubSub, err error) {
	h.drop(hc, sub, err)
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
		if sub.idle != nil {
			sub.idle.Stop()
			sub.idle = nil
		}
		delete(hc.subs, ch)
	}
	hc.cancel()
}

// apply takes m into the subscription's state and reports whether it
// changed. bad is what checkMessage found wrong with m: a market_data or
// top of book message with a price or an amount that is not a plain
// decimal is refused with it (execution messages and heartbeats are kept
// as the latest message otherwise). A market_data subscription starts from
// its first message that is not an UPDATE (the snapshot, sent once);
// UPDATEs before it are dropped, and later ones change the book (an amount
// of zero removes the level). A later snapshot replaces the book. A side
// of the book longer than MaxBookLevels is an error wrapping
// ErrBookTooLarge.
func (s *hubSub) apply(m Message, bad error) (bool, error) {
	switch v := m.(type) {
	case *MarketData:
		if v.Type != TypeUpdate {
			if bad != nil {
				return false, bad
			}
			b := &bookState{market: v.Market, bids: map[string]Level{}, asks: map[string]Level{}}
			if err := b.update(v); err != nil {
				return false, err
			}
			s.book = b
			return true, nil
		}
		if s.book == nil {
			return false, nil
		}
		if bad != nil {
			return false, bad
		}
		return true, s.book.update(v)
	case *TopOfBook:
		if v.Type != TypeTopOfBook {
			return false, nil
		}
	}
	if bad != nil {
		return false, bad
	}
	s.latest = m
	return true, nil
}

// update applies the levels of m, whose decimals were checked, and takes its
// time.
func (b *bookState) update(m *MarketData) error {
	b.time = m.Time
	b.version++
	if err := b.set(b.bids, m.Bids, "bid"); err != nil {
		return err
	}
	return b.set(b.asks, m.Asks, "ask")
}

// set applies levels to side: a level whose amount is zero is removed. A
// side longer than MaxBookLevels is an error.
func (b *bookState) set(side map[string]Level, levels []Level, name string) error {
	for _, l := range levels {
		key := normDecimal(l.Price)
		if normDecimal(l.Amount) == "0" {
			delete(side, key)
			continue
		}
		side[key] = l
	}
	if len(side) > MaxBookLevels {
		return fmt.Errorf("%w: the %s side of the book of market %.64q holds more than %d levels, more than "+
			"any market has; the subscription was dropped", ErrBookTooLarge, name, b.market, MaxBookLevels)
	}
	return nil
}

// bookView is what a read takes of a book under the Hub's lock: its sorted
// form when cached, otherwise a copy of its levels to sort outside the lock.
type bookView struct {
	book       *bookState
	version    uint64
	sorted     *MarketData
	market     string
	time       string
	bids, asks []keyedLevel
}

type keyedLevel struct {
	key   string
	level Level
}

// view returns the book's sorted form when it is up to date, or a copy of
// its levels (at most 2*MaxBookLevels). Callers hold Hub.mu.
func (b *bookState) view() *bookView {
	v := &bookView{book: b, version: b.version, market: b.market, time: b.time}
	if b.sorted != nil && b.sortedAt == b.version {
		v.sorted = b.sorted
		return v
	}
	copySide := func(m map[string]Level) []keyedLevel {
		out := make([]keyedLevel, 0, len(m))
		for k, l := range m {
			out = append(out, keyedLevel{key: k, level: l})
		}
		return out
	}
	v.bids, v.asks = copySide(b.bids), copySide(b.asks)
	return v
}

// sort is the copied book as a SNAPSHOT message, best levels first (bids
// highest first, asks lowest first), compared as plain decimals.
func (v *bookView) sort() *MarketData {
	side := func(ls []keyedLevel, desc bool) []Level {
		slices.SortFunc(ls, func(x, y keyedLevel) int {
			if desc {
				return cmpDecimal(y.key, x.key)
			}
			return cmpDecimal(x.key, y.key)
		})
		out := make([]Level, len(ls))
		for i, l := range ls {
			out[i] = l.level
		}
		return out
	}
	return &MarketData{Market: v.market, Type: TypeSnapshot, Time: v.time, Bids: side(v.bids, true), Asks: side(v.asks, false)}
}
