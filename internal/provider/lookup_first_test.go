package provider

import (
	"strings"
	"testing"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// A kind that looks its ref_id up before each send (the service does not
// answer its create as a replay, or a superseded object must be moved
// past) relies on that lookup: when it fails, nothing is sent, and the
// next apply, able to look, records the object the unconfirmed attempt
// made.
func TestAccMoneyCore_lookupFailsNothingSent(t *testing.T) {
	t.Parallel()
	rows := moneyResources()
	declarations := moneyCoreDeclarations(t)
	n := 0
	for _, typ := range mapKeys(rows) {
		res := rows[typ]
		if d, _ := declarations[typ].(interface{ looksUpFirst() bool }); d == nil || !d.looksUpFirst() {
			continue
		}
		n++
		t.Run(res.name, func(t *testing.T) {
			t.Parallel()
			emu := startCore(t, emulator.Options{})
			w := newCLIWorkdir(t)
			w.write(emulatorProviderBlock(emu, "  max_retries = 0\n"), res.body)
			// The create is processed and answered 500: unconfirmed.
			emu.Faults.AcceptThenFail(1)
			w.mustRun(1, "apply", "-auto-approve")
			checkObjects(t, emu, res, 1)
			// The retry cannot look the ref_id up: nothing is sent.
			emu.Faults.OnlyPath("/v2" + res.words.path)
			emu.Faults.ServerErrors(3, 503)
			r := w.mustRun(1, "apply", "-auto-approve")
			if out := strings.Join(strings.Fields(r.output()), " "); !strings.Contains(out, "ref_id not looked up") {
				t.Errorf("the apply does not say the ref_id was not looked up:\n%s", r.output())
			}
			checkObjects(t, emu, res, 1)
			emu.Faults.Reset()
			w.mustRun(0, "apply", "-auto-approve")
			w.mustRun(0, "plan", "-detailed-exitcode")
			objs := checkObjects(t, emu, res, 1)
			if id, _ := stateOf(t, w, res.addr)["id"].(string); id != objs[0].ID {
				t.Errorf("the state holds %q, want the object the first attempt made, %s", id, objs[0].ID)
			}
		})
	}
	if n < 2 {
		t.Fatalf("%d kinds are protected by their lookup alone, want the fiat account and the instructions", n)
	}
}
