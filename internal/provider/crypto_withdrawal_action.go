package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
)

var (
	_ action.Action               = (*cryptoWithdrawalAction)(nil)
	_ action.ActionWithConfigure  = (*cryptoWithdrawalAction)(nil)
	_ action.ActionWithModifyPlan = (*cryptoWithdrawalAction)(nil)
)

// NewCryptoWithdrawalAction is the constructor of the
// platform_crypto_withdrawal action.
func NewCryptoWithdrawalAction() action.Action {
	return &cryptoWithdrawalAction{}
}

// cryptoWithdrawalAction sends one crypto withdrawal each time it is
// invoked. It shares its arguments, their validation and the call that
// sends the withdrawal with the platform_crypto_withdrawal resource (see
// withdrawal_arguments.go and crypto_withdrawal_send.go).
type cryptoWithdrawalAction struct {
	data *providerData
}

// MovesMoney: each invocation is a crypto withdrawal (see
// registry.MoneyMover).
func (a *cryptoWithdrawalAction) MovesMoney() string { return moneyKindCryptoWithdrawal }

func (a *cryptoWithdrawalAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_crypto_withdrawal"
}

// actionRefIDDescription is the description of ref_id in the action, whose
// generated ref_ids live for one invocation only.
const actionRefIDDescription = "Client-specified id that protects the withdrawal against replays: the service " +
	"never processes two withdrawals with the same `ref_id`. Repeating the same request with it answers with " +
	"the withdrawal already made and sends nothing; a different request with it is refused.\n\n" +
	"When unset, the provider generates a new UUID for **each invocation** and uses it for the retries of that " +
	"invocation only, so **invoking the action again sends another withdrawal**. Set `ref_id` when the " +
	"withdrawal must be made at most once however often the action runs: when the action is triggered by a " +
	"resource's lifecycle (which can fire again on a later replacement or re-run), when it is invoked by hand " +
	"(`terraform apply -invoke`) and might be run twice, and to retry an invocation that ended without " +
	"confirmation from the service. Use an id that names this one payment, such as `payout-2024-07-acme`, " +
	"and change it for the next payment."

// withdrawalActionAttribute renders a withdrawal argument as an action
// attribute, with the same validators as the resource's.
func withdrawalActionAttribute(arg withdrawalArgument) schema.Attribute {
	desc := arg.description
	if arg.name == "ref_id" {
		desc = actionRefIDDescription
	}
	switch arg.kind {
	case withdrawalArgStringMap:
		return schema.MapAttribute{
			MarkdownDescription: desc,
			ElementType:         types.StringType,
			Required:            arg.required,
			Optional:            !arg.required,
			Validators:          arg.mapValidators,
		}
	case withdrawalArgJSON:
		return schema.StringAttribute{
			MarkdownDescription: desc,
			CustomType:          jsontypes.NormalizedType{},
			Required:            arg.required,
			Optional:            !arg.required,
			Validators:          arg.stringValidators,
		}
	default:
		return schema.StringAttribute{
			MarkdownDescription: desc,
			Required:            arg.required,
			Optional:            !arg.required,
			Validators:          arg.stringValidators,
		}
	}
}

func (a *cryptoWithdrawalAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	attrs := map[string]schema.Attribute{}
	for _, arg := range withdrawalArguments() {
		attrs[arg.name] = withdrawalActionAttribute(arg)
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Sends one crypto withdrawal (`POST /transfer/crypto-withdrawals`) each time it is " +
			"invoked. Actions need Terraform 1.14 or later; they run from a resource's " +
			"`lifecycle { action_trigger { ... } }` or by hand with `terraform apply -invoke=action.platform_crypto_withdrawal.<name>`.\n\n" +
			"!> **Each invocation sends a withdrawal, and a withdrawal cannot be reversed.** Unlike the " +
			"`platform_crypto_withdrawal` resource, the action keeps nothing in the state: nothing remembers " +
			"that it ran, and invoking it again sends another withdrawal unless `ref_id` is set.\n\n" +
			"The arguments and their plan-time validation are those of the `platform_crypto_withdrawal` " +
			"resource: exactly one of `amount` or `total` as a decimal string, a `crypto_network` of the " +
			"service's list, at most 6 metadata pairs of at most 100 characters, `beneficiary` as a JSON object.\n\n" +
			"**Replay protection.** Every withdrawal carries a `ref_id`. Without one in the configuration the " +
			"provider generates a UUID per invocation, sends it with the request and with every retry of that " +
			"request (429, 5xx and network errors are retried), so one invocation never sends two withdrawals. " +
			"With a `ref_id` in the configuration, any number of invocations with the same arguments send one " +
			"withdrawal: the service answers the repeats with the withdrawal already made. Set one whenever the " +
			"action might run more than once for the same payment (see `ref_id`).\n\n" +
			"While it runs, the action reports its progress: the `ref_id` it sends, then the id and status of the " +
			"transfer the service created. If the service does not confirm the withdrawal, the invocation fails " +
			"and says which `ref_id` to set to retry it safely.",
		Attributes: attrs,
	}
}

