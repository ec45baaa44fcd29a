package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// The refresh policy of every resource on the money core, through the
// CLI: each event (a refused read scope, the object gone, another object
// answered) has the outcome the resource declares (refreshPolicy), and
// the outcome is carried out the same way for every resource.

// declaredMoneyType is what a test reads of a resource on the money core.
type declaredMoneyType interface {
	declared() (createWords, string, refreshPolicy)
}

// moneyCoreDeclarations are the resources on the money core keyed by a
// ref_id, by type: a type with a natural key (naturallyKeyed) has none of
// the suites of a ref_id.
func moneyCoreDeclarations(t *testing.T) map[string]declaredMoneyType {
	t.Helper()
	out := map[string]declaredMoneyType{}
	p := newTestProvider()
	for _, f := range p.Resources(t.Context()) {
		r := f()
		d, ok := r.(declaredMoneyType)
		if k, natural := r.(interface{ naturallyKeyed() bool }); !ok || (natural && k.naturallyKeyed()) {
			continue
		}
		var m resource.MetadataResponse
		r.Metadata(t.Context(), resource.MetadataRequest{ProviderTypeName: "platform"}, &m)
		out[m.TypeName] = d
	}
	return out
}

// otherObjectID is the id the emulator answers in place of the object's
// when it answers another object.
const otherObjectID = "0b0e7a3c-0000-4000-8000-00000000a11e"

func TestAccRefreshPolicy(t *testing.T) {
	t.Parallel()
	declarations := moneyCoreDeclarations(t)
	if len(declarations) != len(moneyResources()) {
		t.Fatalf("%d resources on the money core, %d rows in moneyResources", len(declarations), len(moneyResources()))
	}
	resources := moneyResources()
	for k, typ := range mapKeys(resources) {
		res := resources[typ]
		typeName := res.typ
		d := declarations[typeName]
		if d == nil {
			t.Fatalf("%s is not on the money core", typeName)
		}
		w, readScope, policy := d.declared()
		events := []struct {
			name    string
			outcome refreshOutcome
			// cause makes the event happen to the object id; provider is
			// the provider block's extra arguments of the plan after it.
			cause    func(emu *emulator.Server, id string)
			provider string
			// says is what the message says.
			says string
		}{
			{"scope refused", policy.scopeRefused, func(*emulator.Server, string) {},
				fmt.Sprintf("  scopes = [%q]\n", w.scope), w.title + " not refreshed"},
			{"gone", policy.gone, func(emu *emulator.Server, id string) { emu.HideObject(id, true) }, "", ""},
			{"another object", policy.another, func(emu *emulator.Server, id string) { emu.AnswerAnotherObject(id, otherObjectID) },
				"", "The service answered with another " + w.noun},
		}
		for j, ev := range events {
			if !inMatrix(k, len(resources), j, len(events)) {
				continue
			}
			t.Run(res.name+"/"+ev.name, func(t *testing.T) {
				t.Parallel()
				if ev.outcome == 0 {
					t.Fatalf("%s declares no outcome for the event %q", typeName, ev.name)
				}
				emu := startCore(t, emulator.Options{})
				wd := newCLIWorkdir(t)
				wd.write(emulatorProviderBlock(emu, ""), res.body)
				wd.mustRun(0, "apply", "-auto-approve")
				id, _ := stateOf(t, wd, res.addr)["id"].(string)
				if id == "" {
					t.Fatal("no id in the state")
				}
				ev.cause(emu, id)
				wd.write(emulatorProviderBlock(emu, ev.provider), res.body)
				var r cliResult
				switch ev.outcome {
				case keepWithWarning:
					r = wd.mustRun(0, "plan", "-detailed-exitcode")
					wd.mustRun(0, "apply", "-refresh-only", "-auto-approve")
					if got, _ := stateOf(t, wd, res.addr)["id"].(string); got != id {
						t.Errorf("state id %q after the refresh, want %q kept", got, id)
					}
				case forgetWithWarning:
					r = wd.mustRun(2, "plan", "-detailed-exitcode")
					if !strings.Contains(r.output(), res.addr+" will be created") {
						t.Errorf("the plan does not create %s again:\n%s", res.addr, r.output())
					}
					wd.mustRun(0, "apply", "-refresh-only", "-auto-approve")
					if list := wd.mustRun(0, "state", "list").stdout; strings.Contains(list, res.addr) {
						t.Errorf("%s is still in the state:\n%s", res.addr, list)
					}
				case failKeepingState:
					r = wd.mustRun(1, "plan", "-detailed-exitcode")
					if got, _ := stateOf(t, wd, res.addr)["id"].(string); got != id {
						t.Errorf("state id %q after the failed refresh, want %q kept", got, id)
					}
				}
				out := strings.Join(strings.Fields(r.output()), " ")
				says := ev.says
				if says == "" {
					says = "Warning:"
				}
				if !strings.Contains(out, says) {
					t.Errorf("the plan does not say %q:\n%s", says, r.output())
				}
				if ev.name == "scope refused" {
					if n := strings.Count(out, says); n != 1 {
						t.Errorf("%q said %d times, want once per type", says, n)
					}
					if !strings.Contains(out, readScope) {
						t.Errorf("the warning does not name the scope %s:\n%s", readScope, r.output())
					}
				}
				if ev.outcome == failKeepingState && !strings.Contains(r.output(), "Error:") {
					t.Errorf("no error:\n%s", r.output())
				}
				checkObjects(t, emu, res, 1)
			})
		}
	}
}

// TestRefreshPolicyDocumented checks that the table of the provider's
// documentation says, for every resource on the money core, the outcome
// of each event that the resource declares.
func TestRefreshPolicyDocumented(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "templates", "index.md.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(b), "## What a refresh does")
	section, _, _ = strings.Cut(section, "\n## ")
	rows := map[string]string{}
	for _, line := range strings.Split(section, "\n") {
		if strings.HasPrefix(line, "| `platform_") {
			name := strings.Trim(strings.TrimSpace(strings.Split(line, "|")[1]), "`")
			rows[name] = line
		}
	}
	declarations := moneyCoreDeclarations(t)
	if len(rows) != len(declarations) {
		t.Errorf("the refresh table has %d rows, and %d resources are on the money core", len(rows), len(declarations))
	}
	for name, d := range declarations {
		_, _, p := d.declared()
		want := fmt.Sprintf("| `%s` | %s | %s | %s |", name, p.scopeRefused, p.gone, p.another)
		if rows[name] != want {
			t.Errorf("the refresh table's row of %s is\n%s\nwant\n%s", name, rows[name], want)
		}
	}
}
