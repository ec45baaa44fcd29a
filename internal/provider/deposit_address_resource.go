package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
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
	_ resource.Resource                = (*depositAddressResource)(nil)
	_ resource.ResourceWithConfigure   = (*depositAddressResource)(nil)
	_ resource.ResourceWithImportState = (*depositAddressResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*depositAddressResource)(nil)
	_ resource.ResourceWithIdentity    = (*depositAddressResource)(nil)
)

// NewDepositAddressResource is the constructor of platform_deposit_address.
func NewDepositAddressResource() resource.Resource { return &depositAddressResource{} }

// depositAddressResource creates a crypto deposit address through the
// money-moving core and reads it back through List Deposit Addresses (ids
// filter). The service has no endpoint to change or delete an address:
// every argument change is a replacement and Delete only forgets.
type depositAddressResource struct {
	data *providerData
}

func (r *depositAddressResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_deposit_address"
}

func (r *depositAddressResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = idIdentitySchema("deposit address")
}

// newAddressNote ends the description of every argument.
const newAddressNote = " Changing it creates a new address (replacement); the old one stays on the service and " +
	"keeps receiving deposits."

func (r *depositAddressResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	keepOrReplace := []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()}
	nonEmpty := []validator.String{stringvalidator.LengthAtLeast(1)}
	attrs := map[string]schema.Attribute{
		"profile_id": schema.StringAttribute{
			MarkdownDescription: "Profile credited by deposits to the address." + newAddressNote,
			Required:            true,
			Validators:          nonEmpty,
			PlanModifiers:       replace,
		},
		"crypto_network": schema.StringAttribute{
			MarkdownDescription: "Network of the address: one of " + codeList(client.CryptoNetworks) + ". A network " +
				"this provider version does not know is a warning, not an error: the service adds networks over time." +
				newAddressNote,
			Required:      true,
			Validators:    []validator.String{stringvalidator.LengthAtLeast(1), cryptoNetworkValues},
			PlanModifiers: replace,
		},
		"identity_id": schema.StringAttribute{
			MarkdownDescription: "Identity of the end user who deposits to the address. When unset, the service's " +
				"answer (if any) is recorded." + newAddressNote,
			Optional:      true,
			Computed:      true,
			Validators:    nonEmpty,
			PlanModifiers: keepOrReplace,
		},
		"account_id": schema.StringAttribute{
			MarkdownDescription: "Account associated with the identity. When unset, the service's answer (if any) " +
				"is recorded." + newAddressNote,
			Optional:      true,
			Computed:      true,
			Validators:    nonEmpty,
			PlanModifiers: keepOrReplace,
		},
		"ref_id": schema.StringAttribute{
			MarkdownDescription: "Client id that makes the create idempotent: the service never creates two " +
				"addresses for the same `ref_id`. When unset, the provider derives it from the other arguments (a " +
				"name-based UUID of the request), shows it in the plan, sends it with the request and every retry " +
				"of it, and records it." + newAddressNote,
			Optional:      true,
			Computed:      true,
			Validators:    nonEmpty,
			PlanModifiers: keepOrReplace,
		},
		"metadata": schema.MapAttribute{
			MarkdownDescription: metadataDescription("the address (the service also adds them to the deposits to it)") +
				newAddressNote,
			ElementType:   types.StringType,
			Optional:      true,
			Validators:    metadataValidators(),
			PlanModifiers: []planmodifier.Map{mapplanmodifier.RequiresReplace()},
		},
		"conversion_target_asset": schema.StringAttribute{
			MarkdownDescription: "Asset credited for deposits of the platform's USD stablecoin: one of " +
				codeList(client.DepositAddressConversionTargetAssets) + ". When unset, the service's choice is " +
				"recorded." + newAddressNote,
			Optional:      true,
			Computed:      true,
			Validators:    []validator.String{stringvalidator.OneOf(client.DepositAddressConversionTargetAssets...)},
			PlanModifiers: keepOrReplace,
		},
	}
	// The computed attributes are the address's own; none of them changes
	// once the address exists, so a plan keeps their recorded values.
	for name, a := range depositAddressComputedShape.resourceAttributes() {
		switch at := a.(type) {
		case schema.StringAttribute:
			at.PlanModifiers = []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
			a = at
		case schema.ListAttribute:
			at.PlanModifiers = []planmodifier.List{listplanmodifier.UseStateForUnknown()}
			a = at
		}
		attrs[name] = a
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A crypto deposit address: an address on a blockchain network whose deposits are " +
			"credited to a profile (`POST /transfer/deposit-addresses`, read back through " +
			"`GET /transfer/deposit-addresses` by id).\n\n" +
			"The service has no endpoint to change or delete a deposit address. Every argument change therefore " +
			"creates a new address (replacement), and destroying the resource only removes it from the Terraform " +
			"state: the address still exists on the service and deposits sent to it are still credited. " +
			"`address` and `compatible_crypto_networks` are known once the address is created and do not change " +
			"afterwards.\n\n" +
			"The create carries a `ref_id` (derived from the arguments when not configured), so a retried " +
			"request, or the next run after a crash or a timeout, never creates a second address: when the " +
			"service answers that the `ref_id` was already used for the same request, that address is recorded.",
		Attributes: attrs,
	}
}

