package provider

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// These tests hold the provider to its first promise: whatever happens to
// the run (a kill, a timeout, a saved plan applied later, a create before
// destroy, an upgrade from a state written by an earlier version), one
// declared object is one object at the service. The scenarios that apply
// to every resource on the money core run for each row of
// exactlyOnceRows; those of the withdrawal alone (its upgrades from states
// of an earlier version, its ref_id reused for another amount, its
// networks) drive platform_crypto_withdrawal.

// exactlyOnceRow is what the exactly-once suite needs to know of a
// resource on the money core, besides its row of moneyResources.
type exactlyOnceRow struct {
	// replays are the emulator's answers to a reused ref_id the scenarios
	// run under (Options.WithdrawalReplay: the withdrawal has two).
	replays []emulator.ReplayAnswer
	// replayWarns are those of replays whose answer says that the object
	// was made earlier, so that the apply warns it was not made again (a
	// 409 with meta.existing, or the object found by its ref_id first).
	replayWarns []emulator.ReplayAnswer
	// refIDAtPlan: the plan shows the derived ref_id (otherwise it is
	// chosen at apply).
	refIDAtPlan bool
	// what is how the plan names the object of the row's body.
	what string
}

// exactlyOnceRows are the rows of the exactly-once suite, by resource
// type: every resource on the money core (registry.MoneyCore), each from
// its fixture.
func exactlyOnceRows() map[string]exactlyOnceRow {
	return rowsOf(func(f moneyFixture) (exactlyOnceRow, bool) { return f.exactlyOnce, f.naturalKey == "" })
}

// forEachExactlyOnceRow runs f as a subtest for each row of
// exactlyOnceRows, under each of its replay answers when eachReplay (a
// scenario that sends a ref_id again), else under the first.
func forEachExactlyOnceRow(t *testing.T, eachReplay bool, f func(t *testing.T, res moneyResource, row exactlyOnceRow, replay emulator.ReplayAnswer)) {
	rows := exactlyOnceRows()
	for _, typ := range mapKeys(rows) {
		row, res := rows[typ], moneyRow(t, typ)
		replays := row.replays
		if !eachReplay {
			replays = replays[:1]
		}
		t.Run(res.name, func(t *testing.T) {
			t.Parallel()
			for _, replay := range replays {
				t.Run(replay.String(), func(t *testing.T) {
					t.Parallel()
					f(t, res, row, replay)
				})
			}
		})
	}
}

const eoWithdrawal = `
resource "platform_crypto_withdrawal" "payout" {
  profile_id          = "prof-1"
  destination_address = "bc1qexampleaddress0000000000000000000000"
  asset               = "BTC"
  crypto_network      = "BITCOIN"
  amount              = "0.5"
  metadata = { invoice = "inv-1" }
}
`

// payoutAddress is a valid address in place of the made-up one of
// eoWithdrawal, which the states of earlier versions (testdata/upgrade,
// testdata/legacy) recorded and a new withdrawal may no longer have.
var payoutAddress = validBTCAddress("bc1qexampleaddress0000000000000000000000")

// payoutWithdrawal is eoWithdrawal to payoutAddress: the withdrawal the
// tests declare to make a new one.
var payoutWithdrawal = strings.Replace(eoWithdrawal, `"bc1qexampleaddress0000000000000000000000"`,
	`"`+payoutAddress+`"`, 1)

// stateOf reads the attributes of the only instance of addr from the
// working directory's state.
func stateOf(t *testing.T, w *cliWorkdir, addr string) map[string]any {
	t.Helper()
	st := statesOf(t, w)
	if _, ok := st[addr]; !ok {
		t.Fatalf("%s is not in the state, which holds %v", addr, slices.Sorted(maps.Keys(st)))
	}
	return st[addr]
}

