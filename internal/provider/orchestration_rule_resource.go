package provider

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// NewOrchestrationRuleResource is the constructor of
// platform_orchestration_rule.
func NewOrchestrationRuleResource() resource.Resource {
	return newMoneyResource(&orchestrationRuleType)
}

// NewOrchestrationRuleListResource is the platform_orchestration_rule list
// resource.
func NewOrchestrationRuleListResource() list.ListResource {
	return newListResource(&orchestrationRuleList)
}

// orchestrationRuleList declares the platform_orchestration_rule list
// resource: its filters are those of List Orchestration Rules, which has
// no ref_id filter.
var orchestrationRuleList = listDeclaration[client.ListOrchestrationRulesQuery, client.OrchestrationRule]{
	typeName: "platform_orchestration_rule",
	description: "Finds the orchestration rules of the customer (`GET /orchestration/rules`, scope " +
		"`orchestration:read_orchestration_rule`), newest first. Configuration generated from the results " +
		"imports them by identity; nothing is created.",
	filters: listFilters[client.ListOrchestrationRulesQuery]{
		stringFilter("profile_id", "Only the rules of this profile.",
			func(q *client.ListOrchestrationRulesQuery) *string { return &q.ProfileID }),
		arrayFilter("statuses", "Only the rules in these statuses (sent as `status`): "+
			codeList(client.OrchestrationRuleStatuses)+".",
			func(q *client.ListOrchestrationRulesQuery) *[]string { return &q.Statuses }, client.OrchestrationRuleStatuses...),
		oneOfFilter("source_asset", "Only the rules of deposits of this asset.", client.OrchestrationRuleAssets,
			func(q *client.ListOrchestrationRulesQuery) *string { return &q.SourceAsset }),
		oneOfFilter("destination_asset", "Only the rules that convert to this asset.", client.OrchestrationRuleAssets,
			func(q *client.ListOrchestrationRulesQuery) *string { return &q.DestinationAsset }),
		arrayFilter("ids", "Only the rules with these ids.",
			func(q *client.ListOrchestrationRulesQuery) *[]string { return &q.IDs }),
		orderFilter(func(q *client.ListOrchestrationRulesQuery) *string { return &q.Order }),
	},
	limit: func(q *client.ListOrchestrationRulesQuery) *int { return &q.MaxItems },
	list:  (*client.Client).OrchestrationRules,
	describe: func(r *client.OrchestrationRule) (shapedWriter, string, string) {
		m := orchestrationRuleModel{args: orchestrationRuleArgs{
			ProfileID: types.StringNull(), Nickname: types.StringNull(), SourceAsset: types.StringNull(),
			DestinationAsset: types.StringNull(), Source: types.ObjectNull(ruleSourceTypes),
			Destination: types.ObjectNull(ruleDestinationTypes), IdentityID: types.StringNull(),
			AccountID: types.StringNull(), RefID: types.StringNull(), WaitForActive: types.StringNull(),
		}}
		var diags diag.Diagnostics
		m.fromAPI(r, &diags)
		return m, deref(r.ID), fmt.Sprintf("%s (ref_id %s)", orchestrationRuleSummary(r), deref(r.RefID))
	},
	reject: func(r *client.OrchestrationRule) string {
		if why := unusableID(deref(r.ID)); why != "" {
			return "The service listed an orchestration rule whose id is " + why + ". It is left out of the results."
		}
		return ""
	},
}

