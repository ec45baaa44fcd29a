package provider

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// NewFiatDepositInstructionsResource is the constructor of
// platform_fiat_deposit_instructions.
func NewFiatDepositInstructionsResource() resource.Resource {
	return newMoneyResource(&instructionsType)
}

// NewFiatDepositInstructionsListResource is the platform_fiat_deposit_instructions list resource.
func NewFiatDepositInstructionsListResource() list.ListResource {
	return newListResource(&fiatDepositInstructionsList)
}

// fiatDepositInstructionsList declares the
// platform_fiat_deposit_instructions list resource.
var fiatDepositInstructionsList = listDeclaration[client.ListFiatDepositInstructionsQuery, client.FiatDepositInstructions]{
	typeName: "platform_fiat_deposit_instructions",
	description: "Finds the fiat deposit instructions of the customer (`GET /transfer/fiat-deposit-instructions`, " +
		"scope `transfer:read_fiat_deposit_instructions`), newest first. Configuration generated from the " +
		"results imports them by identity; nothing is created.",
	filters: listFilters[client.ListFiatDepositInstructionsQuery]{
		arrayFilter("ids", "Only the instructions with these ids.",
			func(q *client.ListFiatDepositInstructionsQuery) *[]string { return &q.IDs }),
		arrayFilter("ref_ids", "Only the instructions made with these ref_ids.",
			func(q *client.ListFiatDepositInstructionsQuery) *[]string { return &q.RefIDs }),
	},
	limit: func(q *client.ListFiatDepositInstructionsQuery) *int { return &q.MaxItems },
	list:  (*client.Client).FiatDepositInstructionsList,
	describe: func(f *client.FiatDepositInstructions) (shapedWriter, string, string) {
		m := newFiatDepositInstructionsModel()
		m.fromAPI(f, false)
		return m, f.ID, fmt.Sprintf("%s instructions, memo_id %s (%s)", m.args.FiatNetwork.ValueString(), f.MemoID, f.Status)
	},
}

