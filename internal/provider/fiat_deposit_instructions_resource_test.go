package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

const (
	fdiAddr    = "platform_fiat_deposit_instructions.test"
	fdiPostKey = "POST /v2/transfer/fiat-deposit-instructions"
	fdiGetPath = "GET /v2/transfer/fiat-deposit-instructions/"
)

// fdiConfig is a platform_fiat_deposit_instructions "test" with the given
// extra argument lines.
func fdiConfig(extra string) string {
	return hclResource("platform_fiat_deposit_instructions", "test", "",
		[]string{"profile_id", `"profile-1"`, "fiat_network", `"WIRE"`}, extra+"\n")
}

// fdiWire is a path under fiat_network_instructions.wire.
func fdiWire(steps ...string) tfjsonpath.Path {
	p := tfjsonpath.New("fiat_network_instructions").AtMapKey("wire")
	for _, s := range steps {
		p = p.AtMapKey(s)
	}
	return p
}

// checkInstructionsMatchEmulator checks that the state of addr describes the
// live instructions of the emulator with the same id, and that there are n
// live sets.
func checkInstructionsMatchEmulator(emu *emulator.Server, addr string, n int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		live := emu.FiatDepositInstructions()
		if len(live) != n {
			return fmt.Errorf("emulator holds %d live instruction sets, want %d", len(live), n)
		}
		id, err := stateAttr(s, addr, "id")
		if err != nil {
			return err
		}
		for _, f := range live {
			if f.ID != id {
				continue
			}
			w := f.FiatNetworkInstructions.Wire
			want := map[string]string{
				"profile_id":  f.ProfileID,
				"identity_id": f.IdentityID,
				"status":      f.Status,
				"memo_id":     f.MemoID,
				"fiat_account_owner.person_details.first_name":                         f.FiatAccountOwner.PersonDetails.FirstName,
				"fiat_account_owner.person_details.last_name":                          f.FiatAccountOwner.PersonDetails.LastName,
				"fiat_network_instructions.wire.account_number":                        w.AccountNumber,
				"fiat_network_instructions.wire.fiat_account_owner_address.city":       w.FiatAccountOwnerAddress.City,
				"fiat_network_instructions.wire.fiat_account_owner_address.zip_code":   w.FiatAccountOwnerAddress.ZipCode,
				"fiat_network_instructions.wire.routing_details.routing_number":        w.RoutingDetails.RoutingNumber,
				"fiat_network_instructions.wire.routing_details.routing_number_type":   w.RoutingDetails.RoutingNumberType,
				"fiat_network_instructions.wire.routing_details.bank_name":             w.RoutingDetails.BankName,
				"fiat_network_instructions.wire.routing_details.bank_address.address1": w.RoutingDetails.BankAddress.Address1,
				"fiat_network_instructions.wire.routing_details.bank_address.country":  w.RoutingDetails.BankAddress.Country,
				"fiat_network_instructions.wire.routing_details.bank_address.province": w.RoutingDetails.BankAddress.Province,
				"fiat_network_instructions.wire.fiat_account_owner_address.country":    w.FiatAccountOwnerAddress.Country,
				"fiat_network_instructions.wire.fiat_account_owner_address.address1":   w.FiatAccountOwnerAddress.Address1,
				"fiat_network_instructions.wire.routing_details.bank_address.zip_code": w.RoutingDetails.BankAddress.ZipCode,
				"fiat_network_instructions.wire.routing_details.bank_address.city":     w.RoutingDetails.BankAddress.City,
				"fiat_network_instructions.wire.fiat_account_owner_address.province":   w.FiatAccountOwnerAddress.Province,
				"fiat_network_instructions.wire.routing_details.bank_address.address2": w.RoutingDetails.BankAddress.Address2,
				"created_at": f.CreatedAt.Format("2006-01-02T15:04:05.999999999Z07:00"),
			}
			if f.RefID != nil {
				want["ref_id"] = *f.RefID
			}
			if err := stateHolds(s, addr, want); err != nil {
				return err
			}
			// What the reference's answer does not carry (the seed's
			// example does: TestAccSeedService) is null.
			for _, attr := range []string{"customer_id", "fiat_network_instructions.fiat_account_owner.person_details.first_name"} {
				if got, err := stateAttr(s, addr, attr); err == nil && got != "" {
					return fmt.Errorf("%s.%s = %q, the service sent none", addr, attr, got)
				}
			}
			return nil
		}
		return fmt.Errorf("state id %s is not a live instruction set of the emulator", id)
	}
}