// orchestrationRuleType declares platform_orchestration_rule on the money
// core: a standing instruction, created with a ref_id, read back through
// List Orchestration Rules (ids filter), deleted by Delete Orchestration
// Rule. The service has no update: every argument change is a
// replacement. A rule routes money: its manifest says where, and the
// guards judge its destination as a withdrawal's (guardStanding).
var orchestrationRuleType = moneyType[orchestrationRuleArgs, *client.OrchestrationRule, client.OrchestrationRuleRequest]{
	objects:  orchestrationRuleObjects,
	schema:   orchestrationRuleSchema,
	identity: "orchestration rule",
	// A rule routes money: one the service no longer lists stays in the
	// state, said, rather than being made again unseen.
	refresh: refreshPolicy{scopeRefused: keepWithWarning, gone: keepWithWarning, another: failKeepingState},
	say: lifecycleWords[orchestrationRuleArgs]{
		unconfirmed:  ", so the service does not create a second rule",
		notRefreshed: "The orchestration rules keep the status recorded at their last refresh.",
		gone: func(m shapedState[orchestrationRuleArgs]) message {
			return message{"Orchestration rule no longer listed",
				fmt.Sprintf("The service no longer lists the orchestration rule %s (ref_id %s). The state keeps it as "+
					"recorded, status %s: a rule routes money, and the provider does not make another one unseen. If the "+
					"service has lost it, make a new one by giving it a new ref_id (a change of ref_id replaces it).",
					id(m).ValueString(), m.args.RefID.ValueString(), m.str("status").ValueString())}
		},
		forgotten: func(m shapedState[orchestrationRuleArgs]) message {
			return message{"Orchestration rule not deleted", "The rule " + id(m).ValueString() + " was only removed from the state."}
		},
	},
	plan: typePlan[orchestrationRuleArgs]{
		refID:   func(a *orchestrationRuleArgs) *types.String { return &a.RefID },
		unread:  func(a orchestrationRuleArgs) bool { return a.ProfileID.IsNull() },
		summary: orchestrationRuleArgs.summary,
		moves:   orchestrationRuleArgs.movement,
	},
	create: typeCreate[orchestrationRuleArgs, *client.OrchestrationRule, client.OrchestrationRuleRequest]{
		request: func(ctx context.Context, a orchestrationRuleArgs, refID string) (client.OrchestrationRuleRequest, error) {
			return a.request(ctx, refID)
		},
		post: func(ctx context.Context, c *client.Client, body client.OrchestrationRuleRequest) (*client.OrchestrationRule, error) {
			return c.CreateOrchestrationRule(ctx, body)
		},
		// The reference's answer to a reused ref_id does not carry the rule:
		// the core finds it through the list (conflicted).
		existing:    noExistingRule,
		differences: orchestrationRuleDifferences,
		send:        sendOrchestrationRule,
		created: func(_ context.Context, m *shapedState[orchestrationRuleArgs], r *client.OrchestrationRule, outcome createOutcome, diags *diag.Diagnostics) {
			(*orchestrationRuleModel)(m).fromAPI(r, diags)
			m.computed[moneyAttribute] = withSends(m.computed[moneyAttribute], outcome == outcomeConfirmed,
				m.args.movement(), doesVerb(orchestrationRuleWords))
		},
	},
	read: typeRead[orchestrationRuleArgs, *client.OrchestrationRule]{
		recorded: func(_ context.Context, m shapedState[orchestrationRuleArgs], r *client.OrchestrationRule) []string {
			return fieldDifferences([]recordedField{
				{"profile_id", m.args.ProfileID, deref(r.ProfileID)},
				{"ref_id", m.args.RefID, deref(r.RefID)},
				{"deposit_address", m.str("deposit_address"), deref(orchestrationRuleShapeString(r, "deposit_address"))},
				{"deposit_memo_id", m.str("deposit_memo_id"), deref(orchestrationRuleShapeString(r, "deposit_memo_id"))},
			})
		},
		refreshed: refreshOrchestrationRule,
		adopt: func(_ context.Context, m *shapedState[orchestrationRuleArgs], r *client.OrchestrationRule, diags *diag.Diagnostics) {
			(*orchestrationRuleModel)(m).fromAPI(r, diags)
		},
	},
	change: typeChange[orchestrationRuleArgs]{
		stale: func(ctx context.Context, state tfsdk.State) bool {
			var status types.String
			if d := state.GetAttribute(ctx, path.Root("status"), &status); d.HasError() {
				return false
			}
			return ruleInactive(status.ValueString())
		},
		planChange: planOrchestrationRuleChange,
		// Only wait_for_active changes in place, and nothing at the service.
		update: func(_ context.Context, _ *moneyRun, plan, state shapedState[orchestrationRuleArgs], _ *diag.Diagnostics) (shapedState[orchestrationRuleArgs], bool) {
			plan.computed = state.computed
			return plan, true
		},
		remove: deleteOrchestrationRule,
		// A deleted rule keeps its ref_id.
		refIDKept: true,
	},
}

