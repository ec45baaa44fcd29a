package stream

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// newTestHub is a hub of the emulator's stream with the default client's
// token; it counts the tokens it asks for and is closed when the test ends.
func newTestHub(t *testing.T, s *emulator.Server, opts HubOptions) (*Hub, *int) {
	t.Helper()
	var mu sync.Mutex
	tokens := 0
	h := NewHub(s.WSURL(), func(context.Context) (string, error) {
		mu.Lock()
		tokens++
		mu.Unlock()
		return s.TokenForTest(t, Scope), nil
	}, opts)
	t.Cleanup(h.Close)
	return h, &tokens
}

// TestHubSharesConnectionAndSubscriptions makes ten concurrent reads of
// four (channel, market) pairs under the published subscription rate (one a
// second): they open one connection and make one subscription per pair,
// and each read gets a state of its own channel and market.
func TestHubSharesConnectionAndSubscriptions(t *testing.T) {
	s := emulator.StartTest(t, emulator.Options{SubscriptionInterval: SubscriptionRate, BookInterval: 5 * time.Millisecond})
	h, tokens := newTestHub(t, s, HubOptions{})
	reads := []Channel{
		{ChannelTopOfBook, "BTCUSD"}, {ChannelTopOfBook, "BTCUSD"}, {ChannelTopOfBook, "BTCUSD"},
		{ChannelMarketData, "BTCUSD"}, {ChannelMarketData, "BTCUSD"}, {ChannelMarketData, "BTCUSD"},
		{ChannelTopOfBook, "ETHUSD"}, {ChannelTopOfBook, "ETHUSD"},
		{ChannelMarketData, "ETHUSD"}, {ChannelMarketData, "ETHUSD"},
	}
	got := make([]Message, len(reads))
	errs := make([]error, len(reads))
	var wg sync.WaitGroup
	for i, ch := range reads {
		wg.Go(func() { got[i], errs[i] = h.Read(t.Context(), ch) })
	}
	wg.Wait()
	for i, ch := range reads {
		if errs[i] != nil {
			t.Fatalf("read %d (%s): %v", i, ch, errs[i])
		}
		switch m := got[i].(type) {
		case *TopOfBook:
			if ch.Type != ChannelTopOfBook || m.Market != ch.Market || m.Type != TypeTopOfBook || len(m.Bids) != 1 || len(m.Asks) != 1 {
				t.Errorf("read %d (%s) got %+v", i, ch, m)
			}
		case *MarketData:
			if ch.Type != ChannelMarketData || m.Market != ch.Market || m.Type != TypeSnapshot || len(m.Bids) < 2 || len(m.Asks) < 2 {
				t.Errorf("read %d (%s) got %+v", i, ch, m)
			}
		default:
			t.Errorf("read %d (%s) got %T", i, ch, m)
		}
	}
	if n := s.Counters.Requests("GET /ws"); n != 1 || h.Dials() != 1 || *tokens != 1 {
		t.Errorf("%d handshakes at the emulator, %d dials, %d tokens; want 1 each", n, h.Dials(), *tokens)
	}
	if n, sent := s.StreamSubscriptions(), h.Subscribes(); n != 4 || sent != 4 {
		t.Errorf("%d subscriptions at the emulator, %d subscribes sent; want 4 (one per channel and market)", n, sent)
	}
	// Each subscribe is sent once the one before is answered, so the later
	// ones wait their turn unless the machine stalls for a second each time.
	if n := s.SubscriptionWaits(); n < 1 {
		t.Errorf("no subscribe waited its turn: the rate was not in effect")
	}
}

