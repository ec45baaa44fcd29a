package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/platform/terraform-provider-platform/internal/client"
)

var (
	_ resource.Resource                = (*fiatDepositInstructionsResource)(nil)
	_ resource.ResourceWithConfigure   = (*fiatDepositInstructionsResource)(nil)
	_ resource.ResourceWithImportState = (*fiatDepositInstructionsResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*fiatDepositInstructionsResource)(nil)
)

// NewFiatDepositInstructionsResource is the constructor of
// platform_fiat_deposit_instructions.
func NewFiatDepositInstructionsResource() resource.Resource {
	return &fiatDepositInstructionsResource{}
}

// fiatDepositInstructionsResource creates a set of fiat deposit
// instructions and reads it back. The service has no endpoint to change or
// delete instructions: every argument change is a replacement and Delete
// only forgets.
type fiatDepositInstructionsResource struct {
	data *providerData
}

func (r *fiatDepositInstructionsResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_fiat_deposit_instructions"
}

// newInstructionsNote ends the description of every argument.
const newInstructionsNote = " Changing it creates a new set of instructions (replacement); the old set stays on the service."

func (r *fiatDepositInstructionsResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	// Optional and computed arguments keep their recorded value unless the
	// configuration sets one; only the configuration can replace the set.
	keepOrReplace := []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()}
	stable := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	nonEmpty := []validator.String{stringvalidator.LengthAtLeast(1)}
	attrs := map[string]schema.Attribute{
		"id": schema.StringAttribute{
			MarkdownDescription: "Identifier of the instructions, used to read them. Import uses it.",
			Computed:            true,
			PlanModifiers:       stable,
		},
		"profile_id": schema.StringAttribute{
			MarkdownDescription: "Profile the deposits are credited to." + newInstructionsNote,
			Required:            true,
			Validators:          nonEmpty,
			PlanModifiers:       replace,
		},
		"fiat_network": schema.StringAttribute{
			MarkdownDescription: "Fiat network of the deposits: one of " + enumDescription(client.FiatNetworks) +
				". The service documents the instructions of `WIRE` only; for other networks " +
				"`fiat_network_instructions.wire` is null." + newInstructionsNote,
			Required:   true,
			Validators: []validator.String{stringvalidator.OneOf(client.FiatNetworks...)},
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplaceIf(
				replaceUnlessUnknownAfterImport,
				"Changing it creates a new set of instructions, except right after an import of instructions "+
					"whose network the service does not report: then the configured value is recorded.",
				"Changing it creates a new set of instructions, except right after an import of instructions "+
					"whose network the service does not report: then the configured value is recorded.",
			)},
		},
		"ref_id": schema.StringAttribute{
			MarkdownDescription: "Client id that makes the create idempotent: the service never creates two sets " +
				"for the same `ref_id`. When unset, the provider generates a UUID, sends it with the request and " +
				"every retry of it, and records it." + newInstructionsNote,
			Optional:      true,
			Computed:      true,
			Validators:    nonEmpty,
			PlanModifiers: keepOrReplace,
		},
		"identity_id": schema.StringAttribute{
			MarkdownDescription: "Identity of the depositing user. Needed only by customers with third-party " +
				"integrations depositing for end users; when unset, the service's answer is recorded." + newInstructionsNote,
			Optional:      true,
			Computed:      true,
			Validators:    nonEmpty,
			PlanModifiers: keepOrReplace,
		},
		"account_id": schema.StringAttribute{
			MarkdownDescription: "Account associated with the identity; same condition as `identity_id`. When " +
				"unset, the service's answer (if any) is recorded." + newInstructionsNote,
			Optional:      true,
			Computed:      true,
			Validators:    nonEmpty,
			PlanModifiers: keepOrReplace,
		},
		"routing_number_type": schema.StringAttribute{
			MarkdownDescription: "Kind of routing number of `WIRE` instructions: one of " +
				enumDescription(client.RoutingNumberTypes) + ". When unset, the kind the service chose is " +
				"recorded." + newInstructionsNote,
			Optional:      true,
			Computed:      true,
			Validators:    []validator.String{stringvalidator.OneOf(client.RoutingNumberTypes...)},
			PlanModifiers: keepOrReplace,
		},
		"metadata": schema.MapAttribute{
			MarkdownDescription: metadataDescription("the instructions") + newInstructionsNote,
			ElementType:         types.StringType,
			Optional:            true,
			Validators:          metadataValidators(),
			PlanModifiers:       []planmodifier.Map{mapplanmodifier.RequiresReplace()},
		},
		"status": schema.StringAttribute{
			MarkdownDescription: fdiStatusDescription + " When a refresh finds `DEPRECATED`, Terraform plans a " +
				"replacement by a new, valid set.",
			Computed: true,
		},
		"memo_id": schema.StringAttribute{
			MarkdownDescription: fdiMemoIDDescription,
			Computed:            true,
			PlanModifiers:       stable,
		},
		"customer_id": schema.StringAttribute{
			MarkdownDescription: fdiCustomerIDDescription,
			Computed:            true,
			PlanModifiers:       stable,
		},
		"created_at": schema.StringAttribute{
			MarkdownDescription: fdiCreatedAtDescription,
			CustomType:          timetypes.RFC3339Type{},
			Computed:            true,
			PlanModifiers:       stable,
		},
	}
	for name, a := range fiatDepositInstructionsComputed() {
		attrs[name] = a.resourceAttribute()
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A set of fiat deposit instructions: where and how to send a fiat deposit to a " +
			"profile (`POST /transfer/fiat-deposit-instructions`, read back with `GET …/{id}`).\n\n" +
			"The service has no endpoint to change or delete instructions. Every argument change therefore " +
			"creates a new set (replacement), and destroying the resource only removes it from the Terraform " +
			"state: the instructions stay on the service. When a refresh finds the instructions `DEPRECATED`, " +
			"Terraform plans their replacement by a new set; when the service no longer knows them, Terraform " +
			"plans to create them again.\n\n" +
			"The create carries a `ref_id` (generated when not configured), so a retried request never creates " +
			"a second set.",
		Attributes: attrs,
	}
}