// refreshOrchestrationRule records the rule r as a refresh read it: its
// identity (id, ref_id, profile_id, the deposit it watches) was checked by
// the core; every other argument the service reports is recorded as it
// answers it, so that a change made outside Terraform shows in the plan.
// A destination that changed is said, with where the rule sent deposits
// and where it sends them now.
func refreshOrchestrationRule(ctx context.Context, m *shapedState[orchestrationRuleArgs], r *client.OrchestrationRule, diags *diag.Diagnostics) {
	drift := (*orchestrationRuleModel)(m).refreshFromAPI(ctx, r, diags)
	if len(drift.changed) == 0 {
		return
	}
	objID := id(*m).ValueString()
	tflog.Warn(ctx, "orchestration rule changed at the service", map[string]any{"id": objID, "changes": drift.changed})
	if drift.to == "" {
		diags.AddWarning("Orchestration rule "+objID+" changed outside Terraform",
			fmt.Sprintf("The service answers the orchestration rule %s differently from what the state recorded:\n%s\n\n"+
				"The state now records what the service answers, and the plan shows the difference with the "+
				"configuration: the service has no update, so putting the configured values back replaces the rule "+
				"(the old one is deleted, a new one is created). If the change was meant, change the configuration "+
				"to match.", objID, bulletList(drift.changed)))
		return
	}
	status := shown(deref(r.Status))
	diags.AddWarning("Orchestration rule "+objID+" sends deposits to another destination",
		fmt.Sprintf("The destination of the orchestration rule %s (status %s) was changed outside Terraform: it sent "+
			"deposits to %s, and the service now answers %s.\n\nEvery deposit the rule routes from now on goes to %s. "+
			"The service answers the rule differently from what the state recorded:\n%s\n\nThe state now records "+
			"what the service answers, and the plan shows the difference with the configuration: the service has no "+
			"update, so putting the configured destination back replaces the rule (the old one is deleted, a new one "+
			"is created). If the change was not made by someone entitled to, check the rule with the service before "+
			"anything else.", objID, status, drift.from, drift.to, drift.to, bulletList(drift.changed)))
}

// noExistingRule is the rule a 409 carries: none, as the reference
// publishes the answer.
func noExistingRule(error) (*client.OrchestrationRule, bool) { return nil, false }

// ruleInactive reports a status in which a rule routes nothing and never
// will: REJECTED by the service's approval, or DELETED.
func ruleInactive(status string) bool {
	return status == client.RuleStatusRejected || status == client.RuleStatusDeleted
}

// orchestrationRuleShapeString is the string field name of the shape of r.
func orchestrationRuleShapeString(r *client.OrchestrationRule, name string) *string {
	var diags diag.Diagnostics
	v, ok := orchestrationRuleShape.attrValues(r, &diags)[name].(types.String)
	if !ok || v.IsNull() || v.IsUnknown() {
		return nil
	}
	s := v.ValueString()
	return &s
}

// planOrchestrationRuleChange plans a rule in state whose configuration
// changed (a replacement, which the schema plans: the old rule is
// deleted, a new one is created with a new ref_id and watches a new
// deposit address, which is said as every money type says its
// replacement), or an unchanged one that routes nothing any more
// (REJECTED or DELETED at the service), which is said and kept: a new rule
// takes a new ref_id.
func planOrchestrationRuleChange(ctx context.Context, run *moneyRun, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, state shapedState[orchestrationRuleArgs]) {
	status := state.str("status").ValueString()
	if !req.Plan.Raw.Equal(req.State.Raw) {
		warnRuleReplacement(ctx, req, resp, state)
		return
	}
	if !ruleInactive(status) {
		return
	}
	// Unchanged but inactive: its ref_id is still this rule's.
	w := orchestrationRuleWords
	claimPlannedRefID(run, w, state.args.RefID.ValueString(), w.noun+" "+id(state).ValueString(), false, &resp.Diagnostics)
	what := "was rejected by the service's approval"
	if status == client.RuleStatusDeleted {
		what = "was deleted at the service"
	}
	resp.Diagnostics.AddWarning(fmt.Sprintf("Orchestration rule %s is %s", id(state).ValueString(), status),
		fmt.Sprintf("The orchestration rule %s (%s, ref_id %s) %s: its status is %s, and it routes no deposit. "+
			"Deposits to its source are credited to profile %s without conversion. The state keeps it as the service "+
			"has it. To make a new rule, give it a new ref_id (a change of ref_id replaces this one); to stop "+
			"declaring it, remove it from the configuration.", id(state).ValueString(), state.args.summary(),
			state.args.RefID.ValueString(), what, status, state.args.ProfileID.ValueString()))
}

