package provider

import (
	"context"
	"fmt"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

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

// cryptoWithdrawalModel is the state of platform_crypto_withdrawal.
type cryptoWithdrawalModel struct {
	cryptoWithdrawalArgs

	ID              types.String         `tfsdk:"id"`
	CustomerID      types.String         `tfsdk:"customer_id"`
	Fee             types.String         `tfsdk:"fee"`
	Status          types.String         `tfsdk:"status"`
	Direction       types.String         `tfsdk:"direction"`
	Type            types.String         `tfsdk:"type"`
	CreatedAt       timetypes.RFC3339    `tfsdk:"created_at"`
	UpdatedAt       timetypes.RFC3339    `tfsdk:"updated_at"`
	CryptoTxHash    types.String         `tfsdk:"crypto_tx_hash"`
	CryptoTxIndex   types.String         `tfsdk:"crypto_tx_index"`
	GroupID         types.String         `tfsdk:"group_id"`
	FiatAccountID   types.String         `tfsdk:"fiat_account_id"`
	NotionalValue   types.String         `tfsdk:"notional_value"`
	SecondaryStatus jsontypes.Normalized `tfsdk:"secondary_status"`
	StatusDetails   jsontypes.Normalized `tfsdk:"status_details"`
	AutoConversion  jsontypes.Normalized `tfsdk:"auto_conversion"`
}

func (r *cryptoWithdrawalResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_crypto_withdrawal"
}

// newWithdrawalNote ends the description of every argument.
const newWithdrawalNote = " **Changing it sends a NEW withdrawal**: Terraform plans a replacement, which sends " +
	"another withdrawal; the one already sent is not reversed."

// withdrawalResourceAttribute renders a withdrawal argument as a resource
// attribute that forces replacement.
func withdrawalResourceAttribute(a withdrawalArgument) schema.Attribute {
	desc := a.description + newWithdrawalNote
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
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
	str := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: desc, Computed: true}
	}
	attrs["id"] = schema.StringAttribute{
		MarkdownDescription: "Identifier of the transfer the withdrawal created.",
		Computed:            true,
		PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
	attrs["customer_id"] = str("Customer the transfer belongs to.")
	attrs["fee"] = str("Fee paid, as a decimal string.")
	attrs["status"] = str("Status of the transfer: `PENDING`, `COMPLETED` or `FAILED`. Each refresh reads it from the " +
		"service (scope `transfer:read_transfer`; without it, the status recorded when it was sent is kept). A " +
		"`FAILED` withdrawal is reported with a warning and never sent again on its own.")
	attrs["direction"] = str("Direction of the balance change: `DEBIT` for a withdrawal.")
	attrs["type"] = str("Type of the transfer: `CRYPTO_WITHDRAWAL`.")
	attrs["created_at"] = schema.StringAttribute{
		MarkdownDescription: "Creation time of the transfer record (RFC 3339).",
		CustomType:          timetypes.RFC3339Type{}, Computed: true,
	}
	attrs["updated_at"] = schema.StringAttribute{
		MarkdownDescription: "Time of the most recent update of the transfer record (RFC 3339), as of the last refresh.",
		CustomType:          timetypes.RFC3339Type{}, Computed: true,
	}
	attrs["crypto_tx_hash"] = str("On-chain transaction hash; null until the service gives it (a refresh reads it).")
	attrs["crypto_tx_index"] = str("Output index or output address; null until the service gives it.")
	attrs["group_id"] = str("Group linking both sides of an internal transfer; null when the service gives none.")
	attrs["fiat_account_id"] = str("Fiat account of a fiat withdrawal; null for crypto withdrawals.")
	attrs["notional_value"] = str("USD value of amount plus fee at transfer time; null when the service gives none.")
	jsonAttr := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{
			MarkdownDescription: desc + " JSON object (read it with `jsondecode()`); null when the service gives none.",
			CustomType:          jsontypes.NormalizedType{}, Computed: true,
		}
	}
	attrs["secondary_status"] = jsonAttr("More granular explanation of the status.")
	attrs["status_details"] = jsonAttr("Why the transfer is in its state, for specific error conditions.")
	attrs["auto_conversion"] = jsonAttr("Auto-conversion details of the withdrawal.")

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
		// An unchanged withdrawal keeps its ref_id, which no new one of
		// this configuration may take.
		var state cryptoWithdrawalModel
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		claimPlannedRefID(r.data, withdrawalWords, state.RefID.ValueString(),
			"transfer "+state.ID.ValueString()+", "+state.summary(), false, &resp.Diagnostics)
	default:
		var state cryptoWithdrawalModel
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if resp.Diagnostics.HasError() {
			return
		}
		if refuseUnreadReplacement(withdrawalWords, state.ID, state.ProfileID, &resp.Diagnostics) {
			return
		}
		if r.recordsAfterImport(ctx, req, resp, state) {
			return
		}
		resp.Diagnostics.AddWarning("Changing a crypto withdrawal sends a NEW withdrawal",
			fmt.Sprintf("The arguments of the withdrawal %s (ref_id %s) changed. The service cannot change a "+
				"withdrawal, so Terraform plans a replacement: applying sends a new withdrawal, and the one "+
				"already sent is not reversed. If that is not what you want, restore the previous arguments.",
				state.ID.ValueString(), state.RefID.ValueString()))
	}
}