// replaceUnlessUnknownAfterImport requires a replacement when the argument
// changes, except when its prior value is null while the object exists,
// which happens only after an import of instructions whose fiat_network
// the service does not report.
func replaceUnlessUnknownAfterImport(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = !req.StateValue.IsNull()
}

func (r *fiatDepositInstructionsResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

// request is the create request of m with the given ref_id.
func (m *fiatDepositInstructionsModel) request(ctx context.Context, refID string) (client.FiatDepositInstructionsRequest, error) {
	req := client.FiatDepositInstructionsRequest{
		ProfileID:         knownString(m.ProfileID),
		FiatNetwork:       knownString(m.FiatNetwork),
		RefID:             refID,
		IdentityID:        knownString(m.IdentityID),
		AccountID:         knownString(m.AccountID),
		RoutingNumberType: knownString(m.RoutingNumberType),
	}
	if !m.Metadata.IsNull() && !m.Metadata.IsUnknown() {
		req.Metadata = map[string]string{}
		if d := m.Metadata.ElementsAs(ctx, &req.Metadata, false); d.HasError() {
			return req, errors.New("metadata is not a map of strings")
		}
	}
	return req, nil
}

// instructionsDigest is the digest of the request of m without its ref_id,
// under which unconfirmed creates are remembered.
func instructionsDigest(ctx context.Context, m *fiatDepositInstructionsModel) string {
	req, err := m.request(ctx, "")
	if err != nil {
		return ""
	}
	return requestDigest("fiat_deposit_instructions", req)
}

func (r *fiatDepositInstructionsResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	switch {
	case req.Plan.Raw.IsNull():
		if !req.State.Raw.IsNull() {
			resp.Diagnostics.AddWarning("Destroying fiat deposit instructions does not delete them",
				"The service has no endpoint to delete fiat deposit instructions: destroy only removes them from "+
					"the Terraform state, and they stay usable on the service.")
		}
		return
	case req.State.Raw.IsNull():
		r.planRetriedRefID(ctx, req, resp)
		return
	}
	var state fiatDepositInstructionsModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if state.Status.ValueString() != client.FiatDepositInstrStatusDeprecated {
		return
	}
	// Deprecated instructions must no longer be used: plan a new set.
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("status"), types.StringUnknown())...)
	resp.RequiresReplace = append(resp.RequiresReplace, path.Root("status"))
	resp.Diagnostics.AddWarning("Fiat deposit instructions are deprecated",
		fmt.Sprintf("The service reports the fiat deposit instructions %s (memo_id %s) as DEPRECATED: they must no "+
			"longer be used. Terraform plans to replace them by a new set, with a new memo_id and new account "+
			"details; update whoever sends deposits with the new values.", state.ID.ValueString(), state.MemoID.ValueString()))
}

