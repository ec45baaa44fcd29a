package provider

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	fwdatasource "github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/shopspring/decimal"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

const (
	cwAddr          = "platform_crypto_withdrawal.test"
	cwPostKey       = "POST /v2/transfer/crypto-withdrawals"
	uuidPattern     = `^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`
	cwBeneficiary   = `jsonencode({ person_details = { first_name = "Ada", last_name = "Lovelace" } })`
	cwBeneficiaryJS = `{"person_details":{"first_name":"Ada","last_name":"Lovelace"}}`
)

// cwDestination is the address the withdrawals of these tests are sent to.
var cwDestination = validBTCAddress("bc1qexample0destination0address")

// cwConfig is a platform_crypto_withdrawal "test" of BTC with the given
// extra argument lines.
func cwConfig(extra string) string {
	return fmt.Sprintf(`
resource "platform_crypto_withdrawal" "test" {
  profile_id          = "profile-1"
  destination_address = %q
  asset               = "BTC"
  crypto_network      = "BITCOIN"
%s
}
`, cwDestination, extra)
}

// btcFeePlus is amount plus the emulator's BTC fee.
func btcFeePlus(amount string) string {
	return decimal.RequireFromString(amount).Add(emulator.WithdrawalFee("BTC")).String()
}

// checkTransfers checks that the emulator holds exactly n transfers and
// that the last one has the ref_id and id recorded in state.
func checkTransfers(emu *emulator.Server, n int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		ts := emu.Transfers()
		if len(ts) != n {
			return fmt.Errorf("emulator holds %d transfers, want %d", len(ts), n)
		}
		last := ts[len(ts)-1]
		attrs, err := stateAttrs(s, cwAddr, "id", "ref_id")
		if err != nil {
			return err
		}
		id, ref := attrs[0], attrs[1]
		if last.ID != id {
			return fmt.Errorf("state id %q, emulator's last transfer %q", id, last.ID)
		}
		if last.RefID == nil || *last.RefID != ref {
			return fmt.Errorf("state ref_id %q, emulator's last transfer sent with ref_id %v", ref, last.RefID)
		}
		return nil
	}
}