// statesOf reads the attributes of every resource instance of the working
// directory's state, by address, from one terraform show.
func statesOf(t *testing.T, w *cliWorkdir) map[string]map[string]any {
	t.Helper()
	r := w.mustRun(0, "show", "-json")
	var doc struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address string         `json:"address"`
					Values  map[string]any `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("show -json: %v\n%s", err, r.stdout)
	}
	st := map[string]map[string]any{}
	for _, res := range doc.Values.RootModule.Resources {
		st[res.Address] = res.Values
	}
	return st
}

// shownChange is a resource change of a plan, as terraform show -json
// says it.
type shownChange struct {
	Address string `json:"address"`
	Type    string `json:"type"`
	Change  struct {
		Actions      []string       `json:"actions"`
		Before       map[string]any `json:"before"`
		After        map[string]any `json:"after"`
		AfterUnknown map[string]any `json:"after_unknown"`
	} `json:"change"`
}

// shownChanges are the resource changes of planJSON, terraform show -json
// of a plan.
func shownChanges(t *testing.T, planJSON string) []shownChange {
	t.Helper()
	var doc struct {
		ResourceChanges []shownChange `json:"resource_changes"`
	}
	if err := json.Unmarshal([]byte(planJSON), &doc); err != nil {
		t.Fatalf("show -json: %v\n%s", err, planJSON)
	}
	return doc.ResourceChanges
}

// savedPlanChange is the change of addr in the saved plan planFile.
func savedPlanChange(t *testing.T, w *cliWorkdir, planFile, addr string) shownChange {
	t.Helper()
	for _, rc := range shownChanges(t, w.mustRun(0, "show", "-json", planFile).stdout) {
		if rc.Address == addr {
			return rc
		}
	}
	t.Fatalf("%s has no change in the saved plan %s", addr, planFile)
	return shownChange{}
}

// plannedRefID reads the planned ref_id of addr from a saved plan.
func plannedRefID(t *testing.T, w *cliWorkdir, planFile, addr string) any {
	t.Helper()
	rc := savedPlanChange(t, w, planFile, addr)
	if rc.Change.AfterUnknown["ref_id"] == true {
		t.Fatalf("the saved plan shows the ref_id of %s as known after apply", addr)
	}
	return rc.Change.After["ref_id"]
}

// onlyTransfer fails unless the emulator holds exactly one transfer, and
// returns it.
func onlyTransfer(t *testing.T, emu *emulator.Server) emulator.Transfer {
	t.Helper()
	ts := emu.Transfers()
	if len(ts) != 1 {
		t.Fatalf("the emulator holds %d transfers, want exactly 1: %+v", len(ts), ts)
	}
	return ts[0]
}

// checkStateHolds fails unless the state of the payout holds transfer tr
// with its ref_id.
func checkStateHolds(t *testing.T, w *cliWorkdir, tr emulator.Transfer) {
	t.Helper()
	st := stateOf(t, w, "platform_crypto_withdrawal.payout")
	if st["id"] != tr.ID || tr.RefID == nil || st["ref_id"] != *tr.RefID {
		t.Fatalf("state holds id %v ref_id %v, the service's transfer is %s with ref_id %v", st["id"], st["ref_id"], tr.ID, tr.RefID)
	}
}

func TestAccExactlyOnce_killedMidApply(t *testing.T) {
	t.Parallel()
	forEachExactlyOnceRow(t, true, func(t *testing.T, res moneyResource, row exactlyOnceRow, replay emulator.ReplayAnswer) {
		emu, w := coreWorkdir(t, replay, "", res.body)

		// The service processes the create and never answers; the runner
		// is killed (terraform and the provider, no cleanup) meanwhile.
		interruptMidApply(t, w, emu, res, syscall.SIGKILL)
		sent := onlyObject(t, emu, res)

		// The next run plans the same ref_id, says that the apply records
		// the object the killed run made (where the service can be asked
		// at plan; otherwise its replay answer says so at apply), and ends
		// with it: one in all.
		r := w.mustRun(0, "plan", "-out", "retry.tfplan")
		if !res.noPlanLookup {
			mustContain(t, "plan after the kill", r.output(), res.words.title+" already "+res.words.made+" at", "as "+sent.ID)
		}
		if row.refIDAtPlan {
			if got := plannedRefID(t, w, "retry.tfplan", res.addr); got != sent.RefID {
				t.Fatalf("after the kill the plan shows ref_id %v, the killed run sent %s", got, sent.RefID)
			}
		}
		posts := emu.Counters.Requests(res.post)
		r = w.mustRun(0, "apply", "retry.tfplan")
		warning := res.words.title + " was " + res.words.made + " earlier, not " + res.words.made + " again"
		warns := slices.Contains(row.replayWarns, replay)
		if _, moves := moneyKinds()[res.typ]; moves && !res.noPlanLookup {
			// The plan found it (money.sends = false): the apply records
			// it and sends no create, whatever the service's replay answer.
			warning, warns = res.words.title+" "+sent.ID+" recorded, not "+res.words.made, true
			if n := emu.Counters.Requests(res.post) - posts; n != 0 {
				t.Errorf("the apply of a plan that found the object sent %d creates, want none", n)
			}
		}
		if warns && !strings.Contains(r.output(), warning) {
			t.Errorf("apply does not warn %q:\n%s", warning, r.output())
		}
		checkStateHoldsObject(t, w, res, onlyObject(t, emu, res))
		w.mustRun(0, "plan", "-detailed-exitcode")
		if got := onlyObject(t, emu, res); got.ID != sent.ID {
			t.Fatalf("the emulator holds %s, the killed run made %s", got.ID, sent.ID)
		}
	})
}

func TestAccExactlyOnce_savedPlanAfterUnknownOutcome(t *testing.T) {
	t.Parallel()
	forEachExactlyOnceRow(t, true, func(t *testing.T, res moneyResource, row exactlyOnceRow, replay emulator.ReplayAnswer) {
		emu, w := coreWorkdir(t, replay, "  max_retries = 0\n", res.body)

		w.mustRun(0, "plan", "-out", "first.tfplan")
		var first any
		if row.refIDAtPlan {
			first = plannedRefID(t, w, "first.tfplan", res.addr)
			if s, _ := first.(string); !regexp.MustCompile(uuidPattern).MatchString(s) {
				t.Fatalf("planned ref_id %v, want a derived UUID", first)
			}
		}
		// The service processes it and answers 500: the outcome is unknown.
		emu.Faults.AcceptThenFail(1)
		r := w.mustRun(1, "apply", "first.tfplan")
		mustContain(t, "apply", r.output(), res.words.unknown)
		sent := onlyObject(t, emu, res)
		if row.refIDAtPlan && sent.RefID != first {
			t.Fatalf("apply sent ref_id %s, the saved plan showed %v", sent.RefID, first)
		}
		if !regexp.MustCompile(uuidPattern).MatchString(sent.RefID) {
			t.Fatalf("apply sent ref_id %q, want a derived UUID", sent.RefID)
		}

		w.mustRun(0, "plan", "-out", "second.tfplan")
		if row.refIDAtPlan {
			if again := plannedRefID(t, w, "second.tfplan", res.addr); again != first {
				t.Fatalf("the retry's saved plan shows ref_id %v, the first showed %v", again, first)
			}
		}
		w.mustRun(0, "apply", "second.tfplan")
		checkStateHoldsObject(t, w, res, sent)
		w.mustRun(0, "plan", "-detailed-exitcode")
		if got := onlyObject(t, emu, res); got != sent {
			t.Fatalf("the emulator holds %+v, the first apply made %+v", got, sent)
		}
	})
}

func TestAccExactlyOnce_createBeforeDestroyRetry(t *testing.T) {
	t.Parallel()
	forEachReplayAnswer(t, func(t *testing.T, replay emulator.ReplayAnswer) {
		emu := startCore(t, emulator.Options{WithdrawalReplay: replay})
		w := newCLIWorkdir(t)
		cbd := `  lifecycle {
    create_before_destroy = true
  }
}
`
		body := strings.TrimSuffix(payoutWithdrawal, "}\n") + cbd + `