// TestHubBookFollowsUpdates reads the book, lets it move, and reads it again
// from the same subscription: the second read is the book kept up to date,
// not the first snapshot, and stays a consistent book.
func TestHubBookFollowsUpdates(t *testing.T) {
	s := emulator.StartTest(t, emulator.Options{BookInterval: 2 * time.Millisecond})
	h, _ := newTestHub(t, s, HubOptions{Idle: time.Minute})
	ch := Channel{ChannelMarketData, "BTCUSD"}
	first, err := h.Read(t.Context(), ch)
	if err != nil {
		t.Fatal(err)
	}
	t0 := first.(*MarketData).Time
	var second *MarketData
	waitFor(t, "the book to move", func() bool {
		m, err := h.Read(t.Context(), ch)
		if err != nil {
			t.Fatal(err)
		}
		second = m.(*MarketData)
		return second.Time != t0
	})
	if h.Subscribes() != 1 || h.Dials() != 1 {
		t.Errorf("%d subscribes, %d dials; want 1 each", h.Subscribes(), h.Dials())
	}
	for i := 1; i < len(second.Bids); i++ {
		if decimal(t, second.Bids[i].Price) >= decimal(t, second.Bids[i-1].Price) {
			t.Fatalf("bids not strictly descending at %d: %+v", i, second.Bids)
		}
	}
	for i := 1; i < len(second.Asks); i++ {
		if decimal(t, second.Asks[i].Price) <= decimal(t, second.Asks[i-1].Price) {
			t.Fatalf("asks not strictly ascending at %d: %+v", i, second.Asks)
		}
	}
	if decimal(t, second.Bids[0].Price) >= decimal(t, second.Asks[0].Price) {
		t.Errorf("crossed book: best bid %s, best ask %s", second.Bids[0].Price, second.Asks[0].Price)
	}
}

// TestBookState applies a snapshot and updates by hand: UPDATEs before the
// snapshot are dropped, a zero amount removes a level, prices are compared
// as decimals, and a later snapshot replaces the book.
func TestBookState(t *testing.T) {
	sub := &hubSub{}
	apply := func(m *MarketData) bool {
		t.Helper()
		changed, err := sub.apply(m, checkMessage(Channel{ChannelMarketData, m.Market}, m))
		if err != nil {
			t.Fatal(err)
		}
		return changed
	}
	state := func() *MarketData {
		if sub.book == nil {
			return nil
		}
		return sub.book.view().sort()
	}
	l := func(p, a string) Level { return Level{Price: p, Amount: a} }
	if apply(&MarketData{Market: "BTCUSD", Type: TypeUpdate, Bids: []Level{l("1", "1")}}) {
		t.Fatal("an UPDATE before the snapshot was taken")
	}
	if m := state(); m != nil {
		t.Fatalf("state before the snapshot: %+v", m)
	}
	apply(&MarketData{Market: "BTCUSD", Type: TypeSnapshot, Time: "t1",
		Bids: []Level{l("99", "1"), l("100", "2"), l("98.5", "3")}, Asks: []Level{l("102", "1"), l("101", "2")}})
	apply(&MarketData{Market: "BTCUSD", Type: TypeUpdate, Time: "t2",
		Bids: []Level{l("100.00", "0"), l("99.0", "7"), l("99.5", "4")}, Asks: []Level{l("100.5", "1")}})
	book := state()
	want := "t2 bids [{99.5 4} {99.0 7} {98.5 3}] asks [{100.5 1} {101 2} {102 1}]"
	if got := fmt.Sprintf("%s bids %v asks %v", book.Time, book.Bids, book.Asks); got != want {
		t.Errorf("book\n got %s\nwant %s", got, want)
	}
	apply(&MarketData{Market: "BTCUSD", Type: TypeSnapshot, Time: "t3", Bids: []Level{l("90", "1")}})
	if book := state(); len(book.Bids) != 1 || len(book.Asks) != 0 || book.Time != "t3" {
		t.Errorf("a later snapshot did not replace the book: %+v", book)
	}
}

// TestHubSnapshotBeforeReply reads market_data from a stream that sends an
// UPDATE and then the SNAPSHOT before the subscribe reply: the read returns
// the whole snapshot, not the UPDATE, and is not lost.
func TestHubSnapshotBeforeReply(t *testing.T) {
	s := emulator.StartTest(t, emulator.Options{SnapshotBeforeReply: true, BookInterval: time.Hour})
	h, _ := newTestHub(t, s, HubOptions{})
	m, err := h.Read(t.Context(), Channel{ChannelMarketData, "ETHUSD"})
	if err != nil {
		t.Fatal(err)
	}
	if md := m.(*MarketData); md.Type != TypeSnapshot || len(md.Bids) < 2 || len(md.Asks) < 2 {
		t.Errorf("got %+v, want the whole snapshot", md)
	}
}

