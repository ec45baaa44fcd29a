package provider

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/shopspring/decimal"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
	"github.com/platform/terraform-provider-platform/internal/stream"
)

func levels(prices ...string) []stream.Level {
	out := make([]stream.Level, 0, len(prices))
	for i, p := range prices {
		out = append(out, stream.Level{Price: p, Amount: fmt.Sprint(i + 1)})
	}
	return out
}

func pricesOf(ls []stream.Level) []string {
	out := make([]string, 0, len(ls))
	for _, l := range ls {
		out = append(out, l.Price)
	}
	return out
}

func TestOrderBookSortedLevels(t *testing.T) {
	tests := []struct {
		name   string
		in     []stream.Level
		bids   bool
		want   []string
		amount []string // amounts after sorting, to check levels move whole
		err    string
	}{
		{name: "bids descending by value, not text", in: levels("9.5", "100", "10", "0.001"), bids: true,
			want: []string{"100", "10", "9.5", "0.001"}, amount: []string{"2", "3", "1", "4"}},
		{name: "asks ascending by value, not text", in: levels("9.5", "100", "10", "0.001"),
			want: []string{"0.001", "9.5", "10", "100"}, amount: []string{"4", "1", "3", "2"}},
		{name: "equal values keep their order", in: levels("10.00", "10", "10.0", "11"), bids: true,
			want: []string{"11", "10.00", "10", "10.0"}},
		{name: "already sorted asks stay", in: levels("60000.50", "60001.00", "60001.50"),
			want: []string{"60000.50", "60001.00", "60001.50"}},
		{name: "many decimals", in: levels("0.12345678901234567891", "0.12345678901234567890"), bids: false,
			want: []string{"0.12345678901234567890", "0.12345678901234567891"}},
		{name: "exponent form", in: levels("1e2", "99.99"), bids: true, want: []string{"1e2", "99.99"}},
		{name: "empty side", in: nil, bids: true, want: []string{}},
		{name: "not a number", in: levels("10", "ten"), bids: true, err: `bid price "ten" is not a decimal number`},
		{name: "empty price", in: levels(""), err: `ask price "" is not a decimal number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := sortedLevels(tt.in, tt.bids)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("error = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			plain := plainLevels(got, 0)
			if g := pricesOf(plain); strings.Join(g, " ") != strings.Join(tt.want, " ") {
				t.Fatalf("prices = %q, want %q", g, tt.want)
			}
			for i, a := range tt.amount {
				if plain[i].Amount != a {
					t.Fatalf("level %d amount = %q, want %q (levels must move whole)", i, plain[i].Amount, a)
				}
			}
		})
	}
}

func TestOrderBookPlainLevelsDepth(t *testing.T) {
	sorted, err := sortedLevels(levels("5", "4", "3", "2", "1"), true)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		depth int
		want  string
	}{
		{0, "5 4 3 2 1"}, {1, "5"}, {3, "5 4 3"}, {5, "5 4 3 2 1"}, {1000, "5 4 3 2 1"},
	} {
		if got := strings.Join(pricesOf(plainLevels(sorted, tt.depth)), " "); got != tt.want {
			t.Errorf("depth %d: %q, want %q", tt.depth, got, tt.want)
		}
	}
}

func TestOrderBookStats(t *testing.T) {
	tests := []struct {
		name, bid, ask string
		spread, mid    string
	}{
		{name: "emulator-like", bid: "59999.50", ask: "60000.50", spread: "1", mid: "60000"},
		{name: "one cent", bid: "150.00", ask: "150.01", spread: "0.01", mid: "150.005"},
		{name: "binary-unfriendly", bid: "0.1", ask: "0.2", spread: "0.1", mid: "0.15"},
		{name: "beyond float precision", bid: "0.12345678901234567890", ask: "0.12345678901234567891",
			spread: "0.00000000000000000001", mid: "0.123456789012345678905"},
		{name: "large", bid: "123456789012345678.1", ask: "123456789012345679.2", spread: "1.1", mid: "123456789012345678.65"},
		{name: "different scales", bid: "99.9", ask: "100.125", spread: "0.225", mid: "100.0125"},
		{name: "crossed book", bid: "101", ask: "100", spread: "-1", mid: "100.5"},
		{name: "no bid", ask: "100"},
		{name: "no ask", bid: "100"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var bids, asks []stream.Level
			if tt.bid != "" {
				bids = levels(tt.bid)
			}
			if tt.ask != "" {
				asks = levels(tt.ask)
			}
			b, err := sortedLevels(bids, true)
			if err != nil {
				t.Fatal(err)
			}
			a, err := sortedLevels(asks, false)
			if err != nil {
				t.Fatal(err)
			}
			got := statsOf(firstLevel(b), firstLevel(a))
			if got.Spread != tt.spread || got.Mid != tt.mid {
				t.Fatalf("stats = %+v, want spread %q mid %q", got, tt.spread, tt.mid)
			}
		})
	}
}

func TestTopOfBookStreamTimeout(t *testing.T) {
	for _, tt := range []struct {
		in   types.String
		want time.Duration
		err  bool
	}{
		{types.StringNull(), defaultStreamTimeout, false},
		{types.StringValue("250ms"), 250 * time.Millisecond, false},
		{types.StringValue("5m"), 5 * time.Minute, false},
		{types.StringValue("5m1s"), 0, true},
		{types.StringValue("0s"), 0, true},
		{types.StringValue("soon"), 0, true},
	} {
		var diags diag.Diagnostics
		got := streamTimeout(timetypes.GoDuration{StringValue: tt.in}, &diags)
		if diags.HasError() != tt.err || got != tt.want {
			t.Errorf("streamTimeout(%s) = %v, %v; want %v, error %v", tt.in, got, diags, tt.want, tt.err)
		}
	}
}

func TestTopOfBookStreamReadDiagnose(t *testing.T) {
	r := streamRead{
		dataSource: "platform_top_of_book", channel: stream.ChannelTopOfBook, market: "BTCUSD",
		timeout: 2 * time.Second, what: "top-of-book message",
	}
	tokenErr := &client.APIError{Method: "POST", Path: "http://127.0.0.1/oauth2/token", Status: 400,
		Code: "invalid_scope", Message: "scope not allowed for this client: " + stream.Scope}
	tests := []struct {
		name            string
		err             error
		summary, detail string // regular expressions
	}{
		{name: "timeout while waiting",
			err:     &streamReadError{phase: phaseSubscribe, timedOut: true, err: context.DeadlineExceeded},
			summary: `^No top-of-book message for market "BTCUSD" within 2s$`,
			detail:  `^No top-of-book message for market "BTCUSD" within 2s: the timeout ran out while subscribing to market_data.top_of_book and waiting`},
		{name: "timeout before the subscribe was answered",
			err:     &streamReadError{phase: phaseSubscribe, timedOut: true, unanswered: true, ahead: 3, err: context.DeadlineExceeded},
			summary: `^No top-of-book message for market "BTCUSD" within 2s$`,
			detail: `^No top-of-book message for market "BTCUSD" within 2s: the timeout ran out while subscribing to ` +
				`market_data.top_of_book, before the stream answered the subscribe\. The wait may come from the ` +
				`service's limit of one subscription per second per IP address, which makes the excess wait ` +
				`silently: 3 other subscriptions of this provider were waiting before it\. Raise timeout`},
		{name: "timeout before the subscribe was answered, none ahead",
			err:    &streamReadError{phase: phaseSubscribe, timedOut: true, unanswered: true, err: context.DeadlineExceeded},
			detail: `one subscription per second per IP address.*earlier subscriptions from this address`},
		{name: "timeout while connecting",
			err:     &streamReadError{phase: phaseConnect, timedOut: true, err: context.DeadlineExceeded},
			summary: `within 2s$`, detail: `while connecting to the stream \(ws_url\)`},
		{name: "timeout while getting a token",
			err:     &streamReadError{phase: phaseToken, timedOut: true, err: context.DeadlineExceeded},
			summary: `within 2s$`, detail: `while requesting an access token`},
		{name: "cancelled",
			err:     &streamReadError{phase: phaseSubscribe, cancelled: true, err: context.Canceled},
			summary: `^Stream read cancelled$`, detail: `was cancelled`},
		{name: "token refused",
			err:     &streamReadError{phase: phaseToken, err: tokenErr},
			summary: `^Unable to get an access token for the stream$`,
			detail:  `needs an access token with the OAuth scope exchange:read_aggregated_marketdata_stream, and requesting it failed: .*invalid_scope`},
		{name: "no token endpoint at auth_url: no word of the scope",
			err: &streamReadError{phase: phaseToken, err: &client.APIError{Method: "POST",
				Path: "http://127.0.0.1/nowhere/oauth2/token", Status: 404}},
			summary: `^Unable to get an access token for the stream$`,
			detail:  `requesting it failed: POST http://127.0.0.1/nowhere/oauth2/token: 404 Not Found; the service has no operation [^\n]*\)\.$`},
		{name: "403 handshake",
			err:     &streamReadError{phase: phaseConnect, err: &stream.HandshakeError{StatusCode: 403}},
			summary: `^Stream access forbidden: missing scope exchange:read_aggregated_marketdata_stream$`,
			detail:  `403 Forbidden: the access token lacks the scope exchange:read_aggregated_marketdata_stream`},
		{name: "401 handshake",
			err:     &streamReadError{phase: phaseConnect, err: &stream.HandshakeError{StatusCode: 401}},
			summary: `^Stream authentication failed$`, detail: `401 Unauthorized`},
		{name: "other handshake status",
			err:     &streamReadError{phase: phaseConnect, err: &stream.HandshakeError{StatusCode: 404}},
			summary: `^Stream connection refused$`, detail: `404 Not Found`},
		{name: "market refused with code and message",
			err: &streamReadError{phase: phaseSubscribe, err: &stream.ChannelError{Op: "subscribe",
				Channel: stream.Channel{Type: stream.ChannelTopOfBook, Market: "BTCUSD"},
				Code:    stream.CodeUnknownChannelParamsConfiguration, Message: "unknown market BTCUSD"}},
			summary: `^Market "BTCUSD" refused by the stream$`,
			detail:  `^market "BTCUSD" was refused by the stream: UNKNOWN_CHANNEL_PARAMS_CONFIGURATION \(unknown market BTCUSD\)\. Check the market`},
		{name: "market refused without reason",
			err:     &streamReadError{phase: phaseSubscribe, err: &stream.ChannelError{Op: "subscribe"}},
			summary: `^Market "BTCUSD" refused`,
			detail:  `^market "BTCUSD" was refused by the stream \(success false, no reason given\)\.`},
		{name: "market refused with code only",
			err:    &streamReadError{phase: phaseSubscribe, err: &stream.ChannelError{Op: "subscribe", Code: "NOPE"}},
			detail: `^market "BTCUSD" was refused by the stream: NOPE\.`},
		{name: "internal server error code",
			err: &streamReadError{phase: phaseSubscribe, err: &stream.ServerError{Op: "subscribe",
				Code: stream.CodeInternalServerError, Message: "internal server error"}},
			summary: `^Stream error INTERNAL_SERVER_ERROR$`,
			detail:  `^The stream answered the subscribe request for market "BTCUSD" with error code INTERNAL_SERVER_ERROR \(internal server error\)\. The service had an internal error; try again later\.$`},
		{name: "malformed request code",
			err:     &streamReadError{phase: phaseSubscribe, err: &stream.ServerError{Code: stream.CodeMalformedRequest}},
			summary: `^Stream error MALFORMED_REQUEST$`, detail: `answered a request .* MALFORMED_REQUEST\. .*defect of the provider`},
		{name: "error frame without code",
			err:     &streamReadError{phase: phaseSubscribe, err: &stream.ServerError{Op: "subscribe"}},
			summary: `^Stream error \(no code\)$`},
		{name: "dropped connection",
			err:     &streamReadError{phase: phaseSubscribe, err: fmt.Errorf("waiting: %w", stream.ErrConnectionClosed)},
			summary: `^Stream connection closed$`,
			detail:  `closed before a top-of-book message for market "BTCUSD" arrived: waiting: stream connection closed`},
		{name: "dial failure",
			err:     &streamReadError{phase: phaseConnect, err: errors.New("stream dial ws://127.0.0.1:1/ws: connection refused")},
			summary: `^Unable to connect to the stream$`, detail: `connection refused`},
		{name: "anything else",
			err:     errors.New("odd"),
			summary: `^Unable to read the stream$`, detail: `for market "BTCUSD" failed: odd\.$`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			summary, detail := r.diagnose(tt.err)
			if tt.summary != "" && !regexp.MustCompile(tt.summary).MatchString(summary) {
				t.Errorf("summary = %q, want match of %s", summary, tt.summary)
			}
			if tt.detail != "" && !regexp.MustCompile(tt.detail).MatchString(detail) {
				t.Errorf("detail = %q, want match of %s", detail, tt.detail)
			}
		})
	}
}

