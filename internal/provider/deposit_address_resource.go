package provider

import (
	"context"
	"fmt"
	"iter"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// NewDepositAddressResource is the constructor of platform_deposit_address.
func NewDepositAddressResource() resource.Resource { return newMoneyResource(&depositAddressType) }

// depositAddressType declares platform_deposit_address on the money core:
// a crypto deposit address, created with a ref_id and read back through
// List Deposit Addresses (ids filter). The service has no endpoint to
// change or delete an address: every argument change is a replacement and
// a destroy only forgets.
var depositAddressType = moneyType[depositAddressArgs, *client.DepositAddress, client.DepositAddressRequest]{
	objects:  depositAddressObjects,
	schema:   depositAddressSchema,
	identity: "deposit address",
	refresh:  refreshPolicy{scopeRefused: keepWithWarning, gone: forgetWithWarning, another: failKeepingState},
	say: lifecycleWords[depositAddressArgs]{
		destroy: &message{"Destroying a deposit address does not delete it",
			"The service has no endpoint to delete a deposit address: destroy only removes it from the " +
				"Terraform state. The address still exists, and deposits sent to it are still credited to its " +
				"profile."},
		unconfirmed:  ", so the service does not create a second address",
		notRefreshed: "The deposit addresses keep the values recorded when they were created.",
		gone: func(m shapedState[depositAddressArgs]) message {
			return message{"Deposit address no longer listed",
				fmt.Sprintf("The service no longer lists the deposit address %s (%s): it was removed from the "+
					"Terraform state, and Terraform plans to create a new one. Update whoever sends deposits with "+
					"the new address once it is created.", id(m).ValueString(), m.str("address").ValueString())}
		},
		forgotten: func(m shapedState[depositAddressArgs]) message {
			return message{"Deposit address still exists on the service",
				fmt.Sprintf("The deposit address %s (%s, ref_id %s) was removed from the Terraform state only. "+
					"The service has no endpoint to delete it: it still exists, and deposits sent to it are still "+
					"credited to profile %s. No API call was made.", id(m).ValueString(), m.str("address").ValueString(),
					m.args.RefID.ValueString(), m.args.ProfileID.ValueString())}
		},
	},
	plan: typePlan[depositAddressArgs]{
		refID:   func(a *depositAddressArgs) *types.String { return &a.RefID },
		unread:  func(a depositAddressArgs) bool { return a.ProfileID.IsNull() },
		summary: depositAddressArgs.summary,
	},
	create: typeCreate[depositAddressArgs, *client.DepositAddress, client.DepositAddressRequest]{
		request: func(ctx context.Context, a depositAddressArgs, refID string) (client.DepositAddressRequest, error) {
			return a.request(ctx, refID)
		},
		post: func(ctx context.Context, c *client.Client, body client.DepositAddressRequest) (*client.DepositAddress, error) {
			return c.CreateDepositAddress(ctx, body)
		},
		existing:    client.ExistingDepositAddress,
		differences: depositAddressDifferences,
		created: func(_ context.Context, m *shapedState[depositAddressArgs], d *client.DepositAddress, _ createOutcome, diags *diag.Diagnostics) {
			(*depositAddressModel)(m).fromAPI(d, diags)
		},
	},
	read: typeRead[depositAddressArgs, *client.DepositAddress]{
		recorded: func(_ context.Context, m shapedState[depositAddressArgs], d *client.DepositAddress) []string {
			return fieldDifferences([]recordedField{
				{"profile_id", m.args.ProfileID, deref(d.ProfileID)},
				{"crypto_network", m.args.CryptoNetwork, deref(d.CryptoNetwork)},
				{"ref_id", m.args.RefID, deref(d.RefID)},
				{"address", m.str("address"), deref(d.Address)},
			})
		},
		importable: func(_ string, d *client.DepositAddress) []string {
			if why := unusableID(deref(d.Address)); why != "" {
				return []string{"address: answered " + why}
			}
			return nil
		},
		refreshed: func(_ context.Context, m *shapedState[depositAddressArgs], d *client.DepositAddress, diags *diag.Diagnostics) {
			(*depositAddressModel)(m).fromAPI(d, diags)
		},
		adopt: func(_ context.Context, m *shapedState[depositAddressArgs], d *client.DepositAddress, diags *diag.Diagnostics) {
			(*depositAddressModel)(m).fromAPI(d, diags)
		},
	},
	change: typeChange[depositAddressArgs]{
		planChange: func(_ context.Context, _ *moneyRun, _ resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, state shapedState[depositAddressArgs]) {
			resp.Diagnostics.AddWarning("Changing a deposit address creates a NEW address",
				fmt.Sprintf("The arguments of the deposit address %s (%s) changed. The service cannot change a deposit "+
					"address, so Terraform plans a replacement: applying creates a new address with a new value, and "+
					"the old one is only forgotten: it still exists and deposits sent to it are still credited. Update "+
					"whoever sends deposits with the new address.", id(state).ValueString(), state.str("address").ValueString()))
		},
	},
}

// newAddressNote ends the description of every argument.
const newAddressNote = " Changing it creates a new address (replacement); the old one stays on the service and " +
	"keeps receiving deposits."

func depositAddressSchema() schema.Schema {
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
			MarkdownDescription: "Network of the address: one of " + codeList(client.CryptoNetworks) + "; another " +
				"is an error at plan, which names the nearest network for a typo." + newAddressNote,
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
	depositAddressComputedShape.computedInto(attrs, func(string) bool { return true })
	return schema.Schema{
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

// depositAddressWords are the words of a deposit address create.
var depositAddressWords = createWords{
	refNamespace: "deposit_address",
	resourceType: "platform_deposit_address",
	noun:         "deposit address",
	made:         "created",
	path:         client.PathDepositAddresses,
	scope:        client.ScopeWriteDepositAddress,
}.filled()

// depositAddressObjects is how the core reads deposit addresses: looked up by
// ref_id through their list (scope transfer:read_deposit_address) at plan;
// the create's replay answer is the published 409 with meta.existing.
var depositAddressObjects = moneyObjects[*client.DepositAddress]{
	words:     depositAddressWords,
	id:        func(d *client.DepositAddress) string { return deref(d.ID) },
	createdAt: func(d *client.DepositAddress) time.Time { return deref(d.CreatedAt) },
	describe:  depositAddressSummary,
	lookup:    lookupDepositAddress,
	get:       readDepositAddress,
	readScope: client.ScopeReadDepositAddress,
	lists:     depositAddressLists,
}

// depositAddressLists reads many deposit addresses at once through their
// list, filtered by ids or ref_ids (see listedBy).
var depositAddressLists = listedBy(
	func(ctx context.Context, c *client.Client, ids, refIDs []string) iter.Seq2[*client.DepositAddress, error] {
		return c.DepositAddresses(ctx, client.ListDepositAddressesQuery{IDs: ids, RefIDs: refIDs})
	},
	func(d *client.DepositAddress) string { return deref(d.ID) },
	func(d *client.DepositAddress) string { return deref(d.RefID) })

// lookupDepositAddress finds the address made with refID; only an address
// with that ref_id counts, whatever the answer's filtering.
func lookupDepositAddress(ctx context.Context, c *client.Client, refID string) (*client.DepositAddress, bool, error) {
	q := client.ListDepositAddressesQuery{RefIDs: []string{refID}, MaxItems: 100}
	return listedByRefID(c.DepositAddresses(ctx, q), refID, func(d *client.DepositAddress) string { return deref(d.RefID) })
}

// readDepositAddress reads the address id through the list's ids filter:
// client.ErrNotFound when the service lists none, errAnotherObject when
// the answer carries another address (the filter not applied).
func readDepositAddress(ctx context.Context, c *client.Client, id string) (*client.DepositAddress, error) {
	q := client.ListDepositAddressesQuery{IDs: []string{id}, MaxItems: 100}
	return listedByID(c.DepositAddresses(ctx, q), id, "deposit address", func(d *client.DepositAddress) string { return deref(d.ID) })
}

// NewDepositAddressListResource is the platform_deposit_address list resource.
func NewDepositAddressListResource() list.ListResource { return newListResource(&depositAddressList) }

// depositAddressList declares the platform_deposit_address list resource:
// its filters are the array filters of List Deposit Addresses.
var depositAddressList = listDeclaration[client.ListDepositAddressesQuery, client.DepositAddress]{
	typeName: "platform_deposit_address",
	description: "Finds the crypto deposit addresses of the customer (`GET /transfer/deposit-addresses`, " +
		"scope `transfer:read_deposit_address`), newest first. Configuration generated from the results " +
		"imports them by identity; nothing is created.",
	filters: listFilters[client.ListDepositAddressesQuery]{
		arrayFilter("profile_ids", "Only the addresses of these profiles.",
			func(q *client.ListDepositAddressesQuery) *[]string { return &q.ProfileIDs }),
		arrayFilter("identity_ids", "Only the addresses of these identities.",
			func(q *client.ListDepositAddressesQuery) *[]string { return &q.IdentityIDs }),
		arrayFilter("ids", "Only the addresses with these ids.",
			func(q *client.ListDepositAddressesQuery) *[]string { return &q.IDs }),
		arrayFilter("ref_ids", "Only the addresses made with these ref_ids.",
			func(q *client.ListDepositAddressesQuery) *[]string { return &q.RefIDs }),
		arrayFilter("account_ids", "Only the addresses of these accounts.",
			func(q *client.ListDepositAddressesQuery) *[]string { return &q.AccountIDs }),
		arrayFilter("networks", "Only the addresses on these crypto networks, for example "+codeList(client.CryptoNetworks)+
			"; another is an error, which names the nearest network for a typo.",
			func(q *client.ListDepositAddressesQuery) *[]string { return &q.Networks }).
			withValidators(cryptoNetworkValues),
	},
	limit: func(q *client.ListDepositAddressesQuery) *int { return &q.MaxItems },
	list:  (*client.Client).DepositAddresses,
	describe: func(d *client.DepositAddress) (shapedWriter, string, string) {
		m := depositAddressModel{args: depositAddressArgs{
			ProfileID: types.StringNull(), CryptoNetwork: types.StringNull(), IdentityID: types.StringNull(),
			AccountID: types.StringNull(), RefID: types.StringNull(), Metadata: types.MapNull(types.StringType),
			ConversionTargetAsset: types.StringNull(),
		}}
		var diags diag.Diagnostics
		m.fromAPI(d, &diags)
		return m, deref(d.ID), fmt.Sprintf("%s address %s (ref_id %s)", deref(d.CryptoNetwork), deref(d.Address), deref(d.RefID))
	},
	reject: func(d *client.DepositAddress) string {
		if why := unusableID(deref(d.ID)); why != "" {
			return "The service listed a deposit address whose id is " + why + ". It is left out of the results."
		}
		return ""
	},
}
