package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/gorilla/websocket"

	"github.com/platform/terraform-provider-platform/internal/emulator"
	"github.com/platform/terraform-provider-platform/internal/stream"
)

const streamMarket = "BTCUSD"

// figureStream is figure 3: connect-to-first-top-of-book latency.
func (b *bench) figureStream(ctx context.Context) error {
	// The figure times the client against a bare loop, not the service's
	// rate of one subscription per second per IP address, which would make
	// every run wait its turn.
	emu, ep, err := startEmulator(emulator.Options{Seed: 1, SubscriptionInterval: -1})
	if err != nil {
		return err
	}
	defer emu.Close()
	pc, err := newPlainClient(ctx, ep, stream.Scope)
	if err != nil {
		return err
	}
	pc.close()

	progress("figure 3: %d first reads of the top of book each through a new stream.Hub and a bare websocket loop", streamRuns)
	// One unmeasured run of each warms up both paths.
	if _, err := fetchSnapshot(ctx, ep.WSURL, pc.token); err != nil {
		return err
	}
	if _, err := bareSnapshot(ctx, ep.WSURL, pc.token); err != nil {
		return err
	}
	var lib, bare []time.Duration
	for range streamRuns {
		d, err := fetchSnapshot(ctx, ep.WSURL, pc.token)
		if err != nil {
			return err
		}
		lib = append(lib, d)
		if d, err = bareSnapshot(ctx, ep.WSURL, pc.token); err != nil {
			return err
		}
		bare = append(bare, d)
	}
	for _, p := range []struct {
		name string
		q    float64
	}{{"p50", 0.50}, {"p95", 0.95}} {
		l, r := percentile(lib, p.q), percentile(bare, p.q)
		target := "info"
		if p.q == 0.5 {
			ok := float64(l) <= targetStreamRatio*float64(r)
			target = fmt.Sprintf("≤ %.1f: %s", targetStreamRatio, met(ok))
			b.measure(goalStream, fmt.Sprintf("%s× (%s vs %s)", ratio(float64(l), float64(r)), fmtDur(l), fmtDur(r)), ok)
		}
		b.add(row{"3", fmt.Sprintf("stream, connect to first top of book, %s of %d: a new stream.Hub (the first market-data read of a provider process) vs bare gorilla/websocket", p.name, streamRuns),
			fmtDur(l), fmtDur(r), ratio(float64(l), float64(r)), target})
	}
	return nil
}

// fetchSnapshot times the first market-data read of a provider process,
// which goes through its stream.Hub: dial, subscribe, first TOP_OF_BOOK,
// then Close (the provider's hub closes the connection when idle).
func fetchSnapshot(ctx context.Context, wsURL, token string) (time.Duration, error) {
	start := time.Now()
	hub := stream.NewHub(wsURL, func(context.Context) (string, error) { return token, nil },
		stream.HubOptions{})
	m, err := hub.Read(ctx, stream.Channel{Type: stream.ChannelTopOfBook, Market: streamMarket})
	hub.Close()
	d := time.Since(start)
	if err != nil {
		return 0, err
	}
	tob, ok := m.(*stream.TopOfBook)
	if !ok || len(tob.Bids) == 0 || len(tob.Asks) == 0 {
		return 0, fmt.Errorf("empty top of book: %+v", m)
	}
	return d, nil
}

var bareSubscribe = []byte(`{"type":"subscribe","channels":[{"type":"market_data.top_of_book","params":{"market":"` + streamMarket + `"}}]}`)

// bareSnapshot is the same round trip with gorilla/websocket alone: dial,
// subscribe, read to the first top_of_book message, then a close frame
// without waiting for the server's.
func bareSnapshot(ctx context.Context, wsURL, token string) (time.Duration, error) {
	start := time.Now()
	ws, resp, err := websocket.DefaultDialer.DialContext(ctx, wsURL, http.Header{"Authorization": {"Bearer " + token}})
	if resp != nil {
		_ = resp.Body.Close()
	}
	if err != nil {
		return 0, err
	}
	defer func() { _ = ws.Close() }()
	if err := ws.WriteMessage(websocket.TextMessage, bareSubscribe); err != nil {
		return 0, err
	}
	_ = ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			return 0, err
		}
		var f struct {
			Channel string `json:"channel"`
		}
		if json.Unmarshal(data, &f) == nil && f.Channel == stream.ChannelTopOfBook {
			break
		}
	}
	d := time.Since(start)
	_ = ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	return d, nil
}
