package provider

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// NewCryptoWithdrawalResource is the constructor of platform_crypto_withdrawal.
func NewCryptoWithdrawalResource() resource.Resource { return newMoneyResource(&withdrawalType) }

// withdrawalType declares platform_crypto_withdrawal on the money core:
// one crypto withdrawal, sent when the resource is created, its transfer
// read back by id (GET /transfer/transfers/{id}, scope
// transfer:read_transfer) to follow its status. There is no endpoint to
// change or cancel a withdrawal: every argument change is a replacement (a
// new withdrawal), except the arguments that only rule how it is sent or
// that the service does not report, and a destroy only forgets. A refresh
// never changes an argument, so it can never plan a new withdrawal; a
// transfer the service no longer knows is kept.
var withdrawalType = moneyType[cryptoWithdrawalArgs, *client.Transfer, client.CryptoWithdrawalRequest]{
	kind:     withdrawalKind,
	schema:   withdrawalSchema,
	identity: "transfer the withdrawal created",

	refID:  func(a *cryptoWithdrawalArgs) *types.String { return &a.RefID },
	unread: func(a cryptoWithdrawalArgs) bool { return a.ProfileID.IsNull() },
	request: func(ctx context.Context, a cryptoWithdrawalArgs, refID string) (client.CryptoWithdrawalRequest, error) {
		body, diags := a.request(ctx, refID)
		if diags.HasError() {
			return body, errors.New(diags[0].Detail())
		}
		return body, nil
	},
	derive:      func(ctx context.Context, a cryptoWithdrawalArgs, _ string) (string, bool) { return a.derivedRefID(ctx) },
	summary:     cryptoWithdrawalArgs.summary,
	differences: withdrawalDifferences,
	send: func(ctx context.Context, data *providerData, a cryptoWithdrawalArgs, refID string, derived bool) (createResult[*client.Transfer], diag.Diagnostics) {
		return sendCryptoWithdrawal(ctx, data, withdrawalSend{
			args: a, refID: refID, derived: derived, recorded: data.attempts.has(withdrawalWords.kind, refID),
		})
	},
	found: func(a cryptoWithdrawalArgs, res createResult[*client.Transfer], diags *diag.Diagnostics) {
		if maxFee := knownString(a.MaxFee); maxFee != "" {
			checkChargedFee(res, nil, maxFee, diags)
		}
	},

	get:       getTransfer,
	readScope: client.ScopeReadTransfer,
	recorded: func(ctx context.Context, m shapedState[cryptoWithdrawalArgs], t *client.Transfer) []string {
		body, _ := m.args.request(ctx, m.args.RefID.ValueString())
		return withdrawalDifferences(body, t)
	},
	importable: importedTransferDifferences,
	created: func(_ context.Context, m *shapedState[cryptoWithdrawalArgs], t *client.Transfer, outcome createOutcome, diags *diag.Diagnostics) {
		w := (*cryptoWithdrawalModel)(m)
		w.fromTransfer(t, diags)
		// A plan that could not derive the ref_id left sends unknown: the
		// apply knows.
		w.computed[moneyAttribute] = withSends(w.computed[moneyAttribute], outcome == outcomeConfirmed)
	},
	refreshed: func(_ context.Context, m *shapedState[cryptoWithdrawalArgs], t *client.Transfer, diags *diag.Diagnostics) {
		// The transfer is the one recorded: every computed attribute
		// follows it (status, crypto_tx_hash, updated_at, fee and the
		// like); no argument changes, and the manifest stays as the plan
		// that made it saw it.
		followAnswer(m, withdrawalTransferShape.attrValues(t, diags))
		warnFailed(*m, t, diags)
	},
	adopt: func(_ context.Context, m *shapedState[cryptoWithdrawalArgs], t *client.Transfer, diags *diag.Diagnostics) {
		(*cryptoWithdrawalModel)(m).adopt(t, diags)
		warnFailed(*m, t, diags)
	},
	refresh: refreshPolicy{scopeRefused: keepWithWarning, gone: keepWithWarning, another: failKeepingState},

	say: lifecycleWords[cryptoWithdrawalArgs]{
		destroy: &message{"Destroying a crypto withdrawal does not reverse it",
			"Destroy only removes the withdrawal from the Terraform state; the service has no endpoint to " +
				"cancel or reverse a withdrawal, and no API call is made."},
		notRefreshed: "The crypto withdrawals keep the status recorded when they were sent; nothing else is affected, " +
			"and nothing is sent.",
		gone: func(m shapedState[cryptoWithdrawalArgs]) message {
			return message{"Withdrawal not found at the service",
				fmt.Sprintf("The service does not know the transfer %s of this withdrawal (ref_id %s) any more. The "+
					"state is kept as recorded, and nothing is sent.", id(m).ValueString(), m.args.RefID.ValueString())}
		},
		forgotten: func(m shapedState[cryptoWithdrawalArgs]) message {
			return message{"Crypto withdrawal removed from state only",
				fmt.Sprintf("The withdrawal %s (ref_id %s) was removed from the Terraform state. No API call was "+
					"made: a withdrawal cannot be cancelled or reversed, and it stays sent.", id(m).ValueString(),
					m.args.RefID.ValueString())}
		},
	},
	moves:      withdrawalMovement,
	planChange: planWithdrawalChange,
	update: func(_ context.Context, _ *providerData, plan, state shapedState[cryptoWithdrawalArgs], _ *diag.Diagnostics) (shapedState[cryptoWithdrawalArgs], bool) {
		// Only fee_id or beneficiary set on an imported withdrawal, and
		// max_fee, change in place (see replaceUnlessRecordedAfterImport):
		// they are recorded, and nothing is sent.
		state.args.FeeID = plan.args.FeeID
		state.args.Beneficiary = plan.args.Beneficiary
		state.args.MaxFee = plan.args.MaxFee
		return state, true
	},
}

