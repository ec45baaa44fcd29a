package provider

import (
	"fmt"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/platform/terraform-provider-platform/internal/emulator"
	"github.com/platform/terraform-provider-platform/internal/stream"
)

// checkTopOfBook checks a platform_top_of_book state: one level a side,
// the best fields equal to those levels, best bid < best ask, and (against
// the emulator) prices within the range the emulator's book for the market
// stays in.
func checkTopOfBook(addr string, emu bool, lo, hi string) statecheck.StateCheck {
	return dataSourceCheck(addr, func(attrs map[string]any) error {
		bids, asks, err := stateBook(attrs)
		if err != nil {
			return err
		}
		if len(bids) == 0 || len(asks) == 0 {
			return fmt.Errorf("want at least one bid and one ask, got %d and %d", len(bids), len(asks))
		}
		best, err := stateDecimals(attrs, "best_bid_price", "best_ask_price", "best_bid_amount", "best_ask_amount")
		if err != nil {
			return err
		}
		bid, ask, bidAmt, askAmt := best[0], best[1], best[2], best[3]
		if !bid.Equal(bids[0].price) || !ask.Equal(asks[0].price) {
			return fmt.Errorf("best bid/ask %s/%s differ from the first levels %s/%s", bid, ask, bids[0].price, asks[0].price)
		}
		if !bidAmt.Equal(bids[0].amount) || !askAmt.Equal(asks[0].amount) {
			return fmt.Errorf("best amounts %s/%s differ from the first levels", bidAmt, askAmt)
		}
		if !bid.LessThan(ask) {
			return fmt.Errorf("best bid %s is not below best ask %s", bid, ask)
		}
		if emu {
			if len(bids) != 1 || len(asks) != 1 {
				return fmt.Errorf("the emulator sends one level a side, got %d bids and %d asks", len(bids), len(asks))
			}
			if err := checkPriceRange("best bid", bid, lo, hi); err != nil {
				return err
			}
			if err := checkPriceRange("best ask", ask, lo, hi); err != nil {
				return err
			}
		}
		return nil
	})
}

var rfc3339Nano = knownvalue.StringFunc(func(v string) error {
	_, err := time.Parse(time.RFC3339Nano, v)
	return err
})

func TestAccTopOfBookDataSource(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	emu := env.emu != nil
	parallelSteps(t, resource.TestStep{
		Config: env.config(`
data "platform_top_of_book" "btc" {
  market = "BTCUSD"
}

data "platform_top_of_book" "sol" {
  market  = "SOLUSD"
  timeout = "5s"
}
`),
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue("data.platform_top_of_book.btc", tfjsonpath.New("id"), knownvalue.StringExact("BTCUSD")),
			statecheck.ExpectKnownValue("data.platform_top_of_book.btc", tfjsonpath.New("market"), knownvalue.StringExact("BTCUSD")),
			statecheck.ExpectKnownValue("data.platform_top_of_book.btc", tfjsonpath.New("timeout"), knownvalue.Null()),
			statecheck.ExpectKnownValue("data.platform_top_of_book.btc", tfjsonpath.New("timestamp"), rfc3339Nano),
			statecheck.ExpectKnownValue("data.platform_top_of_book.sol", tfjsonpath.New("id"), knownvalue.StringExact("SOLUSD")),
			statecheck.ExpectKnownValue("data.platform_top_of_book.sol", tfjsonpath.New("timeout"), knownvalue.StringExact("5s")),
			statecheck.ExpectKnownValue("data.platform_top_of_book.sol", tfjsonpath.New("timestamp"), rfc3339Nano),
			statecheck.CompareValuePairs(
				"data.platform_top_of_book.btc", tfjsonpath.New("best_bid_price"),
				"data.platform_top_of_book.btc", tfjsonpath.New("bids").AtSliceIndex(0).AtMapKey("price"),
				compare.ValuesSame()),
			statecheck.CompareValuePairs(
				"data.platform_top_of_book.btc", tfjsonpath.New("best_ask_amount"),
				"data.platform_top_of_book.btc", tfjsonpath.New("asks").AtSliceIndex(0).AtMapKey("amount"),
				compare.ValuesSame()),
			// The emulator's BTCUSD book stays within 5% (plus two
			// levels) of 60000, SOLUSD within 5% of 150.
			checkTopOfBook("data.platform_top_of_book.btc", emu, "56000", "64000"),
			checkTopOfBook("data.platform_top_of_book.sol", emu, "140", "160"),
		},
	})
	waitNoStreamConnections(t, env.emu)
}