// onlyGetsSince checks that every request counted after before is a GET of
// fiat deposit instructions (a refresh), never a write.
func onlyGetsSince(emu *emulator.Server, before map[string]int) error {
	for k, v := range emu.Counters.AllRequests() {
		if v == before[k] || !strings.Contains(k, " /v2/") {
			continue
		}
		if !strings.HasPrefix(k, fdiGetPath) {
			return fmt.Errorf("%d unexpected %s request(s)", v-before[k], k)
		}
	}
	return nil
}

func TestAccFiatDepositInstructions_lifecycle(t *testing.T) {
	env, emu := fdiEnv(t)
	var firstID, firstRef string
	var beforeDestroy map[string]int
	withMetadata := func(v string) string {
		return env.config(fdiConfig(fmt.Sprintf(`  metadata = { purpose = %q }`, v)))
	}

	destroyed := func(*terraform.State) error {
		if err := onlyGetsSince(emu, beforeDestroy); err != nil {
			return fmt.Errorf("destroy: %w", err)
		}
		if n := len(emu.FiatDepositInstructions()); n != 2 {
			return fmt.Errorf("emulator holds %d live sets after destroy, want 2 (destroy only forgets)", n)
		}
		return nil
	}
	parallelStepsThen(t, destroyed,
		resource.TestStep{
			Config: withMetadata("payroll"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(fdiAddr, plancheck.ResourceActionCreate),
				plancheck.ExpectUnknownValue(fdiAddr, tfjsonpath.New("ref_id")),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(fdiAddr, tfjsonpath.New("status"), knownvalue.StringExact("VALID")),
				statecheck.ExpectKnownValue(fdiAddr, tfjsonpath.New("fiat_network"), knownvalue.StringExact("WIRE")),
				statecheck.ExpectKnownValue(fdiAddr, tfjsonpath.New("routing_number_type"), knownvalue.StringExact("ABA")),
				statecheck.ExpectKnownValue(fdiAddr, tfjsonpath.New("ref_id"), knownvalue.StringRegexp(regexp.MustCompile(uuidPattern))),
				statecheck.ExpectKnownValue(fdiAddr, tfjsonpath.New("memo_id"), knownvalue.StringRegexp(regexp.MustCompile(`^[A-Z0-9]{10}$`))),
				statecheck.ExpectKnownValue(fdiAddr, tfjsonpath.New("account_id"), knownvalue.Null()),
				statecheck.ExpectKnownValue(fdiAddr, tfjsonpath.New("metadata"), knownvalue.MapExact(map[string]knownvalue.Check{
					"purpose": knownvalue.StringExact("payroll"),
				})),
				statecheck.ExpectKnownValue(fdiAddr, fdiWire("routing_details", "routing_number"), knownvalue.StringRegexp(regexp.MustCompile(`^[0-9]{9}$`))),
				statecheck.ExpectKnownValue(fdiAddr, fdiWire("routing_details", "bank_name"), knownvalue.StringExact("Platform Trust Company")),
				// The emulator sends "" for an absent second address line: null, never "".
				statecheck.ExpectKnownValue(fdiAddr, fdiWire("fiat_account_owner_address", "address2"), knownvalue.Null()),
				// At the top level only, as the reference has it.
				statecheck.ExpectKnownValue(fdiAddr, tfjsonpath.New("fiat_network_instructions").AtMapKey("metadata"), knownvalue.Null()),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				checkInstructionsMatchEmulator(emu, fdiAddr, 1),
				func(s *terraform.State) error {
					firstID, _ = stateAttr(s, fdiAddr, "id")
					firstRef, _ = stateAttr(s, fdiAddr, "ref_id")
					if n := emu.Counters.Requests(fdiPostKey); n != 1 {
						return fmt.Errorf("%d POSTs, want 1", n)
					}
					return nil
				},
			),
		},
		resource.TestStep{
			Config: withMetadata("payroll"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectEmptyPlan(),
			}},
		},
		resource.TestStep{
			ResourceName:      fdiAddr,
			ImportState:       true,
			ImportStateVerify: true,
		},
		resource.TestStep{
			// A changed argument is a new set, with a new ref_id.
			Config: withMetadata("suppliers"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(fdiAddr, plancheck.ResourceActionDestroyBeforeCreate),
				plancheck.ExpectUnknownValue(fdiAddr, tfjsonpath.New("ref_id")),
				plancheck.ExpectUnknownValue(fdiAddr, tfjsonpath.New("memo_id")),
			}},
			Check: resource.ComposeAggregateTestCheckFunc(
				checkInstructionsMatchEmulator(emu, fdiAddr, 2),
				func(s *terraform.State) error {
					id, _ := stateAttr(s, fdiAddr, "id")
					ref, _ := stateAttr(s, fdiAddr, "ref_id")
					if id == firstID || ref == firstRef {
						return fmt.Errorf("replacement kept id %q / ref_id %q", id, ref)
					}
					beforeDestroy = emu.Counters.AllRequests()
					return nil
				},
			),
		},
	)
}

