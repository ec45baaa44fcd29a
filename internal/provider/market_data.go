package provider

// Shared code of the market-data data sources (platform_top_of_book and
// platform_order_book): schema pieces, the timeout, the stream read through
// the connection the process shares (market_data_hub.go) and the mapping of
// stream errors to diagnostics.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/shopspring/decimal"

	"github.com/platform/terraform-provider-platform/internal/stream"
)

const (
	// defaultStreamTimeout bounds a market-data read when timeout is unset.
	defaultStreamTimeout = 10 * time.Second
	// maxStreamTimeout is the largest accepted timeout.
	maxStreamTimeout = 5 * time.Minute
)

// marketAttribute is the required market argument.
func marketAttribute(channel string) schema.StringAttribute {
	return schema.StringAttribute{
		Required: true,
		MarkdownDescription: "Market identifier, without a dash as the service writes them, for example `BTCUSD` " +
			"or `ETHUSD`. It is sent as `params.market` of the `" +
			channel + "` subscription; a market the stream refuses is an error.",
		Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
	}
}

// streamTimeoutAttribute is the optional timeout argument.
func streamTimeoutAttribute(what string) schema.StringAttribute {
	return schema.StringAttribute{
		Optional: true,
		MarkdownDescription: fmt.Sprintf("How long the whole read may take (access token, connection, "+
			"subscription and waiting for the %s), as a Go duration such as `10s` or `1m`. Default `%s`, "+
			"at most `%s`. When it runs out the read fails with an error naming the market.",
			what, defaultStreamTimeout, maxStreamTimeout),
		CustomType: timetypes.GoDurationType{},
		Validators: []validator.String{durationValidator{positive: true, max: maxStreamTimeout}},
	}
}

// streamTimeout returns the configured timeout, or the default when unset.
func streamTimeout(v timetypes.GoDuration, diags *diag.Diagnostics) time.Duration {
	if v.IsNull() || v.IsUnknown() {
		return defaultStreamTimeout
	}
	d, err := time.ParseDuration(v.ValueString())
	if err != nil || d <= 0 || d > maxStreamTimeout {
		// The validator refuses these at plan time; this is a last guard.
		diags.AddAttributeError(path.Root("timeout"), "Invalid timeout",
			fmt.Sprintf("timeout must be a positive Go duration of at most %s, got %q.", maxStreamTimeout, v.ValueString()))
		return 0
	}
	return d
}

// levelModel is one price level in state.
type levelModel struct {
	Price  types.String `tfsdk:"price"`
	Amount types.String `tfsdk:"amount"`
}

// levelObjectType is the Terraform type of a levelModel.
var levelObjectType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"price":  types.StringType,
	"amount": types.StringType,
}}

// levelsAttribute is a computed list of price levels.
func levelsAttribute(description string) schema.ListNestedAttribute {
	return schema.ListNestedAttribute{
		Computed:            true,
		MarkdownDescription: description,
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"price": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Price of the level, a decimal string exactly as the stream sent it.",
			},
			"amount": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Amount available at the price, a decimal string exactly as the stream sent it.",
			},
		}},
	}
}

// levelsValue converts levels to a Terraform list (empty, never null).
func levelsValue(ctx context.Context, levels []stream.Level, diags *diag.Diagnostics) types.List {
	ms := make([]levelModel, 0, len(levels))
	for _, l := range levels {
		ms = append(ms, levelModel{Price: types.StringValue(l.Price), Amount: types.StringValue(l.Amount)})
	}
	v, d := types.ListValueFrom(ctx, levelObjectType, ms)
	diags.Append(d...)
	return v
}

// pricedLevel is a level with its price parsed.
type pricedLevel struct {
	stream.Level
	price decimal.Decimal
}

