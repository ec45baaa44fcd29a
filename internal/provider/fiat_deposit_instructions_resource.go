package provider

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/platform/terraform-provider-platform/internal/client"
)

var (
	_ resource.Resource                = (*fiatDepositInstructionsResource)(nil)
	_ resource.ResourceWithConfigure   = (*fiatDepositInstructionsResource)(nil)
	_ resource.ResourceWithImportState = (*fiatDepositInstructionsResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*fiatDepositInstructionsResource)(nil)
	_ resource.ResourceWithIdentity    = (*fiatDepositInstructionsResource)(nil)
)

func (r *fiatDepositInstructionsResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = idIdentitySchema("fiat deposit instructions")
}

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
		"profile_id": schema.StringAttribute{
			MarkdownDescription: "Profile the deposits are credited to." + newInstructionsNote,
			Required:            true,
			Validators:          nonEmpty,
			PlanModifiers:       replace,
		},
		"fiat_network": schema.StringAttribute{
			MarkdownDescription: "Fiat network of the deposits: one of " + codeList(client.FiatNetworks) +
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
				"for the same `ref_id`. When unset, the provider derives it from the other arguments (a name-based " +
				"UUID of the request), sends it with the request and every retry of it, and records it; after the " +
				"set made with it is deprecated, a replacement takes the next one derived from the same arguments " +
				"and the deprecated set's id." + newInstructionsNote,
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
				codeList(client.RoutingNumberTypes) + ". When unset, the kind the service chose is " +
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
	}
	// The computed attributes are the instructions' own; those that never
	// change keep their recorded value in a plan.
	for name, a := range fiatDepositInstructionsShape.resourceAttributes() {
		if str, ok := a.(schema.StringAttribute); ok && name != "status" {
			str.PlanModifiers = stable
			a = str
		}
		attrs[name] = a
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A set of fiat deposit instructions: where and how to send a fiat deposit to a " +
			"profile (`POST /transfer/fiat-deposit-instructions`, read back with `GET …/{id}`).\n\n" +
			"The service has no endpoint to change or delete instructions. Every argument change therefore " +
			"creates a new set (replacement), and destroying the resource only removes it from the Terraform " +
			"state: the instructions stay on the service. When a refresh finds the instructions `DEPRECATED`, " +
			"Terraform plans their replacement by a new set; when the service no longer knows them, Terraform " +
			"plans to create them again.\n\n" +
			"The create carries a `ref_id` (derived from the arguments when not configured), so a retried " +
			"request, or the next run after a crash or a timeout, never creates a second set: when the service " +
			"answers that the `ref_id` was already used for the same request, that set is recorded.",
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

// instructionsWords are the words of a fiat deposit instructions create.
var instructionsWords = createWords{
	kind:         "fiat_deposit_instructions",
	resourceType: "platform_fiat_deposit_instructions",
	noun:         "set of fiat deposit instructions",
	plural:       "sets of fiat deposit instructions",
	title:        "Fiat deposit instructions",
	unknown:      "Outcome of fiat deposit instructions create unknown",
	made:         "created",
	path:         client.PathFiatDepositInstructions,
	scope:        client.ScopeWriteFiatDepositInstr,
}

// maxSuccessorRefIDs bounds the successors a create tries after ref_ids
// whose instructions the service has deprecated.
const maxSuccessorRefIDs = 16

// instructionsDifferences lists how the instructions f differ from the
// request req: profile, ref_id, metadata, the identity and account when
// requested (they must come back equal), and a network other than the
// requested one.
func instructionsDifferences(req client.FiatDepositInstructionsRequest, f *client.FiatDepositInstructions) []string {
	var d []string
	d = differ(d, "profile_id", req.ProfileID, &f.ProfileID, exactly)
	if req.RefID != "" {
		d = differ(d, "ref_id", req.RefID, f.RefID, exactly)
	}
	if req.IdentityID != "" {
		d = differ(d, "identity_id", req.IdentityID, &f.IdentityID, exactly)
	}
	if req.AccountID != "" {
		d = differ(d, "account_id", req.AccountID, f.AccountID, exactly)
	}
	if m := metadataDifference(req.Metadata, f.Metadata); m != "" {
		d = append(d, m)
	}
	if why := unusableID(f.ID); why != "" {
		d = append(d, "id: answered "+why)
	}
	if req.FiatNetwork != "WIRE" && f.FiatNetworkInstructions != nil && f.FiatNetworkInstructions.Wire != nil {
		d = append(d, fmt.Sprintf("fiat_network: requested %q, answered WIRE instructions", req.FiatNetwork))
	}
	return d
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
		r.planRefID(ctx, req, resp)
		return
	}
	// An unchanged set reads its status alone: the whole state is read
	// only when something is to be said about it.
	status, d := instructionsStatus(ctx, req.State)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	changed := !req.Plan.Raw.Equal(req.State.Raw)
	if !changed && status.ValueString() != client.FiatDepositInstrStatusDeprecated {
		return
	}
	state, d := getInstructions(ctx, req.State)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	if changed && refuseUnreadReplacement(instructionsWords, state.id(), state.args.ProfileID, &resp.Diagnostics) {
		return
	}
	if status.ValueString() != client.FiatDepositInstrStatusDeprecated {
		return
	}
	// Deprecated instructions must no longer be used: plan a new set.
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("status"), types.StringUnknown())...)
	resp.RequiresReplace = append(resp.RequiresReplace, path.Root("status"))
	resp.Diagnostics.AddWarning("Fiat deposit instructions are deprecated",
		fmt.Sprintf("The service reports the fiat deposit instructions %s (memo_id %s) as DEPRECATED: they must no "+
			"longer be used. Terraform plans to replace them by a new set, with a new memo_id and new account "+
			"details; update whoever sends deposits with the new values.", state.id().ValueString(), state.str("memo_id").ValueString()))
}

