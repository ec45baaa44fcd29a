package emulator

import (
	"testing"
	"time"
)

// TestWSHoldStreamData: while stream data is held, a connection gets the
// replies to its requests and nothing else; once released, data flows.
func TestWSHoldStreamData(t *testing.T) {
	s := startWS(t, Options{BookInterval: 2 * time.Millisecond, HeartbeatInterval: 2 * time.Millisecond})
	s.HoldStreamData(true)
	c := mustDial(t, s)
	send(t, c, `{"type":"subscribe","channels":[{"type":"market_data.top_of_book","params":{"market":"BTCUSD"}},`+
		`{"type":"market_data","params":{"market":"ETHUSD"}},{"type":"heartbeat"}]}`)
	if f := readFrame(t, c); f.Type != "subscribe" || len(f.Channels) != 3 || !successes(f)[0] || !successes(f)[1] || !successes(f)[2] {
		t.Fatalf("subscribe reply while holding: %+v", f)
	}
	// Whatever the timers did meanwhile, the books move and a heartbeat is
	// due before each request: every frame is a reply, no data frame slips
	// in between.
	for i := range 20 {
		s.ws.stepBooks()
		s.ws.heartbeat()
		send(t, c, `{"type":"subscription_list"}`)
		if f := readFrame(t, c); f.Type != "subscription_list" || len(f.Channels) != 3 {
			t.Fatalf("frame %d while holding: %+v", i, f)
		}
	}
	s.HoldStreamData(false)
	if p := readData(t, c, chanTopOfBook); p.Type != "TOP_OF_BOOK" || p.Market != "BTCUSD" {
		t.Fatalf("top of book after release: %+v", p)
	}
}
