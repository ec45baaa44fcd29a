package provider

import (
	"context"
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

var (
	_ resource.Resource               = (*cryptoWithdrawalResource)(nil)
	_ resource.ResourceWithConfigure  = (*cryptoWithdrawalResource)(nil)
	_ resource.ResourceWithModifyPlan = (*cryptoWithdrawalResource)(nil)
)

// NewCryptoWithdrawalResource is the constructor of platform_crypto_withdrawal.
func NewCryptoWithdrawalResource() resource.Resource {
	return &cryptoWithdrawalResource{}
}

// cryptoWithdrawalResource sends one crypto withdrawal when it is created.
// There is no endpoint to read, change or cancel a withdrawal: Read keeps
// the state, every argument change is a replacement (a new withdrawal) and
// Delete only forgets.
type cryptoWithdrawalResource struct {
	data *providerData
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

func (r *cryptoWithdrawalResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_crypto_withdrawal"
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

func (r *cryptoWithdrawalResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
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

	resp.Schema = schema.Schema{
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

func (r *cryptoWithdrawalResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (r *cryptoWithdrawalResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	switch {
	case req.Plan.Raw.IsNull():
		if !req.State.Raw.IsNull() {
			resp.Diagnostics.AddWarning("Destroying a crypto withdrawal does not reverse it",
				"Destroy only removes the withdrawal from the Terraform state; the service has no endpoint to "+
					"cancel or reverse a withdrawal, and no API call is made.")
		}
	case req.State.Raw.IsNull():
		// A new withdrawal: created, replacing another one (Terraform plans
		// the new object of a replacement again with a null prior state),
		// or retrying a create whose outcome is unknown (a tainted object
		// is planned with a null prior state too).
		r.planRefID(ctx, req, resp)
	case req.Plan.Raw.Equal(req.State.Raw):
		keepUnchanged(ctx, r.data, req.State, getWithdrawal, withdrawalUnchangedClaim, &resp.Diagnostics)
	default:
		state, diags := getWithdrawal(ctx, req.State)
		resp.Diagnostics.Append(diags...)
		if resp.Diagnostics.HasError() {
			return
		}
		if refuseUnreadReplacement(withdrawalWords, state.id(), state.args.ProfileID, &resp.Diagnostics) {
			return
		}
		if r.recordsAfterImport(ctx, req, resp, state) || r.recordsApplyOnly(ctx, req, resp, state) {
			return
		}
		resp.Diagnostics.AddWarning("Changing a crypto withdrawal sends a NEW withdrawal",
			replacementDetail(ctx, req.Config, req.State, state))
	}
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

// withdrawalUnchangedClaim is what an unchanged withdrawal claims: its
// ref_id, which no new one of this configuration may take.
func withdrawalUnchangedClaim(s cryptoWithdrawalModel) unchangedClaim {
	return unchangedClaim{withdrawalWords, s.args.RefID.ValueString(), "transfer " + s.id().ValueString() + ", " + s.args.summary()}
}

func (r *cryptoWithdrawalResource) planUnchanged(ctx context.Context, data *providerData, state tfsdk.State) bool {
	return planUnchangedClaiming(ctx, data, state, getWithdrawal, withdrawalUnchangedClaim)
}

// recordsAfterImport plans the in-place update of an imported withdrawal
// whose only changes are fee_id or beneficiary, which the service does not
// report: the plan keeps every other value of the state.
func (r *cryptoWithdrawalResource) recordsAfterImport(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, state cryptoWithdrawalModel) bool {
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
func (r *cryptoWithdrawalResource) recordsApplyOnly(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, state cryptoWithdrawalModel) bool {
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

// planRefID plans a new withdrawal through the core (planNewObject): its
// ref_id, derived from its arguments when the configuration sets none and
// shown in the plan, and what the apply will do with a transfer the
// service already holds under it.
func (r *cryptoWithdrawalResource) planRefID(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	config, diags := getWithdrawal(ctx, req.Config)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	cfg := config.args
	if !req.Config.Raw.IsFullyKnown() {
		// An argument is known only at apply: so is the ref_id, which the
		// final plan derives then, and the guards check then. The manifest
		// shows what is known.
		guardUnknown(ctx, r.data, withdrawalWords.resourceType, req.Config, &resp.Diagnostics)
		ref := cfg.RefID
		if ref.IsNull() {
			ref = types.StringUnknown()
		}
		setMoney(ctx, &resp.Plan, withdrawalMoney(cfg, ref, types.BoolUnknown()), &resp.Diagnostics)
		return
	}
	sends := planNewObject(ctx, r.data, newObjectPlan[*client.Transfer]{
		kind:       withdrawalKind,
		configured: cfg.RefID,
		derive:     func() (string, bool) { return cfg.derivedRefID(ctx) },
		what:       cfg.summary(),
		show:       true,
		differences: func(refID string, t *client.Transfer) []string {
			body, _ := cfg.request(ctx, refID)
			return withdrawalDifferences(body, t)
		},
	}, resp)
	if resp.Diagnostics.HasError() {
		return
	}
	refID := knownString(cfg.RefID)
	if refID == "" {
		refID, _ = cfg.derivedRefID(ctx)
	}
	setMoney(ctx, &resp.Plan, withdrawalMoney(cfg, types.StringValue(refID), sends), &resp.Diagnostics)
	guardWithdrawal(ctx, r.data, cfg.guarded(refID, refID, withdrawalWords.resourceType), &resp.Diagnostics)
}

// withdrawalMoney is the manifest of a withdrawal of the arguments a, sent
// with refID: its amount, or its total when it sets total.
func withdrawalMoney(a cryptoWithdrawalArgs, refID types.String, sends types.Bool) moneyOf {
	amount := a.Amount
	if amount.IsNull() {
		amount = a.Total
	}
	return moneyOf{kind: moneyKindCryptoWithdrawal, asset: a.Asset, amount: amount, from: a.ProfileID,
		to: a.DestinationAddress, ref: refID, sends: sends}
}

func (r *cryptoWithdrawalResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if r.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	plan, diags := getWithdrawal(ctx, req.Plan)
	resp.Diagnostics.Append(diags...)
	cfg, diags := getWithdrawal(ctx, req.Config)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	refID, derived, ok := createKey(ctx, withdrawalWords, plan.args.RefID, cfg.args.RefID,
		func() (string, bool) { return plan.args.derivedRefID(ctx) }, resp.Private, &resp.Diagnostics)
	if !ok || resp.Diagnostics.HasError() {
		return
	}
	res, diags := sendCryptoWithdrawal(ctx, r.data, withdrawalSend{
		args: plan.args, refID: refID, resourceType: withdrawalWords.resourceType,
		derived: derived, recorded: r.data.attempts.has(withdrawalWords.kind, refID),
	})
	resp.Diagnostics.Append(diags...)
	plan.args.RefID = types.StringValue(refID)
	switch res.outcome {
	case outcomeUnconfirmed:
		plan.clearUnknown(ctx, &resp.Diagnostics)
		recordUnconfirmedCreate(ctx, resp, withdrawalWords, plan.id(), refID, res.err,
			plan.set(ctx, &resp.State, resp.State.Schema))
	case outcomeConfirmed, outcomeAdopted:
		plan.fromTransfer(res.obj, &resp.Diagnostics)
		// A plan that could not derive the ref_id left sends unknown: the
		// apply knows.
		plan.computed[moneyAttribute] = withSends(plan.computed[moneyAttribute], res.outcome == outcomeConfirmed)
		resp.Diagnostics.Append(plan.set(ctx, &resp.State, resp.State.Schema)...)
		setIdentity(ctx, resp.Identity, plan.id(), &resp.Diagnostics)
	}
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
	money, planned := m.computed[moneyAttribute]
	m.computed = withdrawalTransferShape.attrValues(t, diags)
	if planned {
		// The manifest is as the plan that made or recorded it saw it.
		m.computed[moneyAttribute] = money
	}
}

// clearUnknown turns every unknown value of m into null, for the state of
// a withdrawal whose outcome is unknown.
func (m *cryptoWithdrawalModel) clearUnknown(ctx context.Context, diags *diag.Diagnostics) {
	a := &m.args
	for _, s := range []*types.String{&a.Amount, &a.Total, &a.RefID, &a.IdentityID, &a.AccountID, &a.BalanceAsset} {
		if s.IsUnknown() {
			*s = types.StringNull()
		}
	}
	(*shapedState[cryptoWithdrawalArgs])(m).clearUnknownComputed(ctx, diags)
}

func (r *cryptoWithdrawalResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, diags := getWithdrawal(ctx, req.State)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	setIdentity(ctx, resp.Identity, state.id(), &resp.Diagnostics)
	if !state.id().IsNull() {
		if r.data == nil {
			return
		}
		r.refresh(ctx, &state, &resp.Diagnostics)
		if !resp.Diagnostics.HasError() {
			resp.Diagnostics.Append(state.set(ctx, &resp.State, resp.State.Schema)...)
		}
		return
	}
	// A create whose outcome is unknown (Terraform holds it tainted).
	refID := state.args.RefID.ValueString()
	derived, _ := state.args.derivedRefID(ctx)
	if !recordUnconfirmed(ctx, r.data, req.Private, withdrawalWords, refID, derived, &resp.Diagnostics) {
		return
	}
	resp.Diagnostics.AddWarning("Crypto withdrawal not confirmed",
		fmt.Sprintf("The last create of this withdrawal (ref_id %s) ended without confirmation from the service; "+
			"it may or may not have been processed. Terraform plans to create it again. With unchanged arguments "+
			"the retry sends the same ref_id %s, which the service never processes twice; with changed arguments "+
			"it is a new withdrawal with a new ref_id, unless ref_id is set in the configuration.", refID, refID))
}

// Update records fee_id or beneficiary set on an imported withdrawal (see
// replaceUnlessRecordedAfterImport); every other change is a replacement.
// It sends nothing.
func (r *cryptoWithdrawalResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, diags := getWithdrawal(ctx, req.Plan)
	resp.Diagnostics.Append(diags...)
	state, diags := getWithdrawal(ctx, req.State)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	state.args.FeeID = plan.args.FeeID
	state.args.Beneficiary = plan.args.Beneficiary
	state.args.MaxFee = plan.args.MaxFee
	resp.Diagnostics.Append(state.set(ctx, &resp.State, resp.State.Schema)...)
	setIdentity(ctx, resp.Identity, state.id(), &resp.Diagnostics)
}

func (r *cryptoWithdrawalResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, diags := getWithdrawal(ctx, req.State)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	refID := state.args.RefID.ValueString()
	if state.id().IsNull() {
		// A tainted, unconfirmed withdrawal, before its retry. One left by
		// a provider version that generated ref_ids stops the apply here
		// too (when the plan skipped the refresh), before its retry could
		// send a second key.
		derived, _ := state.args.derivedRefID(ctx)
		if !recordUnconfirmed(ctx, r.data, req.Private, withdrawalWords, refID, derived, &resp.Diagnostics) {
			return
		}
		resp.Diagnostics.AddWarning("Unconfirmed crypto withdrawal removed from state",
			fmt.Sprintf("The withdrawal with ref_id %s was never confirmed by the service; it was removed from the "+
				"Terraform state without any API call. If the service did process it, it cannot be reversed.", refID))
		return
	}
	resp.Diagnostics.AddWarning("Crypto withdrawal removed from state only",
		fmt.Sprintf("The withdrawal %s (ref_id %s) was removed from the Terraform state. No API call was made: "+
			"a withdrawal cannot be cancelled or reversed, and it stays sent.", state.id().ValueString(), refID))
}

// ConfigValidators warns of an amount more precise than its asset.
func (r *cryptoWithdrawalResource) ConfigValidators(context.Context) []resource.ConfigValidator {
	return []resource.ConfigValidator{precisionWarning{}}
}