// dataSourceCheck is a state check running f on the attribute values of
// the data source at addr (for example "data.platform_top_of_book.btc").
func dataSourceCheck(addr string, f func(attrs map[string]any) error) statecheck.StateCheck {
	return stateCheckFunc(func(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
		if req.State == nil || req.State.Values == nil || req.State.Values.RootModule == nil {
			resp.Error = errors.New("no state")
			return
		}
		for _, r := range req.State.Values.RootModule.Resources {
			if r.Address == addr {
				if err := f(r.AttributeValues); err != nil {
					resp.Error = fmt.Errorf("%s: %w", addr, err)
				}
				return
			}
		}
		resp.Error = fmt.Errorf("%s not found in state", addr)
	})
}

type stateCheckFunc func(context.Context, statecheck.CheckStateRequest, *statecheck.CheckStateResponse)

func (f stateCheckFunc) CheckState(ctx context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	f(ctx, req, resp)
}

// stateLevel is one level read back from state.
type stateLevel struct {
	price, amount decimal.Decimal
	rawPrice      string
}

// stateLevels reads the list attribute name of a data source's state.
func stateLevels(attrs map[string]any, name string) ([]stateLevel, error) {
	raw, ok := attrs[name].([]any)
	if !ok {
		return nil, fmt.Errorf("%s is %T, want a list", name, attrs[name])
	}
	out := make([]stateLevel, 0, len(raw))
	for i, x := range raw {
		obj, ok := x.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s[%d] is %T", name, i, x)
		}
		ps, _ := obj["price"].(string)
		as, _ := obj["amount"].(string)
		p, err := decimal.NewFromString(ps)
		if err != nil {
			return nil, fmt.Errorf("%s[%d].price %q: %w", name, i, ps, err)
		}
		a, err := decimal.NewFromString(as)
		if err != nil {
			return nil, fmt.Errorf("%s[%d].amount %q: %w", name, i, as, err)
		}
		if !a.IsPositive() {
			return nil, fmt.Errorf("%s[%d].amount %q is not positive", name, i, as)
		}
		out = append(out, stateLevel{price: p, amount: a, rawPrice: ps})
	}
	return out, nil
}

