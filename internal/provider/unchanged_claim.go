package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// unchangedClaim is the ref_id an unchanged object keeps, which no new
// object of the plan may take, and the object's description for the
// message of one that does.
type unchangedClaim struct {
	words createWords
	refID string
	what  string
}

// keepUnchanged claims the ref_id of the unchanged object in state (see
// claimPlannedRefID); the resource's ModifyPlan calls it.
func keepUnchanged[M any](ctx context.Context, data *providerData, state getter,
	get func(context.Context, getter) (M, diag.Diagnostics), claim func(M) unchangedClaim, diags *diag.Diagnostics,
) {
	m, d := get(ctx, state)
	diags.Append(d...)
	if d.HasError() {
		return
	}
	c := claim(m)
	claimPlannedRefID(data, c.words, c.refID, c.what, false, diags)
}

// planUnchangedClaiming is planUnchanged of a resource whose unchanged
// objects claim their ref_id: true when the claim succeeds, which then
// stands; on any diagnostic nothing is claimed, and the framework plans
// the object (and says why).
func planUnchangedClaiming[M any](ctx context.Context, data *providerData, state getter,
	get func(context.Context, getter) (M, diag.Diagnostics), claim func(M) unchangedClaim,
) bool {
	m, d := get(ctx, state)
	if len(d) > 0 {
		return false
	}
	c := claim(m)
	var diags diag.Diagnostics
	claimPlannedRefID(data, c.words, c.refID, c.what, false, &diags)
	return len(diags) == 0
}
