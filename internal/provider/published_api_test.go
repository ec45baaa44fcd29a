package provider

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/shopspring/decimal"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// The service as its API reference publishes it, where the spec differs.

// TestAccPublished_insufficientFundsProblem: a withdrawal refused with 403
// and the insufficient-funds problem shows its type and detail, and no
// hint about scopes right after them (the body names its cause).
func TestAccPublished_insufficientFundsProblem(t *testing.T) {
	env, emu := emulatorEnv(t, emulator.Options{})
	emu.Faults.RefuseWithdrawals(1, "insufficient-funds", "the balance of profile prof-1 does not cover 0.5001 BTC")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      env.config(payoutWithdrawal),
			ExpectError: regexp.MustCompile(`(?s)Crypto withdrawal refused.*nothing was sent.*403\s+Forbidden:\s+insufficient-funds:\s+the\s+balance\s+of\s+profile\s+prof-1\s+does\s+not\s+cover\s+0.5001\s+BTC\s+\(request\s+id\s+[^)]+\)\.`),
		}},
		CheckDestroy: func(*terraform.State) error {
			if n := len(emu.Transfers()); n != 0 {
				t.Errorf("the emulator holds %d transfers, want 0", n)
			}
			return nil
		},
	})
}

func TestAccPublished_throttledWithoutRetryAfter(t *testing.T) {
	env, emu := emulatorEnv(t, emulator.Options{FiatAccounts: 5})
	emu.Faults.OnlyPath("/v2/transfer/fiat-accounts")
	emu.Faults.TooManyRequests(5, -1)
	parallelSteps(t, resource.TestStep{
		Config:      env.config(`data "platform_fiat_accounts" "all" {}`),
		ExpectError: regexp.MustCompile(`(?s)429\s+Too\s+Many\s+Requests.*throttles\s+this\s+address\s+for\s+up\s+to\s+5\s+minutes`),
	})
	if n := emu.Counters.Requests("GET /v2/transfer/fiat-accounts"); n != 1 {
		t.Errorf("%d list requests, want 1: a 429 without Retry-After is not retried", n)
	}
}

// TestAccPublished_fiatAccountStatusEitherPlace reads the status and
// metadata of fiat accounts from the top level of the item (the API
// reference's schema) and from wire (its example), never null when either
// holds them.
func TestAccPublished_fiatAccountStatusEitherPlace(t *testing.T) {
	t.Parallel()
	for name, nested := range map[string]bool{"top level": false, "under wire": true} {
		t.Run(name, func(t *testing.T) {
			env, _ := emulatorEnv(t, emulator.Options{FiatAccounts: 30, FiatAccountStatusNested: nested})
			all := env.emu.FiatAccounts()
			var checks []statecheck.StateCheck
			i := 0
			for j := len(all) - 1; j >= 0 && i < 5; j-- {
				a := all[j]
				if a.Deleted {
					continue
				}
				status := a.Status
				if nested {
					status = a.FiatNetworkInstructions.Wire.Status
				}
				if status == "" {
					t.Fatalf("account %s has no status in the emulator", a.ID)
				}
				checks = append(checks, statecheck.ExpectKnownValue("data.platform_fiat_accounts.all",
					itemsPath(i).AtMapKey("status"), knownvalue.StringExact(status)))
				i++
			}
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config:            env.config(`data "platform_fiat_accounts" "all" {}`),
					ConfigStateChecks: checks,
				}},
			})
		})
	}
}

// TestAccPublished_marketsWithoutDash: market data by the published
// identifier (BTCUSD), and a dashed one refused with the hint.
func TestAccPublished_marketsWithoutDash(t *testing.T) {
	env, _ := emulatorEnv(t, emulator.Options{})
	parallelSteps(t,
		resource.TestStep{
			Config: env.config(`data "platform_top_of_book" "btc" { market = "BTCUSD" }`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.platform_top_of_book.btc", tfjsonpath.New("best_bid_price"), knownvalue.NotNull()),
			},
		},
		resource.TestStep{
			Config:      env.config(`data "platform_top_of_book" "btc" { market = "BTC-USD" }`),
			ExpectError: regexp.MustCompile(`(?s)Market "BTC-USD" refused by the stream.*identifiers have no\s+dash: "BTCUSD", not "BTC-USD"`),
		},
	)
}

