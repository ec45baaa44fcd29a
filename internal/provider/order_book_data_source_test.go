package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/shopspring/decimal"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// checkOrderBook checks a platform_order_book state: wantLevels levels a
// side, bids strictly descending and asks strictly ascending, best prices
// equal to the first levels, best bid < best ask, and spread and mid price
// equal to their exact values recomputed from the returned levels.
func checkOrderBook(addr string, wantLevels int) statecheck.StateCheck {
	return dataSourceCheck(addr, func(attrs map[string]any) error {
		bids, asks, err := stateBook(attrs)
		if err != nil {
			return err
		}
		if len(bids) != wantLevels || len(asks) != wantLevels {
			return fmt.Errorf("got %d bids and %d asks, want %d each", len(bids), len(asks), wantLevels)
		}
		for i := 1; i < len(bids); i++ {
			if !bids[i].price.LessThan(bids[i-1].price) {
				return fmt.Errorf("bids not sorted best first: %s after %s", bids[i].price, bids[i-1].price)
			}
		}
		for i := 1; i < len(asks); i++ {
			if !asks[i].price.GreaterThan(asks[i-1].price) {
				return fmt.Errorf("asks not sorted best first: %s after %s", asks[i].price, asks[i-1].price)
			}
		}
		if s, _ := attrs["best_bid_price"].(string); s != bids[0].rawPrice {
			return fmt.Errorf("best_bid_price %q, want the first bid's price %q", s, bids[0].rawPrice)
		}
		if s, _ := attrs["best_ask_price"].(string); s != asks[0].rawPrice {
			return fmt.Errorf("best_ask_price %q, want the first ask's price %q", s, asks[0].rawPrice)
		}
		bid, ask := bids[0].price, asks[0].price
		if !bid.LessThan(ask) {
			return fmt.Errorf("best bid %s is not below best ask %s", bid, ask)
		}
		spread, err := stateDecimal(attrs, "spread")
		if err != nil {
			return err
		}
		if !spread.Equal(ask.Sub(bid)) {
			return fmt.Errorf("spread %s, want %s - %s = %s", spread, ask, bid, ask.Sub(bid))
		}
		mid, err := stateDecimal(attrs, "mid_price")
		if err != nil {
			return err
		}
		// 2 * mid == bid + ask, exactly.
		if !mid.Mul(decimal.NewFromInt(2)).Equal(bid.Add(ask)) {
			return fmt.Errorf("mid_price %s, want (%s + %s) / 2", mid, bid, ask)
		}
		return nil
	})
}

// stateBook reads the bids and asks of a data source's state.
func stateBook(attrs map[string]any) (bids, asks []stateLevel, err error) {
	if bids, err = stateLevels(attrs, "bids"); err != nil {
		return nil, nil, err
	}
	asks, err = stateLevels(attrs, "asks")
	return bids, asks, err
}

// parallelSteps runs steps as one parallel acceptance test case.
func parallelSteps(t *testing.T, steps ...resource.TestStep) {
	t.Helper()
	resource.ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
}

// parallelStepsThen runs steps as one parallel acceptance test case, and
// checkDestroy once its objects are destroyed.
func parallelStepsThen(t *testing.T, checkDestroy resource.TestCheckFunc, steps ...resource.TestStep) {
	t.Helper()
	resource.ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps, CheckDestroy: checkDestroy})
}

// checkNoStreamCalls checks that no token was issued and no stream
// handshake made: what was refused at plan made no call.
func checkNoStreamCalls(t *testing.T, emu *emulator.Server) {
	t.Helper()
	if n, w := emu.Counters.TotalTokens(), emu.Counters.Requests("GET /ws"); n != 0 || w != 0 {
		t.Errorf("tokens issued = %d, stream handshakes = %d; want 0 and 0", n, w)
	}
}

// testStreamReadFails runs one step, config with pre run before it, that
// fails with want, and checks that no stream connection stays open.
func testStreamReadFails(t *testing.T, env *accEnv, pre func(), config string, want *regexp.Regexp) {
	t.Helper()
	parallelSteps(t, resource.TestStep{PreConfig: pre, Config: env.config(config), ExpectError: want})
	waitNoStreamConnections(t, env.emu)
}

// testStreamTimeout runs failing while the emulator withholds its stream
// data, then next with the data let through; the failing step must take
// at least timeout and less than the default, and no stream connection
// stays open.
func testStreamTimeout(t *testing.T, env *accEnv, timeout time.Duration, failing, next resource.TestStep) {
	t.Helper()
	var start time.Time
	var elapsed time.Duration
	failing.PreConfig = func() {
		env.emu.HoldStreamData(true)
		start = time.Now()
	}
	// Runs right after the failed step: measure it, then let the data
	// through.
	next.PreConfig = func() {
		elapsed = time.Since(start)
		env.emu.HoldStreamData(false)
	}
	parallelSteps(t, failing, next)
	t.Logf("failing step with timeout %s took %s", timeout, elapsed)
	// The step includes Terraform's own processes, slow on a loaded
	// machine: below the default bound is what shows that the configured
	// one ended the read.
	if elapsed < timeout || elapsed >= defaultStreamTimeout {
		t.Errorf("failing step took %s, want at least %s and less than the default %s", elapsed, timeout, defaultStreamTimeout)
	}
	waitNoStreamConnections(t, env.emu)
}