// warnRuleReplacement says what the replacement of the rule in state
// changes: the rule is deleted and a new one made, which watches a new
// deposit address (or memo, for a fiat source), so that deposits sent to
// the old one are no longer routed. A change of wait_for_active alone is
// recorded in place and says nothing.
func warnRuleReplacement(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, state shapedState[orchestrationRuleArgs]) {
	plan, ok := readShaped[orchestrationRuleArgs](ctx, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	p, s := plan.args, state.args
	var changed []string
	for _, f := range []struct {
		name       string
		plan, was  attr.Value
		shownValue bool
	}{
		{"profile_id", p.ProfileID, s.ProfileID, true}, {"nickname", p.Nickname, s.Nickname, true},
		{"source_asset", p.SourceAsset, s.SourceAsset, true}, {"destination_asset", p.DestinationAsset, s.DestinationAsset, true},
		{"source", p.Source, s.Source, false}, {"destination", p.Destination, s.Destination, false},
		{"identity_id", p.IdentityID, s.IdentityID, true}, {"account_id", p.AccountID, s.AccountID, true},
		{"ref_id", p.RefID, s.RefID, true},
	} {
		if f.plan.Equal(f.was) {
			continue
		}
		now, nowOK := f.plan.(types.String)
		was, wasOK := f.was.(types.String)
		if f.shownValue && nowOK && wasOK && !now.IsUnknown() {
			changed = append(changed, fmt.Sprintf("%s %s → %s", f.name, shownValue(was.ValueString()),
				shownValue(now.ValueString())))
			continue
		}
		changed = append(changed, f.name)
	}
	if len(changed) == 0 {
		// wait_for_active alone: recorded in place.
		return
	}
	objID, status := shown(id(state).ValueString()), shown(state.str("status").ValueString())
	watched := "the deposits it watches"
	switch address, memo := state.str("deposit_address").ValueString(), state.str("deposit_memo_id").ValueString(); {
	case address != "":
		watched = fmt.Sprintf("its deposit_address %s, the address customers pay into,", shown(address))
	case memo != "":
		watched = fmt.Sprintf("its deposit_memo_id %s, the memo customers quote,", shown(memo))
	}
	resp.Diagnostics.AddWarning("Changing an orchestration rule replaces it: its deposit address changes",
		fmt.Sprintf("Changed: %s.\n\nThe service cannot change an orchestration rule, so Terraform plans a "+
			"replacement: applying deletes the rule %s (%s, ref_id %s, status %s) and creates a NEW rule, whose "+
			"deposit address the service gives it when it is created (the plan shows it as known after apply). "+
			"Once the old rule is deleted, %s is no longer routed: deposits sent to it are credited to profile %s "+
			"without conversion. Give whoever pays into the rule its new deposit_address once it is created, and "+
			"the new rule starts PENDING the service's approval. If that is not what you want, restore the "+
			"previous arguments.", strings.Join(changed, ", "), objID, state.args.summary(),
			shown(state.args.RefID.ValueString()), status, watched, shown(state.args.ProfileID.ValueString())))
}

// deleteOrchestrationRule destroys a rule: Delete Orchestration Rule,
// which makes it DELETED. A rule the service no longer knows is gone
// already: a warning.
func deleteOrchestrationRule(ctx context.Context, run *moneyRun, state shapedState[orchestrationRuleArgs], diags *diag.Diagnostics) {
	objID := id(state).ValueString()
	tflog.Info(ctx, "deleting orchestration rule", map[string]any{"id": objID})
	r, err := run.client.DeleteOrchestrationRule(ctx, objID)
	switch {
	case errors.Is(err, client.ErrNotFound):
		diags.AddWarning("Orchestration rule already gone",
			fmt.Sprintf("The service does not know the orchestration rule %s any more: it routes nothing, and it was "+
				"removed from the state.", objID))
	case err != nil:
		hint := "Check the provider configuration and the service's availability, then destroy again."
		if scopeRefused(err) {
			hint = "Deleting a rule needs the OAuth scope " + client.ScopeWriteOrchestrationRule + ": have it granted " +
				"to the client credentials (and, if the provider's scopes argument pins the token's scopes, include " +
				"it there), then destroy again."
		}
		diags.AddError(failure("Orchestration rule not deleted", err),
			fmt.Sprintf("Deleting the orchestration rule %s failed: %s.\n\nThe rule may still route deposits; it stays "+
				"in the state. %s", objID, err, hint))
	case deref(r.ID) != objID:
		diags.AddError("Orchestration rule delete answered another rule",
			fmt.Sprintf("Deleting the orchestration rule %s answered the rule %s. The state keeps the rule; check it "+
				"with the service.", objID, shown(deref(r.ID))))
	}
}

// moneyKindOrchestrationRule is the money.kind of an orchestration rule.
var moneyKindOrchestrationRule = movementKind("orchestration_rule",
	"a rule that routes every future deposit to its destination")

// movement is what the rule of a routes: every future deposit of its
// source asset, from its profile to its destination.
func (a orchestrationRuleArgs) movement() movement {
	m := movement{kind: moneyKindOrchestrationRule, asset: a.SourceAsset, amount: types.StringNull(),
		from: a.ProfileID, to: a.ProfileID, debits: types.StringNull(),
		address: types.StringNull(), network: types.StringNull(), identity: types.StringNull(),
		fiatAccount: types.StringNull(), standing: true, destinationAttr: path.Root("destination"), what: a.summary()}
	if a.Destination.IsUnknown() {
		m.to, m.address = types.StringUnknown(), types.StringUnknown()
		return m
	}
	dst, err := a.destination(context.Background())
	if err != nil {
		return m
	}
	switch {
	case dst.Crypto != nil:
		m.to, m.address, m.network, m.identity = dst.Crypto.Address, dst.Crypto.Address, dst.Crypto.Network, a.IdentityID
		m.destinationAttr = path.Root("destination").AtName("crypto").AtName("address")
	case dst.Fiat != nil:
		m.to, m.fiatAccount = dst.Fiat.FiatAccountID, dst.Fiat.FiatAccountID
		m.destinationAttr = path.Root("destination").AtName("fiat").AtName("fiat_account_id")
	case dst.Profile != nil:
		m.to = dst.Profile.ProfileID
	}
	if m.identity.IsNull() {
		m.identity = types.StringValue("")
	}
	return m
}

// sendOrchestrationRule posts the rule of a through the core, then, when
// wait_for_active is set, waits for the service's approval: a rule that
// stays PENDING is recorded with a warning; one REJECTED or DELETED meanwhile
// is an error (Terraform then holds it tainted, and the next plan replaces
// it).
func sendOrchestrationRule(ctx context.Context, run *moneyRun, a orchestrationRuleArgs, body client.OrchestrationRuleRequest, post corePost[client.OrchestrationRuleRequest, *client.OrchestrationRule]) (createResult[*client.OrchestrationRule], diag.Diagnostics) {
	res, diags := post(ctx, body, nil)
	wait := knownString(a.WaitForActive)
	if wait == "" || (res.outcome != outcomeConfirmed && res.outcome != outcomeAdopted) {
		return res, diags
	}
	timeout, _ := time.ParseDuration(wait)
	res.obj = waitForActive(ctx, run, res.obj, timeout, &diags)
	return res, diags
}

// ruleWaitInterval is how often a create that waits for its rule's
// approval reads it again.
var ruleWaitInterval = 2 * time.Second

// waitForActive reads the rule r until it is ACTIVE, for at most
// timeout, and returns it as last read.
func waitForActive(ctx context.Context, run *moneyRun, r *client.OrchestrationRule, timeout time.Duration, diags *diag.Diagnostics) *client.OrchestrationRule {
	objID := deref(r.ID)
	deadline := run.clock()().Add(timeout)
	for {
		status := deref(r.Status)
		switch {
		case status == client.RuleStatusActive:
			return r
		case ruleInactive(status):
			diags.AddAttributeError(path.Root("wait_for_active"), "Orchestration rule "+objID+" is "+status,
				fmt.Sprintf("The orchestration rule %s was created, and while the apply waited for it to be ACTIVE its "+
					"status became %s: it routes no deposit. Terraform records it as tainted, so the next plan replaces "+
					"it; check with the service's approvers first.", objID, shown(status)))
			return r
		case !run.clock()().Before(deadline):
			diags.AddAttributeWarning(path.Root("wait_for_active"), "Orchestration rule "+objID+" not ACTIVE yet",
				fmt.Sprintf("The orchestration rule %s was created and is still %s after %s: it routes deposits once the "+
					"service's approval makes it ACTIVE. It is recorded as it is; a refresh shows its status.", objID,
					shown(status), timeout))
			return r
		}
		t := time.NewTimer(ruleWaitInterval)
		select {
		case <-ctx.Done():
			t.Stop()
			diags.AddAttributeWarning(path.Root("wait_for_active"), "Orchestration rule "+objID+" not ACTIVE yet",
				fmt.Sprintf("The apply stopped while waiting for the orchestration rule %s to be ACTIVE (status %s). It is "+
					"recorded as it is; a refresh shows its status.", objID, shown(status)))
			return r
		case <-t.C:
		}
		next, err := readOrchestrationRule(ctx, run.client, objID)
		if err != nil {
			diags.AddAttributeWarning(path.Root("wait_for_active"), "Orchestration rule "+objID+" not read while waiting",
				fmt.Sprintf("Reading the orchestration rule %s while waiting for it to be ACTIVE failed: %s. It is "+
					"recorded as it was created (status %s); a refresh shows its status.", objID, err, shown(status)))
			return r
		}
		r = next
	}
}

// waitPattern is a Go duration of hours, minutes and seconds.
var waitPattern = regexp.MustCompile(`^([0-9]+h)?([0-9]+m)?([0-9]+s)?$`)

func orchestrationRuleSchema() schema.Schema {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	keepOrReplace := []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()}
	nonEmpty := []validator.String{stringvalidator.LengthAtLeast(1)}
	assets := []validator.String{stringvalidator.OneOf(client.OrchestrationRuleAssets...)}
	str := func(desc string, v ...validator.String) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: desc, Required: true, Validators: append(nonEmpty, v...)}
	}
	attrs := map[string]schema.Attribute{
		"profile_id": schema.StringAttribute{
			MarkdownDescription: "Profile the rule belongs to: deposits to its source are credited to it, and routed " +
				"from it." + ruleReplaceNote,
			Required: true, Validators: nonEmpty, PlanModifiers: replace,
		},
		"nickname": schema.StringAttribute{
			MarkdownDescription: "Name of the rule, for people." + ruleReplaceNote,
			Optional:            true, Validators: nonEmpty, PlanModifiers: replace,
		},
		"source_asset": schema.StringAttribute{
			MarkdownDescription: "Asset of the deposits the rule routes: one of " +
				codeList(client.OrchestrationRuleAssets) + "." + ruleReplaceNote,
			Required: true, Validators: assets, PlanModifiers: replace,
		},
		"destination_asset": schema.StringAttribute{
			MarkdownDescription: "Asset the deposits are converted to before they are sent on: one of " +
				codeList(client.OrchestrationRuleAssets) + "." + ruleReplaceNote,
			Required: true, Validators: assets, PlanModifiers: replace,
		},
		"source": schema.SingleNestedAttribute{
			MarkdownDescription: "The deposits the rule watches: exactly one of `crypto` (deposits on a network, to an " +
				"address the service makes for the rule: `deposit_address`) or `fiat` (deposits on a fiat network, " +
				"quoting `deposit_memo_id`)." + ruleReplaceNote,
			Required:      true,
			PlanModifiers: []planmodifier.Object{objectplanmodifier.RequiresReplace()},
			Attributes: map[string]schema.Attribute{
				"crypto": schema.SingleNestedAttribute{
					MarkdownDescription: "A crypto source.",
					Optional:            true,
					Validators:          []validator.Object{exactlyOneOfSiblings("fiat")},
					Attributes: map[string]schema.Attribute{
						"network": str("Network of the deposits: one of "+codeList(client.OrchestrationRuleCryptoNetworks)+".",
							stringvalidator.OneOf(client.OrchestrationRuleCryptoNetworks...)),
					},
				},
				"fiat": schema.SingleNestedAttribute{
					MarkdownDescription: "A fiat source.",
					Optional:            true,
					Attributes: map[string]schema.Attribute{
						"network": str("Fiat network of the deposits: one of "+codeList(client.OrchestrationRuleFiatNetworks)+".",
							stringvalidator.OneOf(client.OrchestrationRuleFiatNetworks...)),
						"account_type": str("Account type of the deposits: one of "+codeList(client.OrchestrationRuleFiatAccountTypes)+".",
							stringvalidator.OneOf(client.OrchestrationRuleFiatAccountTypes...)),
					},
				},
			},
		},
		"destination": schema.SingleNestedAttribute{
			MarkdownDescription: "Where the rule sends the converted deposits: exactly one of `crypto` (an address on a " +
				"network), `fiat` (a bank account) or `profile` (another profile). When unset, they stay in the rule's " +
				"profile. Under `withdrawal_guard.approved_destinations_only` a crypto destination must be an " +
				"`APPROVED` entry of the address book and a fiat one an `APPROVED` fiat account, checked at plan and " +
				"again when the rule is created." + ruleReplaceNote,
			Optional:      true,
			PlanModifiers: []planmodifier.Object{objectplanmodifier.RequiresReplace()},
			Attributes: map[string]schema.Attribute{
				"crypto": schema.SingleNestedAttribute{
					MarkdownDescription: "An address on a network: the service uses the Travel Rule data of its entry in " +
						"the address book (`platform_crypto_destination_address`).",
					Optional:   true,
					Validators: []validator.Object{exactlyOneOfSiblings("fiat", "profile")},
					Attributes: map[string]schema.Attribute{
						"address": str("The destination address. A new rule's is checked for its checksum at plan and " +
							"again when the rule is created: bech32 or bech32m (segwit) or base58check (legacy) on " +
							"`BITCOIN`, EIP-55 for an EVM address written in mixed case (all lower case carries none); " +
							"a bad checksum is refused and nothing is sent. A rule already in the state keeps its " +
							"address."),
						"network": str("Network of the address, for example `ETHEREUM`. A network this provider version "+
							"does not know is a warning, not an error.", cryptoNetworkValues),
					},
				},
				"fiat": schema.SingleNestedAttribute{
					MarkdownDescription: "A bank account: an `APPROVED` `platform_fiat_account`.",
					Optional:            true,
					Attributes: map[string]schema.Attribute{
						"fiat_account_id": str("Id of the fiat account."),
						"memo": schema.StringAttribute{MarkdownDescription: "Memo sent with each payout.",
							Optional: true, Validators: nonEmpty},
					},
				},
				"profile": schema.SingleNestedAttribute{
					MarkdownDescription: "Another profile of the customer.",
					Optional:            true,
					Attributes: map[string]schema.Attribute{
						"profile_id": str("Id of the profile."),
					},
				},
			},
		},
		"identity_id": schema.StringAttribute{
			MarkdownDescription: "Identity of the account owner (for a third-party integration). When unset, the " +
				"service's answer (if any) is recorded." + ruleReplaceNote,
			Optional: true, Computed: true, Validators: nonEmpty, PlanModifiers: keepOrReplace,
		},
		"account_id": schema.StringAttribute{
			MarkdownDescription: "Account the rule applies to. When unset, the service's answer (if any) is recorded." +
				ruleReplaceNote,
			Optional: true, Computed: true, Validators: nonEmpty, PlanModifiers: keepOrReplace,
		},
		"ref_id": schema.StringAttribute{
			MarkdownDescription: "Client id that makes the create idempotent: the service never creates two rules for " +
				"the same `ref_id`. When unset, the provider derives it from the other arguments (a name-based UUID of " +
				"the request), shows it in the plan, sends it with the request and every retry of it, and records it. " +
				"A rule the service rejected or deleted keeps its `ref_id`: give a new rule a new one." + ruleReplaceNote,
			Optional: true, Computed: true, Validators: nonEmpty, PlanModifiers: keepOrReplace,
		},
		"wait_for_active": schema.StringAttribute{
			MarkdownDescription: "How long the create waits for the service's approval to make the rule `ACTIVE`, as " +
				"a duration such as `10m` (hours, minutes and seconds). A rule still `PENDING` then is recorded with a " +
				"warning; one `REJECTED` meanwhile is an error. Unset: the create does not wait (`PENDING` is normal). " +
				"Changing it changes nothing at the service.",
			Optional: true,
			Validators: []validator.String{
				stringvalidator.LengthAtLeast(2),
				stringvalidator.RegexMatches(waitPattern, "must be a duration of hours, minutes and seconds, such as 10m or 1h30m"),
			},
		},
		moneyAttribute: moneySchema(),
	}
	orchestrationRuleShape.computedInto(attrs, allButStatus)
	return schema.Schema{
		MarkdownDescription: "An orchestration rule: a standing instruction that converts every deposit of " +
			"`source_asset` to its source into `destination_asset` and sends it to its destination " +
			"(`POST /orchestration/rules`, read back through `GET /orchestration/rules` by id, destroyed by " +
			"`DELETE /orchestration/rules/{id}`).\n\n" +
			"A rule moves money for as long as it is `ACTIVE`: its `money` manifest (kind `orchestration_rule`) " +
			"says where, for the reviewer and the policies over the plan, and `withdrawal_guard." +
			"approved_destinations_only` judges its destination as a withdrawal's. A new rule is `PENDING` until " +
			"the service's approval; a rule the service `REJECTED` or `DELETED` is said at plan.\n\n" +
			"A refresh records every argument the service reports as it answers it (`source`, `destination`, the " +
			"assets, `nickname` when one was sent, `identity_id`, `account_id`), so a change made outside Terraform " +
			"shows in the plan as a difference with the configuration, which putting back replaces; a destination " +
			"changed at the service is a warning that names the old and the new one. A replacement that puts back " +
			"the arguments of the rule it replaces takes a new `ref_id` (derived after that rule's id), since the " +
			"service keeps the ref_id of a deleted rule.\n\n" +
			"The service has no update: every argument change (but `wait_for_active`) replaces the rule, deleting " +
			"the old one first. The create carries a `ref_id` (derived from the arguments when not configured), so " +
			"a retried request, or the next run after a crash or a timeout, never creates a second rule.",
		Attributes: attrs,
	}
}