func (r *depositAddressResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

// depositAddressWords are the words of a deposit address create.
var depositAddressWords = createWords{
	kind:         "deposit_address",
	resourceType: "platform_deposit_address",
	noun:         "deposit address",
	plural:       "deposit addresses",
	title:        "Deposit address",
	unknown:      "Outcome of deposit address create unknown",
	made:         "created",
	path:         client.PathDepositAddresses,
	scope:        client.ScopeWriteDepositAddress,
}

// depositAddressKind is how the core reads deposit addresses: looked up by
// ref_id through their list (scope transfer:read_deposit_address) at plan;
// the create's replay answer is the published 409 with meta.existing.
var depositAddressKind = moneyKind[*client.DepositAddress]{
	words: depositAddressWords,
	id:    func(d *client.DepositAddress) string { return deref(d.ID) },
	createdAt: func(d *client.DepositAddress) time.Time {
		if d.CreatedAt == nil {
			return time.Time{}
		}
		return *d.CreatedAt
	},
	describe:    depositAddressSummary,
	lookup:      lookupDepositAddress,
	lookupScope: client.ScopeReadDepositAddress,
}

// lookupDepositAddress finds the address made with refID; only an address
// with that ref_id counts, whatever the answer's filtering.
func lookupDepositAddress(ctx context.Context, c *client.Client, refID string) (*client.DepositAddress, bool, error) {
	q := client.ListDepositAddressesQuery{RefIDs: []string{refID}, MaxItems: 100}
	for d, err := range c.DepositAddresses(ctx, q) {
		if err != nil {
			return nil, false, err
		}
		if deref(d.RefID) == refID {
			return d, true, nil
		}
	}
	return nil, false, nil
}

// readDepositAddress reads the address id through the list's ids filter.
// found is false when the service lists no address; other is an address
// the answer carried that is not id (the filter not applied).
func readDepositAddress(ctx context.Context, c *client.Client, id string) (found, other *client.DepositAddress, err error) {
	q := client.ListDepositAddressesQuery{IDs: []string{id}, MaxItems: 100}
	for d, err := range c.DepositAddresses(ctx, q) {
		if err != nil {
			return nil, nil, err
		}
		if deref(d.ID) == id {
			return d, nil, nil
		}
		if other == nil {
			other = d
		}
	}
	return nil, other, nil
}

// depositAddressUnchangedClaim is what an unchanged deposit address
// claims: its ref_id, which no new address of this configuration may take.
func depositAddressUnchangedClaim(s depositAddressModel) unchangedClaim {
	return unchangedClaim{depositAddressWords, s.args.RefID.ValueString(), "deposit address " + s.id().ValueString()}
}

func (r *depositAddressResource) planUnchanged(ctx context.Context, data *providerData, state tfsdk.State) bool {
	return planUnchangedClaiming(ctx, data, state, getDepositAddress, depositAddressUnchangedClaim)
}

func (r *depositAddressResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	switch {
	case req.Plan.Raw.IsNull():
		if !req.State.Raw.IsNull() {
			resp.Diagnostics.AddWarning("Destroying a deposit address does not delete it",
				"The service has no endpoint to delete a deposit address: destroy only removes it from the "+
					"Terraform state. The address still exists, and deposits sent to it are still credited to its "+
					"profile.")
		}
	case req.State.Raw.IsNull():
		r.planNew(ctx, req, resp)
	case req.Plan.Raw.Equal(req.State.Raw):
		keepUnchanged(ctx, r.data, req.State, getDepositAddress, depositAddressUnchangedClaim, &resp.Diagnostics)
	default:
		state, diags := getDepositAddress(ctx, req.State)
		resp.Diagnostics.Append(diags...)
		if resp.Diagnostics.HasError() {
			return
		}
		if refuseUnreadReplacement(depositAddressWords, state.id(), state.args.ProfileID, &resp.Diagnostics) {
			return
		}
		resp.Diagnostics.AddWarning("Changing a deposit address creates a NEW address",
			fmt.Sprintf("The arguments of the deposit address %s (%s) changed. The service cannot change a deposit "+
				"address, so Terraform plans a replacement: applying creates a new address with a new value, and "+
				"the old one is only forgotten: it still exists and deposits sent to it are still credited. Update "+
				"whoever sends deposits with the new address.", state.id().ValueString(), state.address().ValueString()))
	}
}

// planNew plans a new address through the core (planNewObject): its
// ref_id, derived from its arguments when the configuration sets none and
// shown in the plan, and what the apply will do with an address the
// service already holds under it.
func (r *depositAddressResource) planNew(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !req.Config.Raw.IsFullyKnown() {
		return
	}
	config, diags := getDepositAddress(ctx, req.Config)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	cfg := config.args
	planNewObject(ctx, r.data, newObjectPlan[*client.DepositAddress]{
		kind:       depositAddressKind,
		configured: cfg.RefID,
		derive:     func() (string, bool) { return cfg.derivedRefID(ctx) },
		what:       cfg.summary(),
		show:       true,
		differences: func(refID string, d *client.DepositAddress) []string {
			body, _ := cfg.request(ctx, refID)
			return depositAddressDifferences(body, d)
		},
	}, resp)
}

func (r *depositAddressResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if r.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	plan, diags := getDepositAddress(ctx, req.Plan)
	resp.Diagnostics.Append(diags...)
	cfg, diags := getDepositAddress(ctx, req.Config)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	refID, derived, ok := createKey(ctx, depositAddressWords, plan.args.RefID, cfg.args.RefID,
		func() (string, bool) { return plan.args.derivedRefID(ctx) }, resp.Private, &resp.Diagnostics)
	if !ok || resp.Diagnostics.HasError() {
		return
	}
	body, err := plan.args.request(ctx, refID)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("metadata"), "Invalid metadata", err.Error())
		return
	}
	tflog.Info(ctx, "creating deposit address", map[string]any{
		"ref_id": refID, "profile_id": body.ProfileID, "crypto_network": body.CryptoNetwork,
	})
	res, diags := createRun[*client.DepositAddress]{
		kind:     depositAddressKind,
		refID:    refID,
		derived:  derived,
		recorded: r.data.attempts.has(depositAddressWords.kind, refID),
		window:   r.data.recoveryWindow,
		now:      r.data.clock(),
		send: func(ctx context.Context) (*client.DepositAddress, error) {
			return r.data.client.CreateDepositAddress(ctx, body)
		},
		existing:    client.ExistingDepositAddress,
		differences: func(d *client.DepositAddress) []string { return depositAddressDifferences(body, d) },
	}.run(ctx)
	resp.Diagnostics.Append(diags...)
	plan.args.RefID = types.StringValue(refID)
	switch res.outcome {
	case outcomeUnconfirmed:
		plan.clearUnknown(ctx, &resp.Diagnostics)
		recordUnconfirmedCreate(ctx, resp, depositAddressWords, plan.id(), refID, res.err,
			plan.set(ctx, &resp.State, resp.State.Schema))
	case outcomeConfirmed, outcomeAdopted:
		plan.fromAPI(res.obj, &resp.Diagnostics)
		tflog.Info(ctx, "deposit address recorded", map[string]any{"ref_id": refID, "id": deref(res.obj.ID)})
		resp.Diagnostics.Append(plan.set(ctx, &resp.State, resp.State.Schema)...)
		setIdentity(ctx, resp.Identity, plan.id(), &resp.Diagnostics)
	}
}