// stateDecimal reads a decimal string attribute.
func stateDecimal(attrs map[string]any, name string) (decimal.Decimal, error) {
	s, ok := attrs[name].(string)
	if !ok {
		return decimal.Decimal{}, fmt.Errorf("%s is %T (%v), want a string", name, attrs[name], attrs[name])
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Decimal{}, fmt.Errorf("%s %q: %w", name, s, err)
	}
	return d, nil
}

// stateDecimals reads decimal string attributes, one for each of names.
func stateDecimals(attrs map[string]any, names ...string) ([]decimal.Decimal, error) {
	out := make([]decimal.Decimal, len(names))
	for i, name := range names {
		d, err := stateDecimal(attrs, name)
		if err != nil {
			return nil, err
		}
		out[i] = d
	}
	return out, nil
}

// checkPriceRange checks lo < price < hi.
func checkPriceRange(name string, price decimal.Decimal, lo, hi string) error {
	if !price.GreaterThan(decimal.RequireFromString(lo)) || !price.LessThan(decimal.RequireFromString(hi)) {
		return fmt.Errorf("%s %s is outside the emulator's range (%s, %s)", name, price, lo, hi)
	}
	return nil
}

// waitNoStreamConnections polls until the emulator holds no stream
// connection, failing after a deadline: the shared connection must close
// once idle for stream.DefaultHubIdle.
func waitNoStreamConnections(t *testing.T, emu *emulator.Server) {
	t.Helper()
	if emu == nil {
		return
	}
	deadline := time.NewTimer(stream.DefaultHubIdle + 3*time.Second)
	defer deadline.Stop()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for emu.StreamConnections() != 0 {
		select {
		case <-deadline.C:
			t.Fatalf("%d stream connections still open after the reads", emu.StreamConnections())
		case <-tick.C:
		}
	}
}