// planRetriedRefID plans the ref_id of an earlier create whose outcome is
// unknown when the new instructions are the same request and their ref_id is
// not configured (see unconfirmed_creates.go).
func (r *fiatDepositInstructionsResource) planRetriedRefID(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if r.data == nil || !req.Config.Raw.IsFullyKnown() {
		return
	}
	var plan fiatDepositInstructionsModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !plan.RefID.IsUnknown() {
		return
	}
	refID, ok := r.data.unconfirmed.lookup(instructionsDigest(ctx, &plan))
	if !ok {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("ref_id"), refID)...)
	resp.Diagnostics.AddWarning("Retrying fiat deposit instructions with the same ref_id",
		fmt.Sprintf("An earlier create of these instructions with ref_id %s ended without confirmation from the "+
			"service. Applying sends the same request with the same ref_id, so the service answers with the set "+
			"it may already have created instead of creating a second one.", refID))
}

func (r *fiatDepositInstructionsResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if r.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	var plan fiatDepositInstructionsModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	refID := knownString(plan.RefID)
	if refID == "" {
		refID = r.data.newID()
	}
	body, err := plan.request(ctx, refID)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("metadata"), "Invalid metadata", err.Error())
		return
	}
	tflog.Info(ctx, "creating fiat deposit instructions", map[string]any{
		"ref_id": refID, "profile_id": body.ProfileID, "fiat_network": body.FiatNetwork,
	})
	f, err := r.data.client.CreateFiatDepositInstructions(ctx, body)
	plan.RefID = types.StringValue(refID)
	if err != nil {
		if createOutcomeUnknown(err, client.PathFiatDepositInstructions) {
			plan.clearUnknown()
			resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
			resp.Diagnostics.AddError("Outcome of fiat deposit instructions create unknown",
				fmt.Sprintf("The instructions with ref_id %s were requested, but the service did not confirm them: "+
					"%s.\n\nThey may or may not have been created. Applying again without changing the arguments "+
					"retries with the same ref_id %s, so the service answers with the set it may already have "+
					"created instead of creating a second one.", refID, err, refID))
			return
		}
		summary, detail := instructionsRefusal(err, refID)
		resp.Diagnostics.AddError(summary, detail)
		return
	}
	resp.Diagnostics.Append(plan.fromAPI(f, true)...)
	if resp.Diagnostics.HasError() {
		return
	}
	tflog.Info(ctx, "fiat deposit instructions created", map[string]any{"ref_id": refID, "id": f.ID})
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// instructionsRefusal is the diagnostic of a create the service refused.
func instructionsRefusal(err error, refID string) (summary, detail string) {
	switch {
	case errors.Is(err, client.ErrConflict):
		return "Fiat deposit instructions ref_id already used",
			fmt.Sprintf("The service reports that ref_id %s is already used by other fiat deposit instructions: "+
				"%s.\n\nNo new set was created. Give these instructions another ref_id, leave ref_id unset to have "+
				"one generated, or import the existing set by its id.", refID, err)
	case errors.Is(err, client.ErrValidation):
		return "Fiat deposit instructions rejected",
			fmt.Sprintf("The service rejected the instructions with ref_id %s, so nothing was created: %s.\n\n"+
				"Correct the arguments the answer names and apply again.", refID, err)
	case errors.Is(err, client.ErrForbidden):
		return "Not allowed to create fiat deposit instructions",
			fmt.Sprintf("The service refused to create the instructions with ref_id %s: %s.\n\nCreating "+
				"instructions needs the OAuth scope %s: have it granted to the client credentials, and if the "+
				"provider's scopes argument pins the token's scopes, include it there.", refID, err,
				client.ScopeWriteFiatDepositInstr)
	case errors.Is(err, client.ErrUnauthorized):
		return "Authentication failed",
			fmt.Sprintf("The instructions with ref_id %s were not created: %s.\n\nCheck the provider's client_id "+
				"and client_secret.", refID, err)
	default:
		return "Creating fiat deposit instructions failed",
			fmt.Sprintf("The service refused the instructions with ref_id %s, so nothing was created: %s.", refID, err)
	}
}

