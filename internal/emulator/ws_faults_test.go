package emulator

import (
	"testing"
	"time"
)

func TestWSHoldStreamData(t *testing.T) {
	s := startWS(t, Options{BookInterval: 2 * time.Millisecond, HeartbeatInterval: 2 * time.Millisecond})
	s.HoldStreamData(true)
	c := mustDial(t, s)
	send(t, c, `{"type":"subscribe","channels":[{"type":"market_data.top_of_book","params":{"market":"BTCUSD"}},`+
		`{"type":"market_data","params":{"market":"ETHUSD"}},{"type":"heartbeat"}]}`)
	if f := readFrame(t, c); f.Type != "subscribe" || len(f.Channels) != 3 || !successes(f)[0] || !successes(f)[1] || !successes(f)[2] {
		t.Fatalf("subscribe reply while holding: %+v", f)
	}
	// For 100ms of book moves and heartbeats, every frame is a reply: no
	// data frame slips in between.
	replies := 0
	for deadline := time.Now().Add(100 * time.Millisecond); time.Now().Before(deadline); replies++ {
		send(t, c, `{"type":"subscription_list"}`)
		if f := readFrame(t, c); f.Type != "subscription_list" || len(f.Channels) != 3 {
			t.Fatalf("frame %d while holding: %+v", replies, f)
		}
	}
	if replies == 0 {
		t.Fatal("no round trip made")
	}
	s.HoldStreamData(false)
	if p := readData(t, c, chanTopOfBook); p.Type != "TOP_OF_BOOK" || p.Market != "BTCUSD" {
		t.Fatalf("top of book after release: %+v", p)
	}
}
