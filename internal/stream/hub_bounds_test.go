package stream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// hostileStream is a stream server for the Hub's bounds. For each channel
// subscribed, plan says whether to answer the subscribe and what to send:
// feed runs in a goroutine of its own and sends frames until it returns,
// the channel is unsubscribed, or the connection ends. It counts the
// unsubscribes it receives.
type hostileStream struct {
	plan         func(ch Channel) (answer bool, feed func(send func(frame []byte) bool))
	unsubscribes atomic.Int64
	unsubscribed chan Channel
}

func newHostileStream(t *testing.T, plan func(ch Channel) (bool, func(send func([]byte) bool))) (*hostileStream, string) {
	t.Helper()
	hs := &hostileStream{plan: plan, unsubscribed: make(chan Channel, 16)}
	return hs, fakeServer(t, hs.serve)
}

func (hs *hostileStream) serve(ws *websocket.Conn, stop <-chan struct{}) {
	var (
		wmu   sync.Mutex
		wg    sync.WaitGroup
		mu    sync.Mutex
		feeds = map[Channel]chan struct{}{}
	)
	ended := make(chan struct{})
	defer func() {
		close(ended)
		_ = ws.Close()
		wg.Wait()
	}()
	write := func(b []byte) bool {
		wmu.Lock()
		defer wmu.Unlock()
		return ws.WriteMessage(websocket.TextMessage, b) == nil
	}
	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			return
		}
		var req struct {
			Type     string `json:"type"`
			Channels []struct {
				Type   string `json:"type"`
				Params struct {
					Market string `json:"market"`
				} `json:"params"`
			} `json:"channels"`
		}
		if json.Unmarshal(data, &req) != nil || len(req.Channels) != 1 {
			continue
		}
		ch := Channel{Type: req.Channels[0].Type, Market: req.Channels[0].Params.Market}
		reply := fmt.Sprintf(`{"type":%q,"channels":[{"type":%q,"params":{"market":%q},"success":true}]}`, req.Type, ch.Type, ch.Market)
		switch req.Type {
		case OpUnsubscribe:
			mu.Lock()
			if quit := feeds[ch]; quit != nil {
				close(quit)
				delete(feeds, ch)
			}
			mu.Unlock()
			hs.unsubscribes.Add(1)
			select {
			case hs.unsubscribed <- ch:
			default:
			}
			write([]byte(reply))
		case OpSubscribe:
			answer, feed := hs.plan(ch)
			if answer {
				write([]byte(reply))
			}
			if feed == nil {
				continue
			}
			quit := make(chan struct{})
			mu.Lock()
			feeds[ch] = quit
			mu.Unlock()
			wg.Go(func() {
				feed(func(frame []byte) bool {
					select {
					case <-quit:
						return false
					case <-stop:
						return false
					case <-ended:
						return false
					default:
					}
					return write(frame)
				})
			})
		}
	}
}

// bookFrame is a market_data frame of market with the given levels.
func bookFrame(market, typ string, bids, asks []Level) []byte {
	b, _ := json.Marshal(map[string]any{"channel": ChannelMarketData, "payload": map[string]any{
		"market": market, "type": typ, "time": "2026-01-02T03:04:05Z", "bids": bids, "asks": asks}})
	return b
}

// freshLevels returns n bid levels at prices never sent before (from *next).
func freshLevels(next *int, n int) []Level {
	out := make([]Level, n)
	for i := range out {
		*next++
		out[i] = Level{Price: fmt.Sprintf("%d.%02d", 1000+*next/100, *next%100), Amount: "1.5"}
	}
	return out
}

// floodFresh sends a snapshot, then UPDATEs of 500 fresh levels each until
// told to stop.
func floodFresh(market string) func(send func([]byte) bool) {
	return func(send func([]byte) bool) {
		next := 0
		if !send(bookFrame(market, TypeSnapshot, freshLevels(&next, 10), []Level{{"999999", "1"}})) {
			return
		}
		for send(bookFrame(market, TypeUpdate, freshLevels(&next, 500), nil)) {
		}
	}
}

// floodChurn sends a snapshot, then UPDATEs that each add 200 fresh levels
// and remove the 200 added twenty UPDATEs before: the book changes at every
// message and stays near 4,000 levels, under MaxBookLevels.
func floodChurn(market string) func(send func([]byte) bool) {
	return func(send func([]byte) bool) {
		next := 0
		if !send(bookFrame(market, TypeSnapshot, freshLevels(&next, 10), []Level{{"999999", "1"}})) {
			return
		}
		var added [][]Level
		for {
			levels := freshLevels(&next, 200)
			added = append(added, levels)
			if len(added) > 20 {
				for _, l := range added[0] {
					levels = append(levels, Level{Price: l.Price, Amount: "0"})
				}
				added = added[1:]
			}
			if !send(bookFrame(market, TypeUpdate, levels, nil)) {
				return
			}
		}
	}
}