func (a *cryptoWithdrawalAction) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

// ModifyPlan passes the invocation through the provider's withdrawal_guard
// (withdrawal_guard.go): it counts in the plan's max_run_total as an
// invocation of a crypto withdrawal with its configured ref_id, or as an
// invocation of its own when it has none.
func (a *cryptoWithdrawalAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	if a.data == nil || !a.data.guard.active() {
		return
	}
	var args cryptoWithdrawalArgs
	resp.Diagnostics.Append(req.Config.Get(ctx, &args)...)
	if resp.Diagnostics.HasError() {
		return
	}
	guardInvocation(ctx, a.data, withdrawalMovement(args), args.RefID, req.Config.Raw.IsFullyKnown(),
		"platform_crypto_withdrawal action", &resp.Diagnostics)
}

func (a *cryptoWithdrawalAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	if a.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	var args cryptoWithdrawalArgs
	resp.Diagnostics.Append(req.Config.Get(ctx, &args)...)
	if resp.Diagnostics.HasError() {
		return
	}
	refID := knownString(args.RefID)
	generated := refID == ""
	if generated {
		refID = a.data.newID()
	}

	origin := "configured"
	if generated {
		origin = "generated for this invocation"
	}
	resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf(
		"Sending crypto withdrawal: %s, ref_id %s (%s).", args.summary(), refID, origin)})

	res, diags := withdrawalType.sendMoney(ctx, a.data, args, refID, false, false, "platform_crypto_withdrawal action")
	resp.Diagnostics.Append(diags...)
	switch res.outcome {
	case outcomeUnconfirmed:
		resp.Diagnostics.AddError("Outcome of crypto withdrawal unknown", unconfirmedActionDetail(refID, generated, res.err))
	case outcomeConfirmed:
		resp.SendProgress(action.InvokeProgressEvent{Message: transferProgress("Crypto withdrawal sent", res.obj, refID)})
	case outcomeAdopted:
		resp.SendProgress(action.InvokeProgressEvent{Message: transferProgress(
			"Crypto withdrawal already sent earlier with this ref_id, not sent again", res.obj, refID)})
	}
}

// transferProgress is the progress message of a recorded withdrawal.
func transferProgress(what string, t *client.Transfer, refID string) string {
	parts := []string{"transfer " + t.ID, "status " + t.Status, "ref_id " + refID}
	for _, kv := range [][2]string{{"amount", t.Amount}, {"fee", t.Fee}, {"total", t.Total}} {
		if kv[1] != "" {
			parts = append(parts, kv[0]+" "+kv[1])
		}
	}
	return what + ": " + shown(strings.Join(parts, ", ")) + "."
}

// unconfirmedActionDetail explains an invocation whose outcome is unknown
// and how to retry it without risking a second withdrawal.
func unconfirmedActionDetail(refID string, generated bool, err error) string {
	detail := fmt.Sprintf("The withdrawal with ref_id %s was sent, but the service did not confirm it: %s.\n\n"+
		"It may or may not have been processed. ", refID, err)
	if generated {
		return detail + fmt.Sprintf("That ref_id was generated for this invocation only: invoking the action "+
			"again as it is sends a NEW withdrawal. To retry this one safely, set ref_id = %q in the action's "+
			"configuration, keep the other arguments unchanged, and invoke it again: if the service processed "+
			"this attempt, it answers with that withdrawal instead of sending a second one.", refID)
	}
	return detail + fmt.Sprintf("Invoking the action again with the same ref_id %q and unchanged arguments "+
		"is safe: if the service processed this attempt, it answers with that withdrawal instead of sending "+
		"a second one.", refID)
}