func TestAccCryptoWithdrawal_lifecycle(t *testing.T) {
	env, _ := emulatorEnv(t, emulator.Options{})
	env.needMoneyMovement(t)
	emu := env.emu
	var firstID, firstRef, plannedRef string
	var requestsBeforeDestroy int
	// The plan shows the ref_id the apply sends.
	capturePlanned := plancheck.ExpectKnownValue(cwAddr, tfjsonpath.New("ref_id"), knownvalue.StringFunc(func(v string) error {
		if !regexp.MustCompile(uuidPattern).MatchString(v) {
			return fmt.Errorf("planned ref_id %q is not a derived UUID", v)
		}
		plannedRef = v
		return nil
	}))
	appliedPlanned := func(s *terraform.State) error {
		if ref, _ := stateAttr(s, cwAddr, "ref_id"); ref != plannedRef {
			return fmt.Errorf("applied ref_id %q, planned %q", ref, plannedRef)
		}
		return nil
	}

	withAmount := func(amount string) string {
		return env.config(cwConfig(fmt.Sprintf(`  amount      = %q
  memo        = "invoice 42"
  metadata    = { invoice = "42", team = "treasury" }
  beneficiary = %s`, amount, cwBeneficiary)))
	}

	destroyed := func(*terraform.State) error {
		// The refresh before destroy reads the transfer; nothing is sent.
		if n := emu.Counters.Requests(cwPostKey); n != requestsBeforeDestroy {
			return fmt.Errorf("destroy sent %d withdrawals, want none", n-requestsBeforeDestroy)
		}
		if n := len(emu.Transfers()); n != 2 {
			return fmt.Errorf("emulator holds %d transfers after destroy, want 2", n)
		}
		return nil
	}
	parallelStepsThen(t, destroyed,
		resource.TestStep{
			Config: withAmount("0.5"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(cwAddr, plancheck.ResourceActionCreate),
				capturePlanned,
				plancheck.ExpectUnknownValue(cwAddr, tfjsonpath.New("total")),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(cwAddr, tfjsonpath.New("amount"), knownvalue.StringExact("0.5")),
				statecheck.ExpectKnownValue(cwAddr, tfjsonpath.New("fee"), knownvalue.StringExact(emulator.WithdrawalFee("BTC").String())),
				statecheck.ExpectKnownValue(cwAddr, tfjsonpath.New("total"), knownvalue.StringExact(btcFeePlus("0.5"))),
				statecheck.ExpectKnownValue(cwAddr, tfjsonpath.New("total"), knownvalue.StringExact("0.5001")),
				statecheck.ExpectKnownValue(cwAddr, tfjsonpath.New("status"), knownvalue.StringExact("PENDING")),
				statecheck.ExpectKnownValue(cwAddr, tfjsonpath.New("direction"), knownvalue.StringExact("DEBIT")),
				statecheck.ExpectKnownValue(cwAddr, tfjsonpath.New("type"), knownvalue.StringExact("CRYPTO_WITHDRAWAL")),
				statecheck.ExpectKnownValue(cwAddr, tfjsonpath.New("customer_id"), knownvalue.StringExact(emu.CustomerID())),
				statecheck.ExpectKnownValue(cwAddr, tfjsonpath.New("ref_id"), knownvalue.StringRegexp(regexp.MustCompile(uuidPattern))),
				statecheck.ExpectKnownValue(cwAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(uuidPattern))),
				statecheck.ExpectKnownValue(cwAddr, tfjsonpath.New("notional_value"), knownvalue.StringExact("32506.50")),
				statecheck.ExpectKnownValue(cwAddr, tfjsonpath.New("beneficiary"), knownvalue.StringExact(cwBeneficiaryJS)),
				statecheck.ExpectKnownValue(cwAddr, tfjsonpath.New("auto_conversion"), knownvalue.StringExact("{}")),
				statecheck.ExpectKnownValue(cwAddr, tfjsonpath.New("crypto_tx_hash"), knownvalue.Null()),
				statecheck.ExpectKnownValue(cwAddr, tfjsonpath.New("identity_id"), knownvalue.Null()),
				statecheck.ExpectKnownValue(cwAddr, tfjsonpath.New("metadata"), knownvalue.MapExact(map[string]knownvalue.Check{
					"invoice": knownvalue.StringExact("42"), "team": knownvalue.StringExact("treasury"),
				})),
				statecheck.ExpectKnownValue(cwAddr, tfjsonpath.New("created_at"), knownvalue.NotNull()),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				checkTransfers(emu, 1),
				appliedPlanned,
				func(s *terraform.State) error {
					var err error
					firstID, _ = stateAttr(s, cwAddr, "id")
					firstRef, err = stateAttr(s, cwAddr, "ref_id")
					t0 := emu.Transfers()[0]
					if t0.Memo == nil || *t0.Memo != "invoice 42" || t0.Metadata["team"] != "treasury" {
						return fmt.Errorf("emulator received memo %v metadata %v", t0.Memo, t0.Metadata)
					}
					return err
				},
			),
		},
		resource.TestStep{
			// Same configuration: nothing to do, nothing sent.
			Config: withAmount("0.5"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectEmptyPlan(),
			}},
			Check: resource.ComposeAggregateTestCheckFunc(
				checkTransfers(emu, 1),
				checkRequests(emu, cwPostKey, 1, "%d withdrawal POSTs, want 1"),
			),
		},
		resource.TestStep{
			// A changed amount is a new withdrawal, with a new ref_id.
			Config: withAmount("0.75"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(cwAddr, plancheck.ResourceActionDestroyBeforeCreate),
				plancheck.ExpectUnknownValue(cwAddr, tfjsonpath.New("id")),
				capturePlanned,
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(cwAddr, tfjsonpath.New("total"), knownvalue.StringExact(btcFeePlus("0.75"))),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				checkTransfers(emu, 2),
				appliedPlanned,
				func(s *terraform.State) error {
					id, _ := stateAttr(s, cwAddr, "id")
					ref, _ := stateAttr(s, cwAddr, "ref_id")
					if id == firstID || ref == firstRef {
						return fmt.Errorf("replacement kept id %q / ref_id %q", id, ref)
					}
					requestsBeforeDestroy = emu.Counters.Requests(cwPostKey)
					return nil
				},
			),
		},
	)
}