func heapInUse() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestHubFloodOfFreshLevelsBounded: a server floods UPDATEs of fresh price
// levels (500 a message, as fast as it can) while reads of the book follow
// one another, until the flood has hit the cap three times. The book never
// holds more than MaxBookLevels levels a side: the subscription fails with
// ErrBookTooLarge and is dropped once it would, and the heap the Hub holds
// while the flood goes on stays small.
func TestHubFloodOfFreshLevelsBounded(t *testing.T) {
	_, wsURL := newHostileStream(t, func(ch Channel) (bool, func(func([]byte) bool)) {
		return true, floodFresh(ch.Market)
	})
	runtime.GC()
	before := heapInUse()
	h := NewHub(wsURL, func(context.Context) (string, error) { return "tok", nil }, HubOptions{})
	defer h.Close()

	var peak atomic.Uint64
	sampled := make(chan struct{})
	stopSampling := make(chan struct{})
	go func() {
		defer close(sampled)
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stopSampling:
				return
			case <-t.C:
				if v := heapInUse(); v > peak.Load() {
					peak.Store(v)
				}
			}
		}
	}()

	ch := Channel{ChannelMarketData, "BTCUSD"}
	tooLarge, books := 0, 0
	// Each hit of the cap drops the subscription. The cap is hit about
	// twice a second on an idle machine; the minute only stops a Hub that
	// never refuses a book.
	start := time.Now()
	for deadline := start.Add(time.Minute); h.Unsubscribes() < 3; {
		if time.Now().After(deadline) {
			t.Fatalf("%d books read and %d refused, %d subscriptions dropped in a minute of flood: the cap of %d levels a side was not hit three times",
				books, tooLarge, h.Unsubscribes(), MaxBookLevels)
		}
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		m, err := h.Read(ctx, ch)
		cancel()
		switch {
		case errors.Is(err, ErrBookTooLarge):
			tooLarge++
		case err != nil:
			t.Fatalf("read: %v", err)
		default:
			books++
			if md := m.(*MarketData); len(md.Bids) > MaxBookLevels || len(md.Asks) > MaxBookLevels {
				t.Fatalf("a book of %d bids and %d asks, more than %d a side", len(md.Bids), len(md.Asks), MaxBookLevels)
			}
		}
	}
	// Still flooding: what the Hub holds now is what it keeps.
	runtime.GC()
	held := int64(heapInUse()) - int64(before)
	close(stopSampling)
	<-sampled
	peakGrowth := int64(peak.Load()) - int64(before)
	// The cap is mostly hit between two reads: the subscription is then
	// dropped without a read to tell, and the next read subscribes again.
	dropped := h.Unsubscribes()
	t.Logf("%d books, %d reads refused a book too large and %d subscriptions dropped in %v of flood; "+
		"heap held %.1f MiB, peak growth %.1f MiB",
		books, tooLarge, dropped, time.Since(start).Round(time.Millisecond), float64(held)/(1<<20), float64(peakGrowth)/(1<<20))
	if held > 64<<20 {
		t.Errorf("the heap grew by %.1f MiB under the flood, want under 64 MiB", float64(held)/(1<<20))
	}
}

// TestHubReadTimeoutUnderFlood: a server withholds the answer to the
// subscribe and floods the book meanwhile, every message changing it.
// Reads with a 2s timeout return with their deadline, while the flood goes
// on (within lateBy of it: a Hub that waited for the flood to end would
// never return).
func TestHubReadTimeoutUnderFlood(t *testing.T) {
	_, wsURL := newHostileStream(t, func(ch Channel) (bool, func(func([]byte) bool)) {
		return false, floodChurn(ch.Market)
	})
	h := NewHub(wsURL, func(context.Context) (string, error) { return "tok", nil }, HubOptions{})
	defer h.Close()
	const timeout = 2 * time.Second
	const reads = 4
	late := make([]time.Duration, reads)
	errs := make([]error, reads)
	var wg sync.WaitGroup
	for i := range reads {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(t.Context(), timeout)
			defer cancel()
			start := time.Now()
			_, errs[i] = h.Read(ctx, Channel{ChannelMarketData, "BTCUSD"})
			late[i] = time.Since(start) - timeout
		})
	}
	wg.Wait()
	for i := range reads {
		var re *ReadError
		if !errors.As(errs[i], &re) || re.Phase != PhaseSubscribe || !errors.Is(errs[i], context.DeadlineExceeded) {
			t.Errorf("read %d = %v; want a subscribe-phase *ReadError wrapping the deadline", i, errs[i])
		}
		t.Logf("read %d returned %v past its timeout", i, late[i])
		if late[i] > lateBy {
			t.Errorf("read %d returned %v past its %v timeout, want under %v", i, late[i], timeout, lateBy)
		}
	}
}