// captureID stores the id of addr in *dst.
func captureID(addr string, dst *string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		id, err := stateAttr(s, addr, "id")
		*dst = id
		return err
	}
}

// TestAccFiatDepositInstructions_notFoundIsRecreated: instructions
// deleted at the service are gone: the next refresh removes them from the
// state and the plan creates a new set.
func TestAccFiatDepositInstructions_notFoundIsRecreated(t *testing.T) {
	testInstructionsRecreated(t, "")
}

// TestAccFiatDepositInstructions_goneWithAnyProblemType: instructions
// deleted at a service whose not-found problem has a type of its own
// ("https://errors.platform.example/not-found", neither about:blank nor
// .../problems/not-found) are gone, not a missing route: the next refresh
// removes them from the state and the plan creates a new set.
func TestAccFiatDepositInstructions_goneWithAnyProblemType(t *testing.T) {
	testInstructionsRecreated(t, "https://errors.platform.example/")
}

// testInstructionsRecreated makes a set of instructions, deletes it at a
// service whose problem types start with problemBase ("": the
// emulator's own), and checks that the next apply makes a new set.
func testInstructionsRecreated(t *testing.T, problemBase string) {
	env, emu := fdiEnv(t)
	if problemBase != "" {
		emu.SetProblemTypeBase(problemBase)
	}
	var id string
	cfg := env.config(fdiConfig(""))
	gone := fdiChangedStep(t, cfg, &id, emu.DeleteInstructions, plancheck.ResourceActionCreate)
	gone.Check = resource.ComposeAggregateTestCheckFunc(
		checkInstructionsMatchEmulator(emu, fdiAddr, 1),
		checkRequests(emu, "POST /v2"+client.PathFiatDepositInstructions, 2, "%d sets of instructions POSTed, want 2"),
		func(s *terraform.State) error {
			if now, _ := stateAttr(s, fdiAddr, "id"); now == id {
				return fmt.Errorf("id %s kept after the instructions were gone", id)
			}
			return nil
		},
	)
	parallelSteps(t, resource.TestStep{Config: cfg, Check: captureID(fdiAddr, &id)}, gone)
}

// fdiEnv is the environment of a test that makes instructions at the
// emulator.
func fdiEnv(t *testing.T) (*accEnv, *emulator.Server) {
	t.Helper()
	env, emu := emulatorEnv(t, emulator.Options{})
	env.needMoneyMovement(t)
	return env, emu
}

// fdiChangedStep applies cfg again after change (which reports whether the
// emulator knows them) changed the instructions *id at the service; the
// plan must take action on them.
func fdiChangedStep(t *testing.T, cfg string, id *string, change func(id string) bool, action plancheck.ResourceActionType) resource.TestStep {
	return resource.TestStep{
		PreConfig: func() {
			if !change(*id) {
				t.Fatalf("emulator does not know instructions %s", *id)
			}
		},
		Config: cfg,
		ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
			plancheck.ExpectResourceAction(fdiAddr, action),
		}},
	}
}

