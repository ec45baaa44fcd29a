package provider

// One fixture per money type: everything the suites need of a resource on
// the money core, in one file named for it (<type>_fixture_test.go). Every
// suite's table is derived from the fixtures (moneyResources,
// exactlyOnceRows, lyingRows, intentRows, refIDRows, flowRows,
// flowActionArgs, moneyKinds, the upgrade of every type), so adding a money
// type is its declaration and its fixture (its tests of the CLI matrix are
// its lines of registry.CLITests). TestRegistryMoneyFixtures checks that
// every money type has a fixture, that every fixture fills every part or
// says why not, and that the shipped policy and the upgrade state agree
// with the fixtures.

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/provider"

	"github.com/platform/terraform-provider-platform/internal/emulator"
	"github.com/platform/terraform-provider-platform/internal/registry"
)

// moneyFixture is what the suites need of one money type. The parts a
// type may lack (flow, action, guard, moves, upgrade) each have a field
// that says why it has none; the others every money type keyed by a
// ref_id fills, and a type with a natural key says why not (naturalKey).
type moneyFixture struct {
	// typ is the resource type.
	typ string
	// core is its row of moneyResources: its configuration, the reader of
	// its objects at the emulator, its words (TestAccMoneyCore,
	// TestAccRefreshPolicy and every suite below).
	core moneyResource
	// exactlyOnce, lying and intent are its rows of the exactly-once,
	// lying-service and intent suites.
	exactlyOnce exactlyOnceRow
	lying       lyingRow
	intent      intentRow
	// refIDs are the cases of its derived ref_ids (TestDerivedRefIDGolden,
	// testdata/refids/<type>.json).
	refIDs []refIDCase
	// naturalKey, for a type whose key is natural (moneyType.key), says
	// why the parts of a ref_id (core, exactlyOnce, lying, intent, refIDs)
	// do not apply to it, and which tests hold its creates instead.
	naturalKey string

	// flow is what the flow suites need of a money flow (TestAccMoneyFlows,
	// TestAccMoneyFlows_query); noFlow says why the type is not one.
	flow   *flowFixture
	noFlow string
	// action is its action (TestAccMoneyFlowActions,
	// TestMoneyFlowActions_*); noAction says why it has none.
	action   *actionFixture
	noAction string
	// guard is what the guards need to refuse it (TestAccMoneyFlows);
	// noGuard says why no such row applies.
	guard   *guardFixture
	noGuard string
	// moves is the money.kind of what it moves, as the shipped policy
	// knows it (money_types, and money_actions for its action);
	// movesNothing says why it moves no money (non_money_types).
	moves        string
	movesNothing string
	// upgrade is its object in testdata/upgrade/every_type.tfstate
	// (TestAccMoneyCore_upgradeEveryType); noUpgrade says why it has none.
	upgrade   *upgradeFixture
	noUpgrade string
}

// flowFixture is what the flow suites need of a money flow.
type flowFixture struct {
	// settle moves the object id to a later status at the emulator, and
	// says which.
	settle func(emu *emulator.Server, id string) string
	// list is whether it has a list resource.
	list bool
}

// actionFixture is the action of a money type.
type actionFixture struct {
	// args are valid arguments of the action, as the protocol tests send
	// them, with the core body's; config declares them.
	args cwaArgs
}

// config declares the action's string arguments of args but its amount,
// and the amount given (HCL expression).
func (a *actionFixture) config(amount string) string {
	var lines []string
	for _, k := range mapKeys(a.args) {
		if s, ok := a.args[k].(string); ok && k != "amount" {
			lines = append(lines, fmt.Sprintf("%s = %q", k, s))
		}
	}
	return strings.Join(append(lines, "amount = "+amount), "\n    ")
}

// guardFixture is what the guards need of a type's core body.
type guardFixture struct {
	// asset is the asset the body moves, over an amount above the body's.
	asset, over string
	// balance is the profile and asset the body debits; short, a balance
	// that cannot fund the body ("1" when unset).
	balance [2]string
	short   string
}

// upgradeFixture is a type's object in testdata/upgrade/every_type.tfstate,
// declared there by its core body.
type upgradeFixture struct {
	// id is the id the state recorded.
	id string
	// earlier makes the object at the emulator, straight through the API,
	// with the state's ref_id, and returns what the state recorded of it
	// (its id, an address) mapped to the emulator's.
	earlier func(t *testing.T, emu *emulator.Server) map[string]string
	// body, when set, is the configuration the state was written with,
	// where it is not the core body: the withdrawal an earlier version
	// made went to an address that a new one may no longer have.
	body string
}