// sortedLevels parses the prices of levels and sorts them best first: bids
// by descending price, asks by ascending price, compared as exact decimals
// (so "10" ranks above "9.50" and "10.0" ties with "10"). Ties keep the
// order in which they were sent. A price that is not a decimal number is
// an error naming the side and the value.
func sortedLevels(levels []stream.Level, bids bool) ([]pricedLevel, error) {
	side := "ask"
	if bids {
		side = "bid"
	}
	out := make([]pricedLevel, 0, len(levels))
	for _, l := range levels {
		p, err := decimal.NewFromString(l.Price)
		if err != nil {
			return nil, fmt.Errorf("%s price %q is not a decimal number", side, truncate(l.Price, 40))
		}
		out = append(out, pricedLevel{Level: l, price: p})
	}
	slices.SortStableFunc(out, func(a, b pricedLevel) int {
		if bids {
			return b.price.Cmp(a.price)
		}
		return a.price.Cmp(b.price)
	})
	return out, nil
}

// sortedBook parses and sorts both sides of a book, best first.
func sortedBook(bidLevels, askLevels []stream.Level) (bids, asks []pricedLevel, err error) {
	if bids, err = sortedLevels(bidLevels, true); err != nil {
		return nil, nil, err
	}
	if asks, err = sortedLevels(askLevels, false); err != nil {
		return nil, nil, err
	}
	return bids, asks, nil
}

// plainLevels drops the parsed prices and keeps at most depth levels
// (depth <= 0 keeps all).
func plainLevels(levels []pricedLevel, depth int) []stream.Level {
	if depth > 0 && len(levels) > depth {
		levels = levels[:depth]
	}
	out := make([]stream.Level, 0, len(levels))
	for _, l := range levels {
		out = append(out, l.Level)
	}
	return out
}

// bookStats are the figures derived from the best bid and best ask.
type bookStats struct {
	// Spread is ask - bid and Mid is (bid + ask) / 2, exact, in shortest
	// form; both empty when a side is empty.
	Spread, Mid string
}

// statsOf computes the spread and mid price of the best levels with exact
// decimal arithmetic. Halving is a multiplication by 0.5, which is exact
// whatever the number of decimals.
func statsOf(bestBid, bestAsk *pricedLevel) bookStats {
	if bestBid == nil || bestAsk == nil {
		return bookStats{}
	}
	half := decimal.New(5, -1)
	return bookStats{
		Spread: bestAsk.price.Sub(bestBid.price).String(),
		Mid:    bestBid.price.Add(bestAsk.price).Mul(half).String(),
	}
}

// firstLevel returns a pointer to the first level, or nil.
func firstLevel(levels []pricedLevel) *pricedLevel {
	if len(levels) == 0 {
		return nil
	}
	return &levels[0]
}

// priceOf and amountOf return the level's price or amount, null for nil.
func priceOf(l *pricedLevel) types.String {
	if l == nil {
		return types.StringNull()
	}
	return types.StringValue(l.Price)
}

func amountOf(l *pricedLevel) types.String {
	if l == nil {
		return types.StringNull()
	}
	return types.StringValue(l.Amount)
}

// streamPhase is the step of a stream read that failed.
type streamPhase int

const (
	phaseToken streamPhase = iota
	phaseConnect
	phaseSubscribe // subscribe, then wait for the message
)

func (p streamPhase) String() string {
	switch p {
	case phaseToken:
		return "token"
	case phaseConnect:
		return "connect"
	}
	return "subscribe"
}

// streamRead is one read of a stream channel for a market.
type streamRead struct {
	// dataSource is the type name, for diagnostics.
	dataSource string
	channel    string
	market     string
	timeout    time.Duration
	// what names the awaited message in diagnostics, for example
	// "top-of-book message".
	what string
}

// marketDataSource is what the market-data data sources share: their
// type name and the provider's configured data.
type marketDataSource struct {
	typeName string
	data     *providerData
}

func (d *marketDataSource) Metadata(_ context.Context, _ datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = d.typeName
}