func (r *depositAddressResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, diags := getDepositAddress(ctx, req.State)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	setIdentity(ctx, resp.Identity, state.id(), &resp.Diagnostics)
	if state.id().IsNull() {
		// A create whose outcome is unknown (Terraform holds it tainted).
		refID := state.args.RefID.ValueString()
		derived, _ := state.args.derivedRefID(ctx)
		if !recordUnconfirmed(ctx, r.data, req.Private, depositAddressWords, refID, derived, &resp.Diagnostics) {
			return
		}
		resp.Diagnostics.AddWarning("Deposit address not confirmed",
			fmt.Sprintf("The last create of this deposit address (ref_id %s) ended without confirmation from the "+
				"service. Terraform plans to create it again; with unchanged arguments the retry uses the same "+
				"ref_id, so the service does not create a second address.", refID))
		return
	}
	if r.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	id := state.id().ValueString()
	importing := state.args.ProfileID.IsNull()
	d, other, err := readDepositAddress(ctx, r.data.client, id)
	switch {
	case err != nil && importing:
		cannotImport(depositAddressWords, id, err, client.ScopeReadDepositAddress, &resp.Diagnostics)
		return
	case err != nil && scopeRefused(err):
		tflog.Warn(ctx, "deposit addresses cannot be read; state kept", map[string]any{"id": id, "error": err.Error()})
		r.data.warnOnce("read:deposit_addresses", func() {
			resp.Diagnostics.AddWarning("Deposit addresses not refreshed",
				fmt.Sprintf("Reading deposit addresses needs the OAuth scope %s, which these client credentials "+
					"cannot get (%s). The deposit addresses keep the values recorded when they were created. Have "+
					"the scope granted (and, if the provider's scopes argument pins the token's scopes, include it "+
					"there) so that a refresh can notice an address the service no longer has.",
					client.ScopeReadDepositAddress, err))
		})
		return
	case err != nil:
		resp.Diagnostics.AddError(failure("Reading the deposit address failed", err),
			fmt.Sprintf("Listing the deposit address %s failed: %s.\n\nNothing was created. Check the provider "+
				"configuration and the service's availability, then try again.", id, err))
		return
	case other != nil:
		anotherObject(depositAddressWords, id, []string{fmt.Sprintf("id: recorded %q, answered %q", id, shown(deref(other.ID)))}, &resp.Diagnostics)
		return
	case d == nil && importing:
		cannotImport(depositAddressWords, id, fmt.Errorf("no deposit address with id %s is listed: %w", id, client.ErrNotFound),
			client.ScopeReadDepositAddress, &resp.Diagnostics)
		return
	case d == nil:
		tflog.Warn(ctx, "deposit address not found; removing it from state", map[string]any{"id": id})
		resp.Diagnostics.AddWarning("Deposit address no longer listed",
			fmt.Sprintf("The service no longer lists the deposit address %s (%s): it was removed from the Terraform "+
				"state, and Terraform plans to create a new one. Update whoever sends deposits with the new address "+
				"once it is created.", id, state.address().ValueString()))
		resp.State.RemoveResource(ctx)
		return
	}
	if diff := recordedDifferences(state.id(), deref(d.ID), []recordedField{
		{"profile_id", state.args.ProfileID, deref(d.ProfileID)},
		{"crypto_network", state.args.CryptoNetwork, deref(d.CryptoNetwork)},
		{"ref_id", state.args.RefID, deref(d.RefID)},
		{"address", state.address(), deref(d.Address)},
	}); len(diff) > 0 {
		anotherObject(depositAddressWords, id, diff, &resp.Diagnostics)
		return
	}
	if importing {
		if why := unusableID(deref(d.Address)); why != "" {
			notImportable(depositAddressWords, id, []string{"address: answered " + why}, &resp.Diagnostics)
			return
		}
	}
	state.fromAPI(d, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(state.set(ctx, &resp.State, resp.State.Schema)...)
}

// Update sends nothing: every argument change is a replacement, so only
// the plan's values (the same as the state's) are recorded.
func (r *depositAddressResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, diags := getDepositAddress(ctx, req.Plan)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(plan.set(ctx, &resp.State, resp.State.Schema)...)
	setIdentity(ctx, resp.Identity, plan.id(), &resp.Diagnostics)
}

func (r *depositAddressResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, diags := getDepositAddress(ctx, req.State)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	refID := state.args.RefID.ValueString()
	if state.id().IsNull() {
		// A tainted, unconfirmed create, before its retry.
		derived, _ := state.args.derivedRefID(ctx)
		recordUnconfirmed(ctx, r.data, req.Private, depositAddressWords, refID, derived, &resp.Diagnostics)
		return
	}
	resp.Diagnostics.AddWarning("Deposit address still exists on the service",
		fmt.Sprintf("The deposit address %s (%s, ref_id %s) was removed from the Terraform state only. The service "+
			"has no endpoint to delete it: it still exists, and deposits sent to it are still credited to profile "+
			"%s. No API call was made.", state.id().ValueString(), state.address().ValueString(), refID,
			state.args.ProfileID.ValueString()))
}

func (r *depositAddressResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importByID(ctx, req, resp)
}
