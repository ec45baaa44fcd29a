package stream

import (
	"context"
	"fmt"
)

// Snapshot subscribes conn to channelType for market (market "" for
// heartbeat), returns the first message of that channel and market that
// arrives after the subscribe reply and that want accepts, then
// unsubscribes, leaving the connection usable.
//
// A nil want accepts, for market_data, the initial book snapshot
// (IsBookSnapshot) and, for the other channels, any message. Snapshot reads
// conn.Messages() while it runs and discards the messages it does not return.
//
// A refused subscription is a *ChannelError or *ServerError. When ctx ends
// first, Snapshot returns at once with an error wrapping ctx.Err() and does
// not unsubscribe (close the connection then). When only the final
// unsubscribe fails, Snapshot returns the message together with an error
// wrapping ErrUnsubscribeFailed.
func Snapshot(ctx context.Context, conn *Conn, channelType, market string, want func(Message) bool) (Message, error) {
	ch := Channel{Type: channelType, Market: market}
	if want == nil {
		want = func(Message) bool { return true }
		if channelType == ChannelMarketData {
			want = IsBookSnapshot
		}
	}
	// Messages read after the subscribe is sent are this subscription's,
	// even one that arrives before its reply (the service may send the
	// snapshot first, and only once).
	sent := conn.read.Load()
	if _, err := conn.channelOp(ctx, OpSubscribe, []Channel{ch}); err != nil {
		return nil, err
	}
	var found Message
	for found == nil {
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for a message on %s: %w", ch, ctx.Err())
		case m, ok := <-conn.Messages():
			if !ok {
				return nil, fmt.Errorf("waiting for a message on %s: %w", ch, conn.closedErr())
			}
			if got, isData := channelOf(m); !isData || got != ch || seqOf(m) <= sent || !want(m) {
				continue
			}
			found = m
		}
	}
	if _, err := conn.channelOp(ctx, OpUnsubscribe, []Channel{ch}); err != nil {
		return found, fmt.Errorf("%w: %w", ErrUnsubscribeFailed, err)
	}
	return found, nil
}