// TestAccTopOfBookAndOrderBookExamples runs the documentation examples of
// both data sources against the emulator.
func TestAccTopOfBookAndOrderBookExamples(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	var body []string
	for _, p := range []string{
		"../../examples/data-sources/platform_top_of_book/data-source.tf",
		"../../examples/data-sources/platform_order_book/data-source.tf",
	} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		body = append(body, string(b))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: env.config(body...),
			// Every read takes a new snapshot, so the outputs (at least the
			// timestamp) change on the plan that follows the apply.
			ExpectNonEmptyPlan: true,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("btc_best_bid", knownvalue.NotNull()),
				statecheck.ExpectKnownOutputValue("btc_quoted_at", rfc3339Nano),
				statecheck.ExpectKnownOutputValue("eth_spread", knownvalue.NotNull()),
				statecheck.ExpectKnownOutputValue("eth_mid_price", knownvalue.NotNull()),
				statecheck.ExpectKnownOutputValue("eth_ask_depth", knownvalue.NotNull()),
				checkOrderBook("data.platform_order_book.eth", 5),
			},
		}},
	})
}

// streamTestData is provider data for the emulator's default client.
func streamTestData(t *testing.T, emu *emulator.Server) *providerData {
	t.Helper()
	c := emulatorClient(t, emu)
	return &providerData{client: c, wsURL: emu.WSURL()}
}

