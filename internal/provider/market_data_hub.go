package provider

import (
	"context"
	"sync"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/stream"
)

// The service allows one stream subscription per second per IP address and
// makes the excess wait. So all the market-data reads of one provider
// process share one WebSocket connection, and the reads of one channel and
// market share one subscription (stream.Hub): ten reads of BTCUSD in one
// plan cost one connection and one subscription each for the top of book
// and the order book. The connection closes once no read has used it for
// stream.DefaultHubIdle.

// sharedStreamDescription tells users of the market-data data sources how
// their reads share the stream.
const sharedStreamDescription = "The service allows one subscription per second per IP address and makes " +
	"the excess wait, so all the market-data reads of one provider process share one WebSocket connection, " +
	"and reads of the same channel and market share one subscription; the connection closes about a second " +
	"after the last read. When the timeout runs out before the stream answers the subscribe, the error says " +
	"that the wait may come from this limit."

// streamHubs holds the hubs of a provider process, one per stream URL and
// client id, so that configuring the provider again reuses the connection.
type streamHubs struct {
	mu   sync.Mutex
	hubs map[string]*stream.Hub
}

// hub returns the hub of wsURL for clientID, made on first use with c's
// tokens.
func (s *streamHubs) hub(wsURL, clientID string, c *client.Client) *stream.Hub {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := wsURL + "\x00" + clientID
	if h := s.hubs[key]; h != nil {
		return h
	}
	if s.hubs == nil {
		s.hubs = map[string]*stream.Hub{}
	}
	h := newStreamHub(wsURL, c)
	s.hubs[key] = h
	return h
}

// newStreamHub is a hub of wsURL whose connections authenticate with a
// token of c carrying stream.Scope. ws:// is accepted only for loopback
// hosts.
func newStreamHub(wsURL string, c *client.Client) *stream.Hub {
	return stream.NewHub(wsURL, func(ctx context.Context) (string, error) {
		return c.Token(ctx, stream.Scope)
	}, stream.HubOptions{Conn: stream.Options{AllowInsecure: client.IsLoopbackURL(wsURL)}})
}
