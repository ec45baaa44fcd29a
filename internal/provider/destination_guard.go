package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// guardDestination judges where a standing movement (an orchestration
// rule, which routes every future deposit) sends money, at plan (when "")
// and at send (when " at send"): a fiat account this run has seen not
// APPROVED, or one known only at apply (an account this plan makes, so not
// yet approved), is refused as a withdrawal's is; under
// approved_destinations_only, a crypto destination must be an APPROVED
// entry of the address book and a fiat one an APPROVED account
// (checkApprovedDestination, the withdrawal's own check), and a
// destination known only at apply is refused. A destination within the
// customer's own profiles is not judged. The guards of figures do not
// apply: a standing movement has none.
func guardDestination(ctx context.Context, run *moneyRun, m movement, refID, via, when string, diags *diag.Diagnostics) {
	if run == nil {
		return
	}
	attr := m.destinationAttr
	if m.fiatAccount.IsUnknown() {
		diags.AddAttributeError(attr, "Fiat account not approved yet"+when,
			fmt.Sprintf("The fiat_account_id of this %s is known only at apply: it is an account this plan creates "+
				"or replaces, and a new fiat account starts PENDING the service's review, so the service would refuse "+
				"the rule. Apply the account first (terraform apply -target=<the account>), and plan the rule once its "+
				"status is APPROVED. Nothing was sent.", via))
		return
	}
	g := run.guard
	w := m.guarded(refID, via)
	if w.fiatAccount != "" {
		// Always on, as for a withdrawal: an account this run has seen not
		// APPROVED is refused; under approved_destinations_only the service
		// is asked.
		f := checkApprovedFiatAccount(ctx, g, run, w, nil)
		for _, b := range append(f.breaches, f.unchecked...) {
			diags.AddAttributeError(attr, "Withdrawal guard approved_destinations_only refuses this "+via+when,
				fmt.Sprintf("The %s %s (ref_id %s) would route every future deposit to a fiat account the service "+
					"would refuse or the provider's withdrawal_guard does not allow: %s\n\nNothing was sent. Next "+
					"step: have the account approved by the service's review (terraform refresh shows its status), "+
					"and plan again once its status is APPROVED.", via, shown(m.what), shownRef(refID), b))
		}
		return
	}
	if !g.active() || !g.approvedOnly() {
		return
	}
	summary := "Withdrawal guard approved_destinations_only refuses this " + via + when
	// An identity_id the configuration leaves unset is unknown in the plan
	// (the service's answer is recorded): the request is sent without
	// one, and the book is searched so; a configured one known only at
	// apply is judged then, at send.
	if m.address.IsUnknown() || m.network.IsUnknown() {
		diags.AddAttributeError(attr, "Withdrawal guard approved_destinations_only cannot check this "+via+when,
			fmt.Sprintf("Where the %s %s routes deposits is known only at apply, so the provider's withdrawal_guard "+
				"cannot check at plan that it is an APPROVED destination, and it refuses what it cannot check. Give "+
				"it a destination known at plan (an address of the book is: "+
				"platform_crypto_destination_address.<name>.address). Nothing was sent.", via, shown(m.what)))
		return
	}
	f := checkApprovedDestination(ctx, g, run, w, nil)
	for _, b := range append(f.breaches, f.unchecked...) {
		diags.AddAttributeError(attr, summary,
			fmt.Sprintf("The %s %s (ref_id %s) would route every future deposit to a destination the provider's "+
				"withdrawal_guard does not allow: %s\n\nNothing was sent. %s", via, shown(m.what), shownRef(refID), b,
				approvedNext(g, w)))
	}
}

// approvedNext is the next step of a movement w the guard refuses for
// going to a destination that is not APPROVED: the rule's own.
func approvedNext(g *moneyGuard, w guardedMovement) string {
	for _, r := range guardRules {
		if r.setting == settingApprovedOnly {
			return r.next(g, w)
		}
	}
	return ""
}