// instructionsStatus is the status of the instructions in state.
func instructionsStatus(ctx context.Context, state getAttributer) (types.String, diag.Diagnostics) {
	var status types.String
	diags := state.GetAttribute(ctx, path.Root("status"), &status)
	return status, diags
}

// planUnchanged: unchanged instructions are left as they are unless the
// service deprecated them (see ModifyPlan).
func (r *fiatDepositInstructionsResource) planUnchanged(ctx context.Context, _ *providerData, state tfsdk.State) bool {
	status, diags := instructionsStatus(ctx, state)
	return len(diags) == 0 && status.ValueString() != client.FiatDepositInstrStatusDeprecated
}

// planRefID refuses a new set whose ref_id another new set of the
// configuration plans too. The derived ref_id is chosen at apply (see
// Create), where a deprecated set can be skipped.
func (r *fiatDepositInstructionsResource) planRefID(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !req.Config.Raw.IsFullyKnown() {
		return
	}
	config, d := getInstructions(ctx, req.Config)
	resp.Diagnostics.Append(d...)
	cfg := config.args
	if resp.Diagnostics.HasError() {
		return
	}
	planNewObject(ctx, r.data, newObjectPlan[*client.FiatDepositInstructions]{
		kind:       instructionsKind,
		configured: cfg.RefID,
		derive:     func() (string, bool) { return cfg.derivedRefID(ctx, "") },
		what:       fmt.Sprintf("%s instructions for profile %s", knownString(cfg.FiatNetwork), knownString(cfg.ProfileID)),
		differences: func(refID string, f *client.FiatDepositInstructions) []string {
			body, _ := cfg.request(ctx, refID)
			return instructionsDifferences(body, f)
		},
	}, resp)
}