// recordsAfterImport plans the in-place update of an imported withdrawal
// whose only changes are fee_id or beneficiary, which the service does not
// report: the plan keeps every other value of the state.
func (r *cryptoWithdrawalResource) recordsAfterImport(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, state cryptoWithdrawalModel) bool {
	if !imported(ctx, req.Private) {
		return false
	}
	var cfg cryptoWithdrawalModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return false
	}
	next := state
	if state.FeeID.IsNull() {
		next.FeeID = cfg.FeeID
	}
	if state.Beneficiary.IsNull() {
		next.Beneficiary = cfg.Beneficiary
	}
	// Every configured argument other than those two must be unchanged.
	probe := next
	probe.cryptoWithdrawalArgs = cfg.cryptoWithdrawalArgs
	for _, keep := range []struct{ dst, src *types.String }{
		{&probe.Amount, &next.Amount}, {&probe.Total, &next.Total}, {&probe.RefID, &next.RefID},
		{&probe.IdentityID, &next.IdentityID}, {&probe.AccountID, &next.AccountID}, {&probe.BalanceAsset, &next.BalanceAsset},
	} {
		if keep.dst.IsNull() {
			*keep.dst = *keep.src
		}
	}
	if !reflect.DeepEqual(probe.cryptoWithdrawalArgs, next.cryptoWithdrawalArgs) {
		return false
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &next)...)
	return true
}