// TestHubRefusesExponentPrices: prices and amounts that are not plain
// decimals (7e9999 and its kin, as JSON numbers or strings) are refused
// with an error naming the field, at once: a snapshot of 20,000 such levels
// is never parsed nor sorted.
func TestHubRefusesExponentPrices(t *testing.T) {
	many := func(bad Level, at, n int) []Level {
		out := make([]Level, n)
		for i := range out {
			out[i] = Level{Price: fmt.Sprintf("7e%d", 9999-i%100), Amount: "1"}
		}
		for i := range at {
			out[i] = Level{Price: fmt.Sprint(100 - i), Amount: "1"}
		}
		out[at] = bad
		return out
	}
	cases := []struct {
		name, channel string
		frame         []byte
		field         string
	}{
		{"price as a JSON number", ChannelMarketData,
			[]byte(`{"channel":"market_data","payload":{"market":"BTCUSD","type":"SNAPSHOT","time":"t","bids":[["100","1"],[7e9999,"1"]],"asks":[]}}`),
			"bids[1].price"},
		{"20,000 exponent prices", ChannelMarketData,
			bookFrame("BTCUSD", TypeSnapshot, many(Level{"7e9999", "1"}, 3, 20_000), nil), "bids[3].price"},
		{"amount", ChannelMarketData,
			bookFrame("BTCUSD", TypeSnapshot, nil, []Level{{"101", "1"}, {"102", "1e-9999"}}), "asks[1].amount"},
		{"negative price", ChannelMarketData,
			bookFrame("BTCUSD", TypeSnapshot, []Level{{"-5", "1"}}, nil), "bids[0].price"},
		{"price of 65 digits", ChannelMarketData,
			bookFrame("BTCUSD", TypeSnapshot, []Level{{strings.Repeat("9", 65), "1"}}, nil), "bids[0].price"},
		{"top of book", ChannelTopOfBook,
			[]byte(`{"channel":"market_data.top_of_book","payload":{"market":"BTCUSD","type":"TOP_OF_BOOK","timestamp":"t","bids":[{"price":"1E+5","amount":"1"}],"asks":[]}}`),
			"bids[0].price"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, wsURL := newHostileStream(t, func(Channel) (bool, func(func([]byte) bool)) {
				return true, func(send func([]byte) bool) { send(tc.frame) }
			})
			h := NewHub(wsURL, func(context.Context) (string, error) { return "tok", nil }, HubOptions{})
			defer h.Close()
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			start := time.Now()
			_, err := h.Read(ctx, Channel{tc.channel, "BTCUSD"})
			took := time.Since(start)
			var de *DecimalError
			if !errors.As(err, &de) || de.Field != tc.field || !strings.Contains(err.Error(), tc.field) {
				t.Fatalf("read = %v; want a *DecimalError naming %s", err, tc.field)
			}
			t.Logf("refused in %v: %v", took, err)
			if took > lateBy {
				t.Errorf("refused after %v, want under %v", took, lateBy)
			}
		})
	}
}

// TestHubDropsSubscriptionWithoutReader: a read holds the connection (its
// channel answered, never fed), and a book read returns while the server
// floods the book: the book's subscription, which no read uses, is
// unsubscribed after HubOptions.Idle, and a later read of it subscribes
// again. The held read starts first, so that the connection never goes
// idle, however late any goroutine runs.
func TestHubDropsSubscriptionWithoutReader(t *testing.T) {
	hs, wsURL := newHostileStream(t, func(ch Channel) (bool, func(func([]byte) bool)) {
		if ch.Type == ChannelMarketData {
			return true, floodChurn(ch.Market)
		}
		return true, nil
	})
	h := NewHub(wsURL, func(context.Context) (string, error) { return "tok", nil }, HubOptions{Idle: 100 * time.Millisecond})
	defer h.Close()
	book := Channel{ChannelMarketData, "BTCUSD"}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	held := readLater(ctx, h, Channel{ChannelTopOfBook, "ETHUSD"})
	waitFor(t, "the held read to subscribe", func() bool { return h.Subscribes() == 1 })
	if _, err := h.Read(t.Context(), book); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-hs.unsubscribed:
		if got != book {
			t.Errorf("the server saw an unsubscribe of %s, want %s", got, book)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the book's subscription, which no read uses, was not unsubscribed")
	}
	waitFor(t, "the Hub to forget the book's subscription", func() bool { return h.Subscriptions() == 1 })
	if n := h.Unsubscribes(); n != 1 {
		t.Errorf("%d unsubscribes sent, want 1", n)
	}
	if _, err := h.Read(t.Context(), book); err != nil {
		t.Fatalf("reading the book again: %v", err)
	}
	if n := h.Subscribes(); n != 3 {
		t.Errorf("%d subscribes, want 3 (the held channel once, the book twice)", n)
	}
	if n := h.Dials(); n != 1 {
		t.Errorf("%d dials, want 1: the held read kept the connection open", n)
	}
	cancel()
	if err := <-held; !errors.Is(err, context.Canceled) {
		t.Errorf("held read = %v, want cancelled", err)
	}
}