func (r *fiatDepositInstructionsResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if r.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	plan, d := getInstructions(ctx, req.Plan)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	configured := knownString(plan.args.RefID) != ""
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateRefIDKey, originJSON(configured))...)
	refID, deprecated := knownString(plan.args.RefID), ""
	for range maxSuccessorRefIDs {
		if !configured {
			var ok bool
			if refID, ok = plan.args.derivedRefID(ctx, deprecated); !ok {
				resp.Diagnostics.AddAttributeError(path.Root("metadata"), "Invalid metadata", "metadata is not a map of strings")
				return
			}
		}
		res, diags := r.send(ctx, &plan, refID, !configured)
		if res.superseded {
			// The set made earlier with this ref_id is deprecated: a new
			// set takes the successor ref_id.
			tflog.Info(ctx, "instructions made with the derived ref_id are deprecated; trying its successor",
				map[string]any{"ref_id": refID, "id": res.obj.ID})
			deprecated = res.obj.ID
			continue
		}
		if diags.HasError() || res.outcome == outcomeRefused {
			resp.Diagnostics.Append(diags...)
			return
		}
		plan.args.RefID = types.StringValue(refID)
		if res.outcome == outcomeUnconfirmed {
			resp.Diagnostics.Append(diags...)
			plan.clearUnknown(ctx, &resp.Diagnostics)
			recordUnconfirmedCreate(ctx, resp, instructionsWords, plan.id(), refID, res.err,
				plan.set(ctx, &resp.State, resp.State.Schema))
			return
		}
		resp.Diagnostics.Append(diags...)
		resp.Diagnostics.Append(plan.fromAPI(res.obj, true)...)
		if resp.Diagnostics.HasError() {
			return
		}
		tflog.Info(ctx, "fiat deposit instructions recorded", map[string]any{"ref_id": refID, "id": res.obj.ID})
		resp.Diagnostics.Append(plan.set(ctx, &resp.State, resp.State.Schema)...)
		setIdentity(ctx, resp.Identity, plan.id(), &resp.Diagnostics)
		return
	}
	resp.Diagnostics.AddError("Fiat deposit instructions not created",
		fmt.Sprintf("The %d ref_ids derived for these instructions all belong to deprecated sets. Set ref_id in the "+
			"configuration to create a new set.", maxSuccessorRefIDs))
}

// instructionsKind is how the core reads fiat deposit instructions: looked
// up by ref_id through their list (scope
// transfer:read_fiat_deposit_instructions), at plan and before each create,
// since the reference publishes no replay answer for this create. A set the
// service deprecated is superseded: a new set takes the next derived
// ref_id.
var instructionsKind = moneyKind[*client.FiatDepositInstructions]{
	words:       instructionsWords,
	id:          func(f *client.FiatDepositInstructions) string { return f.ID },
	createdAt:   func(f *client.FiatDepositInstructions) time.Time { return f.CreatedAt },
	describe:    instructionsSummary,
	lookup:      lookupInstructions,
	lookupScope: client.ScopeReadFiatDepositInstr,
	superseded: func(f *client.FiatDepositInstructions) bool {
		return f.Status == client.FiatDepositInstrStatusDeprecated
	},
}

// instructionsSummary describes a set of instructions in a few words.
func instructionsSummary(f *client.FiatDepositInstructions) string {
	return shown(fmt.Sprintf("instructions for profile %s, memo_id %s, status %s", f.ProfileID, f.MemoID, f.Status))
}

// lookupInstructions finds the instructions made with refID; only a set
// with that ref_id counts, whatever the answer's filtering.
func lookupInstructions(ctx context.Context, c *client.Client, refID string) (*client.FiatDepositInstructions, bool, error) {
	q := client.ListFiatDepositInstructionsQuery{RefIDs: []string{refID}, MaxItems: 100}
	for f, err := range c.FiatDepositInstructionsList(ctx, q) {
		if err != nil {
			return nil, false, err
		}
		if deref(f.RefID) == refID {
			return f, true, nil
		}
	}
	return nil, false, nil
}