// planRefID plans a new withdrawal through the core (planNewObject): its
// ref_id, derived from its arguments when the configuration sets none and
// shown in the plan, and what the apply will do with a transfer the
// service already holds under it.
func (r *cryptoWithdrawalResource) planRefID(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !req.Config.Raw.IsFullyKnown() {
		// An argument is known only at apply: so is the ref_id, which the
		// final plan derives then.
		return
	}
	var cfg cryptoWithdrawalModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	planNewObject(ctx, r.data, newObjectPlan[*client.Transfer]{
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
}

func (r *cryptoWithdrawalResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if r.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	var plan, cfg cryptoWithdrawalModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	refID := knownString(plan.RefID)
	if refID == "" {
		// The plan derives it; this is only a safeguard.
		var ok bool
		if refID, ok = plan.derivedRefID(ctx); !ok {
			resp.Diagnostics.AddError("Crypto withdrawal not sent",
				"The ref_id of the withdrawal could not be derived from its arguments, so nothing was sent. "+
					"This is a bug in the provider; set ref_id in the configuration to work around it.")
			return
		}
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateRefIDKey, originJSON(!cfg.RefID.IsNull()))...)
	res, diags := sendCryptoWithdrawal(ctx, r.data, withdrawalSend{
		args: plan.cryptoWithdrawalArgs, refID: refID,
		derived: cfg.RefID.IsNull(), recorded: r.data.attempts.has(withdrawalWords.kind, refID),
	})
	resp.Diagnostics.Append(diags...)
	plan.RefID = types.StringValue(refID)
	switch res.outcome {
	case outcomeUnconfirmed:
		plan.clearUnknown()
		recordUnconfirmedCreate(ctx, resp, withdrawalWords, &plan, plan.ID, refID, res.err)
	case outcomeConfirmed, outcomeAdopted:
		plan.fromTransfer(res.obj)
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		setIdentity(ctx, resp.Identity, plan.ID, &resp.Diagnostics)
	}
}

// fromTransfer sets the computed attributes of m from the service's answer.
// Configured arguments keep their configured values; arguments the
// configuration left unset take the answered ones.
func (m *cryptoWithdrawalModel) fromTransfer(t *client.Transfer) {
	m.ID = types.StringValue(t.ID)
	m.CustomerID = optionalString(t.CustomerID)
	m.Amount = keepOr(m.Amount, optionalString(t.Amount))
	m.Total = keepOr(m.Total, optionalString(t.Total))
	m.IdentityID = keepOr(m.IdentityID, stringValue(t.IdentityID))
	m.AccountID = keepOr(m.AccountID, stringValue(t.AccountID))
	m.BalanceAsset = keepOr(m.BalanceAsset, stringValue(t.BalanceAsset))
	m.Fee = optionalString(t.Fee)
	m.Status = optionalString(t.Status)
	m.Direction = optionalString(t.Direction)
	m.Type = optionalString(t.Type)
	m.CreatedAt = rfc3339OrNull(t.CreatedAt)
	m.UpdatedAt = rfc3339OrNull(t.UpdatedAt)
	m.CryptoTxHash = stringValue(t.CryptoTxHash)
	m.CryptoTxIndex = stringValue(t.CryptoTxIndex)
	m.GroupID = stringValue(t.GroupID)
	m.FiatAccountID = stringValue(t.FiatAccountID)
	m.NotionalValue = stringValue(t.NotionalValue)
	m.SecondaryStatus = jsonValue(t.SecondaryStatus)
	m.StatusDetails = jsonValue(t.StatusDetails)
	m.AutoConversion = jsonValue(t.AutoConversion)
}

// clearUnknown turns every unknown value of m into null, for the state of
// a withdrawal whose outcome is unknown.
func (m *cryptoWithdrawalModel) clearUnknown() {
	for _, s := range []*types.String{
		&m.Amount, &m.Total, &m.RefID, &m.IdentityID, &m.AccountID, &m.BalanceAsset,
		&m.ID, &m.CustomerID, &m.Fee, &m.Status, &m.Direction, &m.Type,
		&m.CryptoTxHash, &m.CryptoTxIndex, &m.GroupID, &m.FiatAccountID, &m.NotionalValue,
	} {
		if s.IsUnknown() {
			*s = types.StringNull()
		}
	}
	for _, j := range []*jsontypes.Normalized{&m.SecondaryStatus, &m.StatusDetails, &m.AutoConversion} {
		if j.IsUnknown() {
			*j = jsontypes.NewNormalizedNull()
		}
	}
	for _, t := range []*timetypes.RFC3339{&m.CreatedAt, &m.UpdatedAt} {
		if t.IsUnknown() {
			*t = timetypes.NewRFC3339Null()
		}
	}
}

func (r *cryptoWithdrawalResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state cryptoWithdrawalModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !state.ID.IsNull() {
		setIdentity(ctx, resp.Identity, state.ID, &resp.Diagnostics)
		if r.data == nil {
			return
		}
		r.refresh(ctx, &state, &resp.Diagnostics)
		if !resp.Diagnostics.HasError() {
			resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
		}
		return
	}
	// A create whose outcome is unknown (Terraform holds it tainted).
	setIdentity(ctx, resp.Identity, state.ID, &resp.Diagnostics)
	refID := state.RefID.ValueString()
	derived, _ := state.derivedRefID(ctx)
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
	var plan, state cryptoWithdrawalModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	state.FeeID = plan.FeeID
	state.Beneficiary = plan.Beneficiary
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	setIdentity(ctx, resp.Identity, state.ID, &resp.Diagnostics)
}

func (r *cryptoWithdrawalResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state cryptoWithdrawalModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if state.ID.IsNull() {
		// A tainted, unconfirmed withdrawal, before its retry. One left by
		// a provider version that generated ref_ids stops the apply here
		// too (when the plan skipped the refresh), before its retry could
		// send a second key.
		derived, _ := state.derivedRefID(ctx)
		if !recordUnconfirmed(ctx, r.data, req.Private, withdrawalWords, state.RefID.ValueString(), derived, &resp.Diagnostics) {
			return
		}
		resp.Diagnostics.AddWarning("Unconfirmed crypto withdrawal removed from state",
			fmt.Sprintf("The withdrawal with ref_id %s was never confirmed by the service; it was removed from the "+
				"Terraform state without any API call. If the service did process it, it cannot be reversed.",
				state.RefID.ValueString()))
		return
	}
	resp.Diagnostics.AddWarning("Crypto withdrawal removed from state only",
		fmt.Sprintf("The withdrawal %s (ref_id %s) was removed from the Terraform state. No API call was made: "+
			"a withdrawal cannot be cancelled or reversed, and it stays sent.",
			state.ID.ValueString(), state.RefID.ValueString()))
}
