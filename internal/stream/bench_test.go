package stream

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// reportLatency reports the p50 and p95 of d in milliseconds.
func reportLatency(b *testing.B, d []time.Duration) {
	b.Helper()
	if len(d) == 0 {
		return
	}
	slices.Sort(d)
	pct := func(p float64) float64 {
		i := int(p * float64(len(d)-1))
		return float64(d[i]) / float64(time.Millisecond)
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.95), "p95-ms")
}

// BenchmarkTopOfBookSnapshot measures the first read of a process through
// a new Hub: dial, subscribe, first TOP_OF_BOOK, close.
func BenchmarkTopOfBookSnapshot(b *testing.B) {
	e := newEnv(b, emulator.Options{})
	var lat []time.Duration
	for b.Loop() {
		start := time.Now()
		tob, err := firstTopOfBook(b.Context(), e, "BTCUSD")
		if err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
		if len(tob.Bids) != 1 {
			b.Fatalf("%+v", tob)
		}
	}
	b.StopTimer()
	reportLatency(b, lat)
}

// BenchmarkBareDialSubscribe is the same round trip with gorilla/websocket
// alone (no unsubscribe, close frame without waiting), as a baseline.
func BenchmarkBareDialSubscribe(b *testing.B) {
	e := newEnv(b, emulator.Options{})
	h := http.Header{"Authorization": {"Bearer " + e.token}}
	sub := []byte(`{"type":"subscribe","channels":[{"type":"market_data.top_of_book","params":{"market":"BTCUSD"}}]}`)
	var lat []time.Duration
	for b.Loop() {
		start := time.Now()
		ws, resp, err := websocket.DefaultDialer.DialContext(b.Context(), e.s.WSURL(), h)
		if resp != nil {
			_ = resp.Body.Close()
		}
		if err != nil {
			b.Fatal(err)
		}
		if err := ws.WriteMessage(websocket.TextMessage, sub); err != nil {
			b.Fatal(err)
		}
		for {
			_, data, err := ws.ReadMessage()
			if err != nil {
				b.Fatal(err)
			}
			var f struct {
				Channel string `json:"channel"`
			}
			if json.Unmarshal(data, &f) == nil && f.Channel == ChannelTopOfBook {
				break
			}
		}
		lat = append(lat, time.Since(start))
		_ = ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
		_ = ws.Close()
	}
	b.StopTimer()
	reportLatency(b, lat)
}