// send sends the create request of m with refID and sorts the answer.
func (r *fiatDepositInstructionsResource) send(ctx context.Context, m *fiatDepositInstructionsModel, refID string, derived bool) (createResult[*client.FiatDepositInstructions], diag.Diagnostics) {
	var diags diag.Diagnostics
	body, err := m.args.request(ctx, refID)
	if err != nil {
		diags.AddAttributeError(path.Root("metadata"), "Invalid metadata", err.Error())
		return createResult[*client.FiatDepositInstructions]{}, diags
	}
	tflog.Info(ctx, "creating fiat deposit instructions", map[string]any{
		"ref_id": refID, "profile_id": body.ProfileID, "fiat_network": body.FiatNetwork,
	})
	return createRun[*client.FiatDepositInstructions]{
		kind:     instructionsKind,
		refID:    refID,
		derived:  derived,
		recorded: r.data.attempts.has(instructionsWords.kind, refID),
		window:   r.data.recoveryWindow,
		now:      r.data.clock(),
		send: func(ctx context.Context) (*client.FiatDepositInstructions, error) {
			return r.data.client.CreateFiatDepositInstructions(ctx, body)
		},
		existing: client.ExistingFiatDepositInstructions,
		differences: func(f *client.FiatDepositInstructions) []string {
			return instructionsDifferences(body, f)
		},
		lookupFirst: true,
		data:        r.data,
	}.run(ctx)
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
	state, d := getInstructions(ctx, req.State)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	setIdentity(ctx, resp.Identity, state.id(), &resp.Diagnostics)
	if state.id().IsNull() {
		// A create whose outcome is unknown (Terraform holds it tainted).
		derived, _ := state.args.derivedRefID(ctx, "")
		if !recordUnconfirmed(ctx, r.data, req.Private, instructionsWords, state.args.RefID.ValueString(), derived, &resp.Diagnostics) {
			return
		}
		resp.Diagnostics.AddWarning("Fiat deposit instructions not confirmed",
			fmt.Sprintf("The last create of these instructions (ref_id %s) ended without confirmation from the "+
				"service. Terraform plans to create them again; with unchanged arguments the retry uses the same "+
				"ref_id, so the service does not create a second set.", state.args.RefID.ValueString()))
		return
	}
	f, err := r.data.client.GetFiatDepositInstructions(ctx, state.id().ValueString())
	if errors.Is(err, client.ErrNotFound) {
		tflog.Warn(ctx, "fiat deposit instructions not found; removing them from state", map[string]any{"id": state.id().ValueString()})
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		summary, detail := readInstructionsError(err, state.id().ValueString())
		resp.Diagnostics.AddError(failure(summary, err), detail)
		return
	}
	if d := recordedDifferences(state.id(), f.ID, []recordedField{
		{"profile_id", state.args.ProfileID, f.ProfileID}, {"ref_id", state.args.RefID, deref(f.RefID)},
	}); len(d) > 0 {
		anotherObject(instructionsWords, state.id().ValueString(), d, &resp.Diagnostics)
		return
	}
	resp.Diagnostics.Append(state.fromAPI(f, false)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(state.set(ctx, &resp.State, resp.State.Schema)...)
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
	plan, d := getInstructions(ctx, req.Plan)
	resp.Diagnostics.Append(d...)
	state, d := getInstructions(ctx, req.State)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	f, err := r.data.client.GetFiatDepositInstructions(ctx, state.id().ValueString())
	if err != nil {
		summary, detail := readInstructionsError(err, state.id().ValueString())
		resp.Diagnostics.AddError(failure(summary, err), detail)
		return
	}
	resp.Diagnostics.Append(plan.fromAPI(f, true)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(plan.set(ctx, &resp.State, resp.State.Schema)...)
	setIdentity(ctx, resp.Identity, plan.id(), &resp.Diagnostics)
}

func (r *fiatDepositInstructionsResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, d := getInstructions(ctx, req.State)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	if state.id().IsNull() {
		// A tainted, unconfirmed create, before its retry.
		derived, _ := state.args.derivedRefID(ctx, "")
		recordUnconfirmed(ctx, r.data, req.Private, instructionsWords, state.args.RefID.ValueString(), derived, &resp.Diagnostics)
		return
	}
	resp.Diagnostics.AddWarning("Fiat deposit instructions still exist on the service",
		fmt.Sprintf("The fiat deposit instructions %s (memo_id %s) were removed from the Terraform state only. The "+
			"service has no endpoint to delete them: they still exist and deposits quoting them are still "+
			"credited. No API call was made.", state.id().ValueString(), state.str("memo_id").ValueString()))
}

func (r *fiatDepositInstructionsResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importByID(ctx, req, resp)
}