// moneyFixtures are the fixtures, by resource type; each fixture file adds
// its own (addMoneyFixture).
var moneyFixtures = map[string]moneyFixture{}

// addMoneyFixture adds f to moneyFixtures.
func addMoneyFixture(f moneyFixture) {
	if _, ok := moneyFixtures[f.typ]; ok {
		panic("two fixtures of " + f.typ)
	}
	moneyFixtures[f.typ] = f
}

// conflictRow is the exactly-once row of a type whose plan shows its
// ref_id, and whose reused ref_id the service answers with a 409 the apply
// warns of; what is how the plan names the object of its core body.
func conflictRow(what string) exactlyOnceRow {
	conflict := []emulator.ReplayAnswer{emulator.ReplayConflict}
	return exactlyOnceRow{replays: conflict, replayWarns: conflict, refIDAtPlan: true, what: what}
}

// readIntent is the intent row of a type whose objects scope reads, named
// noun where an import fails; imports are more failing imports of its own
// (nil: none).
func readIntent(noun, scope string, imports func(t *testing.T, emu *emulator.Server) []importCase) intentRow {
	return intentRow{readScope: scope, imports: imports,
		notFound: cannotImportWith(noun, "check the id"), unreadable: cannotImportWith(noun, scope)}
}

// transferFlow is the flow part of a transfer with a list resource: it
// settles as COMPLETED.
var transferFlow = &flowFixture{list: true, settle: func(emu *emulator.Server, id string) string {
	emu.SetTransferStatus(id, "COMPLETED", "")
	return "COMPLETED"
}}

// objectsOf is moneyResource.list of the objects all, each as object
// describes it.
func objectsOf[T any](all []T, object func(T) moneyObject) []moneyObject {
	return objectsWhere(all, every, object)
}

// objectsWhere is objectsOf of the objects of all that keep passes.
func objectsWhere[T any](all []T, keep func(T) bool, object func(T) moneyObject) []moneyObject {
	var out []moneyObject
	for _, o := range all {
		if keep(o) {
			out = append(out, object(o))
		}
	}
	return out
}

// newInThisRelease is the noUpgrade of a type no earlier release had.
const newInThisRelease = "new in 0.2.0: no earlier release wrote a state of it"

// rowsOf is a suite's table derived from the fixtures: the row of each
// fixture that has one, by resource type.
func rowsOf[R any](row func(f moneyFixture) (R, bool)) map[string]R {
	rows := map[string]R{}
	for typ, f := range moneyFixtures {
		if r, ok := row(f); ok {
			rows[typ] = r
		}
	}
	return rows
}

// moneyKinds are the resource types with a money manifest, by money.kind.
func moneyKinds() map[string]string {
	return rowsOf(func(f moneyFixture) (string, bool) { return f.moves, f.moves != "" })
}

// fixturePart is a part of a moneyFixture.
type fixturePart struct {
	name string
	// has reports whether f fills the part; not is why f has none ("" for
	// a part every fixture fills).
	has func(f moneyFixture) bool
	not func(f moneyFixture) string
	// cut removes the part (and its reason) from f.
	cut func(f *moneyFixture)
}