// instructionsType declares platform_fiat_deposit_instructions on the
// money core: a set of fiat deposit instructions, created with a ref_id and
// read back by id. The service has no endpoint to change or delete
// instructions: every argument change is a replacement, a destroy only
// forgets, and a set the service deprecated is replaced by a new one,
// which takes the next ref_id derived from the same arguments.
var instructionsType = moneyType[fiatDepositInstructionsArgs, *client.FiatDepositInstructions, client.FiatDepositInstructionsRequest]{
	objects:  instructionsObjects,
	schema:   instructionsSchema,
	identity: "fiat deposit instructions",
	refresh:  refreshPolicy{scopeRefused: keepWithWarning, gone: forgetWithWarning, another: failKeepingState},
	say: lifecycleWords[fiatDepositInstructionsArgs]{
		destroy: &message{"Destroying fiat deposit instructions does not delete them",
			"The service has no endpoint to delete fiat deposit instructions: destroy only removes them from " +
				"the Terraform state, and they stay usable on the service."},
		unconfirmed:  ", so the service does not create a second set",
		notRefreshed: "The instructions keep the values recorded when they were created, and a set the service deprecates is not noticed.",
		gone: func(m shapedState[fiatDepositInstructionsArgs]) message {
			return message{"Fiat deposit instructions no longer exist",
				fmt.Sprintf("The service no longer knows the fiat deposit instructions %s (memo_id %s): they were "+
					"removed from the Terraform state, and Terraform plans to create a new set. Update whoever sends "+
					"deposits with its values once it is created.", id(m).ValueString(), m.str("memo_id").ValueString())}
		},
		forgotten: func(m shapedState[fiatDepositInstructionsArgs]) message {
			return message{"Fiat deposit instructions still exist on the service",
				fmt.Sprintf("The fiat deposit instructions %s (memo_id %s) were removed from the Terraform state only. "+
					"The service has no endpoint to delete them: they still exist and deposits quoting them are still "+
					"credited. No API call was made.", id(m).ValueString(), m.str("memo_id").ValueString())}
		},
	},
	plan: typePlan[fiatDepositInstructionsArgs]{
		refID:  func(a *fiatDepositInstructionsArgs) *types.String { return &a.RefID },
		unread: func(a fiatDepositInstructionsArgs) bool { return a.ProfileID.IsNull() },
		summary: func(a fiatDepositInstructionsArgs) string {
			return fmt.Sprintf("%s instructions for profile %s", knownString(a.FiatNetwork), knownString(a.ProfileID))
		},
	},
	create: typeCreate[fiatDepositInstructionsArgs, *client.FiatDepositInstructions, client.FiatDepositInstructionsRequest]{
		request: func(ctx context.Context, a fiatDepositInstructionsArgs, refID string) (client.FiatDepositInstructionsRequest, error) {
			return a.request(ctx, refID)
		},
		derive: func(ctx context.Context, a fiatDepositInstructionsArgs, after string) (string, bool) {
			return a.derivedRefID(ctx, after)
		},
		post: func(ctx context.Context, c *client.Client, body client.FiatDepositInstructionsRequest) (*client.FiatDepositInstructions, error) {
			return c.CreateFiatDepositInstructions(ctx, body)
		},
		existing:    client.ExistingFiatDepositInstructions,
		differences: instructionsDifferences,
		lookupFirst: true,
		created: func(_ context.Context, m *shapedState[fiatDepositInstructionsArgs], f *client.FiatDepositInstructions, _ createOutcome, diags *diag.Diagnostics) {
			diags.Append((*fiatDepositInstructionsModel)(m).fromAPI(f, true)...)
		},
	},
	read: typeRead[fiatDepositInstructionsArgs, *client.FiatDepositInstructions]{
		recorded: func(_ context.Context, m shapedState[fiatDepositInstructionsArgs], f *client.FiatDepositInstructions) []string {
			return fieldDifferences([]recordedField{
				{"profile_id", m.args.ProfileID, f.ProfileID}, {"ref_id", m.args.RefID, deref(f.RefID)},
			})
		},
		refreshed: readInstructions,
		adopt:     readInstructions,
	},
	change: typeChange[fiatDepositInstructionsArgs]{
		stale: func(ctx context.Context, state tfsdk.State) bool {
			status, diags := instructionsStatus(ctx, state)
			return !diags.HasError() && status.ValueString() == client.FiatDepositInstrStatusDeprecated
		},
		planChange: planDeprecatedInstructions,
		update:     updateInstructions,
	},
}

// readInstructions sets the state m from the instructions f a refresh or
// an import read.
func readInstructions(_ context.Context, m *shapedState[fiatDepositInstructionsArgs], f *client.FiatDepositInstructions, diags *diag.Diagnostics) {
	diags.Append((*fiatDepositInstructionsModel)(m).fromAPI(f, false)...)
}

// newInstructionsNote ends the description of every argument.
const newInstructionsNote = " Changing it creates a new set of instructions (replacement); the old set stays on the service."

func instructionsSchema() schema.Schema {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	// Optional and computed arguments keep their recorded value unless the
	// configuration sets one; only the configuration can replace the set.
	keepOrReplace := []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()}
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
			Validators: []validator.String{fiatNetworkValues},
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
	fiatDepositInstructionsShape.computedInto(attrs, allButStatus)
	return schema.Schema{
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

// planDeprecatedInstructions plans the replacement of instructions the
// service deprecated: they must no longer be used.
func planDeprecatedInstructions(ctx context.Context, _ *moneyRun, _ resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, state shapedState[fiatDepositInstructionsArgs]) {
	if state.str("status").ValueString() != client.FiatDepositInstrStatusDeprecated {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("status"), types.StringUnknown())...)
	resp.RequiresReplace = append(resp.RequiresReplace, path.Root("status"))
	resp.Diagnostics.AddWarning("Fiat deposit instructions are deprecated",
		fmt.Sprintf("The service reports the fiat deposit instructions %s (memo_id %s) as DEPRECATED: they must no "+
			"longer be used. Terraform plans to replace them by a new set, with a new memo_id and new account "+
			"details; update whoever sends deposits with the new values.", id(state).ValueString(), state.str("memo_id").ValueString()))
}