resource "platform_fiat_deposit_instructions" "wire" {
  profile_id   = "prof-1"
  fiat_network = "WIRE"
` + cbd
		w.write(emulatorProviderBlock(emu, "  max_retries = 0\n"), body)
		emu.Faults.AcceptThenFail(2)
		r := w.mustRun(1, "apply", "-auto-approve", "-parallelism=1")
		for _, want := range []string{"Outcome of crypto withdrawal unknown", "Outcome of fiat deposit instructions create unknown"} {
			if !strings.Contains(r.output(), want) {
				t.Fatalf("apply did not report %q:\n%s", want, r.output())
			}
		}
		if n := len(emu.FiatDepositInstructions()); n != 1 {
			t.Fatalf("%d instruction sets after the unknown outcome, want 1", n)
		}
		onlyTransfer(t, emu)

		// The tainted objects are replaced create-before-destroy: the retry
		// sends the same ref_ids, and the final plan of the apply agrees.
		w.mustRun(0, "apply", "-auto-approve")
		checkStateHolds(t, w, onlyTransfer(t, emu))
		fdis := emu.FiatDepositInstructions()
		if len(fdis) != 1 {
			t.Fatalf("%d instruction sets after the retry, want 1", len(fdis))
		}
		if st := stateOf(t, w, "platform_fiat_deposit_instructions.wire"); st["id"] != fdis[0].ID {
			t.Fatalf("state holds instructions %v, the service has %s", st["id"], fdis[0].ID)
		}
		w.mustRun(0, "plan", "-detailed-exitcode")
	})
}

func TestAccExactlyOnce_sameObjectTwiceRefusedAtPlan(t *testing.T) {
	t.Parallel()
	forEachExactlyOnceRow(t, false, func(t *testing.T, res moneyResource, row exactlyOnceRow, _ emulator.ReplayAnswer) {
		emu := startCore(t, emulator.Options{})
		w := newCLIWorkdir(t)
		w.write(emulatorProviderBlock(emu, ""), withFirst(res.body, "  count = 2\n"))
		r := w.mustRun(1, "plan")
		mustContain(t, "plan", r.output(),
			"Two "+res.words.plural+" with the same ref_id",
			"another "+res.typ+" of this configuration ("+row.what+")",
			"Neither configures a ref_id, and their arguments are the same",
			`ref_id = "payout-${count.index}"`,
		)
		// Nothing is sent; the plan looks up the ref_id of the one object
		// that claimed it first, and no more (a fiat payout also reads the
		// list of fiat accounts once, to name its account in the summary).
		if n := emu.Counters.Requests(res.post); n != 0 {
			t.Errorf("the plan sent %d creates, want none", n)
		}
		names := emu.Counters.Requests("GET /v2" + client.PathFiatAccounts)
		if n := emu.Counters.APIRequests() - names; n > 1 || names > 1 {
			t.Errorf("the plan made %d API requests and %d reads of the fiat accounts, want at most one lookup and one read", n, names)
		}
		checkObjects(t, emu, res, 0)

		// Distinct ref_ids make them two objects.
		w.write(emulatorProviderBlock(emu, ""), withFirst(res.body, "  count  = 2\n  ref_id = \"payout-${count.index}\"\n"))
		w.mustRun(0, "apply", "-auto-approve")
		w.mustRun(0, "plan", "-detailed-exitcode")
		var refs []string
		for _, o := range checkObjects(t, emu, res, 2) {
			refs = append(refs, o.RefID)
		}
		if slices.Sort(refs); !slices.Equal(refs, []string{"payout-0", "payout-1"}) {
			t.Errorf("the emulator holds objects with ref_ids %v, want payout-0 and payout-1", refs)
		}
	})
}

func TestAccExactlyOnce_refIDReusedForAnotherWithdrawal(t *testing.T) {
	t.Parallel()
	forEachReplayAnswer(t, func(t *testing.T, replay emulator.ReplayAnswer) {
		emu := startCore(t, emulator.Options{WithdrawalReplay: replay})
		first := newCLIWorkdir(t)
		first.write(emulatorProviderBlock(emu, ""), strings.Replace(payoutWithdrawal, `amount`, `ref_id = "payout-9"
  amount`, 1))
		first.mustRun(0, "apply", "-auto-approve")
		sent := onlyTransfer(t, emu)

		// Another configuration (another state) reuses the ref_id for
		// another amount: refused, nothing sent, nothing recorded.
		other := newCLIWorkdir(t)
		other.write(emulatorProviderBlock(emu, ""), strings.Replace(strings.Replace(payoutWithdrawal, `amount`, `ref_id = "payout-9"
  amount`, 1), `"0.5"`, `"0.7"`, 1))
		r := other.mustRun(1, "apply", "-auto-approve")
		out := regexp.MustCompile(`\s+`).ReplaceAllString(r.output(), " ")
		want := []string{"ref_id payout-9 already used"}
		if replay == emulator.ReplayConflict {
			want = append(want, "by crypto withdrawal "+sent.ID, `amount: requested "0.7", answered "0.5"`)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("apply output lacks %q:\n%s", w, r.output())
			}
		}
		onlyTransfer(t, emu)
		if r := other.run("state", "list"); strings.Contains(r.stdout, "platform_crypto_withdrawal") {
			t.Errorf("the refused withdrawal is in the state:\n%s", r.stdout)
		}
	})
}

// legacyState copies a state written by the provider before ref_ids were
// derived into w, with the provider address of w's configuration.
func legacyState(t *testing.T, w *cliWorkdir, name string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "legacy", name+".tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	b = []byte(strings.ReplaceAll(string(b), `registry.terraform.io/hashicorp/platform`, providerAddressFor(t, w)))
	if err := os.WriteFile(filepath.Join(w.dir, "terraform.tfstate"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Resources []struct {
			Instances []struct {
				Attributes map[string]any `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Resources[0].Instances[0].Attributes
}

