package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The action of a money flow (Terraform 1.14+): each invocation makes one
// object of the flow, through the same send as its resource (sendMoney):
// the guards at plan and at send, the ref_id's replay protection and the
// check of every answer. It keeps nothing in the state.

// moneyAction is the action of the flow f.
type moneyAction[A, O, R any] struct {
	f   *flow[A, O, R]
	t   moneyType[A, *O, R]
	run *moneyRun
}

// The action of any flow is a full action.
var (
	_ action.ActionWithConfigure        = (*moneyAction[any, any, any])(nil)
	_ action.ActionWithModifyPlan       = (*moneyAction[any, any, any])(nil)
	_ action.ActionWithConfigValidators = (*moneyAction[any, any, any])(nil)
)

// newMoneyAction is the action of the flow f.
func newMoneyAction[A, O, R any](f *flow[A, O, R]) action.Action {
	return &moneyAction[A, O, R]{f: f, t: f.declare()}
}

func (a *moneyAction[A, O, R]) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + strings.TrimPrefix(a.f.objects.words.resourceType, "platform")
}

// MovesMoney is the money.kind of what each invocation moves (see
// registry.MoneyMover).
func (a *moneyAction[A, O, R]) MovesMoney() string {
	var args A
	return a.f.plan.moves(args).kind
}

// via names the action in messages.
func (a *moneyAction[A, O, R]) via() string { return a.f.objects.words.resourceType + " action" }

func (a *moneyAction[A, O, R]) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	w := a.f.objects.words
	attrs := map[string]schema.Attribute{}
	for _, arg := range a.f.args {
		desc := arg.description
		if arg.name == "ref_id" {
			desc = fmt.Sprintf("Client-specified id that protects the %s against replays: the service never makes "+
				"two with the same `ref_id`, and answers a repeat with the one already made, which is then recorded "+
				"as it is and nothing moves.\n\nWhen unset, the provider generates a new UUID for **each "+
				"invocation** and uses it for the retries of that invocation only, so **invoking the action again "+
				"makes another %s**. Set `ref_id` when it must be made at most once however often the action runs "+
				"(an `action_trigger` that can fire again, a `terraform apply -invoke` that might be run twice, the "+
				"retry of an invocation that ended without confirmation): an id that names this one payment, changed "+
				"for the next.", w.noun, w.noun)
		}
		attr := schema.StringAttribute{
			MarkdownDescription: desc,
			Required:            arg.required,
			Optional:            !arg.required,
			Validators:          arg.validators,
		}
		if arg.json {
			attr.CustomType = jsontypes.NormalizedType{}
		}
		attrs[arg.name] = attr
	}
	attrs["metadata"] = schema.MapAttribute{
		MarkdownDescription: metadataDescription("the " + w.noun),
		ElementType:         types.StringType,
		Optional:            true,
		Validators:          metadataValidators(),
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: a.f.texts.actionDescription + "\n\n" +
			fmt.Sprintf("!> **Each invocation makes %s, which cannot be reversed.** Unlike the `%s` resource, the "+
				"action keeps nothing in the state: invoking it again makes another one unless `ref_id` is set.\n\n"+
				"Its arguments and their validation are those of the resource, and it passes the provider's "+
				"`withdrawal_guard` at plan and again when it sends. While it runs, it reports the `ref_id` it sends, "+
				"then the id and status the service answered; an invocation the service does not confirm fails and "+
				"says which `ref_id` retries it safely. Actions need Terraform 1.14 or later.", aNoun(w.noun), w.resourceType),
		Attributes: attrs,
	}
}

// ConfigValidators are the flow's configuration validators that apply to
// an action too (the precision of an amount).
func (a *moneyAction[A, O, R]) ConfigValidators(context.Context) []action.ConfigValidator {
	var out []action.ConfigValidator
	for _, v := range a.f.plan.validators {
		if av, ok := v.(action.ConfigValidator); ok {
			out = append(out, av)
		}
	}
	return out
}

func (a *moneyAction[A, O, R]) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.run = configuredRun(req.ProviderData, &resp.Diagnostics)
}