func TestAccCryptoWithdrawal_total(t *testing.T) {
	env, _ := emulatorEnv(t, emulator.Options{})
	env.needMoneyMovement(t)
	parallelSteps(t,
		resource.TestStep{
			Config: env.config(cwConfig(`  total  = "1.0001"
  ref_id = "payout-2024-07"`)),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue(cwAddr, tfjsonpath.New("ref_id"), knownvalue.StringExact("payout-2024-07")),
				plancheck.ExpectUnknownValue(cwAddr, tfjsonpath.New("amount")),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(cwAddr, tfjsonpath.New("total"), knownvalue.StringExact("1.0001")),
				statecheck.ExpectKnownValue(cwAddr, tfjsonpath.New("amount"), knownvalue.StringExact("1")),
				statecheck.ExpectKnownValue(cwAddr, tfjsonpath.New("ref_id"), knownvalue.StringExact("payout-2024-07")),
			},
			Check: checkTransfers(env.emu, 1),
		},
		resource.TestStep{
			Config: env.config(cwConfig(`  total  = "1.0001"
  ref_id = "payout-2024-07"`)),
			PlanOnly: true,
		},
	)
}

func TestAccCryptoWithdrawal_validation(t *testing.T) {
	t.Parallel()
	requireTFAcc(t)
	env, _ := emulatorEnv(t, emulator.Options{})
	longKey := strings.Repeat("k", 101)
	longValue := strings.Repeat("v", 101)
	var sevenPairs []string
	for i := range 7 {
		sevenPairs = append(sevenPairs, fmt.Sprintf("k%d = \"v\"", i))
	}
	cases := []struct {
		name  string
		extra string
		want  string
	}{
		{"amount not a decimal", `amount = "1e5"`, `Attribute amount must be a decimal number`},
		{"amount negative", `amount = "-1"`, `Attribute amount must be a decimal number`},
		{"amount two dots", `amount = "0.5.1"`, `Attribute amount must be a decimal number`},
		{"amount empty", `amount = ""`, `Attribute amount must be a decimal number`},
		{"total not a decimal", `total = "1,5"`, `Attribute total must be a decimal number`},
		{"both amount and total", "amount = \"1\"\ntotal = \"2\"", `2 attributes specified when one \(and only one\) of`},
		{"neither amount nor total", ``, `No attribute specified when one \(and only one\) of`},
		{"empty crypto network", "amount = \"1\"\ncrypto_network = \"\"", `Attribute crypto_network string length must be at least 1`},
		{"metadata seven pairs", "amount = \"1\"\nmetadata = {" + strings.Join(sevenPairs, ", ") + "}", `Attribute metadata map must contain at most 6 elements`},
		{"metadata key too long", fmt.Sprintf("amount = \"1\"\nmetadata = { %s = \"v\" }", longKey), `string length must be at most 100`},
		{"metadata value too long", fmt.Sprintf("amount = \"1\"\nmetadata = { k = %q }", longValue), `string length must be at most 100`},
		{"beneficiary not an object", "amount = \"1\"\nbeneficiary = jsonencode([1, 2])", `beneficiary must be a JSON object`},
		{"beneficiary not JSON", "amount = \"1\"\nbeneficiary = \"{name:\"", `Invalid JSON String Value`},
		{"empty ref_id", "amount = \"1\"\nref_id = \"\"", `Attribute ref_id string length must be at least 1`},
		{"empty profile_id", "amount = \"1\"\nprofile_id = \"\"", `Attribute profile_id string length must be at least 1`},
	}
	t.Run("cases", func(t *testing.T) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				cfg := fmt.Sprintf(`
resource "platform_crypto_withdrawal" "test" {
  destination_address = %q
  asset               = "BTC"
%s
%s
%s
}
`, cwDestination, defaultLine(tc.extra, "profile_id", `profile_id = "profile-1"`),
					defaultLine(tc.extra, "crypto_network", `crypto_network = "BITCOIN"`), tc.extra)
				parallelSteps(t, resource.TestStep{
					Config:      env.config(cfg),
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(tc.want),
				})
			})
		}
	})
	if n := env.emu.Counters.Requests(cwPostKey); n != 0 {
		t.Errorf("%d withdrawal POSTs reached the emulator, want 0", n)
	}
	if n := env.emu.Counters.APIRequests(); n != 0 {
		t.Errorf("%d API requests reached the emulator, want 0", n)
	}
	if n := len(env.emu.Transfers()); n != 0 {
		t.Errorf("emulator holds %d transfers, want 0", n)
	}
}

// defaultLine is line unless extra already sets the argument name.
func defaultLine(extra, name, line string) string {
	if regexp.MustCompile(`(?m)^\s*` + name + `\s*=`).MatchString(extra) {
		return ""
	}
	return line
}