// providerAddressFor is the registry address platform/platform means to
// the CLI of w: OpenTofu's registry for tofu, Terraform's otherwise.
func providerAddressFor(t *testing.T, w *cliWorkdir) string {
	t.Helper()
	if strings.Contains(filepath.Base(w.tf), "tofu") {
		return "registry.opentofu.org/platform/platform"
	}
	return "registry.terraform.io/platform/platform"
}

func TestAccExactlyOnce_upgradeConfirmedWithdrawal(t *testing.T) {
	t.Parallel()
	emu := startCore(t, emulator.Options{})
	w := newCLIWorkdir(t)
	w.write(emulatorProviderBlock(emu, ""), eoWithdrawal)
	attrs := legacyState(t, w, "confirmed")
	// Same configuration, state of the earlier version (random ref_id): no
	// change, no request.
	w.mustRun(0, "plan", "-detailed-exitcode")
	w.mustRun(0, "apply", "-auto-approve")
	if n := emu.Counters.Requests(cwPostKey); n != 0 {
		t.Errorf("plan and apply sent %d withdrawals, want none", n)
	}
	if st := stateOf(t, w, "platform_crypto_withdrawal.payout"); st["ref_id"] != attrs["ref_id"] || st["id"] != attrs["id"] {
		t.Errorf("state ref_id %v id %v, want the earlier %v %v", st["ref_id"], st["id"], attrs["ref_id"], attrs["id"])
	}
}