// TestAccPublished_nonWireInstructions: instructions of a network other than
// WIRE come back with the fields the service sends, in
// fiat_network_instructions_json.
func TestAccPublished_nonWireInstructions(t *testing.T) {
	env, emu := emulatorEnv(t, emulator.Options{})
	parallelSteps(t, resource.TestStep{
		Config: env.config(`
resource "platform_fiat_deposit_instructions" "rtp" {
  profile_id   = "prof-1"
  fiat_network = "RTP"
}
`),
		Check: func(s *terraform.State) error {
			raw, err := stateAttr(s, "platform_fiat_deposit_instructions.rtp", "fiat_network_instructions_json")
			if err != nil {
				return err
			}
			var got map[string]map[string]any
			if err := json.Unmarshal([]byte(raw), &got); err != nil {
				return fmt.Errorf("fiat_network_instructions_json %q: %w", raw, err)
			}
			fdis := emu.FiatDepositInstructions()
			if len(fdis) != 1 || fdis[0].FiatNetworkInstructions.RTP == nil {
				return fmt.Errorf("the emulator holds %+v", fdis)
			}
			want := fdis[0].FiatNetworkInstructions.RTP
			rtp := got["rtp"]
			routing, _ := rtp["routing_details"].(map[string]any)
			if rtp["account_number"] != want.AccountNumber || routing["routing_number"] != want.RoutingDetails.RoutingNumber ||
				routing["bank_name"] != want.RoutingDetails.BankName {
				return fmt.Errorf("rtp instructions %v, the service sent %+v", rtp, want)
			}
			return nil
		},
	})
}

// TestAccPublished_repliesWithoutParams: subscribe replies whose entries do
// not echo params (an older page of the docs) are matched by type.
func TestAccPublished_repliesWithoutParams(t *testing.T) {
	env, _ := emulatorEnv(t, emulator.Options{RepliesWithoutParams: true})
	parallelSteps(t, resource.TestStep{
		Config: env.config(`
data "platform_top_of_book" "btc" { market = "BTCUSD" }
data "platform_order_book" "eth" {
  market = "ETHUSD"
  depth  = 5
}
`),
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue("data.platform_top_of_book.btc", tfjsonpath.New("best_ask_price"), knownvalue.NotNull()),
			statecheck.ExpectKnownValue("data.platform_order_book.eth", tfjsonpath.New("bids"), knownvalue.ListSizeExact(5)),
		},
	})
}

// TestAccPublished_snapshotBeforeReply: a snapshot that arrives before the
// subscribe reply, after an UPDATE, is the one taken.
func TestAccPublished_snapshotBeforeReply(t *testing.T) {
	env, _ := emulatorEnv(t, emulator.Options{SnapshotBeforeReply: true, BookInterval: time.Hour, HeartbeatInterval: time.Hour})
	parallelSteps(t, resource.TestStep{
		Config: env.config(`
data "platform_order_book" "btc" {
  market  = "BTCUSD"
  depth   = 10
  timeout = "5s"
}
data "platform_top_of_book" "eth" {
  market  = "ETHUSD"
  timeout = "5s"
}
`),
		ConfigStateChecks: []statecheck.StateCheck{
			// The UPDATE before it holds one level a side; the snapshot ten.
			statecheck.ExpectKnownValue("data.platform_order_book.btc", tfjsonpath.New("bids"), knownvalue.ListSizeExact(10)),
			statecheck.ExpectKnownValue("data.platform_top_of_book.eth", tfjsonpath.New("best_bid_price"), knownvalue.NotNull()),
		},
	})
}

// tenMarketDataReads is ten market-data reads of four (channel, market)
// pairs, with an output of each best bid and best ask.
const tenMarketDataReads = `
data "platform_top_of_book" "btc" {
  count  = 3
  market = "BTCUSD"
}
data "platform_order_book" "btc" {
  count  = 3
  market = "BTCUSD"
  depth  = count.index + 3
}
data "platform_top_of_book" "eth" {
  count  = 2
  market = "ETHUSD"
}
data "platform_order_book" "eth" {
  count  = 2
  market = "ETHUSD"
}
output "books" {
  value = concat(
    [for d in data.platform_top_of_book.btc : { market = d.market, bid = d.best_bid_price, ask = d.best_ask_price, bids = length(d.bids) }],
    [for d in data.platform_order_book.btc : { market = d.market, bid = d.best_bid_price, ask = d.best_ask_price, bids = length(d.bids) }],
    [for d in data.platform_top_of_book.eth : { market = d.market, bid = d.best_bid_price, ask = d.best_ask_price, bids = length(d.bids) }],
    [for d in data.platform_order_book.eth : { market = d.market, bid = d.best_bid_price, ask = d.best_ask_price, bids = length(d.bids) }],
  )
}
`