func TestAccCryptoWithdrawal_forbidden(t *testing.T) {
	t.Parallel()
	requireTFAcc(t)
	env := newAccEnv(t, emulator.Options{Clients: map[string]emulator.ClientCredentials{
		emulator.DefaultClientID: {Secret: emulator.DefaultClientSecret},
		"reader":                 {Secret: "reader-secret", Scopes: []string{"transfer:read_fiat_deposit_instructions"}},
	}})
	env.needEmulator(t)
	body := cwConfig(`  amount = "0.5"`)
	cases := []struct {
		name, provider, want string
	}{
		{
			// The client may not get the scope at all: the token request is refused.
			name:     "client without the scope",
			provider: emulatorProviderBlockFor(env.emu, "reader", "reader-secret", ""),
			want:     `transfer:write_crypto_withdrawal`,
		},
		{
			// Scopes pinned without it: the plan refuses, before any request.
			name:     "pinned scopes without the scope",
			provider: emulatorProviderBlock(env.emu, `  scopes = ["transfer:read_fiat_deposit_instructions"]`+"\n"),
			want:     `(?s)pinned\s+scopes\s+lack\s+transfer:write_crypto_withdrawal.*Nothing\s+was\s+sent`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config:      tc.provider + body,
					ExpectError: regexp.MustCompile(tc.want),
				}},
			})
		})
	}
	if n := len(env.emu.Transfers()); n != 0 {
		t.Errorf("emulator holds %d transfers, want 0", n)
	}
	if n := env.emu.Counters.Requests(cwPostKey); n != 0 {
		t.Errorf("%d withdrawal POSTs reached the emulator, want none", n)
	}
}

func TestAccCryptoWithdrawal_retriedAfterTimeout(t *testing.T) {
	env, _ := emulatorEnv(t, emulator.Options{})
	env.needMoneyMovement(t)
	emu := env.emu
	// The first attempt is processed and then held past the request
	// timeout (seconds, so that only the held attempt reaches it on a busy
	// machine): the client gives up on it and retries with the same ref_id.
	emu.Faults.AcceptThenHang(1, 30*time.Second)
	parallelSteps(t, resource.TestStep{
		Config: emulatorProviderBlock(emu, "  request_timeout = \"3s\"\n") + cwConfig(`  amount = "0.5"`),
		Check: resource.ComposeAggregateTestCheckFunc(
			checkTransfers(emu, 1),
			checkRequests(emu, cwPostKey, 2, "%d withdrawal POSTs, want 2 (one timed out, one retry)"),
		),
	})
}

func TestAccCryptoWithdrawal_unknownOutcomeRetriedWithSameRefID(t *testing.T) {
	env, _ := emulatorEnv(t, emulator.Options{})
	env.needMoneyMovement(t)
	emu := env.emu
	// One retry per apply: both attempts of the first apply are processed
	// by the emulator (the first creates the transfer) and answered 500.
	cfg := emulatorProviderBlock(emu, "  max_retries = 1\n") + cwConfig(`  amount = "0.5"`)
	emu.Faults.AcceptThenFail(2)
	var sentRef string
	parallelSteps(t,
		resource.TestStep{
			Config:      cfg,
			ExpectError: regexp.MustCompile(`(?s)Outcome of crypto withdrawal unknown.*ref_id [0-9a-f-]{36}.*500.*Applying again`),
		},
		resource.TestStep{
			PreConfig: func() {
				ts := emu.Transfers()
				if len(ts) != 1 || ts[0].RefID == nil {
					t.Fatalf("after the failed apply the emulator holds %d transfers, want 1 with a ref_id", len(ts))
				}
				sentRef = *ts[0].RefID
			},
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				// The tainted object is replaced, and the plan already
				// carries the ref_id of the unconfirmed attempt.
				plancheck.ExpectResourceAction(cwAddr, plancheck.ResourceActionDestroyBeforeCreate),
				plancheck.ExpectKnownValue(cwAddr, tfjsonpath.New("ref_id"), knownvalue.StringFunc(func(v string) error {
					if v != sentRef {
						return fmt.Errorf("planned ref_id %q, the unconfirmed attempt used %q", v, sentRef)
					}
					return nil
				})),
			}},
			Check: resource.ComposeAggregateTestCheckFunc(
				checkTransfers(emu, 1),
				func(s *terraform.State) error {
					if ref, _ := stateAttr(s, cwAddr, "ref_id"); ref != sentRef {
						return fmt.Errorf("state ref_id %q, want %q", ref, sentRef)
					}
					// The retry's plan found the transfer under the ref_id
					// (money.sends = false): its apply records it and sends
					// nothing.
					if n := emu.Counters.Requests(cwPostKey); n != 2 {
						return fmt.Errorf("%d withdrawal POSTs, want 2 (2 unconfirmed, none from the apply that records it)", n)
					}
					return nil
				},
			),
		},
		resource.TestStep{
			Config:   cfg,
			PlanOnly: true,
		},
	)
}