// cryptoWithdrawalModel is the state of platform_crypto_withdrawal: its
// arguments, and the computed attributes of the transfer it made, from the
// transfer's shape (withdrawalTransferShape).
type cryptoWithdrawalModel shapedState[cryptoWithdrawalArgs]

// withdrawalTransferShape is what the resource computes of its transfer:
// the transfer's attributes that are not arguments.
var withdrawalTransferShape = func() objectShape[client.Transfer] {
	var args []string
	for _, a := range withdrawalArguments() {
		args = append(args, a.name)
	}
	return transferShape.without(args...)
}()

// getWithdrawal reads the state, plan or configuration src.
func getWithdrawal(ctx context.Context, src getter) (cryptoWithdrawalModel, diag.Diagnostics) {
	s, diags := getShaped[cryptoWithdrawalArgs](ctx, src)
	return cryptoWithdrawalModel(s), diags
}

// set writes m to dst, whose schema is sch.
func (m cryptoWithdrawalModel) set(ctx context.Context, dst setter, sch typed) diag.Diagnostics {
	return setShaped(ctx, dst, sch, shapedState[cryptoWithdrawalArgs](m))
}

// id is the id of the transfer, null until the service confirmed it.
func (m cryptoWithdrawalModel) id() types.String {
	return shapedState[cryptoWithdrawalArgs](m).str("id")
}

// newWithdrawalNote ends the description of every argument.
const newWithdrawalNote = " **Changing it sends a NEW withdrawal**: Terraform plans a replacement, which sends " +
	"another withdrawal; the one already sent is not reversed."

// replaceWhenConfigured forces the replacement of a withdrawal when an
// argument its configuration sets changes; left unset (computed), the
// argument follows the configured arguments and names no reason of its own.
var replaceWhenConfigured = stringplanmodifier.RequiresReplaceIf(
	func(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = !req.ConfigValue.IsNull()
	},
	"Changing the value, when the configuration sets it, sends a new withdrawal.",
	"Changing the value, when the configuration sets it, sends a new withdrawal.",
)

// withdrawalResourceAttribute renders a withdrawal argument as a resource
// attribute that forces replacement.
func withdrawalResourceAttribute(a withdrawalArgument) schema.Attribute {
	desc := a.description + newWithdrawalNote
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	if a.computedWhenUnset {
		// Unset, it is the service's answer (a total, a derived ref_id): it
		// changes only because a configured argument did, which is the
		// replacement's reason the plan names.
		replace = []planmodifier.String{replaceWhenConfigured}
	}
	if a.applyOnly {
		desc = a.description + " Changing it on a withdrawal already sent only records it: nothing is sent."
		replace = nil
	}
	if a.notReported {
		desc += " The service does not report it: after an import, setting it only records it."
		replace = []planmodifier.String{replaceUnlessRecordedAfterImport()}
	}
	switch a.kind {
	case withdrawalArgStringMap:
		return schema.MapAttribute{
			MarkdownDescription: desc,
			ElementType:         types.StringType,
			Required:            a.required,
			Optional:            !a.required,
			Validators:          a.mapValidators,
			PlanModifiers:       []planmodifier.Map{mapplanmodifier.RequiresReplace()},
		}
	case withdrawalArgJSON:
		return schema.StringAttribute{
			MarkdownDescription: desc,
			CustomType:          jsontypes.NormalizedType{},
			Required:            a.required,
			Optional:            !a.required,
			Validators:          a.stringValidators,
			PlanModifiers:       replace,
		}
	default:
		return schema.StringAttribute{
			MarkdownDescription: desc,
			Required:            a.required,
			Optional:            !a.required,
			Computed:            a.computedWhenUnset,
			Validators:          a.stringValidators,
			PlanModifiers:       replace,
		}
	}
}