// TestAccPublished_tenReadsOneConnection plans ten market-data reads with
// the CLI, under the published rate of one subscription per second per IP
// address: the plan opens one WebSocket connection and one subscription per
// channel and market (counted at the emulator), and every read holds a book
// of its own market.
func TestAccPublished_tenReadsOneConnection(t *testing.T) {
	t.Parallel()
	emu, w := emulatorWorkdir(t, "", tenMarketDataReads)
	w.mustRun(0, "plan", "-out=tfplan")
	if n := emu.Counters.Requests("GET /ws"); n != 1 {
		t.Errorf("the plan opened %d WebSocket connections, want 1", n)
	}
	if n := emu.StreamSubscriptions(); n != 4 {
		t.Errorf("the plan made %d subscriptions, want 4 (one per channel and market)", n)
	}
	show := w.mustRun(0, "show", "-json", "tfplan")
	var plan struct {
		PlannedValues struct {
			Outputs map[string]struct {
				Value []struct {
					Market, Bid, Ask string
					Bids             int
				} `json:"value"`
			} `json:"outputs"`
		} `json:"planned_values"`
	}
	if err := json.Unmarshal([]byte(show.stdout), &plan); err != nil {
		t.Fatalf("terraform show -json: %v\n%s", err, show.stdout)
	}
	books := plan.PlannedValues.Outputs["books"].Value
	wantMarkets := []string{"BTCUSD", "BTCUSD", "BTCUSD", "BTCUSD", "BTCUSD", "BTCUSD", "ETHUSD", "ETHUSD", "ETHUSD", "ETHUSD"}
	wantBids := []int{1, 1, 1, 3, 4, 5, 1, 1, 10, 10}
	if len(books) != len(wantMarkets) {
		t.Fatalf("%d reads in the plan, want %d: %+v", len(books), len(wantMarkets), books)
	}
	for i, b := range books {
		bid, err1 := decimal.NewFromString(b.Bid)
		ask, err2 := decimal.NewFromString(b.Ask)
		if b.Market != wantMarkets[i] || err1 != nil || err2 != nil || !bid.LessThan(ask) || b.Bids != wantBids[i] {
			t.Errorf("read %d = %+v, want market %s, %d bids and a best bid below the best ask", i, b, wantMarkets[i], wantBids[i])
		}
	}
}

// TestAccPublished_subscriptionRateTimeout: a read whose subscribe the
// service holds under its subscription rate past the read's timeout fails
// with an error that says the wait may come from that limit.
func TestAccPublished_subscriptionRateTimeout(t *testing.T) {
	env, _ := emulatorEnv(t, emulator.Options{SubscriptionInterval: time.Hour})
	parallelSteps(t, resource.TestStep{
		Config: env.config(`
data "platform_top_of_book" "btc" {
  market  = "BTCUSD"
  timeout = "1s"
}
data "platform_order_book" "eth" {
  market  = "ETHUSD"
  timeout = "1s"
}
`),
		ExpectError: regexp.MustCompile(`(?s)No .* for market "(BTCUSD|ETHUSD)" within 1s.*before the stream answered\s+the\s+subscribe.*one\s+subscription\s+per\s+second\s+per\s+IP\s+address`),
	})
	if n := env.emu.SubscriptionWaits(); n != 1 {
		t.Errorf("%d subscribes waited their turn, want 1", n)
	}
}

// legacyInstructions is the configuration of
// testdata/legacy/fiat_deposit_instructions.tfstate.
const legacyInstructions = `
resource "platform_fiat_deposit_instructions" "wire" {
  profile_id   = "prof-1"
  fiat_network = "WIRE"
  ref_id       = "fdi-legacy-1"
  metadata     = { purpose = "payroll" }
}
`