// instructionsStatus is the status of the instructions in state.
func instructionsStatus(ctx context.Context, state getAttributer) (types.String, diag.Diagnostics) {
	var status types.String
	diags := state.GetAttribute(ctx, path.Root("status"), &status)
	return status, diags
}

// instructionsObjects is how the core reads fiat deposit instructions: looked
// up by ref_id through their list (scope
// transfer:read_fiat_deposit_instructions), at plan and before each create,
// since the reference publishes no replay answer for this create. A set the
// service deprecated is superseded: a new set takes the next derived
// ref_id.
var instructionsObjects = moneyObjects[*client.FiatDepositInstructions]{
	words:     instructionsWords,
	id:        func(f *client.FiatDepositInstructions) string { return f.ID },
	createdAt: func(f *client.FiatDepositInstructions) time.Time { return f.CreatedAt },
	describe:  instructionsSummary,
	lookup:    lookupInstructions,
	get: func(ctx context.Context, c *client.Client, id string) (*client.FiatDepositInstructions, error) {
		return c.GetFiatDepositInstructions(ctx, id)
	},
	readScope: client.ScopeReadFiatDepositInstr,
	lists:     instructionsLists,
	// The seed's interface has no list of instructions, and names the
	// ref_id of its create the client id for idempotence.
	keyWithoutLookup: "the service's interface without that lookup names the ref_id of Create Fiat Deposit " +
		"Instructions its \"client id for idempotence\", so the service makes one set of instructions per ref_id",
	superseded: func(f *client.FiatDepositInstructions) bool {
		return f.Status == client.FiatDepositInstrStatusDeprecated
	},
	// A deprecated set stays deprecated (and the plan replaces it).
	final: func(recorded func(string) string) bool {
		return recorded("status") == client.FiatDepositInstrStatusDeprecated
	},
}

// instructionsLists reads many sets of instructions at once through their
// list, filtered by ids or ref_ids (see listedBy).
var instructionsLists = listedBy(
	func(ctx context.Context, c *client.Client, ids, refIDs []string) iter.Seq2[*client.FiatDepositInstructions, error] {
		return c.FiatDepositInstructionsList(ctx, client.ListFiatDepositInstructionsQuery{IDs: ids, RefIDs: refIDs})
	},
	func(f *client.FiatDepositInstructions) string { return f.ID },
	func(f *client.FiatDepositInstructions) string { return deref(f.RefID) })

// instructionsSummary describes a set of instructions in a few words.
func instructionsSummary(f *client.FiatDepositInstructions) string {
	return shown(fmt.Sprintf("instructions for profile %s, memo_id %s, status %s", f.ProfileID, f.MemoID, f.Status))
}

// lookupInstructions finds the instructions made with refID; only a set
// with that ref_id counts, whatever the answer's filtering.
func lookupInstructions(ctx context.Context, c *client.Client, refID string) (*client.FiatDepositInstructions, bool, error) {
	q := client.ListFiatDepositInstructionsQuery{RefIDs: []string{refID}, MaxItems: 100}
	return listedByRefID(c.FiatDepositInstructionsList(ctx, q), refID,
		func(f *client.FiatDepositInstructions) string { return deref(f.RefID) })
}

// updateInstructions records configured values of arguments that the
// service does not report, after an import (see
// replaceUnlessUnknownAfterImport); every other change is a replacement.
// It sends nothing and refreshes the computed attributes.
func updateInstructions(ctx context.Context, run *moneyRun, plan, state shapedState[fiatDepositInstructionsArgs], diags *diag.Diagnostics) (shapedState[fiatDepositInstructionsArgs], bool) {
	objID := id(state).ValueString()
	f, err := run.client.GetFiatDepositInstructions(ctx, objID)
	if err != nil {
		summary, detail := readInstructionsError(err, objID)
		diags.AddError(failure(summary, err), detail)
		return plan, false
	}
	diags.Append((*fiatDepositInstructionsModel)(&plan).fromAPI(f, true)...)
	return plan, !diags.HasError()
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