// fixtureParts are the parts of a moneyFixture.
var fixtureParts = []fixturePart{
	{name: "core (core: moneyResources, TestAccMoneyCore)",
		has: func(f moneyFixture) bool { return f.core.body != "" && f.core.list != nil },
		not: func(f moneyFixture) string { return f.naturalKey },
		cut: func(f *moneyFixture) { f.core = moneyResource{} }},
	{name: "exactly-once (exactlyOnce: exactlyOnceRows)",
		has: func(f moneyFixture) bool { return len(f.exactlyOnce.replays) > 0 },
		not: func(f moneyFixture) string { return f.naturalKey },
		cut: func(f *moneyFixture) { f.exactlyOnce = exactlyOnceRow{} }},
	{name: "lying-service (lying: lyingRows)",
		has: func(f moneyFixture) bool { return len(f.lying.lies) > 0 },
		not: func(f moneyFixture) string { return f.naturalKey },
		cut: func(f *moneyFixture) { f.lying = lyingRow{} }},
	{name: "intent (intent: intentRows)",
		has: func(f moneyFixture) bool { return f.intent.readScope != "" },
		not: func(f moneyFixture) string { return f.naturalKey },
		cut: func(f *moneyFixture) { f.intent = intentRow{} }},
	{name: "derived ref_ids (refIDs: refIDRows, testdata/refids)",
		has: func(f moneyFixture) bool { return len(f.refIDs) > 0 },
		not: func(f moneyFixture) string { return f.naturalKey },
		cut: func(f *moneyFixture) { f.refIDs = nil }},
	{name: "flow (flow or noFlow: flowRows)",
		has: func(f moneyFixture) bool { return f.flow != nil },
		not: func(f moneyFixture) string { return f.noFlow },
		cut: func(f *moneyFixture) { f.flow, f.noFlow = nil, "" }},
	{name: "action (action or noAction: flowActionArgs)",
		has: func(f moneyFixture) bool { return f.action != nil },
		not: func(f moneyFixture) string { return f.noAction },
		cut: func(f *moneyFixture) { f.action, f.noAction = nil, "" }},
	{name: "guard (guard or noGuard)",
		has: func(f moneyFixture) bool { return f.guard != nil },
		not: func(f moneyFixture) string { return f.noGuard },
		cut: func(f *moneyFixture) { f.guard, f.noGuard = nil, "" }},
	{name: "policy (moves or movesNothing: policies/platform/money.rego)",
		has: func(f moneyFixture) bool { return f.moves != "" },
		not: func(f moneyFixture) string { return f.movesNothing },
		cut: func(f *moneyFixture) { f.moves, f.movesNothing = "", "" }},
	{name: "upgrade (upgrade or noUpgrade: testdata/upgrade/every_type.tfstate)",
		has: func(f moneyFixture) bool { return f.upgrade != nil },
		not: func(f moneyFixture) string { return f.noUpgrade },
		cut: func(f *moneyFixture) { f.upgrade, f.noUpgrade = nil, "" }},
}

// moneyFixtureCheck is what the fixtures are checked against: the
// provider's registry, the shipped policy's tables and the state of every
// type.
type moneyFixtureCheck struct {
	types []registry.Type
	// flows are the resource types whose action is a money flow's.
	flows []string
	// moneyTypes, nonMoneyTypes and moneyActions are the policy's tables;
	// nonMoneyActions too.
	moneyTypes, moneyActions map[string]any
	nonMoneyTypes            []string
	nonMoneyActions          []string
	// upgraded are the resource types in testdata/upgrade/every_type.tfstate.
	upgraded []string
}