// ModifyPlan passes the invocation through the provider's withdrawal_guard:
// it counts in the plan's max_run_total as an invocation of its kind with
// its configured ref_id, or as an invocation of its own when it has none.
func (a *moneyAction[A, O, R]) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	if a.run == nil {
		return
	}
	var args A
	resp.Diagnostics.Append(req.Config.Get(ctx, &args)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if a.run.pinnedScopeRefused(a.t.objects.words.scope, a.via(), &resp.Diagnostics) {
		return
	}
	guardInvocation(ctx, a.run, a.f.plan.moves(args), *a.t.plan.refID(&args), req.Config.Raw.IsFullyKnown(), a.via(),
		&resp.Diagnostics)
}

// guardInvocation is the plan of an action's invocation that moves m with
// the configured refID, for every money action: a fiat account not
// approved is refused; the guards judge it when its configuration is
// known (counted in max_run_total as an invocation of its kind with its
// ref_id, or as an invocation of its own when it has none), and otherwise
// warn that they judge it at send.
func guardInvocation(ctx context.Context, run *moneyRun, m movement, refID types.String, known bool, via string, diags *diag.Diagnostics) {
	if moneyHalted(run, via, "", diags) || checksumRefused(m.network, m.address, m.addressAttr(), via, "", diags) {
		return
	}
	if !known {
		guardUnknown(ctx, run, via, m, diags)
		return
	}
	ref := knownString(refID)
	w := m.guarded(ref, via)
	if run.guard.active() {
		invocation := ref
		if ref == "" {
			invocation = run.newID()
		}
		w.key = movementKey("invocation of "+m.kind, invocation, w)
	}
	guardPlan(ctx, run, w, diags)
}

func (a *moneyAction[A, O, R]) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	w := a.f.objects.words
	args, ok := configuredArgs[A](ctx, a.run != nil, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	refID := knownString(*a.t.plan.refID(&args))
	generated := refID == ""
	origin := "configured"
	if generated {
		refID, origin = a.run.newID(), "generated for this invocation"
	}
	resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf("Sending %s: %s, ref_id %s (%s).",
		w.noun, a.f.plan.summary(args), refID, origin)})
	res, diags := a.t.sendMoney(ctx, a.run, args, refID, false, false, a.via())
	resp.Diagnostics.Append(diags...)
	switch res.outcome {
	case outcomeUnconfirmed:
		resp.Diagnostics.AddError(w.unknown, unconfirmedInvocation(w, refID, generated, res.err))
	case outcomeConfirmed, outcomeAdopted:
		what := w.title + " " + w.made
		if res.outcome == outcomeAdopted {
			what = w.title + " already " + w.made + " earlier with this ref_id, not " + w.made + " again"
		}
		status, figures := "", ""
		if a.f.objects.status != nil {
			status = ", status " + shown(a.f.objects.status(res.obj))
		}
		if a.f.answer.figures != nil {
			figures = " " + shown(a.f.answer.figures(res.obj)) + "."
		}
		resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf("%s: %s %s%s, ref_id %s.%s %s.", what,
			w.noun, a.f.objects.shownID(res.obj), status, shown(refID), figures, a.f.objects.describe(res.obj))})
	}
}

// unconfirmedInvocation explains an invocation whose outcome is unknown
// and how to retry it without moving the money twice.
func unconfirmedInvocation(w createWords, refID string, generated bool, err error) string {
	detail := fmt.Sprintf("The %s with ref_id %s was sent, but the service did not confirm it: %s.\n\nIt may or "+
		"may not have been made. ", w.noun, refID, err)
	if generated {
		return detail + fmt.Sprintf("That ref_id was generated for this invocation only: invoking the action again "+
			"as it is makes a NEW %s. To retry this one safely, set ref_id = %q in the action's configuration, keep "+
			"the other arguments unchanged, and invoke it again: if the service made this one, it answers with it "+
			"instead of making a second.", w.noun, refID)
	}
	return detail + fmt.Sprintf("Invoking the action again with the same ref_id %q and unchanged arguments is "+
		"safe: if the service made this one, it answers with it instead of making a second.", refID)
}

// flowType is the resource type of the action's flow (tests: every flow
// has a row in the flow tables).
func (a *moneyAction[A, O, R]) flowType() string { return a.f.objects.words.resourceType }