func TestAccFiatDepositInstructions_deprecatedIsReplaced(t *testing.T) {
	env, emu := fdiEnv(t)
	var id string
	cfg := env.config(fdiConfig(`  routing_number_type = "SWIFT"`))
	replaced := fdiChangedStep(t, cfg, &id, emu.DeprecateInstructions, plancheck.ResourceActionDestroyBeforeCreate)
	replaced.ConfigPlanChecks.PreApply = append(replaced.ConfigPlanChecks.PreApply,
		plancheck.ExpectUnknownValue(fdiAddr, tfjsonpath.New("status")),
		plancheck.ExpectUnknownValue(fdiAddr, tfjsonpath.New("ref_id")))
	replaced.ConfigStateChecks = []statecheck.StateCheck{
		statecheck.ExpectKnownValue(fdiAddr, tfjsonpath.New("status"), knownvalue.StringExact("VALID")),
		statecheck.ExpectKnownValue(fdiAddr, fdiWire("routing_details", "routing_number_type"), knownvalue.StringExact("SWIFT")),
	}
	replaced.Check = resource.ComposeAggregateTestCheckFunc(
		checkInstructionsMatchEmulator(emu, fdiAddr, 2),
		func(s *terraform.State) error {
			if now, _ := stateAttr(s, fdiAddr, "id"); now == id {
				return fmt.Errorf("deprecated instructions %s were not replaced", id)
			}
			if st := emu.FiatDepositInstructions()[0].Status; st != "DEPRECATED" {
				return fmt.Errorf("first set has status %s, want DEPRECATED", st)
			}
			return nil
		},
	)
	parallelSteps(t,
		resource.TestStep{Config: cfg, Check: captureID(fdiAddr, &id)},
		replaced,
		resource.TestStep{Config: cfg, PlanOnly: true},
	)
}

func TestAccFiatDepositInstructions_validation(t *testing.T) {
	t.Parallel()
	requireTFAcc(t)
	env, _ := emulatorEnv(t, emulator.Options{})
	var sevenPairs []string
	for i := range 7 {
		sevenPairs = append(sevenPairs, fmt.Sprintf("k%d = \"v\"", i))
	}
	cases := []struct {
		name, body, want string
	}{
		{"unknown fiat network", `
  profile_id   = "profile-1"
  fiat_network = "ACH"`, `fiat_network must be one of WIRE, DBS_ACT`},
		{"unknown routing number type", `
  profile_id          = "profile-1"
  fiat_network        = "WIRE"
  routing_number_type = "IBAN"`, `Attribute routing_number_type value must be one of`},
		{"metadata seven pairs", `
  profile_id   = "profile-1"
  fiat_network = "WIRE"
  metadata     = {` + strings.Join(sevenPairs, ", ") + `}`, `Attribute metadata map must contain at most 6 elements`},
		{"metadata key too long", fmt.Sprintf(`
  profile_id   = "profile-1"
  fiat_network = "WIRE"
  metadata     = { %s = "v" }`, strings.Repeat("k", 101)), `string length must be at most 100`},
		{"metadata value too long", fmt.Sprintf(`
  profile_id   = "profile-1"
  fiat_network = "WIRE"
  metadata     = { k = %q }`, strings.Repeat("v", 101)), `string length must be at most 100`},
		{"empty ref_id", `
  profile_id   = "profile-1"
  fiat_network = "WIRE"
  ref_id       = ""`, `Attribute ref_id string length must be at least 1`},
		{"missing profile_id", `
  fiat_network = "WIRE"`, `The argument "profile_id" is required`},
	}
	t.Run("cases", func(t *testing.T) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				parallelSteps(t, resource.TestStep{
					Config:      env.config(`resource "platform_fiat_deposit_instructions" "test" {` + tc.body + "\n}\n"),
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(tc.want),
				})
			})
		}
	})
	if n := env.emu.Counters.APIRequests(); n != 0 {
		t.Errorf("%d API requests reached the emulator, want 0", n)
	}
	if n := len(env.emu.FiatDepositInstructions()); n != 0 {
		t.Errorf("emulator holds %d instruction sets, want 0", n)
	}
}