// TestAccPublished_instructionsStateWithoutInstitutionDetails plans over a
// state written before fiat_account_owner had institution_details: the
// same configuration plans no change (no replacement), and the refresh
// fills the new attribute (null for a person) and keeps the rest.
func TestAccPublished_instructionsStateWithoutInstitutionDetails(t *testing.T) {
	t.Parallel()
	// A fresh emulator with the seed and clock of the one that served the
	// state makes the same instructions for the same request.
	at := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	emu := emulator.StartTest(t, emulator.Options{Now: func() time.Time { return at }})
	c := emulatorClient(t, emu)
	f, err := c.CreateFiatDepositInstructions(t.Context(), client.FiatDepositInstructionsRequest{
		ProfileID: "prof-1", FiatNetwork: "WIRE", RefID: "fdi-legacy-1", Metadata: map[string]string{"purpose": "payroll"},
	})
	if err != nil {
		t.Fatal(err)
	}
	w := newCLIWorkdir(t)
	w.write(emulatorProviderBlock(emu, ""), legacyInstructions)
	attrs := legacyState(t, w, "fiat_deposit_instructions")
	if f.ID != attrs["id"] || f.MemoID != attrs["memo_id"] {
		t.Fatalf("the emulator made %s (memo %s), not the instructions of the state %v", f.ID, f.MemoID, attrs["id"])
	}
	w.mustRun(0, "plan", "-detailed-exitcode")
	w.mustRun(0, "apply", "-auto-approve")
	st := stateOf(t, w, "platform_fiat_deposit_instructions.wire")
	owner, _ := st["fiat_account_owner"].(map[string]any)
	wantOwner := map[string]any{
		"institution_details": nil,
		"person_details":      attrs["fiat_account_owner"].(map[string]any)["person_details"], //nolint:forcetypeassert // The pinned state's shape.
	}
	if st["id"] != attrs["id"] || st["memo_id"] != attrs["memo_id"] || fmt.Sprint(owner) != fmt.Sprint(wantOwner) {
		t.Errorf("state after the upgrade: id %v memo %v owner %v; want %v %v %v",
			st["id"], st["memo_id"], owner, attrs["id"], attrs["memo_id"], wantOwner)
	}
	if n := emu.Counters.Requests("POST /v2/transfer/fiat-deposit-instructions"); n != 1 {
		t.Errorf("%d instruction POSTs, want 1 (the test's own)", n)
	}
}

// TestAccPublished_errorBodyForms reads a list that the service refuses,
// with the error body as the API reference publishes it (an RFC 7807
// problem, whose type is the code) and in the {code, message} form: both
// show the code and the message.
func TestAccPublished_errorBodyForms(t *testing.T) {
	for name, c := range map[string]struct {
		codeMessage bool
		code        string
	}{
		"problem":      {false, "unavailable"},
		"code message": {true, "UNAVAILABLE"},
	} {
		t.Run(name, func(t *testing.T) {
			emu := emulator.StartTest(t, emulator.Options{FiatAccounts: 3, ErrorBodyCodeMessage: c.codeMessage})
			emu.Faults.ServerErrors(1, 503)
			parallelSteps(t, resource.TestStep{
				Config: emulatorProviderBlock(emu, "  max_retries = 0\n") + `data "platform_fiat_accounts" "all" {}`,
				ExpectError: regexp.MustCompile(`503\s+Service\s+Unavailable:\s+` + c.code +
					`:\s+the\s+service\s+is\s+temporarily\s+unable\s+to\s+answer`),
			})
		})
	}
}

// TestAccPublished_intermediaryRoutingDetails: the intermediary bank of a
// SWIFT wire, which the modelled wire object leaves out, comes back in
// fiat_network_instructions_json as the service sent it.
func TestAccPublished_intermediaryRoutingDetails(t *testing.T) {
	env, emu := emulatorEnv(t, emulator.Options{})
	parallelSteps(t, resource.TestStep{
		Config: env.config(`
resource "platform_fiat_deposit_instructions" "swift" {
  profile_id          = "prof-1"
  fiat_network        = "WIRE"
  routing_number_type = "SWIFT"
}
output "intermediary" {
  value = jsondecode(platform_fiat_deposit_instructions.swift.fiat_network_instructions_json).wire.intermediary_routing_details
}
`),
		Check: func(s *terraform.State) error {
			fdis := emu.FiatDepositInstructions()
			if len(fdis) != 1 || fdis[0].FiatNetworkInstructions.Wire == nil || fdis[0].FiatNetworkInstructions.Wire.IntermediaryRoutingDetails == nil {
				return fmt.Errorf("the emulator holds %+v", fdis)
			}
			want := fdis[0].FiatNetworkInstructions.Wire.IntermediaryRoutingDetails
			out, ok := s.RootModule().Outputs["intermediary"]
			if !ok {
				return errors.New("no output intermediary")
			}
			got, _ := out.Value.(map[string]any)
			addr, _ := got["bank_address"].(map[string]any)
			if got["routing_number_type"] != want.RoutingNumberType || got["routing_number"] != want.RoutingNumber ||
				got["bank_name"] != want.BankName || addr["address1"] != want.BankAddress.Address1 {
				return fmt.Errorf("intermediary_routing_details %v, the service sent %+v", got, want)
			}
			return nil
		},
	})
}