func TestAccExactlyOnce_upgradeUnconfirmedWithdrawal(t *testing.T) {
	t.Parallel()
	forEachReplayAnswer(t, func(t *testing.T, replay emulator.ReplayAnswer) {
		emu, w := coreWorkdir(t, replay, "", eoWithdrawal)
		attrs := legacyState(t, w, "unconfirmed")
		legacyRef := attrs["ref_id"].(string)
		// The earlier version's attempt did reach the service, to the
		// address the resolution below declares: a new withdrawal to the
		// made-up address of the state would be refused at plan.
		processed := postWithdrawalTo(t, emu, legacyRef, payoutAddress)

		// Plan and apply stop with an error that says how to resolve it;
		// nothing is sent under a second key. Without a refresh, the plan
		// retries the attempt as a new withdrawal, judged as one: to the
		// made-up address of the state it is refused at plan, and to a
		// valid one the apply stops at the attempt.
		r := w.mustRun(1, "apply", "-auto-approve", "-refresh=false")
		mustContain(t, "apply -refresh=false", r.output(), "Invalid address checksum", "Nothing was sent")
		for _, args := range [][]string{{"plan"}, {"apply", "-auto-approve"}, {"apply", "-auto-approve", "-refresh=false"}} {
			if args[len(args)-1] == "-refresh=false" {
				w.write(emulatorProviderBlock(emu, ""), payoutWithdrawal)
			}
			r := w.mustRun(1, args...)
			out := regexp.MustCompile(`\s+`).ReplaceAllString(r.output(), " ")
			for _, want := range []string{
				"Unconfirmed crypto withdrawal would be retried under a second ref_id",
				"ref_id " + legacyRef, fmt.Sprintf("set ref_id = %q", legacyRef), "terraform state rm",
			} {
				if !strings.Contains(out, want) {
					t.Errorf("%v: output lacks %q:\n%s", args, want, r.output())
				}
			}
		}
		onlyTransfer(t, emu)

		// The documented resolution retries it under its own key.
		w.write(emulatorProviderBlock(emu, ""), strings.Replace(payoutWithdrawal, `amount`, fmt.Sprintf(`ref_id = %q
  amount`, legacyRef), 1))
		w.mustRun(0, "state", "rm", "platform_crypto_withdrawal.payout")
		w.mustRun(0, "apply", "-auto-approve")
		if got := onlyTransfer(t, emu); got.ID != processed {
			t.Fatalf("the emulator holds transfer %s, want the earlier %s", got.ID, processed)
		}
		checkStateHolds(t, w, onlyTransfer(t, emu))
		w.mustRun(0, "plan", "-detailed-exitcode")
	})
}

