package provider

import (
	"context"
	"strconv"

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
//
// The hub belongs to the provider's configuration: Terraform configures a
// provider process once, so that is one hub per process, and a provider
// value configured again (as the in-process test server is, once per test)
// never reads through a hub of another configuration's credentials.

// sharedStreamDescription tells users of the market-data data sources how
// their reads share the stream.
var sharedStreamDescription = "The service allows one subscription per second per IP address and makes " +
	"the excess wait, so all the market-data reads of one provider process share one WebSocket connection, " +
	"and reads of the same channel and market share one subscription; the connection closes about a second " +
	"after the last read, and a subscription about a second after the last read of its channel and market. " +
	"When the timeout runs out before the stream answers the subscribe, the error says " +
	"that the wait may come from this limit. What the stream sends is bounded: every price and amount must " +
	"be a plain decimal (digits with at most one decimal point, no sign or exponent) of at most " +
	maxDecimalText + " characters, and a side of an order book may hold at most " + maxBookLevelsText +
	" levels, more than any market has; a message that breaks either is refused and the read fails with an " +
	"error naming the field or the side."

// The bounds of stream.Hub, as the description writes them.
var (
	maxDecimalText    = strconv.Itoa(stream.MaxDecimalLength)
	maxBookLevelsText = strconv.Itoa(stream.MaxBookLevels)
)

// newStreamHub is a hub of wsURL whose connections authenticate with a
// token of c carrying stream.Scope. ws:// is accepted only for loopback
// hosts.
func newStreamHub(wsURL string, c *client.Client) *stream.Hub {
	return stream.NewHub(wsURL, func(ctx context.Context) (string, error) {
		return c.Token(ctx, stream.Scope)
	}, stream.HubOptions{Conn: stream.Options{AllowInsecure: client.IsLoopbackURL(wsURL)}})
}