// lateBy bounds how late a stream read may end after its timeout or its
// cancellation: far less than any other time the read could wait (a
// minute), far more than a loaded machine's scheduling delays.
const lateBy = 5 * time.Second

// TestTopOfBookStreamReadTimeout measures the timeout of a read without
// Terraform around it: it fires on time, in the step that hangs, and the
// connection is closed afterwards. The timeout is long enough that the
// steps before the one that hangs end well within it on a busy machine.
func TestTopOfBookStreamReadTimeout(t *testing.T) {
	t.Parallel()
	emu := emulator.StartTest(t, emulator.Options{})
	data := streamTestData(t, emu)
	const timeout = 2 * time.Second
	read := func(data *providerData) (*streamReadError, time.Duration) {
		t.Helper()
		r := streamRead{dataSource: "platform_top_of_book", channel: stream.ChannelTopOfBook, market: "BTCUSD",
			timeout: timeout, what: topOfBookWhat}
		start := time.Now()
		m, err := r.run(t.Context(), data)
		elapsed := time.Since(start)
		var re *streamReadError
		if m != nil || !errors.As(err, &re) || !re.timedOut || re.cancelled {
			t.Fatalf("run = %v, %#v; want a timed-out *streamReadError", m, err)
		}
		return re, elapsed
	}

	t.Run("waiting for data", func(t *testing.T) {
		emu.HoldStreamData(true)
		defer emu.HoldStreamData(false)
		re, elapsed := read(data)
		if re.phase != phaseSubscribe {
			t.Errorf("phase = %d, want phaseSubscribe", re.phase)
		}
		if elapsed < timeout || elapsed > timeout+lateBy {
			t.Errorf("read took %s, want %s to %s", elapsed, timeout, timeout+lateBy)
		}
		waitNoStreamConnections(t, emu)
	})

	t.Run("connecting", func(t *testing.T) {
		// A server that accepts TCP connections and never answers the
		// WebSocket handshake.
		var lc net.ListenConfig
		ln, err := lc.Listen(t.Context(), "tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		go func() {
			var held []net.Conn
			defer func() {
				for _, c := range held {
					_ = c.Close()
				}
			}()
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				held = append(held, c)
			}
		}()
		re, elapsed := read(&providerData{client: data.client, wsURL: "ws://" + ln.Addr().String() + "/ws"})
		if re.phase != phaseConnect {
			t.Errorf("phase = %d, want phaseConnect", re.phase)
		}
		if elapsed < timeout || elapsed > timeout+lateBy {
			t.Errorf("read took %s, want %s to %s", elapsed, timeout, timeout+lateBy)
		}
	})
}