// postWithdrawal sends the withdrawal of eoWithdrawal with refID straight
// to the emulator, as an earlier run would have, and returns the
// transfer's id.
func postWithdrawal(t *testing.T, emu *emulator.Server, refID string) string {
	t.Helper()
	return postWithdrawalTo(t, emu, refID, "bc1qexampleaddress0000000000000000000000")
}

// postWithdrawalTo is postWithdrawal to address.
func postWithdrawalTo(t *testing.T, emu *emulator.Server, refID, address string) string {
	t.Helper()
	c := emulatorClient(t, emu)
	tr, err := c.CreateCryptoWithdrawal(t.Context(), client.CryptoWithdrawalRequest{
		ProfileID: "prof-1", DestinationAddress: address, Asset: "BTC",
		CryptoNetwork: "BITCOIN", Amount: "0.5", Metadata: map[string]string{"invoice": "inv-1"}, RefID: refID,
	})
	if err != nil {
		t.Fatal(err)
	}
	return tr.ID
}

func TestAccExactlyOnce_configuredRefIDRetried(t *testing.T) {
	t.Parallel()
	forEachExactlyOnceRow(t, true, func(t *testing.T, res moneyResource, _ exactlyOnceRow, replay emulator.ReplayAnswer) {
		emu, w := coreWorkdir(t, replay, "  max_retries = 0\n", withLast(res.body, "  ref_id = \"payout-11\"\n"))
		emu.Faults.AcceptThenFail(1)
		r := w.mustRun(1, "apply", "-auto-approve")
		mustContain(t, "apply", r.output(), res.words.unknown, "ref_id payout-11")
		sent := onlyObject(t, emu, res)
		// The unconfirmed object records that its ref_id was configured, so
		// the refresh of the next run does not take it for one of an
		// earlier version, and the retry sends the same ref_id.
		r = w.mustRun(0, "apply", "-auto-approve")
		mustContain(t, "apply again", r.output(), res.words.title+" not confirmed")
		if got := onlyObject(t, emu, res); got != sent || got.RefID != "payout-11" {
			t.Fatalf("the emulator holds %+v, the first apply made %+v with ref_id payout-11", got, sent)
		}
		checkStateHoldsObject(t, w, res, sent)
		w.mustRun(0, "plan", "-detailed-exitcode")
	})
}