// TestBookLevelsCap: a side of MaxBookLevels levels is a book; one more
// level fails with ErrBookTooLarge, from a snapshot or from an UPDATE.
func TestBookLevelsCap(t *testing.T) {
	next := 0
	full := freshLevels(&next, MaxBookLevels)
	apply := func(sub *hubSub, m *MarketData) error {
		_, err := sub.apply(m, checkMessage(Channel{ChannelMarketData, m.Market}, m))
		return err
	}
	sub := &hubSub{}
	if err := apply(sub, &MarketData{Market: "X", Type: TypeSnapshot, Bids: full}); err != nil {
		t.Fatalf("a full side: %v", err)
	}
	if err := apply(sub, &MarketData{Market: "X", Type: TypeUpdate, Bids: freshLevels(&next, 1)}); !errors.Is(err, ErrBookTooLarge) {
		t.Fatalf("one more level by UPDATE: %v, want ErrBookTooLarge", err)
	}
	if err := apply(&hubSub{}, &MarketData{Market: "X", Type: TypeSnapshot, Asks: freshLevels(&next, MaxBookLevels+1)}); !errors.Is(err, ErrBookTooLarge) || !strings.Contains(err.Error(), "ask side") {
		t.Fatalf("a snapshot one level too long: %v, want ErrBookTooLarge naming the ask side", err)
	}
}

// TestPlainDecimal checks the hand-written test against the spec's pattern
// and the length cap, and the order of canonical decimals.
func TestPlainDecimal(t *testing.T) {
	pattern := regexp.MustCompile(`^[0-9]*\.?[0-9]+$`)
	for _, s := range []string{
		"0", "1", "01", ".5", "0.5", "5.", ".", "", "1.2.3", "1e5", "7e9999", "1E+5", "-1", "+1", " 1", "1 ",
		"١", "0x10", "NaN", "Infinity", "1_000", "12345.6789", strings.Repeat("9", 64), strings.Repeat("9", 65),
		"." + strings.Repeat("1", 63), "." + strings.Repeat("1", 64),
	} {
		want := pattern.MatchString(s) && len(s) <= MaxDecimalLength
		if got := plainDecimal(s); got != want {
			t.Errorf("plainDecimal(%q) = %v, want %v", s, got, want)
		}
	}
	ordered := []string{"0", ".000001", "0.1", "0.10000000001", "0.5", "1", "1.0001", "9.99", "10", "010.5", "99", "100.00001"}
	for i, a := range ordered {
		for j, b := range ordered {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := cmpDecimal(normDecimal(a), normDecimal(b)); got != want {
				t.Errorf("cmpDecimal(%s, %s) = %d, want %d", a, b, got, want)
			}
		}
	}
	for in, want := range map[string]string{"100.00": "100", "0100.50": "100.5", ".0": "0", "000": "0", "0.010": "0.01"} {
		if got := normDecimal(in); got != want {
			t.Errorf("normDecimal(%q) = %q, want %q", in, got, want)
		}
	}
}

// BenchmarkBookSort sorts a book of MaxBookLevels levels a side whose
// prices have MaxDecimalLength characters, the most a Hub sorts.
func BenchmarkBookSort(b *testing.B) {
	level := func(i int) Level {
		p := fmt.Sprintf("%031d.%032d", i*7919%MaxBookLevels, i)
		return Level{Price: p, Amount: "1"}
	}
	bids := make([]Level, MaxBookLevels)
	asks := make([]Level, MaxBookLevels)
	for i := range bids {
		bids[i], asks[i] = level(i), level(i+MaxBookLevels)
	}
	sub := &hubSub{}
	if _, err := sub.apply(&MarketData{Market: "X", Type: TypeSnapshot, Bids: bids, Asks: asks}, nil); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if md := sub.book.view().sort(); len(md.Bids) != MaxBookLevels {
			b.Fatal(len(md.Bids))
		}
	}
}