// TestTopOfBookStreamReadCancelled: a read cancelled by Terraform is
// reported as cancelled, not as a timeout, and returns at once.
func TestTopOfBookStreamReadCancelled(t *testing.T) {
	emu := emulator.StartTest(t, emulator.Options{})
	emu.HoldStreamData(true)
	data := streamTestData(t, emu)
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	r := streamRead{dataSource: "platform_top_of_book", channel: stream.ChannelTopOfBook, market: "BTCUSD",
		timeout: time.Minute, what: topOfBookWhat}
	start := time.Now()
	_, err := r.run(ctx, data)
	var re *streamReadError
	if !errors.As(err, &re) || !re.cancelled || re.timedOut {
		t.Fatalf("run error = %#v, want a cancelled *streamReadError", err)
	}
	if elapsed := time.Since(start); elapsed > lateBy {
		t.Errorf("cancelled read took %s, want less than %s (its timeout is a minute)", elapsed, lateBy)
	}
	if summary, _ := r.diagnose(err); summary != "Stream read cancelled" {
		t.Errorf("summary = %q", summary)
	}
}

// TestStreamHubPerConfiguration configures one provider value twice against
// the same emulator, first with a wrong client secret and then with the
// right one (the in-process test server is one provider value configured
// once per test): the reads of the second configuration use its own
// credentials, not a connection or token source of the first.
func TestStreamHubPerConfiguration(t *testing.T) {
	emu := emulator.StartTest(t, emulator.Options{})
	p := newProtoProvider(t)
	read := map[string]tftypes.Value{"market": tfStr("BTCUSD"), "timeout": tfStr("5s")}
	p.mustConfigure(t, providerArgs(emu.AuthURL(), map[string]tftypes.Value{"client_secret": tfStr("wrong-secret")}))
	if _, diags := p.readData(t, "platform_top_of_book", read); !hasErrorDiagnostic(diags) || !strings.Contains(diagText(diags), "invalid_client") {
		t.Fatalf("read with a wrong secret: %s", diagText(diags))
	}
	p.mustConfigure(t, providerArgs(emu.AuthURL(), nil))
	v, diags := p.readData(t, "platform_top_of_book", read)
	if hasErrorDiagnostic(diags) {
		t.Fatalf("read with the right secret: %s", diagText(diags))
	}
	var attrs map[string]tftypes.Value
	var bid string
	if err := v.As(&attrs); err != nil || attrs["best_bid_price"].As(&bid) != nil || bid == "" {
		t.Errorf("state %v: no best_bid_price", v)
	}
	if n := emu.Counters.Requests("GET /ws"); n != 1 {
		t.Errorf("%d stream handshakes, want 1 (none with the wrong secret)", n)
	}
}