// TestAccTopOfBookDataSource_unknownMarket: a refused channel's code is
// recognised whether the service sends it as a bare string (the API
// reference's form) or in an error object, so that its hint appears.
func TestAccTopOfBookDataSource_unknownMarket(t *testing.T) {
	t.Parallel()
	for name, object := range map[string]bool{"bare code": false, "error object": true} {
		t.Run(name, func(t *testing.T) {
			env := newAccEnv(t, emulator.Options{ChannelErrorObject: object})
			want := diagRegexp(`market "DOGE-XYZ" was refused by the stream`)
			switch {
			case env.emu == nil:
			case object:
				want = diagRegexp(`market "DOGE-XYZ" was refused by the stream: UNKNOWN_CHANNEL_PARAMS_CONFIGURATION (unknown market DOGE-XYZ). Check the market identifier (for example BTCUSD)`)
			default:
				want = diagRegexp(`market "DOGE-XYZ" was refused by the stream: UNKNOWN_CHANNEL_PARAMS_CONFIGURATION. Check the market identifier (for example BTCUSD)`)
			}
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config: env.config(`
data "platform_top_of_book" "x" {
  market = "DOGE-XYZ"
}
`),
					ExpectError: want,
				}},
			})
			waitNoStreamConnections(t, env.emu)
		})
	}
}

func TestAccTopOfBookDataSource_missingScope(t *testing.T) {
	env := newAccEnv(t, emulator.Options{Clients: map[string]emulator.ClientCredentials{
		emulator.DefaultClientID: {Secret: emulator.DefaultClientSecret},
		"no-stream": {Secret: "no-stream-secret", Scopes: slices.DeleteFunc(slices.Clone(emulator.AllScopes),
			func(s string) bool { return s == stream.Scope })},
	}})
	env.needEmulator(t)
	parallelSteps(t,
		resource.TestStep{
			// Client credentials that are not allowed the stream scope:
			// the token endpoint refuses the scope.
			Config: emulatorProviderBlockFor(env.emu, "no-stream", "no-stream-secret", "") + `
data "platform_top_of_book" "x" {
  market = "BTCUSD"
}
`,
			ExpectError: regexp.MustCompile(`(?s)Unable to get an access token for the stream.*` +
				diagRegexp("with the OAuth scope exchange:read_aggregated_marketdata_stream").String()),
		},
		resource.TestStep{
			// A pinned token without the stream scope: the handshake
			// answers 403.
			Config: emulatorProviderBlock(env.emu, `  scopes = ["transfer:read_fiat_account"]`+"\n") + `
data "platform_top_of_book" "x" {
  market = "BTCUSD"
}
`,
			ExpectError: regexp.MustCompile(`(?s)` +
				diagRegexp("Stream access forbidden: missing scope exchange:read_aggregated_marketdata_stream").String() +
				".*" + diagRegexp("403 Forbidden: the access token lacks the scope exchange:read_aggregated_marketdata_stream").String()),
		},
	)
	if n := env.emu.Counters.Requests("GET /ws"); n != 1 {
		t.Errorf("stream handshakes = %d, want 1 (only the pinned-token step reaches the stream)", n)
	}
}

