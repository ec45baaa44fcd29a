package provider

import (
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// EnvMoneyHalt is the stop switch of every money movement: while it holds
// any value (the reason, shown), every movement of every money type is
// refused at plan and at send, resource and action alike. It has no
// argument: a provider block cannot turn it off. Reads, refreshes and
// destroys, which move no money, go on.
const EnvMoneyHalt = "PLATFORM_MONEY_HALT"

// moneyHalted refuses the movement of via (a resource type or an action)
// while PLATFORM_MONEY_HALT is set, and reports whether it did. At plan
// (when is "") the refusal is said once per process: the plan fails with
// it, whatever else it holds; at send (" at send") every movement is
// refused, each with its error, so that none is sent.
func moneyHalted(run *moneyRun, via, when string, diags *diag.Diagnostics) bool {
	reason := os.Getenv(EnvMoneyHalt)
	if reason == "" {
		return false
	}
	refuse := func() {
		diags.AddError("Money movements are halted"+when,
			fmt.Sprintf("%s is set (%q): every money movement of this provider (crypto and fiat withdrawals, internal "+
				"transfers, stablecoin conversions and orchestration rules, resources and actions alike) is refused, "+
				"at plan and at send, until it is unset. This %s was refused; nothing was sent. Reads, refreshes "+
				"and destroys go on.\n\nNext step: once the reason is dealt with, unset %s in the environment of "+
				"the run, and plan again.", EnvMoneyHalt, shown(reason), via, EnvMoneyHalt))
	}
	if when == "" && run != nil {
		run.warnOnce("halt", refuse)
		return true
	}
	refuse()
	return true
}