// checkSameLevels checks that the levels of a are the first n levels of b.
func checkSameLevels(a, b string, n int) statecheck.StateCheck {
	var checks []statecheck.StateCheck
	for _, side := range []string{"bids", "asks"} {
		for i := range n {
			for _, f := range []string{"price", "amount"} {
				checks = append(checks, statecheck.CompareValuePairs(
					a, tfjsonpath.New(side).AtSliceIndex(i).AtMapKey(f),
					b, tfjsonpath.New(side).AtSliceIndex(i).AtMapKey(f),
					compare.ValuesSame()))
			}
		}
	}
	return stateCheckFunc(func(ctx context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
		for _, c := range checks {
			c.CheckState(ctx, req, resp)
			if resp.Error != nil {
				return
			}
		}
	})
}

func TestAccOrderBookDataSource(t *testing.T) {
	// A book that does not move while the test runs, so that every read of
	// a market sees the same book (the emulator keeps 10 levels a side).
	env, _ := emulatorEnv(t, emulator.Options{BookInterval: time.Hour})
	const full = "data.platform_order_book.btc_full"
	parallelSteps(t, resource.TestStep{
		Config: env.config(`
data "platform_order_book" "btc_full" {
  market = "BTCUSD"
  depth  = 1000
}

data "platform_order_book" "btc_top3" {
  market  = "BTCUSD"
  depth   = 3
  timeout = "5s"
}

data "platform_order_book" "eth_default" {
  market = "ETHUSD"
}

data "platform_top_of_book" "btc" {
  market = "BTCUSD"
}
`),
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue(full, tfjsonpath.New("id"), knownvalue.StringExact("BTCUSD")),
			statecheck.ExpectKnownValue(full, tfjsonpath.New("timestamp"), rfc3339Nano),
			statecheck.ExpectKnownValue("data.platform_order_book.eth_default", tfjsonpath.New("depth"), knownvalue.Null()),
			// A depth above the book's size returns the whole book.
			checkOrderBook(full, 10),
			checkOrderBook("data.platform_order_book.btc_top3", 3),
			checkOrderBook("data.platform_order_book.eth_default", 10),
			// depth keeps the best levels.
			checkSameLevels("data.platform_order_book.btc_top3", full, 3),
			// The top of book is the order book's best bid and ask.
			statecheck.CompareValuePairs(full, tfjsonpath.New("best_bid_price"),
				"data.platform_top_of_book.btc", tfjsonpath.New("best_bid_price"), compare.ValuesSame()),
			statecheck.CompareValuePairs(full, tfjsonpath.New("best_ask_price"),
				"data.platform_top_of_book.btc", tfjsonpath.New("best_ask_price"), compare.ValuesSame()),
			statecheck.CompareValuePairs(full, tfjsonpath.New("bids").AtSliceIndex(0).AtMapKey("amount"),
				"data.platform_top_of_book.btc", tfjsonpath.New("best_bid_amount"), compare.ValuesSame()),
			dataSourceCheck(full, func(attrs map[string]any) error {
				bid, err := stateDecimal(attrs, "best_bid_price")
				if err != nil {
					return err
				}
				return checkPriceRange("best bid", bid, "56000", "64000")
			}),
		},
	})
	waitNoStreamConnections(t, env.emu)
}

func TestAccOrderBookDataSource_invalidDepth(t *testing.T) {
	env, _ := emulatorEnv(t, emulator.Options{})
	var steps []resource.TestStep
	for _, depth := range []string{"0", "-1", "1001"} {
		steps = append(steps, resource.TestStep{
			Config: env.config(fmt.Sprintf(`
data "platform_order_book" "x" {
  market = "BTCUSD"
  depth  = %s
}
`, depth)),
			PlanOnly:    true,
			ExpectError: diagRegexp("Attribute depth value must be between 1 and 1000, got: " + depth),
		})
	}
	steps = append(steps, resource.TestStep{
		Config: env.config(`
data "platform_order_book" "x" {
  market  = "BTCUSD"
  timeout = "0.5"
}
`),
		PlanOnly:    true,
		ExpectError: diagRegexp(`Invalid Time Duration String Value`),
	})
	parallelSteps(t, steps...)
	checkNoStreamCalls(t, env.emu)
}

func TestAccOrderBookDataSource_unknownMarket(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	testStreamReadFails(t, env, nil, `
data "platform_order_book" "x" {
  market = "NOPE-USD"
}
`, diagRegexp(`market "NOPE-USD" was refused by the stream`))
}

func TestAccOrderBookDataSource_timeout(t *testing.T) {
	env, _ := emulatorEnv(t, emulator.Options{})
	testStreamTimeout(t, env, time.Second, resource.TestStep{
		Config: env.config(`
data "platform_order_book" "x" {
  market  = "SOLUSD"
  timeout = "1s"
}
`),
		ExpectError: regexp.MustCompile(`No order book snapshot for market "SOLUSD" within 1s`),
	}, resource.TestStep{Config: env.config(`output "done" { value = true }`)})
}