// TestAccTopOfBookDataSource_timeout subscribes to a market whose data the
// emulator withholds: the read fails with the timeout's diagnostic, within
// a second of the timeout; once the data comes through, it succeeds.
func TestAccTopOfBookDataSource_timeout(t *testing.T) {
	env, _ := emulatorEnv(t, emulator.Options{})
	config := func(timeout string) string {
		return env.config(fmt.Sprintf(`
data "platform_top_of_book" "x" {
  market  = "ETHUSD"
  timeout = %q
}
`, timeout))
	}
	testStreamTimeout(t, env, 2*time.Second, resource.TestStep{
		Config:      config("2s"),
		ExpectError: diagRegexp(`No top-of-book message for market "ETHUSD" within 2s`),
	}, resource.TestStep{
		Config: config("5s"),
		ConfigStateChecks: []statecheck.StateCheck{
			checkTopOfBook("data.platform_top_of_book.x", true, "2800", "3200"),
		},
	})
}

// btcTopOfBook is a platform_top_of_book "x" of BTCUSD.
const btcTopOfBook = `
data "platform_top_of_book" "x" {
  market = "BTCUSD"
}
`

func TestAccTopOfBookDataSource_droppedConnection(t *testing.T) {
	env, _ := emulatorEnv(t, emulator.Options{})
	testStreamReadFails(t, env, func() { env.emu.Faults.DropWS(1) }, btcTopOfBook,
		regexp.MustCompile(`(?s)Stream connection closed.*`+
			diagRegexp(`closed before a top-of-book message for market "BTCUSD" arrived`).String()))
}

func TestAccTopOfBookDataSource_errorCode(t *testing.T) {
	env, _ := emulatorEnv(t, emulator.Options{})
	testStreamReadFails(t, env, func() { env.emu.FailNextStreamOps(1) }, btcTopOfBook,
		regexp.MustCompile(`(?s)Stream error INTERNAL_SERVER_ERROR.*`+
			diagRegexp(`The stream answered the subscribe request for market "BTCUSD" with error code INTERNAL_SERVER_ERROR`).String()))
}

func TestAccTopOfBookDataSource_noWSURL(t *testing.T) {
	env, _ := emulatorEnv(t, emulator.Options{})
	t.Setenv(EnvWSURL, "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
provider "platform" {
  client_id     = %q
  client_secret = %q
  base_url      = %q
  auth_url      = %q
}

data "platform_top_of_book" "x" {
  market = "BTCUSD"
}
`, emulator.DefaultClientID, emulator.DefaultClientSecret, env.emu.BaseURL(), env.emu.AuthURL()),
			ExpectError: regexp.MustCompile(`(?s)Missing ws_url.*` +
				diagRegexp("Set ws_url in the provider block or the PLATFORM_WS_URL environment variable").String()),
		}},
	})
	if n := env.emu.Counters.TotalTokens(); n != 0 {
		t.Errorf("tokens issued = %d, want 0", n)
	}
}

func TestAccTopOfBookDataSource_invalidArguments(t *testing.T) {
	env, _ := emulatorEnv(t, emulator.Options{})
	var steps []resource.TestStep
	for _, tt := range []struct{ args, want string }{
		{`timeout = "0s"`, `timeout must be a Go duration such as "10s" or "1m30s", greater than zero, at most 5m0s, got "0s"`},
		{`timeout = "-1s"`, `got "-1s"`},
		{`timeout = "soon"`, `Invalid Time Duration String Value`},
		{`timeout = "5m1s"`, `at most 5m0s, got "5m1s"`},
		{`market = ""`, `Attribute market string length must be at least 1, got: 0`},
	} {
		market := `market = "BTCUSD"`
		if tt.args[:6] == "market" {
			market = ""
		}
		steps = append(steps, resource.TestStep{
			Config: env.config(fmt.Sprintf(`
data "platform_top_of_book" "x" {
  %s
  %s
}
`, market, tt.args)),
			PlanOnly:    true,
			ExpectError: diagRegexp(tt.want),
		})
	}
	parallelSteps(t, steps...)
	// Rejected at plan time, before any call.
	checkNoStreamCalls(t, env.emu)
}