// TestAccCryptoNetworks_newAndUnknown: a network of the API reference that
// the spec lacks (AVALANCHE) plans and sends; one the reference does not
// publish is an error at validation, for a withdrawal and for the deposit
// addresses filter, and nothing is sent.
func TestAccCryptoNetworks_newAndUnknown(t *testing.T) {
	t.Parallel()
	emu := startCore(t, emulator.Options{DepositAddresses: 20})
	w := newCLIWorkdir(t)
	avalanche := strings.NewReplacer(`"BITCOIN"`, `"AVALANCHE"`, `"BTC"`, `"AVAX"`,
		`"bc1qexampleaddress0000000000000000000000"`, `"0x`+strings.Repeat("a1", 20)+`"`).Replace(eoWithdrawal)
	w.write(emulatorProviderBlock(emu, ""), avalanche+`
data "platform_deposit_addresses" "new_network" {
  networks = ["AVALANCHE", "SUI"]
}
`)
	r := w.mustRun(0, "apply", "-auto-approve")
	if strings.Contains(r.output(), "Unknown crypto network") {
		t.Errorf("a network of the API reference is warned about:\n%s", r.output())
	}
	if tr := onlyTransfer(t, emu); tr.CryptoNetwork == nil || *tr.CryptoNetwork != "AVALANCHE" {
		t.Fatalf("transfer %+v, want one on AVALANCHE", tr)
	}

	unknown := newCLIWorkdir(t)
	unknown.write(emulatorProviderBlock(emu, ""), strings.Replace(avalanche, `"AVALANCHE"`, `"MONAD"`, 1)+`
data "platform_deposit_addresses" "future" {
  networks = ["MONAD"]
}
`)
	r = unknown.mustRun(1, "validate", "-json")
	var v struct {
		Valid       bool `json:"valid"`
		Diagnostics []struct {
			Severity string `json:"severity"`
			Summary  string `json:"summary"`
			Detail   string `json:"detail"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
		t.Fatalf("validate -json: %v\n%s", err, r.stdout)
	}
	found := map[string]int{}
	for _, d := range v.Diagnostics {
		if d.Severity == "error" && d.Summary == "Unknown crypto network" {
			for _, attr := range []string{`crypto_network is "MONAD"`, `networks[0] is "MONAD"`} {
				if strings.Contains(d.Detail, attr) {
					found[attr]++
				}
			}
		}
	}
	if v.Valid || len(found) != 2 || found[`crypto_network is "MONAD"`] != 1 || found[`networks[0] is "MONAD"`] != 1 {
		t.Errorf("validate: valid %v, errors found %v:\n%s", v.Valid, found, r.stdout)
	}
	// The apply stops at validation: nothing is sent.
	unknown.write(emulatorProviderBlock(emu, ""), strings.Replace(avalanche, `"AVALANCHE"`, `"MONAD"`, 1))
	r = unknown.mustRun(1, "apply", "-auto-approve")
	if !strings.Contains(r.output(), "Error: Unknown crypto network") {
		t.Errorf("the apply does not refuse the network:\n%s", r.output())
	}
	onlyTransfer(t, emu)
}
