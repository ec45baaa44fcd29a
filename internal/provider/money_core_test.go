package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// One suite for every resource the money-moving core serves, through the
// real CLI: whatever happens to a run, one declared object is one object
// at the service, and an earlier object under the same arguments is never
// taken for a new intent. Each scenario ends with an exact count.

// moneyResource is one resource of the core, as the suite drives it.
type moneyResource struct {
	// typ is its resource type (the key of moneyResources), name the type
	// without the provider's prefix, as subtests are named.
	typ, name string
	// words are the core's words of its creates.
	words createWords
	// body declares one object of it at address addr.
	body, addr string
	// list reads its objects at the emulator, in creation order.
	list func(emu *emulator.Server) []moneyObject
	// made is its summary of what an earlier object with the same
	// arguments is called in the plan's error.
	made string
	// post is the emulator's counter of its creates.
	post string
	// noPlanLookup: the service publishes no lookup of its objects, so a
	// plan cannot find an earlier object under a ref_id: the apply's create
	// meets it as the service's replay answer, and refuses or records it
	// then (see planLooksUp).
	noPlanLookup bool
	// lookupNotReplay: the service publishes no replay answer for its
	// create, so a retry in the same apply looks the ref_id up and finds
	// the object instead of sending it again: one create reaches the
	// emulator where a replay answer takes two.
	lookupNotReplay bool
}

// moneyObject is an object of the core at the emulator.
type moneyObject struct {
	// ID and RefID are its id and ref_id at the service.
	ID, RefID string
	// Summary is how the provider's messages describe it.
	Summary string
}

// objects counts the objects of res at the emulator.
func (res moneyResource) objects(emu *emulator.Server) int { return len(res.list(emu)) }

// moneyResources is the table of the suite, by resource type: every
// resource that creates through the core (registry.MoneyCore), each from
// its fixture.
func moneyResources() map[string]moneyResource {
	return rowsOf(func(f moneyFixture) (moneyResource, bool) {
		res := f.core
		res.typ, res.name = f.typ, strings.TrimPrefix(f.typ, "platform_")
		return res, f.naturalKey == ""
	})
}

// moneyRow is the row of typ in moneyResources.
func moneyRow(t *testing.T, typ string) moneyResource {
	t.Helper()
	res, ok := moneyResources()[typ]
	if !ok {
		t.Fatalf("%s has no row in moneyResources (money_core_test.go)", typ)
	}
	return res
}

// waitForObjects waits until the emulator holds n objects of res while cmd
// runs, and fails if cmd ends first.
func waitForObjects(t *testing.T, emu *emulator.Server, res moneyResource, n int, waited <-chan error) {
	t.Helper()
	deadline := time.After(2 * time.Minute)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			if res.objects(emu) >= n {
				return
			}
		case err := <-waited:
			t.Fatalf("the run ended before the create was processed: %v", err)
		case <-deadline:
			t.Fatal("the create was not processed")
		}
	}
}