func withdrawalSchema() schema.Schema {
	attrs := map[string]schema.Attribute{}
	for _, a := range withdrawalArguments() {
		attrs[a.name] = withdrawalResourceAttribute(a)
	}
	maps.Copy(attrs, withdrawalTransferShape.resourceAttributes())
	attrs[moneyAttribute] = moneySchema()
	attrs["id"] = schema.StringAttribute{
		MarkdownDescription: "Identifier of the transfer the withdrawal created.",
		Computed:            true,
		PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}

	return schema.Schema{
		MarkdownDescription: "Sends one crypto withdrawal (`POST /transfer/crypto-withdrawals`) when it is created.\n\n" +
			"!> **Every change of an argument sends a NEW withdrawal.** The service has no endpoint to change or " +
			"cancel a withdrawal, so Terraform replaces the resource, which sends another withdrawal; the one " +
			"already sent stays sent. Destroying the resource only removes it from the Terraform state: a " +
			"withdrawal cannot be reversed.\n\n" +
			"Each withdrawal carries a `ref_id`, the service's replay protection, fixed before anything is " +
			"sent: configured, or derived at plan from the withdrawal's arguments and shown in the plan. If the " +
			"service does not confirm the withdrawal (a timeout, server errors until the retries run out, or a " +
			"run killed mid-apply), applying the same configuration again sends the same `ref_id`, and when the " +
			"service answers that it already processed it, the provider records that transfer instead of " +
			"sending another. A `ref_id` the service already knows from a different withdrawal is an error, " +
			"and nothing is sent.\n\n" +
			"Each refresh reads the transfer (`GET /transfer/transfers/{id}`, scope `transfer:read_transfer`) and " +
			"follows its `status`, `crypto_tx_hash` and the like, never its arguments: a refresh never plans a new " +
			"withdrawal. A withdrawal made elsewhere is adopted with `terraform import` (or an `import` block, by " +
			"`id` or, with Terraform 1.12+, by `identity`) by its transfer id; nothing is sent.",
		Attributes: attrs,
	}
}

// planWithdrawalChange plans a withdrawal whose configuration changed:
// the in-place record of what does not send anything, or else a
// replacement, which sends a new withdrawal, said in full.
func planWithdrawalChange(ctx context.Context, _ *providerData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, s shapedState[cryptoWithdrawalArgs]) {
	state := cryptoWithdrawalModel(s)
	if recordsAfterImport(ctx, req, resp, state) || recordsApplyOnly(ctx, req, resp, state) {
		return
	}
	resp.Diagnostics.AddWarning("Changing a crypto withdrawal sends a NEW withdrawal",
		replacementDetail(ctx, req.Config, req.State, state))
}

// replacementDetail tells a reviewer where the money of a replacement
// goes: what changed, the new withdrawal in full (amount, asset, network,
// destination, profile, ref_id), which the plan's diff hides in part, and
// that the withdrawal already sent stays sent.
func replacementDetail(ctx context.Context, cfg tfsdk.Config, prior tfsdk.State, state cryptoWithdrawalModel) string {
	var now, was map[string]tftypes.Value
	_ = cfg.Raw.As(&now)
	_ = prior.Raw.As(&was)
	var changed []string
	for _, a := range withdrawalArguments() {
		n, w := now[a.name], was[a.name]
		if a.applyOnly || n.IsNull() || n.Equal(w) {
			continue
		}
		var ns, ws string
		if a.kind == withdrawalArgString && n.IsKnown() && n.As(&ns) == nil && w.As(&ws) == nil {
			changed = append(changed, fmt.Sprintf("%s %s → %s", a.name, shownValue(ws), shownValue(ns)))
			continue
		}
		changed = append(changed, a.name)
	}
	next := "The new withdrawal's arguments are known only at apply; its ref_id too."
	if config, d := getWithdrawal(ctx, cfg); !d.HasError() && cfg.Raw.IsFullyKnown() {
		refID, origin := knownString(config.args.RefID), "configured"
		if refID == "" {
			refID, _ = config.args.derivedRefID(ctx)
			origin = "derived from its arguments"
		}
		next = fmt.Sprintf("Applying sends a NEW withdrawal: %s, ref_id %s (%s).", config.args.summary(), shownRef(refID), origin)
	}
	what := "Its arguments changed"
	if len(changed) > 0 {
		what = "Changed: " + strings.Join(changed, ", ")
	}
	return fmt.Sprintf("%s. %s\n\nThe service cannot change a withdrawal, so Terraform plans a replacement. The "+
		"withdrawal already sent, transfer %s (%s, ref_id %s), stays sent: it is not reversed, and the replacement "+
		"only removes it from the state. If that is not what you want, restore the previous arguments.",
		what, next, shown(state.id().ValueString()), state.args.summary(), shownRef(state.args.RefID.ValueString()))
}