// TestHubRefusedChannel reads an unknown market: the read fails in the
// subscribe phase with the channel's code, and a later read asks again.
func TestHubRefusedChannel(t *testing.T) {
	s := emulator.StartTest(t, emulator.Options{SubscriptionInterval: -1})
	h, _ := newTestHub(t, s, HubOptions{})
	for range 2 {
		_, err := h.Read(t.Context(), Channel{ChannelTopOfBook, "BTC-USD"})
		var re *ReadError
		var ce *ChannelError
		if !errors.As(err, &re) || re.Phase != PhaseSubscribe || !errors.As(err, &ce) || ce.Code != CodeUnknownChannelParamsConfiguration {
			t.Fatalf("read = %v; want a subscribe-phase *ReadError with %s", err, CodeUnknownChannelParamsConfiguration)
		}
	}
	if h.Subscribes() != 2 || h.Dials() != 1 {
		t.Errorf("%d subscribes, %d dials; want 2 and 1", h.Subscribes(), h.Dials())
	}
}

// TestHubTimeoutWaitingForTurn reads a second channel while the service
// holds its subscribe under the subscription rate: the read ends with its
// context, in the subscribe phase. The context ends once the service holds
// the subscribe, whenever that is.
func TestHubTimeoutWaitingForTurn(t *testing.T) {
	s := emulator.StartTest(t, emulator.Options{SubscriptionInterval: time.Hour})
	h, _ := newTestHub(t, s, HubOptions{})
	if _, err := h.Read(t.Context(), Channel{ChannelTopOfBook, "BTCUSD"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	read := readLater(ctx, h, Channel{ChannelTopOfBook, "ETHUSD"})
	waitFor(t, "the service to hold the second subscribe", func() bool { return s.SubscriptionWaits() == 1 })
	cancel()
	err := <-read
	var re *ReadError
	if !errors.As(err, &re) || re.Phase != PhaseSubscribe || re.Ahead != 0 || !errors.Is(err, context.Canceled) {
		t.Fatalf("read = %#v; want a subscribe-phase *ReadError wrapping the context's end", err)
	}
	if s.SubscriptionWaits() != 1 {
		t.Errorf("%d subscribes waited their turn at the emulator, want 1", s.SubscriptionWaits())
	}
}

// TestHubIdleCloseAndReconnect: the connection closes once idle, and a
// later read opens a new one.
func TestHubIdleCloseAndReconnect(t *testing.T) {
	s := emulator.StartTest(t, emulator.Options{SubscriptionInterval: -1})
	h, _ := newTestHub(t, s, HubOptions{Idle: 20 * time.Millisecond})
	ch := Channel{ChannelTopOfBook, "SOLUSD"}
	if _, err := h.Read(t.Context(), ch); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the idle connection to close", func() bool { return s.StreamConnections() == 0 })
	if _, err := h.Read(t.Context(), ch); err != nil {
		t.Fatal(err)
	}
	if h.Dials() != 2 || s.Counters.Requests("GET /ws") != 2 {
		t.Errorf("%d dials, %d handshakes; want 2 each", h.Dials(), s.Counters.Requests("GET /ws"))
	}
}

// TestHubDroppedConnection: a connection dropped before the first data
// message fails the read as closed, and the next read reconnects.
func TestHubDroppedConnection(t *testing.T) {
	s := emulator.StartTest(t, emulator.Options{SubscriptionInterval: -1})
	s.Faults.DropWS(1)
	h, _ := newTestHub(t, s, HubOptions{})
	_, err := h.Read(t.Context(), Channel{ChannelTopOfBook, "BTCUSD"})
	if !errors.Is(err, ErrConnectionClosed) {
		t.Fatalf("read = %v, want ErrConnectionClosed", err)
	}
	if _, err := h.Read(t.Context(), Channel{ChannelTopOfBook, "BTCUSD"}); err != nil {
		t.Fatalf("the read after the drop: %v", err)
	}
	if h.Dials() != 2 {
		t.Errorf("%d dials, want 2", h.Dials())
	}
}

// TestHubTokenError: a token failure is a token-phase error, and nothing
// is dialled.
func TestHubTokenError(t *testing.T) {
	s := emulator.StartTest(t, emulator.Options{})
	boom := errors.New("token endpoint unreachable")
	h := NewHub(s.WSURL(), func(context.Context) (string, error) { return "", boom }, HubOptions{})
	defer h.Close()
	_, err := h.Read(t.Context(), Channel{ChannelTopOfBook, "BTCUSD"})
	var re *ReadError
	if !errors.As(err, &re) || re.Phase != PhaseToken || !errors.Is(err, boom) {
		t.Fatalf("read = %v, want a token-phase error", err)
	}
	if n := s.Counters.Requests("GET /ws"); n != 0 {
		t.Errorf("%d handshakes, want 0", n)
	}
}