// interruptMidApply starts an apply whose create the service processes
// and never answers, and sends sig to the run's process group once it is
// processed. It returns the apply's output.
func interruptMidApply(t *testing.T, w *cliWorkdir, emu *emulator.Server, res moneyResource, sig syscall.Signal) string {
	t.Helper()
	emu.Faults.AcceptThenHang(1, time.Hour)
	cmd, stdout, stderr := w.command("apply", "-auto-approve")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	waitForObjects(t, emu, res, 1, waited)
	if err := syscall.Kill(-cmd.Process.Pid, sig); err != nil {
		t.Fatalf("signalling the run: %v", err)
	}
	select {
	case err := <-waited:
		if err == nil {
			t.Fatal("the interrupted apply exited 0")
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("the interrupted apply did not end")
	}
	emu.Faults.Reset()
	return stdout.String() + stderr.String()
}

func TestAccMoneyCore(t *testing.T) {
	t.Parallel()
	scenarios := []struct {
		name string
		run  func(t *testing.T, res moneyResource, replay emulator.ReplayAnswer)
	}{
		{"network faults then success", func(t *testing.T, res moneyResource, replay emulator.ReplayAnswer) {
			emu, w := coreWorkdir(t, replay, "", res.body)
			emu.Faults.ServerErrors(2, 503)
			appliesOnce(t, w, emu, res)
		}},
		{"accepted then failed, retried in the same apply", func(t *testing.T, res moneyResource, replay emulator.ReplayAnswer) {
			emu, w := coreWorkdir(t, replay, "", res.body)
			emu.Faults.AcceptThenFail(1)
			appliesOnce(t, w, emu, res)
			if n := emu.Counters.Requests(res.post); res.lookupNotReplay && n != 1 {
				t.Errorf("%d creates reached the emulator, want 1 (answered 500, then found by its ref_id)", n)
			} else if !res.lookupNotReplay && n != 2 {
				t.Errorf("%d creates reached the emulator, want 2 (one answered 500, one retry)", n)
			}
		}},
		{"unknown outcome then apply again", func(t *testing.T, res moneyResource, replay emulator.ReplayAnswer) {
			emu, w := coreWorkdir(t, replay, "  max_retries = 0\n", res.body)
			emu.Faults.AcceptThenFail(1)
			r := w.mustRun(1, "apply", "-auto-approve")
			mustContain(t, "apply", r.output(), "Outcome of")
			checkObjects(t, emu, res, 1)
			appliesOnce(t, w, emu, res)
		}},
		{"saved plan after an unknown outcome", func(t *testing.T, res moneyResource, replay emulator.ReplayAnswer) {
			emu, w := coreWorkdir(t, replay, "  max_retries = 0\n", res.body)
			emu.Faults.AcceptThenFail(1)
			w.mustRun(1, "apply", "-auto-approve")
			w.mustRun(0, "plan", "-out", "retry.tfplan")
			// The saved plan is applied hours later: the state's record of
			// the attempt is the evidence, not the window.
			emu.Advance(3 * time.Hour)
			w.mustRun(0, "apply", "retry.tfplan")
			w.mustRun(0, "plan", "-detailed-exitcode")
			checkObjects(t, emu, res, 1)
		}},
		{"SIGKILL mid-apply then apply again", func(t *testing.T, res moneyResource, replay emulator.ReplayAnswer) {
			emu, w := coreWorkdir(t, replay, "", res.body)
			interruptMidApply(t, w, emu, res, syscall.SIGKILL)
			checkObjects(t, emu, res, 1)
			r := w.mustRun(0, "plan")
			if !res.noPlanLookup {
				mustContain(t, "plan after the kill", r.output(), "already", "within the recovery window")
			}
			appliesOnce(t, w, emu, res)
		}},
		{"SIGINT mid-apply then apply again", func(t *testing.T, res moneyResource, replay emulator.ReplayAnswer) {
			emu, w := coreWorkdir(t, replay, "", res.body)
			interruptMidApply(t, w, emu, res, syscall.SIGINT)
			checkObjects(t, emu, res, 1)
			// A graceful stop records the attempt; hours later it is still
			// this resource's.
			emu.Advance(3 * time.Hour)
			appliesOnce(t, w, emu, res)
		}},
		{"another body under a configured ref_id", func(t *testing.T, res moneyResource, replay emulator.ReplayAnswer) {
			emu := startCore(t, emulator.Options{WithdrawalReplay: replay})
			first := newCLIWorkdir(t)
			withRef := strings.Replace(res.body, "\n}\n", "\n  ref_id = \"core-1\"\n}\n", 1)
			first.write(emulatorProviderBlock(emu, ""), withRef)
			first.mustRun(0, "apply", "-auto-approve")
			other := newCLIWorkdir(t)
			other.write(emulatorProviderBlock(emu, ""), strings.Replace(strings.Replace(withRef, `"0.5"`, `"0.7"`, 1),
				`"core"`, `"other"`, 1))
			r := other.mustRun(1, "apply", "-auto-approve")
			mustContain(t, "apply", r.output(), "ref_id core-1 already used")
			checkObjects(t, emu, res, 1)
		}},
		{"the same arguments again a month later", func(t *testing.T, res moneyResource, replay emulator.ReplayAnswer) {
			emu, first := coreWorkdir(t, replay, "", res.body)
			first.mustRun(0, "apply", "-auto-approve")
			emu.Advance(30 * 24 * time.Hour)
			other := newCLIWorkdir(t)
			other.write(emulatorProviderBlock(emu, ""), res.body)
			if !res.noPlanLookup {
				r := other.mustRun(1, "plan")
				mustContain(t, "plan", r.output(), res.made, "import {")
			}
			r := other.mustRun(1, "apply", "-auto-approve")
			mustContain(t, "apply", r.output(), res.made)
			checkObjects(t, emu, res, 1)
			// A ref_id of its own makes it a new one.
			other.write(emulatorProviderBlock(emu, ""), strings.Replace(res.body, "\n}\n", "\n  ref_id = \"next-month\"\n}\n", 1))
			other.mustRun(0, "apply", "-auto-approve")
			checkObjects(t, emu, res, 2)
		}},
		{"an earlier object made between the plan and its apply", func(t *testing.T, res moneyResource, replay emulator.ReplayAnswer) {
			// The saved plan saw nothing; at its apply, an object another
			// configuration made under the same derived ref_id two hours
			// before is found: no evidence makes it this one's.
			emu, planned := coreWorkdir(t, replay, "", res.body)
			planned.mustRun(0, "plan", "-out=saved.tfplan")
			first := newCLIWorkdir(t)
			first.write(emulatorProviderBlock(emu, ""), res.body)
			first.mustRun(0, "apply", "-auto-approve")
			emu.Advance(2 * time.Hour)
			r := planned.mustRun(1, "apply", "saved.tfplan")
			mustContain(t, "apply", r.output(), res.made, "import {")
			checkObjects(t, emu, res, 1)
		}},
		{"create_before_destroy retry", func(t *testing.T, res moneyResource, replay emulator.ReplayAnswer) {
			emu := startCore(t, emulator.Options{WithdrawalReplay: replay})
			w := newCLIWorkdir(t)
			body := strings.Replace(res.body, "\n}\n", "\n  lifecycle {\n    create_before_destroy = true\n  }\n}\n", 1)
			w.write(emulatorProviderBlock(emu, "  max_retries = 0\n"), body)
			emu.Faults.AcceptThenFail(1)
			w.mustRun(1, "apply", "-auto-approve")
			appliesOnce(t, w, emu, res)
		}},
	}
	resources := moneyResources()
	for k, typ := range mapKeys(resources) {
		res := resources[typ]
		t.Run(res.name, func(t *testing.T) {
			t.Parallel()
			for j, sc := range scenarios {
				if !inMatrix(k, len(resources), j, len(scenarios)) {
					continue
				}
				t.Run(sc.name, func(t *testing.T) {
					t.Parallel()
					sc.run(t, res, emulator.ReplayConflict)
				})
			}
		})
	}
}

// coreWorkdir starts an emulator answering replays with replay and a
// working directory whose configuration is the provider block (with
// extra) and body.
func coreWorkdir(t *testing.T, replay emulator.ReplayAnswer, extra, body string) (*emulator.Server, *cliWorkdir) {
	t.Helper()
	emu := startCore(t, emulator.Options{WithdrawalReplay: replay})
	w := newCLIWorkdir(t)
	w.write(emulatorProviderBlock(emu, extra), body)
	return emu, w
}

// emulatorWorkdir starts an emulator and a working directory whose
// configuration is the provider block (with extra) and body.
func emulatorWorkdir(t *testing.T, extra, body string) (*emulator.Server, *cliWorkdir) {
	t.Helper()
	emu := emulator.StartTest(t, emulator.Options{})
	w := newCLIWorkdir(t)
	w.write(emulatorProviderBlock(emu, extra), body)
	return emu, w
}

// appliesOnce applies w again, which must succeed and leave a plan with
// no change, and checks that the emulator holds exactly one object of res.
func appliesOnce(t *testing.T, w *cliWorkdir, emu *emulator.Server, res moneyResource) {
	t.Helper()
	w.mustRun(0, "apply", "-auto-approve")
	w.mustRun(0, "plan", "-detailed-exitcode")
	checkObjects(t, emu, res, 1)
}

// onlyObject fails unless the emulator holds exactly one object of res,
// and returns it.
func onlyObject(t *testing.T, emu *emulator.Server, res moneyResource) moneyObject {
	t.Helper()
	return checkObjects(t, emu, res, 1)[0]
}

// checkStateHoldsObject fails unless the state of res holds obj: its id
// and its ref_id.
func checkStateHoldsObject(t *testing.T, w *cliWorkdir, res moneyResource, obj moneyObject) {
	t.Helper()
	st := stateOf(t, w, res.addr)
	if st["id"] != obj.ID || obj.RefID == "" || st["ref_id"] != obj.RefID {
		t.Fatalf("state of %s holds id %v ref_id %v, the service's object is %s with ref_id %q",
			res.addr, st["id"], st["ref_id"], obj.ID, obj.RefID)
	}
}

// withFirst adds lines at the start of the block of the one resource
// that body declares.
func withFirst(body, lines string) string {
	i := strings.Index(body, "{\n")
	if i < 0 {
		panic("no resource block in " + body)
	}
	return body[:i+2] + lines + body[i+2:]
}

// withLast adds lines at the end of the block of the one resource that
// body declares.
func withLast(body, lines string) string {
	return strings.Replace(body, "\n}\n", "\n"+lines+"}\n", 1)
}

// checkObjects fails unless the emulator holds exactly n objects of res,
// and returns them.
func checkObjects(t *testing.T, emu *emulator.Server, res moneyResource, n int) []moneyObject {
	t.Helper()
	objs := res.list(emu)
	if len(objs) != n {
		t.Fatalf("the emulator holds %d %s objects, want exactly %d: %+v", len(objs), res.name, n, objs)
	}
	return objs
}

// upgradeBody is the configuration of the states in testdata/upgrade.
var upgradeBody = eoWithdrawal + fdiConfig(`  metadata = { purpose = "core" }`)

// upgradeResources are the rows of moneyResources that the states in
// testdata/upgrade hold.
func upgradeResources() []moneyResource {
	all := moneyResources()
	return []moneyResource{all["platform_crypto_withdrawal"], all["platform_fiat_deposit_instructions"]}
}

// upgradeState copies testdata/upgrade/name.tfstate (written by an
// earlier version of the provider) into w, with the provider address of
// w's CLI, and each value the state recorded (an id, an address) replaced
// by the emulator's in one pass: the emulator's ids may be ids the state
// recorded for other objects.
func upgradeState(t *testing.T, w *cliWorkdir, name string, ids map[string]string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "upgrade", name+".tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	pairs := []string{`registry.terraform.io/hashicorp/platform`, providerAddressFor(t, w)}
	for old, id := range ids {
		pairs = append(pairs, old, id)
	}
	s := strings.NewReplacer(pairs...).Replace(string(b))
	if err := os.WriteFile(filepath.Join(w.dir, "terraform.tfstate"), []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

// The ref_ids and ids the previous release recorded in testdata/upgrade.
const (
	upgradeWithdrawalRef   = "a9fa0f8d-f28f-5288-9ed3-abfd276c9fac"
	upgradeInstructionsRef = "8d95cbc6-c52c-5324-9dad-c35755093023"
	upgradeWithdrawalID    = "af062109-a9fd-41c2-91e6-108deac11854"
	upgradeInstructionsID  = "90d27ffe-7030-4529-b744-521f55287405"
)

// madeByPreviousRelease makes at the emulator, straight through the API,
// the withdrawal and the instructions the previous release made with the
// ref_ids of testdata/upgrade, and returns the old ids mapped to theirs.
func madeByPreviousRelease(t *testing.T, emu *emulator.Server) map[string]string {
	t.Helper()
	return map[string]string{
		upgradeWithdrawalID:   postWithdrawal(t, emu, upgradeWithdrawalRef),
		upgradeInstructionsID: postInstructions(t, emu, upgradeInstructionsRef),
	}
}

// postInstructions makes at the emulator, straight through the API, the
// instructions of upgradeBody with refID, and returns their id.
func postInstructions(t *testing.T, emu *emulator.Server, refID string) string {
	t.Helper()
	f, err := emulatorClient(t, emu).CreateFiatDepositInstructions(t.Context(), client.FiatDepositInstructionsRequest{
		ProfileID: "profile-1", FiatNetwork: "WIRE", RefID: refID, Metadata: map[string]string{"purpose": "core"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return f.ID
}

// A state written by the previous release plans no change and sends
// nothing; an unconfirmed create it left is retried under its own ref_id
// and, made long ago by that attempt, recorded.
func TestAccMoneyCore_upgradeFromPreviousRelease(t *testing.T) {
	t.Parallel()
	t.Run("confirmed", func(t *testing.T) {
		t.Parallel()
		emu := startCore(t, emulator.Options{})
		ids := madeByPreviousRelease(t, emu)
		emu.Advance(30 * 24 * time.Hour)
		w := newCLIWorkdir(t)
		w.write(emulatorProviderBlock(emu, ""), upgradeBody)
		upgradeState(t, w, "confirmed", ids)
		w.mustRun(0, "plan", "-detailed-exitcode")
		w.mustRun(0, "apply", "-auto-approve")
		w.mustRun(0, "plan", "-detailed-exitcode")
		if n := emu.Counters.Requests(cwPostKey) + emu.Counters.Requests(fdiPostKey); n != 1+1 {
			t.Errorf("%d creates at the emulator, want only the 2 made for the test", n)
		}
		for _, res := range upgradeResources() {
			checkObjects(t, emu, res, 1)
		}
	})
	t.Run("unconfirmed", func(t *testing.T) {
		t.Parallel()
		emu := startCore(t, emulator.Options{})
		ids := madeByPreviousRelease(t, emu)
		// Applied hours later: the state's record of the attempts is the
		// evidence.
		emu.Advance(5 * time.Hour)
		w := newCLIWorkdir(t)
		w.write(emulatorProviderBlock(emu, ""), upgradeBody)
		upgradeState(t, w, "unconfirmed", nil)
		w.mustRun(0, "apply", "-auto-approve")
		w.mustRun(0, "plan", "-detailed-exitcode")
		for _, res := range upgradeResources() {
			checkObjects(t, emu, res, 1)
		}
		all := statesOf(t, w)
		if st := all["platform_crypto_withdrawal.payout"]; st["id"] != ids[upgradeWithdrawalID] || st["ref_id"] != upgradeWithdrawalRef {
			t.Errorf("state holds withdrawal %v ref_id %v, want %s %s", st["id"], st["ref_id"], ids[upgradeWithdrawalID], upgradeWithdrawalRef)
		}
		if st := all["platform_fiat_deposit_instructions.test"]; st["id"] != ids[upgradeInstructionsID] {
			t.Errorf("state holds instructions %v, want %s", st["id"], ids[upgradeInstructionsID])
		}
	})
}

// TestAccMoneyCore_sendsFalseSendsNothing: a money movement whose
// configured ref_id the plan found at the service (money.sends = false) is
// recorded at apply with no create sent: the emulator counts no POST from
// that apply, the state holds the object, and the next plan is empty. When
// the object can no longer be found at apply, nothing is sent either.
func TestAccMoneyCore_sendsFalseSendsNothing(t *testing.T) {
	t.Parallel()
	resources := moneyResources()
	for _, typ := range mapKeys(resources) {
		res := resources[typ]
		if _, moves := moneyKinds()[typ]; !moves || res.noPlanLookup {
			// No manifest, or a plan that cannot find the ref_id: never
			// sends = false.
			continue
		}
		t.Run(res.name, func(t *testing.T) {
			t.Parallel()
			emu := startCore(t, emulator.Options{})
			body := withLast(res.body, "  ref_id = \"found-1\"\n")
			first := newCLIWorkdir(t)
			first.write(emulatorProviderBlock(emu, ""), body)
			first.mustRun(0, "apply", "-auto-approve")
			obj := onlyObject(t, emu, res)

			// Another state declares it under the same ref_id: the plan
			// finds it and says that applying sends nothing.
			w := newCLIWorkdir(t)
			w.write(emulatorProviderBlock(emu, ""), body)
			w.mustRun(0, "plan", "-out=found.tfplan")
			m := plannedMoney(t, w, "found.tfplan", res.addr)
			if m["sends"] != false || m["ref_id"] != "found-1" {
				t.Fatalf("planned money = %v, want sends false and ref_id found-1", m)
			}
			// The saved plan says in one line what moves and where, for
			// the reviewer of `terraform show` as for tools.
			summary, _ := m["summary"].(string)
			if !strings.HasPrefix(summary, "records, "+doesVerb(res.words)+" nothing: ") ||
				!strings.Contains(summary, ", ref_id found-1; destroying it ") || !strings.Contains(summary, " profile ") {
				t.Errorf("planned money.summary = %q, want that applying records and sends nothing, what moves "+
					"and its profile, with its ref_id, and what destroying it does", summary)
			}
			mustContain(t, "show", w.mustRun(0, "show", "found.tfplan").output(), summary)
			r := w.mustRun(0, "apply", "found.tfplan")
			mustContain(t, "apply", r.output(), "recorded, not "+res.words.made)
			if n := emu.Counters.Requests(res.post); n != 1 {
				t.Errorf("%d creates reached the emulator, want 1 (the first state's; none from the apply that records it)", n)
			}
			checkStateHoldsObject(t, w, res, obj)
			w.mustRun(0, "plan", "-detailed-exitcode")
			checkObjects(t, emu, res, 1)

			// A replacement's diff says what the new object moves, where.
			w.write(emulatorProviderBlock(emu, ""), withLast(res.body, "  ref_id = \"found-2\"\n"))
			out := w.mustRun(0, "plan", "-no-color").output()
			mustContain(t, "plan", out, "must be replaced")
			// It sends (the ref_id found-2 is new), and says so.
			next := strings.Replace(strings.Replace(summary, "found-1", "found-2", 1),
				"records, "+doesVerb(res.words)+" nothing: ", doesVerb(res.words)+" ", 1)
			mustContain(t, "plan", out, next)
			w.write(emulatorProviderBlock(emu, ""), body)

			// Gone from the service's answers between the plan and its
			// apply: nothing is sent, nothing recorded.
			gone := newCLIWorkdir(t)
			gone.write(emulatorProviderBlock(emu, ""), body)
			gone.mustRun(0, "plan", "-out=found.tfplan")
			emu.HideObject(obj.ID, true)
			gone.mustRun(1, "apply", "found.tfplan")
			emu.HideObject(obj.ID, false)
			if n := emu.Counters.Requests(res.post); n != 1 {
				t.Errorf("%d creates reached the emulator after the object was hidden, want 1", n)
			}
			if r := gone.run("state", "list"); strings.Contains(r.stdout, res.addr) {
				t.Errorf("%s entered the state:\n%s", res.addr, r.stdout)
			}

			// Another object under the ref_id between the plan and its
			// apply (the service answers another id): the plan showed the
			// id of the object it found, and the apply records that one or
			// nothing: Terraform refuses the final plan whose id changed
			// (and the create, given another object, refuses it too), so
			// nothing is sent or recorded.
			swapped := newCLIWorkdir(t)
			swapped.write(emulatorProviderBlock(emu, ""), body)
			swapped.mustRun(0, "plan", "-out=found.tfplan")
			if after := plannedAfter(t, swapped, "found.tfplan", res.addr); after["id"] != obj.ID {
				t.Errorf("planned id = %v, want the id of the object found, %s", after["id"], obj.ID)
			}
			emu.AnswerAnotherObject(obj.ID, "another-"+obj.ID)
			out = flatOutput(swapped.mustRun(1, "apply", "found.tfplan").output())
			emu.AnswerAnotherObject(obj.ID, "")
			mustContain(t, "apply of another object", out, fmt.Sprintf(`.id: was cty.StringVal("%s"), but now cty.StringVal("another-%s")`, obj.ID, obj.ID))
			if n := emu.Counters.Requests(res.post); n != 1 {
				t.Errorf("%d creates reached the emulator after another object answered, want 1", n)
			}
			if r := swapped.run("state", "list"); strings.Contains(r.stdout, res.addr) {
				t.Errorf("%s entered the state with another object:\n%s", res.addr, r.stdout)
			}
		})
	}
}

// plannedMoney reads the planned money manifest of addr from a saved plan.
func plannedMoney(t *testing.T, w *cliWorkdir, planFile, addr string) map[string]any {
	t.Helper()
	m, _ := plannedAfter(t, w, planFile, addr)["money"].(map[string]any)
	return m
}

// plannedAfter reads the planned values of addr from a saved plan.
func plannedAfter(t *testing.T, w *cliWorkdir, planFile, addr string) map[string]any {
	t.Helper()
	after, ok := plannedValues(t, w, planFile)[addr]
	if !ok {
		t.Fatalf("%s is not in the plan %s", addr, planFile)
	}
	return after
}

// plannedValues are the planned values of every change of a saved plan,
// by address.
func plannedValues(t *testing.T, w *cliWorkdir, planFile string) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, rc := range shownChanges(t, w.mustRun(0, "show", "-json", planFile).stdout) {
		out[rc.Address] = rc.Change.After
	}
	return out
}

// TestRecordFoundSendsNothing: the apply of a plan that found the ref_id
// (money.sends = false) records the object the lookup finds again when it
// is the same request, and otherwise fails; it never sends.
func TestRecordFoundSendsNothing(t *testing.T) {
	ref := "ref-1"
	found := &client.Transfer{ID: "t-1", RefID: &ref, Amount: "0.5", Asset: "BTC", ProfileID: "prof-1"}
	other := &client.Transfer{ID: "t-1", RefID: &ref, Amount: "0.7", Asset: "BTC", ProfileID: "prof-1"}
	// The same request under another id, and failed: not the object the
	// plan found, whatever it says.
	another := &client.Transfer{ID: "t-9", RefID: &ref, Amount: "0.5", Asset: "BTC", ProfileID: "prof-1",
		Status: client.TransferStatusFailed}
	tests := []struct {
		name    string
		planned string
		obj     *client.Transfer
		err     error
		adopted bool
		want    string
	}{
		{"the same request", "t-1", found, nil, true, "Crypto withdrawal t-1 recorded, not sent"},
		{"no longer found", "t-1", nil, nil, false, "Crypto withdrawal the plan found is no longer found"},
		{"another request", "t-1", other, nil, false, "ref_id ref-1 already used by another crypto withdrawal"},
		{"another object", "t-1", another, nil, false,
			"Crypto withdrawal the plan found is no longer the one under its ref_id: The plan found crypto withdrawal t-1"},
		{"a plan that names no object", "", found, nil, false,
			"Crypto withdrawal the plan found is no longer the one under its ref_id: The plan said"},
		{"the lookup fails", "t-1", nil, errors.New("GET /transfer/transfers: 503 Service Unavailable"), false,
			"Crypto withdrawal not recorded: ref_id not looked up"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k := withdrawalObjects
			lookups := 0
			k.lookup = func(context.Context, *client.Client, string) (*client.Transfer, bool, error) {
				lookups++
				return tc.obj, tc.obj != nil, tc.err
			}
			res, diags := createRun[*client.Transfer]{
				objects: k, refID: "ref-1", plannedID: tc.planned, now: time.Now, runState: &moneyRun{},
				send: func(context.Context) (*client.Transfer, error) {
					t.Fatal("a create was sent")
					return nil, nil
				},
				differences: func(obj *client.Transfer) []string {
					if obj.Amount != "0.5" {
						return []string{"amount: requested 0.5, answered " + obj.Amount}
					}
					return nil
				},
			}.recordFound(t.Context())
			if lookups != 1 {
				t.Errorf("%d lookups, want 1", lookups)
			}
			if got := res.outcome == outcomeAdopted; got != tc.adopted || diags.HasError() == tc.adopted {
				t.Fatalf("outcome %v, diagnostics %v", res.outcome, diags)
			}
			if tc.adopted && res.obj != found {
				t.Errorf("recorded %v, want the object found", res.obj)
			}
			var text []string
			for _, d := range diags {
				text = append(text, d.Summary()+": "+d.Detail())
			}
			if all := strings.Join(text, "\n"); !strings.Contains(all, tc.want) || !strings.Contains(all, "money.sends = false") {
				t.Errorf("diagnostics do not say %q and the plan's money.sends:\n%s", tc.want, all)
			}
		})
	}
}

// The words a declaration leaves unset are derived from its noun, as each
// declaration spelled them before.
func TestCreateWordsFilled(t *testing.T) {
	for _, c := range []struct {
		w                      createWords
		plural, title, unknown string
	}{
		{withdrawalWords, "crypto withdrawals", "Crypto withdrawal", "Outcome of crypto withdrawal unknown"},
		{fiatWithdrawalWords, "fiat withdrawals", "Fiat withdrawal", "Outcome of fiat withdrawal unknown"},
		{internalTransferWords, "internal transfers", "Internal transfer", "Outcome of internal transfer unknown"},
		{stablecoinConversionWords, "stablecoin conversions", "Stablecoin conversion", "Outcome of stablecoin conversion unknown"},
		{depositAddressWords, "deposit addresses", "Deposit address", "Outcome of deposit address create unknown"},
		{destinationWords, "crypto destination addresses", "Crypto destination address", "Outcome of crypto destination address create unknown"},
		{fiatAccountWords, "fiat accounts", "Fiat account", "Outcome of fiat account create unknown"},
		{orchestrationRuleWords, "orchestration rules", "Orchestration rule", "Outcome of orchestration rule create unknown"},
		{profileWords, "profiles", "Profile", "Outcome of profile create unknown"},
		{instructionsWords, "sets of fiat deposit instructions", "Fiat deposit instructions", "Outcome of fiat deposit instructions create unknown"},
	} {
		if c.w.plural != c.plural || c.w.title != c.title || c.w.unknown != c.unknown {
			t.Errorf("%s: %q, %q, %q; want %q, %q, %q", c.w.noun, c.w.plural, c.w.title, c.w.unknown, c.plural, c.title, c.unknown)
		}
	}
}

// TestLookupFirstSendsOnlyOnTheServicesWord: a create that looks its
// ref_id up first sends without a lookup only when the service itself
// answers, in the API's words, that it offers none, and the type's ref_id
// is the key of idempotence where the service has no lookup (deposit
// instructions at the seed's service), with a warning that says what is
// relied on. A 404 or 405 that is not the service's (a gateway's page),
// and any answer for a type without that promise (a fiat account), sends
// nothing.
func TestLookupFirstSendsOnlyOnTheServicesWord(t *testing.T) {
	answers := []struct {
		name        string
		status      int
		contentType string
		body        string
		api         bool
	}{
		{"404 HTML page", 404, "text/html", "<html><head><title>404 Not Found</title></head><body><center><h1>404 Not Found</h1></center><hr><center>nginx</center></body></html>", false},
		{"404 plain text", 404, "text/plain", "404 page not found", false},
		{"404 empty", 404, "", "", false},
		{"405 HTML page", 405, "text/html", "<html><body>405 Not Allowed</body></html>", false},
		{"404 gateway JSON", 404, "application/json", `{"message":"no Route matched with those values"}`, false},
		{"405 problem", 405, "application/problem+json", `{"type":"https://errors.platform.example/method-not-allowed","title":"Method Not Allowed","status":405}`, true},
		{"404 problem", 404, "application/problem+json", `{"type":"about:blank","title":"Not Found","status":404,"detail":"no such operation"}`, true},
		{"404 code and message", 404, "application/json", `{"code":"NOT_FOUND","message":"unknown path"}`, true},
	}
	for _, a := range answers {
		for _, kind := range []string{"instructions", "fiat account"} {
			t.Run(a.name+"/"+kind, func(t *testing.T) {
				list := client.PathFiatDepositInstructions
				if kind == "fiat account" {
					list = client.PathFiatAccounts
				}
				f := startFrontedEmulator(t, emulator.Options{}, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
					if r.Method == http.MethodGet && r.URL.Path == "/v2"+list {
						if a.contentType != "" {
							w.Header().Set("Content-Type", a.contentType)
						}
						w.WriteHeader(a.status)
						_, _ = w.Write([]byte(a.body))
						return
					}
					next.ServeHTTP(w, r)
				})
				c, err := client.New(client.Config{RateStateDir: t.TempDir(),
					ClientID: emulator.DefaultClientID, ClientSecret: emulator.DefaultClientSecret,
					BaseURL: f.srv.URL + "/v2", AuthURL: f.srv.URL, Rates: &testRates, MaxRetries: 0,
				})
				if err != nil {
					t.Fatal(err)
				}
				data := &moneyRun{client: c}
				var sent bool
				var diags diag.Diagnostics
				if kind == "instructions" {
					_, diags = createRun[*client.FiatDepositInstructions]{
						objects: instructionsObjects, refID: "ref-1", now: time.Now, runState: data, lookupFirst: true,
						send: func(context.Context) (*client.FiatDepositInstructions, error) {
							sent = true
							return &client.FiatDepositInstructions{ID: "i-1"}, nil
						},
						differences: func(*client.FiatDepositInstructions) []string { return nil },
					}.run(t.Context())
				} else {
					_, diags = createRun[*client.FiatAccount]{
						objects: fiatAccountObjects, refID: "ref-1", now: time.Now, runState: data, lookupFirst: true,
						send: func(context.Context) (*client.FiatAccount, error) {
							sent = true
							id := "a-1"
							return &client.FiatAccount{ID: &id}, nil
						},
						differences: func(*client.FiatAccount) []string { return nil },
					}.run(t.Context())
				}
				wantSent := a.api && kind == "instructions"
				if sent != wantSent || diags.HasError() == wantSent {
					t.Fatalf("sent %v, want %v; diagnostics: %v", sent, wantSent, diags)
				}
				var text []string
				for _, d := range diags {
					text = append(text, d.Summary()+": "+d.Detail())
				}
				all := strings.Join(text, "\n")
				switch {
				case wantSent:
					if !strings.Contains(all, `sent without looking its ref_id up`) || !strings.Contains(all, `"client id for idempotence"`) {
						t.Errorf("the warning does not say what the request relies on:\n%s", all)
					}
				case !a.api:
					if !strings.Contains(all, "Nothing was created") || !strings.Contains(all, "not the service's") {
						t.Errorf("the error does not say that nothing was sent and that the answer is not the service's:\n%s", all)
					}
				default:
					if !strings.Contains(all, "Nothing was created") || !strings.Contains(all, "never sends one without looking its ref_id up") ||
						!strings.Contains(all, "import it") {
						t.Errorf("the error does not say that nothing was sent, why, and what to do:\n%s", all)
					}
				}
			})
		}
	}
}