func (d *marketDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

// bookModel is the state the market-data data sources share: the market
// read, its levels and its best prices.
type bookModel struct {
	ID           types.String         `tfsdk:"id"`
	Market       types.String         `tfsdk:"market"`
	Timeout      timetypes.GoDuration `tfsdk:"timeout"`
	Timestamp    types.String         `tfsdk:"timestamp"`
	Bids         types.List           `tfsdk:"bids"`
	Asks         types.List           `tfsdk:"asks"`
	BestBidPrice types.String         `tfsdk:"best_bid_price"`
	BestAskPrice types.String         `tfsdk:"best_ask_price"`
}

// bookRead is one read of a market's book by a market-data data source:
// the channel's message, a T, with its levels sorted best first.
type bookRead[T stream.Message] struct {
	dataSource string
	channel    string
	// what names the message in diagnostics, with its article, for example
	// "a top-of-book message".
	article, what string
	levels        func(T) (bids, asks []stream.Level)
}

// read reads the market's book within timeout through the provider's
// data, after checking that the provider is configured with a ws_url. Any
// failure is a diagnostic, and ok is false.
func (b bookRead[T]) read(ctx context.Context, data *providerData, market types.String, timeout timetypes.GoDuration,
	diags *diag.Diagnostics) (msg T, bids, asks []pricedLevel, ok bool) {
	if data == nil {
		notConfigured(diags)
		return msg, nil, nil, false
	}
	d := streamTimeout(timeout, diags)
	if diags.HasError() || !requireWSURL(data, b.dataSource, diags) {
		return msg, nil, nil, false
	}
	r := streamRead{dataSource: b.dataSource, channel: b.channel, market: market.ValueString(), timeout: d, what: b.what}
	m, err := r.run(ctx, data)
	if err != nil {
		diags.AddError(r.diagnose(err))
		return msg, nil, nil, false
	}
	if msg, ok = m.(T); !ok {
		diags.AddError("Unexpected stream message",
			fmt.Sprintf("Expected %s %s, got %T. This is a bug in the provider; please report it.", b.article, b.what, m))
		return msg, nil, nil, false
	}
	bidLevels, askLevels := b.levels(msg)
	if bids, asks, err = sortedBook(bidLevels, askLevels); err != nil {
		diags.AddError("Invalid "+b.what,
			fmt.Sprintf("The stream sent %s %s for market %q that cannot be used: %s.", b.article, b.what, r.market, err))
		return msg, nil, nil, false
	}
	return msg, bids, asks, true
}

// streamReadError is a failed stream read.
type streamReadError struct {
	phase streamPhase
	// timedOut: the read's own timeout ran out.
	timedOut bool
	// cancelled: Terraform cancelled the operation.
	cancelled bool
	// unanswered: the subscribe was sent and not answered yet, which the
	// service's subscription rate can explain; ahead is how many other
	// subscriptions were waiting for their answer when it was sent.
	unanswered bool
	ahead      int
	err        error
}

func (e *streamReadError) Error() string { return e.err.Error() }
func (e *streamReadError) Unwrap() error { return e.err }

// run reads the current state of the channel for the market through the
// provider's shared stream connection (see market_data_hub.go): the latest
// top of book, or the order book. All of it is bounded by r.timeout: the
// read returns when the timeout runs out, whatever step it is in. The error
// is a *streamReadError.
func (r streamRead) run(ctx context.Context, data *providerData) (stream.Message, error) {
	start := time.Now()
	tctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	hub := data.streams
	if hub == nil {
		hub = newStreamHub(data.wsURL, data.client)
		defer hub.Close()
	}
	m, err := hub.Read(tctx, stream.Channel{Type: r.channel, Market: r.market})
	if err == nil {
		tflog.Debug(ctx, "stream read done", map[string]any{
			"data_source": r.dataSource, "channel": r.channel, "market": r.market,
			"elapsed": time.Since(start).String(), "connections_opened": hub.Dials(),
		})
		return m, nil
	}
	e := &streamReadError{phase: phaseSubscribe, err: err}
	var re *stream.ReadError
	if errors.As(err, &re) {
		e.err = re.Err
		switch re.Phase {
		case stream.PhaseToken:
			e.phase = phaseToken
		case stream.PhaseConnect:
			e.phase = phaseConnect
		case stream.PhaseSubscribe:
			e.unanswered, e.ahead = true, re.Ahead
		}
	}
	deadline, _ := tctx.Deadline()
	switch {
	case ctx.Err() != nil:
		e.cancelled = true
	case tctx.Err() != nil, !time.Now().Before(deadline):
		// A network deadline derived from tctx can fire a moment before
		// tctx itself reports it.
		e.timedOut = true
	}
	tflog.Debug(ctx, "stream read failed", map[string]any{
		"data_source": r.dataSource, "channel": r.channel, "market": r.market,
		"phase": e.phase.String(), "timed_out": e.timedOut, "subscribe_unanswered": e.unanswered,
		"subscriptions_ahead": e.ahead, "elapsed": time.Since(start).String(), "error": e.err.Error(),
	})
	return nil, e
}

// diagnose turns a failed read into a diagnostic summary and detail. The
// details say what the stream answered and what the user can do; they never
// hold a token.
func (r streamRead) diagnose(err error) (summary, detail string) {
	var re *streamReadError
	if !errors.As(err, &re) {
		re = &streamReadError{phase: phaseSubscribe, err: err}
	}
	market := fmt.Sprintf("%q", r.market)

	switch {
	case re.cancelled:
		return "Stream read cancelled",
			fmt.Sprintf("Reading the %s for market %s was cancelled before it finished: %s.", r.what, market, re.err)
	case re.timedOut:
		step := map[streamPhase]string{
			phaseToken:     "while requesting an access token for the stream",
			phaseConnect:   "while connecting to the stream (ws_url)",
			phaseSubscribe: "while subscribing to " + r.channel + " and waiting for the first " + r.what,
		}[re.phase]
		if re.unanswered {
			return fmt.Sprintf("No %s for market %s within %s", r.what, market, r.timeout),
				fmt.Sprintf("No %s for market %s within %s: the timeout ran out while subscribing to %s, "+
					"before the stream answered the subscribe. The wait may come from the service's limit of "+
					"one subscription per second per IP address, which makes the excess wait silently: %s. "+
					"Raise timeout (at most %s), read fewer distinct markets at once, or try again later.",
					r.what, market, r.timeout, r.channel, subscriptionsAhead(re.ahead), maxStreamTimeout)
		}
		return fmt.Sprintf("No %s for market %s within %s", r.what, market, r.timeout),
			fmt.Sprintf("No %s for market %s within %s: the timeout ran out %s. The market may be "+
				"inactive or the stream slow to answer; raise timeout (at most %s) or try again later.",
				r.what, market, r.timeout, step, maxStreamTimeout)
	}

	var (
		hs *stream.HandshakeError
		ce *stream.ChannelError
		se *stream.ServerError
	)
	switch {
	case re.phase == phaseToken && !scopeRefused(re.err):
		// The address or the credentials, not the scope: the error says which.
		return "Unable to get an access token for the stream",
			fmt.Sprintf("%s needs an access token with the OAuth scope %s, and requesting it failed: %s.",
				r.dataSource, stream.Scope, re.err)
	case re.phase == phaseToken:
		return "Unable to get an access token for the stream",
			fmt.Sprintf("%s needs an access token with the OAuth scope %s, and requesting it failed: %s. "+
				"Check that these client credentials are allowed that scope (the streaming API is only "+
				"available to allow-listed customers).", r.dataSource, stream.Scope, re.err)
	case errors.Is(re.err, stream.ErrForbidden):
		return "Stream access forbidden: missing scope " + stream.Scope,
			fmt.Sprintf("The stream refused the connection with 403 Forbidden: the access token lacks the "+
				"scope %s. Allow that scope for these client credentials (the streaming API is only "+
				"available to allow-listed customers) and, when the provider's scopes argument pins a "+
				"scope set, include %s in it.", stream.Scope, stream.Scope)
	case errors.Is(re.err, stream.ErrUnauthorized):
		return "Stream authentication failed",
			"The stream refused the connection with 401 Unauthorized: the access token was not accepted. " +
				"Check that auth_url and ws_url belong to the same environment (sandbox or production)."
	case errors.As(re.err, &hs):
		return "Stream connection refused",
			fmt.Sprintf("Connecting to the stream (ws_url) failed: %s. Check ws_url.", re.err)
	case errors.As(re.err, &ce):
		reason := ""
		switch {
		case ce.Code != "" && ce.Message != "":
			reason = ": " + truncate(ce.Code, 64) + " (" + truncate(ce.Message, 200) + ")"
		case ce.Code != "":
			reason = ": " + truncate(ce.Code, 64)
		case ce.Message != "":
			reason = ": " + truncate(ce.Message, 200)
		default:
			reason = " (success false, no reason given)"
		}
		hint := ""
		if strings.Contains(market, "-") {
			hint = fmt.Sprintf(" Market identifiers have no dash: %s, not %s.", strings.ReplaceAll(market, "-", ""), market)
		}
		return fmt.Sprintf("Market %s refused by the stream", market),
			fmt.Sprintf("market %s was refused by the stream%s. Check the market identifier (for example "+
				"BTCUSD) and that it is offered on this environment.%s", market, reason, hint)
	case errors.As(re.err, &se):
		code := se.Code
		if code == "" {
			code = "(no code)"
		}
		msg := ""
		if se.Message != "" {
			msg = " (" + truncate(se.Message, 200) + ")"
		}
		op := "a"
		if se.Op != "" {
			op = "the " + truncate(se.Op, 64)
		}
		return "Stream error " + truncate(code, 64),
			fmt.Sprintf("The stream answered %s request for market %s with error code %s%s. %s",
				op, market, truncate(code, 64), msg, serverErrorHint(se.Code))
	case errors.Is(re.err, stream.ErrConnectionClosed):
		return "Stream connection closed",
			fmt.Sprintf("The stream connection closed before a %s for market %s arrived: %s. The server or "+
				"the network ended the connection; try again, and check ws_url and any proxy in between.",
				r.what, market, re.err)
	case re.phase == phaseConnect:
		return "Unable to connect to the stream",
			fmt.Sprintf("Connecting to the stream (ws_url) failed: %s. Check ws_url and the network.", re.err)
	}
	return "Unable to read the stream",
		fmt.Sprintf("Reading the %s for market %s failed: %s.", r.what, market, re.err)
}

// subscriptionsAhead says how many subscriptions waited before a read's own.
func subscriptionsAhead(n int) string {
	switch n {
	case 0:
		return "no other subscription of this provider was waiting for its answer when it was sent, so " +
			"earlier subscriptions from this address (this provider's, or another client's) may have used " +
			"the allowance"
	case 1:
		return "1 other subscription of this provider was waiting before it"
	}
	return fmt.Sprintf("%d other subscriptions of this provider were waiting before it", n)
}

// serverErrorHint says what the user can do about a stream error code.
func serverErrorHint(code string) string {
	switch code {
	case stream.CodeInternalServerError:
		return "The service had an internal error; try again later."
	case stream.CodeUnknownChannelParamsConfiguration:
		return "Check the market identifier (for example BTCUSD)."
	case stream.CodeNoEffectAction:
		return "The subscription had no effect; try again."
	}
	return "The stream did not understand the request; this is likely a defect of the provider, please report it."
}

// requireWSURL reports a missing ws_url; it returns false then.
func requireWSURL(data *providerData, dataSource string, diags *diag.Diagnostics) bool {
	if data.wsURL != "" {
		return true
	}
	diags.AddError("Missing ws_url",
		fmt.Sprintf("%s reads the WebSocket market-data stream, whose URL is not configured. Set ws_url in the "+
			"provider block or the %s environment variable, for example wss://ws.example.com.", dataSource, EnvWSURL))
	return false
}