// shownValue quotes an argument's value for a message, "unset" when empty.
func shownValue(v string) string {
	if v == "" {
		return "unset"
	}
	return strconv.Quote(shown(v))
}

// recordsAfterImport plans the in-place update of an imported withdrawal
// whose only changes are fee_id or beneficiary, which the service does not
// report: the plan keeps every other value of the state.
func recordsAfterImport(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, state cryptoWithdrawalModel) bool {
	if !imported(ctx, req.Private) {
		return false
	}
	config, diags := getWithdrawal(ctx, req.Config)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return false
	}
	cfg := config.args
	next := state
	if state.args.FeeID.IsNull() {
		next.args.FeeID = cfg.FeeID
	}
	if state.args.Beneficiary.IsNull() {
		next.args.Beneficiary = cfg.Beneficiary
	}
	// Every configured argument other than those two must be unchanged.
	probe := cfg
	for _, keep := range []struct{ dst, src *types.String }{
		{&probe.Amount, &next.args.Amount}, {&probe.Total, &next.args.Total}, {&probe.RefID, &next.args.RefID},
		{&probe.IdentityID, &next.args.IdentityID}, {&probe.AccountID, &next.args.AccountID},
		{&probe.BalanceAsset, &next.args.BalanceAsset},
	} {
		if keep.dst.IsNull() {
			*keep.dst = *keep.src
		}
	}
	if !reflect.DeepEqual(probe, next.args) {
		return false
	}
	resp.Diagnostics.Append(next.set(ctx, &resp.Plan, resp.Plan.Schema)...)
	return true
}

// recordsApplyOnly plans the in-place update of a withdrawal whose only
// change is max_fee, which rules only how a withdrawal is sent: the plan
// keeps every other value of the state, and nothing is sent.
func recordsApplyOnly(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, state cryptoWithdrawalModel) bool {
	plan, diags := getWithdrawal(ctx, req.Plan)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return false
	}
	probe := plan.args
	probe.MaxFee = state.args.MaxFee
	for _, keep := range []struct{ dst, src *types.String }{
		{&probe.Amount, &state.args.Amount}, {&probe.Total, &state.args.Total}, {&probe.RefID, &state.args.RefID},
		{&probe.IdentityID, &state.args.IdentityID}, {&probe.AccountID, &state.args.AccountID},
		{&probe.BalanceAsset, &state.args.BalanceAsset},
	} {
		if keep.dst.IsUnknown() {
			*keep.dst = *keep.src
		}
	}
	if !reflect.DeepEqual(probe, state.args) {
		return false
	}
	next := state
	next.args.MaxFee = plan.args.MaxFee
	resp.Diagnostics.Append(next.set(ctx, &resp.Plan, resp.Plan.Schema)...)
	return true
}

// withdrawalMovement is what the withdrawal of a moves: its amount, or its
// total when it sets total, to its destination address.
func withdrawalMovement(a cryptoWithdrawalArgs) movement {
	amount, figure := moneyFigure(a.Amount, a.Total)
	return movement{kind: moneyKindCryptoWithdrawal, asset: a.Asset, amount: amount, figureName: figure,
		from: a.ProfileID, debits: a.BalanceAsset, to: a.DestinationAddress, address: a.DestinationAddress, network: a.CryptoNetwork,
		identity: a.IdentityID, fiatAccount: types.StringNull(), limitTypes: []string{client.TransferTypeCryptoWithdr},
		what: a.summary()}
}

// fromTransfer sets the computed attributes of m from the service's answer.
// Configured arguments keep their configured values; arguments the
// configuration left unset take the answered ones.
func (m *cryptoWithdrawalModel) fromTransfer(t *client.Transfer, diags *diag.Diagnostics) {
	a := &m.args
	a.Amount = keepOr(a.Amount, optionalString(t.Amount))
	a.Total = keepOr(a.Total, optionalString(t.Total))
	a.IdentityID = keepOr(a.IdentityID, stringValue(t.IdentityID))
	a.AccountID = keepOr(a.AccountID, stringValue(t.AccountID))
	a.BalanceAsset = keepOr(a.BalanceAsset, stringValue(t.BalanceAsset))
	followAnswer((*shapedState[cryptoWithdrawalArgs])(m), withdrawalTransferShape.attrValues(t, diags))
}