// missing returns one line per gap: a money type without a fixture, a
// fixture of no registered money type, a part a fixture neither fills nor
// says why not, and each place the registry, the policy or the upgrade
// state disagrees with a fixture. Each line names the type,
// and the part when it is about one. Nothing means the fixtures are
// complete.
func (c moneyFixtureCheck) missing(fixtures map[string]moneyFixture) []string {
	var out []string
	gap := func(typ, part, format string, args ...any) {
		out = append(out, fmt.Sprintf("fixture of %s, part %s: ", typ, part)+fmt.Sprintf(format, args...))
	}
	resources := map[string]registry.Type{}
	actions := map[string]registry.Type{}
	for _, t := range c.types {
		switch t.Kind {
		case registry.Resource:
			resources[t.Name] = t
		case registry.Action:
			actions[t.Name] = t
		}
		if t.Kind == registry.Resource && registry.MoneyCore(t) {
			if _, ok := fixtures[t.Name]; !ok {
				out = append(out, fmt.Sprintf("money-core resource %s is registered but has no fixture "+
					"(%s_fixture_test.go, addMoneyFixture)", t.Name, strings.TrimPrefix(t.Name, "platform_")))
			}
		}
	}
	for _, typ := range slices.Sorted(maps.Keys(fixtures)) {
		f := fixtures[typ]
		if r, ok := resources[typ]; !ok || !registry.MoneyCore(r) {
			out = append(out, fmt.Sprintf("a fixture names %s, which is not a registered money-core resource", typ))
			continue
		}
		if f.typ != typ {
			out = append(out, fmt.Sprintf("the fixture of %s says it is %s's", typ, f.typ))
		}
		for _, p := range fixtureParts {
			why := ""
			if p.not != nil {
				why = p.not(f)
			}
			switch has := p.has(f); {
			case has && why != "":
				gap(typ, p.name, "filled, and says why it has none (%q)", why)
			case has:
			case p.not == nil:
				gap(typ, p.name, "not filled: every money type needs it")
			case why == "":
				gap(typ, p.name, "neither filled nor said why it has none")
			}
		}
		// What the provider says of the type agrees with the fixture.
		_, isFlow := slices.BinarySearch(c.flows, typ)
		if (f.flow != nil) != isFlow {
			gap(typ, "flow", "a flow in the fixture %v, a money flow registered %v", f.flow != nil, isFlow)
		}
		if isFlow && (f.action == nil || f.guard == nil) {
			gap(typ, "flow", "a money flow has an action and a guard row: fill action and guard")
		}
		if a, ok := actions[typ]; ok != (f.action != nil) {
			gap(typ, "action", "an action in the fixture %v, an action %s registered %v", f.action != nil, typ, ok)
		} else if ok && a.Money != f.moves {
			gap(typ, "policy", "the action moves %q (MovesMoney), the fixture says %q", a.Money, f.moves)
		}
		if got := resources[typ].Money; got != f.moves {
			gap(typ, "policy", "the resource moves %q (MovesMoney), the fixture says %q", got, f.moves)
		}
		// The shipped policy knows the type by what it moves.
		if f.moves != "" {
			if got := c.moneyTypes[typ]; got != f.moves {
				gap(typ, "policy", "money_types has it as %v, want %s", got, f.moves)
			}
		} else if !slices.Contains(c.nonMoneyTypes, typ) {
			gap(typ, "policy", "not in non_money_types")
		}
		if _, ok := actions[typ]; ok && f.moves != "" {
			if row, _ := c.moneyActions[typ].(map[string]any); row["kind"] != f.moves {
				gap(typ, "policy", "money_actions has its action as %v, want kind %s", c.moneyActions[typ], f.moves)
			}
		} else if ok && !slices.Contains(c.nonMoneyActions, typ) {
			gap(typ, "policy", "its action is not in non_money_actions")
		}
		// The state of every type holds the types with an upgrade part.
		if in := slices.Contains(c.upgraded, typ); in != (f.upgrade != nil) {
			gap(typ, "upgrade", "in testdata/upgrade/every_type.tfstate %v, an upgrade in the fixture %v", in, f.upgrade != nil)
		}
	}
	for _, typ := range c.upgraded {
		if _, ok := fixtures[typ]; !ok {
			out = append(out, fmt.Sprintf("testdata/upgrade/every_type.tfstate holds %s, which has no fixture", typ))
		}
	}
	return out
}