func TestAccCryptoWithdrawal_refIDConflict(t *testing.T) {
	env, _ := emulatorEnv(t, emulator.Options{})
	env.needMoneyMovement(t)
	emu := env.emu
	first := cwConfig(`  amount = "0.5"
  ref_id = "payout-7"`)
	second := fmt.Sprintf(`
resource "platform_crypto_withdrawal" "again" {
  profile_id          = "profile-1"
  destination_address = %q
  asset               = "BTC"
  crypto_network      = "BITCOIN"
  amount              = "0.7"
  ref_id              = "payout-7"
}
`, cwDestination)
	destroyed := func(*terraform.State) error {
		if n := len(emu.Transfers()); n != 1 {
			return fmt.Errorf("emulator holds %d transfers, want 1", n)
		}
		return nil
	}
	parallelStepsThen(t, destroyed,
		resource.TestStep{Config: env.config(first), Check: checkTransfers(emu, 1)},
		resource.TestStep{
			Config:      env.config(first, second),
			ExpectError: regexp.MustCompile(`(?s)Two crypto withdrawals with the same ref_id.*payout-7.*Both\s+configure\s+this\s+ref_id`),
		},
	)
}

func TestCreateOutcomeUnknown(t *testing.T) {
	path := "/transfer/crypto-withdrawals"
	cases := []struct {
		name string
		err  error
		want bool
	}{
		{"network error", errors.New("POST /transfer/crypto-withdrawals: connection reset"), true},
		{"server error after retries", fmt.Errorf("wrapped: %w", &client.APIError{Method: "POST", Path: path, Status: 500, Attempts: 5}), true},
		{"gateway timeout", &client.APIError{Method: "POST", Path: path, Status: 504}, true},
		{"validation", &client.APIError{Method: "POST", Path: path, Status: 400, Code: "INVALID_ARGUMENT"}, false},
		{"conflict", &client.APIError{Method: "POST", Path: path, Status: 409, Code: "ALREADY_EXISTS"}, false},
		{"a proxy's 400 without the service's error body", &client.APIError{Method: "POST", Path: path, Status: 400}, true},
		{"a proxy's request timeout", &client.APIError{Method: "POST", Path: path, Status: 408, Code: "TIMEOUT"}, true},
		{"a proxy's client closed request", &client.APIError{Method: "POST", Path: path, Status: 499}, true},
		{"rate limited", &client.APIError{Method: "POST", Path: path, Status: 429}, false},
		{"token request refused", fmt.Errorf("obtaining an access token: %w", &client.APIError{Method: "POST", Path: "http://127.0.0.1/oauth2/token", Status: 400}), false},
		{"token server down", fmt.Errorf("obtaining an access token: %w", &client.APIError{Method: "POST", Path: "http://127.0.0.1/oauth2/token", Status: 503}), false},
	}
	for _, tc := range cases {
		if got := createOutcomeUnknown(tc.err, path); got != tc.want {
			t.Errorf("%s: createOutcomeUnknown = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestDerivedRefID(t *testing.T) {
	ctx := t.Context()
	args := func(ref types.String, beneficiary string, total types.String) cryptoWithdrawalArgs {
		return cryptoWithdrawalArgs{
			ProfileID: types.StringValue("p"), DestinationAddress: types.StringValue("d"), Asset: types.StringValue("BTC"),
			CryptoNetwork: types.StringValue("BITCOIN"), Amount: types.StringValue("0.5"), Total: total, RefID: ref,
			IdentityID: types.StringNull(), AccountID: types.StringUnknown(), BalanceAsset: types.StringNull(),
			Metadata: types.MapNull(types.StringType), FeeID: types.StringNull(),
			Beneficiary: jsontypes.NewNormalizedValue(beneficiary), Memo: types.StringNull(),
		}
	}
	declared := cryptoWithdrawalFlow.declare()
	derive := func(a cryptoWithdrawalArgs) (string, bool) { return declared.derived(ctx, a, "") }
	// The state of an unconfirmed create (ref_id set, computed values null)
	// and the plan of its retry (ref_id and computed values unknown) are the
	// same request, whatever the spelling of the JSON beneficiary.
	state, ok1 := derive(args(types.StringValue("r-1"), `{"a":1,"b":2}`, types.StringNull()))
	plan, ok2 := derive(args(types.StringUnknown(), `{ "b": 2, "a": 1 }`, types.StringUnknown()))
	if !ok1 || !ok2 || state != plan {
		t.Errorf("ref_ids of the same request differ: %q and %q", state, plan)
	}
	// A fixed request has a fixed ref_id: the derivation is part of the
	// contract with states already written (docs describe it).
	if want := "9f7713c1-37c5-573c-9523-70794dc2faeb"; state != want {
		t.Errorf("derived ref_id %s, want %s: changing the derivation makes every unconfirmed withdrawal "+
			"in users' states retry under a second key", state, want)
	}
	if !regexp.MustCompile(uuidPattern).MatchString(state) {
		t.Errorf("derived ref_id %q is not a UUID", state)
	}
	for name, change := range map[string]func(*cryptoWithdrawalArgs){
		"amount":      func(a *cryptoWithdrawalArgs) { a.Amount = types.StringValue("0.6") },
		"destination": func(a *cryptoWithdrawalArgs) { a.DestinationAddress = types.StringValue("e") },
		"network":     func(a *cryptoWithdrawalArgs) { a.CryptoNetwork = types.StringValue("LIGHTNING") },
		"profile":     func(a *cryptoWithdrawalArgs) { a.ProfileID = types.StringValue("q") },
		"memo":        func(a *cryptoWithdrawalArgs) { a.Memo = types.StringValue("m") },
		"metadata": func(a *cryptoWithdrawalArgs) {
			a.Metadata = types.MapValueMust(types.StringType, map[string]attr.Value{"k": types.StringValue("v")})
		},
		"total instead of amount": func(a *cryptoWithdrawalArgs) {
			a.Amount, a.Total = types.StringNull(), types.StringValue("0.5")
		},
	} {
		other := args(types.StringUnknown(), `{"a":1,"b":2}`, types.StringUnknown())
		change(&other)
		if ref, _ := derive(other); ref == state {
			t.Errorf("another %s derives the same ref_id %s", name, ref)
		}
	}
}

// TestSchemasDescribed checks that the schemas are valid and that every
// attribute, nested ones included, has a description.
func TestSchemasDescribed(t *testing.T) {
	ctx := t.Context()
	for _, r := range []fwresource.Resource{NewCryptoWithdrawalResource(), NewFiatDepositInstructionsResource()} {
		var resp fwresource.SchemaResponse
		r.Schema(ctx, fwresource.SchemaRequest{}, &resp)
		if d := resp.Schema.ValidateImplementation(ctx); d.HasError() {
			t.Fatalf("schema: %v", d)
		}
		if resp.Schema.MarkdownDescription == "" {
			t.Errorf("resource without description")
		}
		checkDescribed(t, "resource", "", resp.Schema.Attributes, func(a rschema.Attribute) (map[string]rschema.Attribute, bool) {
			n, ok := a.(rschema.SingleNestedAttribute)
			return n.Attributes, ok
		})
	}
	var resp fwdatasource.SchemaResponse
	NewFiatDepositInstructionsDataSource().Schema(ctx, fwdatasource.SchemaRequest{}, &resp)
	if d := resp.Schema.ValidateImplementation(ctx); d.HasError() {
		t.Fatalf("schema: %v", d)
	}
	checkDescribed(t, "data source", "", resp.Schema.Attributes, func(a dschema.Attribute) (map[string]dschema.Attribute, bool) {
		n, ok := a.(dschema.SingleNestedAttribute)
		return n.Attributes, ok
	})
}

// checkDescribed checks that every attribute of attrs (under prefix), and
// of the attributes nested in them, has a description.
func checkDescribed[A interface{ GetMarkdownDescription() string }](t *testing.T, kind, prefix string, attrs map[string]A, nested func(A) (map[string]A, bool)) {
	t.Helper()
	for name, a := range attrs {
		if prefix != "" {
			name = prefix + "." + name
		}
		if a.GetMarkdownDescription() == "" {
			t.Errorf("%s attribute %s has no description", kind, name)
		}
		if n, ok := nested(a); ok {
			checkDescribed(t, kind, name, n, nested)
		}
	}
}