// ruleReplaceNote ends the description of every argument that replaces.
const ruleReplaceNote = " Changing it replaces the rule: the old one is deleted, a new one is created."

// orchestrationRuleWords are the words of a rule create.
var orchestrationRuleWords = createWords{
	refNamespace: "orchestration_rule",
	resourceType: "platform_orchestration_rule",
	noun:         "orchestration rule",
	made:         "created",
	path:         client.PathOrchestrationRules,
	scope:        client.ScopeWriteOrchestrationRule,
}.filled()

// orchestrationRuleObjects is how the core reads rules: looked up by ref_id
// through their list (scope orchestration:read_orchestration_rule), which
// has no ref_id filter: every rule is read until the ref_id is found.
var orchestrationRuleObjects = moneyObjects[*client.OrchestrationRule]{
	words:     orchestrationRuleWords,
	id:        func(r *client.OrchestrationRule) string { return deref(r.ID) },
	createdAt: func(r *client.OrchestrationRule) time.Time { return deref(r.CreatedAt) },
	describe:  orchestrationRuleSummary,
	status:    func(r *client.OrchestrationRule) string { return deref(r.Status) },
	lookup:    lookupOrchestrationRule,
	get:       readOrchestrationRule,
	readScope: client.ScopeReadOrchestrationRule,
	lists:     orchestrationRuleLists,
	// A deleted rule stays deleted.
	final: func(recorded func(string) string) bool { return recorded("status") == client.RuleStatusDeleted },
}

