package stream

import (
	"errors"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
)

// TestConnQueuedBytesCap: a server sends frames faster than anyone reads
// them: the connection ends with ErrSlowConsumer once the frames waiting
// pass Options.MaxQueuedBytes, long before the message buffer is full.
func TestConnQueuedBytesCap(t *testing.T) {
	pad := strings.Repeat("x", 10_000)
	frame := []byte(`{"channel":"heartbeat","payload":{"timestamp":"t","pad":"` + pad + `"}}`)
	wsURL := fakeServer(t, func(ws *websocket.Conn, stop <-chan struct{}) {
		for range 100 {
			select {
			case <-stop:
				return
			default:
			}
			if ws.WriteMessage(websocket.TextMessage, frame) != nil {
				return
			}
		}
		<-stop
	})
	c := dialURL(t, wsURL, "tok", Options{MaxQueuedBytes: 64 << 10})
	waitDone(t, c, "the connection did not end with 100 frames of 10 kB waiting")
	if !errors.Is(c.Err(), ErrSlowConsumer) || !strings.Contains(c.Err().Error(), "65536 bytes") {
		t.Fatalf("Err = %v, want ErrSlowConsumer naming the cap", c.Err())
	}
	n := 0
	for range c.Messages() {
		n++
	}
	if n*len(frame) > 64<<10 || n == 0 {
		t.Errorf("%d messages of %d bytes were queued, want at most 64 KiB of them", n, len(frame))
	}
}

// TestQueuedSizes: sizes leave the count as the reader takes messages.
func TestQueuedSizes(t *testing.T) {
	q := queuedSizes{ring: make([]int, 4)}
	for _, n := range []int{10, 20, 30} {
		q.push(n)
	}
	q.taken(1) // the reader took the first two
	if q.count != 1 || q.total != 30 {
		t.Fatalf("count %d total %d, want 1 and 30", q.count, q.total)
	}
	for _, n := range []int{1, 2, 3} {
		q.push(n)
	}
	if q.count != 4 || q.total != 36 {
		t.Fatalf("count %d total %d, want 4 and 36 (wrapped around)", q.count, q.total)
	}
	q.taken(0)
	if q.count != 0 || q.total != 0 {
		t.Fatalf("count %d total %d, want 0", q.count, q.total)
	}
}