// moneyFixtureChecks reads what the fixtures are checked against.
func moneyFixtureChecks(t *testing.T) moneyFixtureCheck {
	t.Helper()
	c := moneyFixtureCheck{types: registeredTypes(t)}
	p := newTestProvider()
	if pa, ok := p.(provider.ProviderWithActions); ok {
		for _, f := range pa.Actions(t.Context()) {
			if flow, ok := f().(interface{ flowType() string }); ok {
				c.flows = append(c.flows, flow.flowType())
			}
		}
	}
	slices.Sort(c.flows)
	c.moneyTypes, _ = policyValue(t, "money_types").(map[string]any)
	c.moneyActions, _ = policyValue(t, "money_actions").(map[string]any)
	c.nonMoneyTypes = keysOf(policyValue(t, "non_money_types"))
	c.nonMoneyActions = keysOf(policyValue(t, "non_money_actions"))
	b, err := os.ReadFile(filepath.Join("testdata", "upgrade", "every_type.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	var state struct {
		Resources []struct {
			Type string `json:"type"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(b, &state); err != nil {
		t.Fatalf("testdata/upgrade/every_type.tfstate: %v", err)
	}
	for _, r := range state.Resources {
		if !slices.Contains(c.upgraded, r.Type) {
			c.upgraded = append(c.upgraded, r.Type)
		}
	}
	return c
}

// TestRegistryMoneyFixtures checks that every resource on the money core
// (registry.MoneyCore) has a fixture, that every fixture fills every part
// or says why not, that no fixture names a type the provider does not
// register on the core, and that the shipped policy's tables and the
// state of every type agree with the fixtures.
func TestRegistryMoneyFixtures(t *testing.T) {
	if len(moneyFixtures) < 8 {
		t.Fatalf("%d money fixtures", len(moneyFixtures))
	}
	for _, m := range moneyFixtureChecks(t).missing(moneyFixtures) {
		t.Error(m)
	}
}

// TestRegistryMoneyFixturesNamesMissingPart removes each part in turn from
// a fixture that fills it, and checks that the check then reports that
// type and that part (besides what it reports of the fixtures as they
// are); then a fixture removed, and a fixture of an unregistered type.
func TestRegistryMoneyFixturesNamesMissingPart(t *testing.T) {
	c := moneyFixtureChecks(t)
	before := c.missing(moneyFixtures)
	newLines := func(fixtures map[string]moneyFixture) []string {
		return slices.DeleteFunc(c.missing(fixtures), func(m string) bool { return slices.Contains(before, m) })
	}
	for _, p := range fixtureParts {
		typ := ""
		for _, name := range slices.Sorted(maps.Keys(moneyFixtures)) {
			if p.has(moneyFixtures[name]) {
				typ = name
				break
			}
		}
		if typ == "" {
			t.Fatalf("no fixture fills the part %s", p.name)
		}
		edited := maps.Clone(moneyFixtures)
		f := edited[typ]
		p.cut(&f)
		edited[typ] = f
		got := newLines(edited)
		if len(got) == 0 || !strings.Contains(got[0], typ) || !strings.Contains(got[0], p.name) {
			t.Errorf("without the part %s of %s, the check reports %q; want first a line naming both", p.name, typ, got)
			continue
		}
		t.Logf("without the part %s of %s: %s", p.name, typ, got[0])
	}

	// A part filled and said to be missing.
	edited := maps.Clone(moneyFixtures)
	f := edited["platform_crypto_withdrawal"]
	f.noAction = "none"
	edited[f.typ] = f
	if got := newLines(edited); len(got) != 1 || !strings.Contains(got[0], "platform_crypto_withdrawal") ||
		!strings.Contains(got[0], "action") {
		t.Errorf("an action filled and said to be missing: the check reports %q", got)
	}

	// A money type without a fixture.
	edited = maps.Clone(moneyFixtures)
	delete(edited, "platform_internal_transfer")
	if got := newLines(edited); len(got) != 1 || !strings.Contains(got[0], "platform_internal_transfer is registered but has no fixture") {
		t.Errorf("a money type without a fixture: the check reports %q", got)
	}

	// A fixture of a type the provider does not register on the core.
	for _, typ := range []string{"platform_gone", "platform_fiat_deposit_instructions_x"} {
		edited = maps.Clone(moneyFixtures)
		f = moneyFixtures["platform_internal_transfer"]
		f.typ = typ
		edited[typ] = f
		if got := newLines(edited); len(got) != 1 || !strings.Contains(got[0], typ+", which is not a registered money-core resource") {
			t.Errorf("a fixture of %s: the check reports %q", typ, got)
		}
	}

	// Each place that disagrees with a fixture is named with the type and
	// the part.
	for _, d := range []struct {
		name, typ, part string
		edit            func(f *moneyFixture)
	}{
		{"a money flow without its flow part", "platform_fiat_withdrawal", "flow",
			func(f *moneyFixture) { f.flow, f.noFlow = nil, "not one" }},
		{"an action the provider does not register", "platform_orchestration_rule", "action",
			func(f *moneyFixture) { f.action, f.noAction = &actionFixture{}, "" }},
		{"another money.kind than the provider's and the policy's", "platform_fiat_withdrawal", "policy",
			func(f *moneyFixture) { f.moves = moneyKindInternalTransfer }},
		{"an upgrade the state of every type does not hold", "platform_fiat_withdrawal", "upgrade",
			func(f *moneyFixture) { f.upgrade, f.noUpgrade = &upgradeFixture{}, "" }},
	} {
		edited := maps.Clone(moneyFixtures)
		f := edited[d.typ]
		d.edit(&f)
		edited[d.typ] = f
		got := newLines(edited)
		if !slices.ContainsFunc(got, func(m string) bool { return strings.HasPrefix(m, "fixture of "+d.typ+", part "+d.part) }) {
			t.Errorf("%s: the check reports %q; want a line naming %s and the part %s", d.name, got, d.typ, d.part)
		}
	}
}