func TestAccFiatDepositInstructions_forbidden(t *testing.T) {
	requireTFAcc(t)
	env := newAccEnv(t, emulator.Options{Clients: map[string]emulator.ClientCredentials{
		emulator.DefaultClientID: {Secret: emulator.DefaultClientSecret},
		"reader":                 {Secret: "reader-secret", Scopes: []string{client.ScopeReadFiatDepositInstr}},
	}})
	env.needEmulator(t)
	emu := env.emu
	body := fdiConfig("")
	parallelSteps(t,
		resource.TestStep{
			// The client may not get the write scope: the token request is refused.
			Config:      emulatorProviderBlockFor(emu, "reader", "reader-secret", "") + body,
			ExpectError: regexp.MustCompile(`transfer:write_fiat_deposit_instructions`),
		},
		resource.TestStep{
			// Scopes pinned without the write scope: the plan refuses,
			// before any request.
			Config:      emulatorProviderBlock(emu, `  scopes = ["`+client.ScopeReadFiatDepositInstr+`"]`+"\n") + body,
			ExpectError: regexp.MustCompile(`(?s)pinned\s+scopes\s+lack\s+transfer:write_fiat_deposit_instructions.*Nothing\s+was\s+sent`),
		},
		resource.TestStep{
			Config: emulatorProviderBlock(emu, "") + body,
			Check:  checkInstructionsMatchEmulator(emu, fdiAddr, 1),
		},
		resource.TestStep{
			// Refreshing with a token that lacks the read scope: 403 on
			// read, a warning, and the state kept (the refresh policy):
			// the plan is empty.
			Config:   emulatorProviderBlock(emu, `  scopes = ["`+client.ScopeWriteFiatDepositInstr+`"]`+"\n") + body,
			PlanOnly: true,
		},
		resource.TestStep{
			Config:   emulatorProviderBlock(emu, "") + body,
			PlanOnly: true,
		},
	)
	if n := emu.Counters.Requests(fdiPostKey); n != 1 {
		t.Errorf("%d POSTs reached the emulator, want 1 (the one created)", n)
	}
}

func TestAccFiatDepositInstructions_unknownOutcomeRetriedWithSameRefID(t *testing.T) {
	_, emu := fdiEnv(t)
	cfg := emulatorProviderBlock(emu, "  max_retries = 1\n") + fdiConfig(`  metadata = { purpose = "retry" }`)
	emu.Faults.AcceptThenFail(2)
	parallelSteps(t,
		resource.TestStep{
			Config:      cfg,
			ExpectError: regexp.MustCompile(`(?s)Outcome of fiat deposit instructions create unknown.*Applying again`),
		},
		resource.TestStep{
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(fdiAddr, plancheck.ResourceActionDestroyBeforeCreate),
			}},
			Check: resource.ComposeAggregateTestCheckFunc(
				checkInstructionsMatchEmulator(emu, fdiAddr, 1),
				// The retry finds the set by its ref_id through the list
				// endpoint and sends nothing. The ref_id is looked up once
				// by each plan and once by each apply (whose create uses
				// the lookup of its final plan).
				checkRequests(emu, fdiPostKey, 2, "%d POSTs, want 2 (both unconfirmed attempts of the first apply)"),
				checkRequests(emu, "GET /v2/transfer/fiat-deposit-instructions", 4, "%d lookups by ref_id, want 4 (one per plan and one per apply)"),
			),
		},
	)
}

func TestAccFiatDepositInstructions_importOtherNetwork(t *testing.T) {
	requireTFAcc(t)
	env, emu := fdiEnv(t)
	c := emulatorClient(t, emu)
	f, err := c.CreateFiatDepositInstructions(t.Context(), client.FiatDepositInstructionsRequest{
		ProfileID: "profile-9", FiatNetwork: "RTP", RefID: "made-elsewhere",
	})
	if err != nil {
		t.Fatal(err)
	}
	posts := emu.Counters.Requests(fdiPostKey)
	// The answer does not name the network of RTP instructions: the import
	// records the configured one without replacing the set.
	cfg := env.config(fmt.Sprintf(`
import {
  to = platform_fiat_deposit_instructions.test
  id = %q
}

resource "platform_fiat_deposit_instructions" "test" {
  profile_id   = "profile-9"
  fiat_network = "RTP"
  ref_id       = "made-elsewhere"
}
`, f.ID))
	parallelSteps(t,
		resource.TestStep{
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(fdiAddr, plancheck.ResourceActionUpdate),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(fdiAddr, tfjsonpath.New("id"), knownvalue.StringExact(f.ID)),
				statecheck.ExpectKnownValue(fdiAddr, tfjsonpath.New("fiat_network"), knownvalue.StringExact("RTP")),
				statecheck.ExpectKnownValue(fdiAddr, tfjsonpath.New("memo_id"), knownvalue.StringExact(f.MemoID)),
				statecheck.ExpectKnownValue(fdiAddr, fdiWire(), knownvalue.Null()),
				statecheck.ExpectKnownValue(fdiAddr, tfjsonpath.New("routing_number_type"), knownvalue.Null()),
			},
		},
		resource.TestStep{Config: cfg, PlanOnly: true},
	)
	if n := emu.Counters.Requests(fdiPostKey); n != posts {
		t.Errorf("import and adoption sent %d POSTs, want none", n-posts)
	}
}
