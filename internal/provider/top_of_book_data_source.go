package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/stream"
)

var _ datasource.DataSourceWithConfigure = (*topOfBookDataSource)(nil)

// NewTopOfBookDataSource is the platform_top_of_book data source.
func NewTopOfBookDataSource() datasource.DataSource {
	return &topOfBookDataSource{marketDataSource{typeName: topOfBookRead.dataSource}}
}

// topOfBookDataSource takes one top-of-book snapshot of a market from the
// stream channel market_data.top_of_book.
type topOfBookDataSource struct {
	marketDataSource
}

// topOfBookModel is the state of platform_top_of_book.
type topOfBookModel struct {
	bookModel
	BestBidAmount types.String `tfsdk:"best_bid_amount"`
	BestAskAmount types.String `tfsdk:"best_ask_amount"`
}

const topOfBookWhat = "top-of-book message"

// topOfBookRead reads the latest top-of-book message of a market.
var topOfBookRead = bookRead[*stream.TopOfBook]{
	dataSource: "platform_top_of_book", channel: stream.ChannelTopOfBook, article: "a", what: topOfBookWhat,
	levels: func(m *stream.TopOfBook) (bids, asks []stream.Level) { return m.Bids, m.Asks },
}

func (d *topOfBookDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computed := func(description string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: description}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Takes one snapshot of the best bid and best ask of a market from the WebSocket " +
			"stream (`ws_url`, with a token carrying the scope `" + stream.Scope + "`): the latest " +
			"`TOP_OF_BOOK` message of the `" + stream.ChannelTopOfBook + "` subscription for the market. " +
			sharedStreamDescription + " The values are those of the moment of the read and change at every " +
			"refresh. A refused market, an error code, a refused handshake, a dropped connection or the " +
			"timeout is an error, never a hang.",
		Attributes: map[string]schema.Attribute{
			"id":        computed("The market."),
			"market":    marketAttribute(stream.ChannelTopOfBook),
			"timeout":   streamTimeoutAttribute(topOfBookWhat),
			"timestamp": computed("Time of the top-of-book message as sent by the stream (ISO 8601, nanosecond precision)."),
			"bids":      levelsAttribute("Bid levels of the message, best (highest price) first."),
			"asks":      levelsAttribute("Ask levels of the message, best (lowest price) first."),
			"best_bid_price": computed("Price of the best bid, a decimal string as sent; null when the message " +
				"holds no bid."),
			"best_bid_amount": computed("Amount of the best bid; null when the message holds no bid."),
			"best_ask_price": computed("Price of the best ask, a decimal string as sent; null when the message " +
				"holds no ask."),
			"best_ask_amount": computed("Amount of the best ask; null when the message holds no ask."),
		},
	}
}

func (d *topOfBookDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m topOfBookModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	tob, bids, asks, ok := topOfBookRead.read(ctx, d.data, m.Market, m.Timeout, &resp.Diagnostics)
	if !ok {
		return
	}
	m.fromLevels(ctx, bids, asks, &resp.Diagnostics)
	m.ID = m.Market
	m.Timestamp = optionalString(tob.Timestamp)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// fromLevels sets the levels and the best bid and ask.
func (m *topOfBookModel) fromLevels(ctx context.Context, bids, asks []pricedLevel, diags *diag.Diagnostics) {
	m.Bids = levelsValue(ctx, plainLevels(bids, 0), diags)
	m.Asks = levelsValue(ctx, plainLevels(asks, 0), diags)
	bestBid, bestAsk := firstLevel(bids), firstLevel(asks)
	m.BestBidPrice, m.BestBidAmount = priceOf(bestBid), amountOf(bestBid)
	m.BestAskPrice, m.BestAskAmount = priceOf(bestAsk), amountOf(bestAsk)
}
