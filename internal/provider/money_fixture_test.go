package provider

// One fixture per money type: everything the suites need of a resource on
// the money core, in one file named for it (<type>_fixture_test.go). Every
// suite's table is derived from the fixtures (moneyResources,
// exactlyOnceRows, lyingRows, intentRows, refIDRows, flowRows,
// flowActionArgs, moneyKinds, the upgrade of every type), so adding a money
// type is its declaration and its fixture.

import (
	"testing"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// moneyFixture is what the suites need of one money type. The parts a
// type may lack (flow, action, guard, moves, upgrade) each have a field
// that says why it has none; the others every money type fills.
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
	// cli are its tests of the CLI matrix, by block ("resource
	// platform_x", "list platform_x", "action platform_x", and the
	// actions named platform_x_...): registry.CLITests must hold the same.
	cli map[string][]string

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
	// config declares the action's arguments with the core body's, and the
	// amount given (HCL expression).
	config func(amount string) string
	// args are valid arguments of the action, as the protocol tests send
	// them.
	args cwaArgs
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