// orchestrationRuleLists reads many rules at once through their list (see
// listedBy): by ids with its ids filter; by ref_ids, which it has no filter
// of, every rule, read to the end, as the lookup of one reads them.
var orchestrationRuleLists = listedBy(
	func(ctx context.Context, c *client.Client, ids, _ []string) iter.Seq2[*client.OrchestrationRule, error] {
		return c.OrchestrationRules(ctx, client.ListOrchestrationRulesQuery{IDs: ids})
	},
	func(r *client.OrchestrationRule) string { return deref(r.ID) },
	func(r *client.OrchestrationRule) string { return deref(r.RefID) })

// lookupOrchestrationRule finds the rule made with refID; only a rule with
// that ref_id counts. The reference's list has no ref_id filter.
func lookupOrchestrationRule(ctx context.Context, c *client.Client, refID string) (*client.OrchestrationRule, bool, error) {
	return listedByRefID(c.OrchestrationRules(ctx, client.ListOrchestrationRulesQuery{}), refID,
		func(r *client.OrchestrationRule) string { return deref(r.RefID) })
}

// readOrchestrationRule reads the rule id through the list's ids filter:
// client.ErrNotFound when the service lists none, errAnotherObject when the
// answer carries another rule (the filter not applied).
func readOrchestrationRule(ctx context.Context, c *client.Client, id string) (*client.OrchestrationRule, error) {
	q := client.ListOrchestrationRulesQuery{IDs: []string{id}, MaxItems: 100}
	return listedByID(c.OrchestrationRules(ctx, q), id, "orchestration rule", func(r *client.OrchestrationRule) string { return deref(r.ID) })
}
