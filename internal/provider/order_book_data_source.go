package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/stream"
)

const (
	// defaultOrderBookDepth is the number of levels per side kept when depth is unset.
	defaultOrderBookDepth = 10
	// maxOrderBookDepth is the largest accepted depth.
	maxOrderBookDepth = 1000

	orderBookWhat = "order book snapshot"
)

var _ datasource.DataSourceWithConfigure = (*orderBookDataSource)(nil)

// orderBookRead reads the order book of a market.
var orderBookRead = bookRead[*stream.MarketData]{
	dataSource: "platform_order_book", channel: stream.ChannelMarketData, article: "an", what: orderBookWhat,
	levels: func(m *stream.MarketData) (bids, asks []stream.Level) { return m.Bids, m.Asks },
}

// NewOrderBookDataSource is the platform_order_book data source.
func NewOrderBookDataSource() datasource.DataSource {
	return &orderBookDataSource{marketDataSource{typeName: orderBookRead.dataSource}}
}

// orderBookDataSource takes the initial snapshot of a market's order book
// from the stream channel market_data.
type orderBookDataSource struct {
	marketDataSource
}

// orderBookModel is the state of platform_order_book.
type orderBookModel struct {
	bookModel
	Depth    types.Int64  `tfsdk:"depth"`
	Spread   types.String `tfsdk:"spread"`
	MidPrice types.String `tfsdk:"mid_price"`
}

func (d *orderBookDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computed := func(description string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: description}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Takes one snapshot of the order book of a market from the WebSocket stream " +
			"(`ws_url`, with a token carrying the scope `" + stream.Scope + "`): the book of the `" +
			stream.ChannelMarketData + "` subscription for the market, from its initial `SNAPSHOT` (the " +
			"subscription's first book message; `UPDATE`s before it are ignored) kept up to date by the " +
			"`UPDATE`s that follow. " + sharedStreamDescription + " Levels are sorted best first and cut to " +
			"`depth`; the spread and mid " +
			"price are computed with exact decimal arithmetic. The values are those of the moment of the " +
			"read and change at every refresh. A refused market, an error code, a refused handshake, a " +
			"dropped connection or the timeout is an error, never a hang.",
		Attributes: map[string]schema.Attribute{
			"id":     computed("The market."),
			"market": marketAttribute(stream.ChannelMarketData),
			"depth": schema.Int64Attribute{
				Optional: true,
				MarkdownDescription: fmt.Sprintf("Number of levels kept on each side, best first. Default `%d`, "+
					"from 1 to %d. A side with fewer levels is returned whole.", defaultOrderBookDepth, maxOrderBookDepth),
				Validators: []validator.Int64{int64validator.Between(1, maxOrderBookDepth)},
			},
			"timeout":   streamTimeoutAttribute(orderBookWhat),
			"timestamp": computed("Time of the snapshot as sent by the stream (the payload's `time`, ISO 8601)."),
			"bids":      levelsAttribute("Bid levels, best (highest price) first, at most `depth`."),
			"asks":      levelsAttribute("Ask levels, best (lowest price) first, at most `depth`."),
			"best_bid_price": computed("Highest bid price, a decimal string as sent; null when the book has " +
				"no bids."),
			"best_ask_price": computed("Lowest ask price, a decimal string as sent; null when the book has " +
				"no asks."),
			"spread": computed("`best_ask_price - best_bid_price`, exact, as a decimal string in shortest " +
				"form; null when a side is empty."),
			"mid_price": computed("`(best_bid_price + best_ask_price) / 2`, exact, as a decimal string in " +
				"shortest form; null when a side is empty."),
		},
	}
}

func (d *orderBookDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m orderBookModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	book, bids, asks, ok := orderBookRead.read(ctx, d.data, m.Market, m.Timeout, &resp.Diagnostics)
	if !ok {
		return
	}
	depth := defaultOrderBookDepth
	if !m.Depth.IsNull() && !m.Depth.IsUnknown() {
		depth = int(m.Depth.ValueInt64())
	}
	bestBid, bestAsk := firstLevel(bids), firstLevel(asks)
	stats := statsOf(bestBid, bestAsk)
	m.ID = m.Market
	m.Timestamp = optionalString(book.Time)
	m.Bids = levelsValue(ctx, plainLevels(bids, depth), &resp.Diagnostics)
	m.Asks = levelsValue(ctx, plainLevels(asks, depth), &resp.Diagnostics)
	m.BestBidPrice, m.BestAskPrice = priceOf(bestBid), priceOf(bestAsk)
	m.Spread, m.MidPrice = optionalString(stats.Spread), optionalString(stats.Mid)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