// clearUnknown turns every unknown value of m into null, for the state of
// a create whose outcome is unknown.
func (m *fiatDepositInstructionsModel) clearUnknown() {
	for _, s := range []*types.String{
		&m.ID, &m.ProfileID, &m.FiatNetwork, &m.RefID, &m.IdentityID, &m.AccountID, &m.RoutingNumberType,
		&m.Status, &m.MemoID, &m.CustomerID,
	} {
		if s.IsUnknown() {
			*s = types.StringNull()
		}
	}
	if m.Metadata.IsUnknown() {
		m.Metadata = types.MapNull(types.StringType)
	}
	if m.CreatedAt.IsUnknown() {
		m.CreatedAt = timetypes.NewRFC3339Null()
	}
	computed := fiatDepositInstructionsComputed()
	if m.FiatAccountOwner.IsUnknown() {
		m.FiatAccountOwner = types.ObjectNull(computed["fiat_account_owner"].objectType().AttrTypes)
	}
	if m.FiatNetworkInstructions.IsUnknown() {
		m.FiatNetworkInstructions = types.ObjectNull(computed["fiat_network_instructions"].objectType().AttrTypes)
	}
}

// readInstructionsError is the diagnostic of a failed read of instructions id.
func readInstructionsError(err error, id string) (summary, detail string) {
	if errors.Is(err, client.ErrForbidden) {
		return "Not allowed to read fiat deposit instructions",
			fmt.Sprintf("Reading the fiat deposit instructions %s failed: %s.\n\nReading instructions needs "+
				"the OAuth scope %s: have it granted to the client credentials, and if the provider's scopes "+
				"argument pins the token's scopes, include it there.", id, err, client.ScopeReadFiatDepositInstr)
	}
	return "Reading fiat deposit instructions failed",
		fmt.Sprintf("Reading the fiat deposit instructions %s failed: %s.\n\nCheck the provider configuration and "+
			"the service's availability, then try again.", id, err)
}

func (r *fiatDepositInstructionsResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	if r.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	var state fiatDepositInstructionsModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if state.ID.IsNull() {
		// A create whose outcome is unknown (Terraform holds it tainted).
		r.data.unconfirmed.remember(instructionsDigest(ctx, &state), state.RefID.ValueString())
		resp.Diagnostics.AddWarning("Fiat deposit instructions not confirmed",
			fmt.Sprintf("The last create of these instructions (ref_id %s) ended without confirmation from the "+
				"service. Terraform plans to create them again; with unchanged arguments the retry uses the same "+
				"ref_id, so the service does not create a second set.", state.RefID.ValueString()))
		return
	}
	f, err := r.data.client.GetFiatDepositInstructions(ctx, state.ID.ValueString())
	if errors.Is(err, client.ErrNotFound) {
		tflog.Warn(ctx, "fiat deposit instructions not found; removing them from state", map[string]any{"id": state.ID.ValueString()})
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		summary, detail := readInstructionsError(err, state.ID.ValueString())
		resp.Diagnostics.AddError(summary, detail)
		return
	}
	resp.Diagnostics.Append(state.fromAPI(f, false)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update records configured values of arguments that the service does not
// report, after an import (see replaceUnlessUnknownAfterImport); every
// other change is a replacement. It sends nothing and refreshes the
// computed attributes.
func (r *fiatDepositInstructionsResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if r.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	var plan, state fiatDepositInstructionsModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	f, err := r.data.client.GetFiatDepositInstructions(ctx, state.ID.ValueString())
	if err != nil {
		summary, detail := readInstructionsError(err, state.ID.ValueString())
		resp.Diagnostics.AddError(summary, detail)
		return
	}
	resp.Diagnostics.Append(plan.fromAPI(f, true)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *fiatDepositInstructionsResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state fiatDepositInstructionsModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if state.ID.IsNull() {
		// Deleting a tainted, unconfirmed create before its retry: keep its
		// ref_id for the create that follows in this apply.
		if r.data != nil {
			r.data.unconfirmed.remember(instructionsDigest(ctx, &state), state.RefID.ValueString())
		}
		return
	}
	resp.Diagnostics.AddWarning("Fiat deposit instructions still exist on the service",
		fmt.Sprintf("The fiat deposit instructions %s (memo_id %s) were removed from the Terraform state only. The "+
			"service has no endpoint to delete them: they still exist and deposits quoting them are still "+
			"credited. No API call was made.", state.ID.ValueString(), state.MemoID.ValueString()))
}

func (r *fiatDepositInstructionsResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}
