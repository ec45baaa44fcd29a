package provider

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"regexp"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/objectvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/platform/terraform-provider-platform/internal/client"
)

var (
	_ resource.Resource                   = (*cryptoDestinationAddressResource)(nil)
	_ resource.ResourceWithConfigure      = (*cryptoDestinationAddressResource)(nil)
	_ resource.ResourceWithImportState    = (*cryptoDestinationAddressResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*cryptoDestinationAddressResource)(nil)
	_ resource.ResourceWithIdentity       = (*cryptoDestinationAddressResource)(nil)
	_ resource.ResourceWithValidateConfig = (*cryptoDestinationAddressResource)(nil)
)

// NewCryptoDestinationAddressResource is the constructor of
// platform_crypto_destination_address.
func NewCryptoDestinationAddressResource() resource.Resource {
	return &cryptoDestinationAddressResource{}
}

// cryptoDestinationAddressResource is an entry of the withdrawal address
// book. The one PUT of the API creates it (naming the tuple) and updates
// it (naming its id); it is read through the list (ids filter); the API
// has no delete, so Delete forgets it.
type cryptoDestinationAddressResource struct {
	data *providerData
}

// destinationWords are the words of the address book, for the messages the
// resource shares with the money core.
var destinationWords = createWords{
	refNamespace: "crypto_destination_address",
	resourceType: "platform_crypto_destination_address",
	noun:         "crypto destination address",
	made:         "created",
	path:         client.PathCryptoDestinationAddress,
	scope:        client.ScopeWriteCryptoDestinationAddress,
}.filled()

func (r *cryptoDestinationAddressResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_crypto_destination_address"
}

func (r *cryptoDestinationAddressResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = idIdentitySchema("crypto destination address")
}

func (r *cryptoDestinationAddressResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

// newEntryNote ends the description of the arguments that name the entry.
const newEntryNote = " Changing it adds a new entry to the address book (replacement); the old one stays in the service's book."

// geographicAddressArgument is the physical_address argument of a beneficiary.
func geographicAddressArgument() schema.SingleNestedAttribute {
	line := addressLineAttribute
	return schema.SingleNestedAttribute{
		Optional:            true,
		MarkdownDescription: "Postal address.",
		Attributes: map[string]schema.Attribute{
			"country": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "ISO 3166-1 alpha-3 country code, for example `USA` or `SGP`.",
				Validators:          []validator.String{stringvalidator.RegexMatches(countryPattern, "must be three upper-case letters (ISO 3166-1 alpha-3), such as USA")},
			},
			"address1": line("First line of the street address."),
			"address2": line("Second line of the street address."),
			"city":     line("City or town."),
			"province": line("State, province or region."),
			"zip_code": line("Postal or ZIP code."),
		},
	}
}

// travelruleArgument is the travelrule_metadata argument: the published
// fields of the PUT's Travel Rule data, with the answered vasp.name.
func travelruleArgument() schema.SingleNestedAttribute {
	nonEmpty := []validator.String{stringvalidator.LengthAtLeast(1)}
	institution := path.MatchRelative().AtParent().AtName("institution_details")
	self := path.MatchRelative().AtParent().AtName("self")
	return schema.SingleNestedAttribute{
		Optional: true,
		Computed: true,
		MarkdownDescription: "Travel Rule data of the address: who receives the funds and who holds the address. " +
			"This is where Travel Rule data belongs; the inline `beneficiary` of a withdrawal is the legacy way. " +
			"When unset, whatever the service holds is recorded; removing it from the configuration leaves the " +
			"service's data as it is (the API cannot clear it). A change is sent as a whole.",
		PlanModifiers: []planmodifier.Object{objectplanmodifier.UseStateForUnknown()},
		Attributes: map[string]schema.Attribute{
			"beneficiary": schema.SingleNestedAttribute{
				Optional:            true,
				MarkdownDescription: "The party receiving the funds: exactly one of `person_details`, `institution_details` or `self = true`.",
				Attributes: map[string]schema.Attribute{
					"person_details": schema.SingleNestedAttribute{
						Optional:            true,
						MarkdownDescription: "The beneficiary, when a person.",
						Validators:          []validator.Object{objectvalidator.ConflictsWith(institution, self)},
						Attributes: map[string]schema.Attribute{
							"first_name":       schema.StringAttribute{Required: true, MarkdownDescription: "First name.", Validators: nonEmpty},
							"last_name":        schema.StringAttribute{Required: true, MarkdownDescription: "Last name.", Validators: nonEmpty},
							"physical_address": geographicAddressArgument(),
						},
					},
					"institution_details": schema.SingleNestedAttribute{
						Optional:            true,
						MarkdownDescription: "The beneficiary, when an institution.",
						Validators:          []validator.Object{objectvalidator.ConflictsWith(self)},
						Attributes: map[string]schema.Attribute{
							"name":             schema.StringAttribute{Required: true, MarkdownDescription: "Name of the institution.", Validators: nonEmpty},
							"physical_address": geographicAddressArgument(),
						},
					},
					"self": schema.BoolAttribute{
						Optional: true,
						MarkdownDescription: "`true` when the beneficiary is the end user (their own wallet): the service " +
							"takes their details from the end user's identity.",
					},
				},
			},
			"vasp": schema.SingleNestedAttribute{
				Optional: true,
				MarkdownDescription: "The receiving VASP, when `custodian_type` is `VASP`: `id` of a known VASP, or " +
					"`custom_vasp_name` and `custom_vasp_website` of another.",
				Attributes: map[string]schema.Attribute{
					"id": schema.StringAttribute{
						Optional: true, MarkdownDescription: "Id of a known VASP.",
						Validators: []validator.String{stringvalidator.LengthAtLeast(1),
							stringvalidator.ConflictsWith(path.MatchRelative().AtParent().AtName("custom_vasp_name"),
								path.MatchRelative().AtParent().AtName("custom_vasp_website")),
							stringvalidator.AtLeastOneOf(path.MatchRelative().AtParent().AtName("custom_vasp_name"))},
					},
					"name": schema.StringAttribute{Computed: true, MarkdownDescription: "Name of the VASP, as the service gives it."},
					"custom_vasp_name": schema.StringAttribute{
						Optional: true, MarkdownDescription: "Name of a VASP that is not in the service's directory.",
						Validators: []validator.String{stringvalidator.LengthAtLeast(1),
							stringvalidator.AlsoRequires(path.MatchRelative().AtParent().AtName("custom_vasp_website"))},
					},
					"custom_vasp_website": schema.StringAttribute{
						Optional: true, MarkdownDescription: "Website of that VASP; required with `custom_vasp_name`.",
						Validators: []validator.String{stringvalidator.LengthAtLeast(1),
							stringvalidator.AlsoRequires(path.MatchRelative().AtParent().AtName("custom_vasp_name"))},
					},
				},
			},
			"custodian_type": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Who holds the address: one of " + codeList(client.CustodianTypes) + ".",
				Validators:          []validator.String{stringvalidator.OneOf(client.CustodianTypes...)},
			},
			"transfer_purpose": schema.StringAttribute{
				Optional: true, MarkdownDescription: "Purpose of the transfers.", Validators: nonEmpty,
			},
		},
	}
}

func (r *cryptoDestinationAddressResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	attrs := map[string]schema.Attribute{
		"crypto_network": schema.StringAttribute{
			MarkdownDescription: "Network of the address: one of " + codeList(client.CryptoNetworks) + "; " +
				"another is an error at plan, which names the nearest network for a typo." + newEntryNote,
			Required:      true,
			Validators:    []validator.String{stringvalidator.LengthAtLeast(1), cryptoNetworkValues},
			PlanModifiers: replace,
		},
		"address": schema.StringAttribute{
			MarkdownDescription: "The crypto address, as the network writes it; compared exactly, case included. It is " +
				"checked at plan: never whitespace, and on the networks whose format is well known, that format " +
				"(EVM networks: `0x` and 40 hexadecimal digits; `SUI`: `0x` and 64; `SOLANA`: 32 to 44 base58 " +
				"characters). A new entry's address is also checked for its checksum, at plan and again when it is " +
				"sent: bech32 or bech32m (segwit) or base58check (legacy) on `BITCOIN`, EIP-55 for an EVM address " +
				"written in mixed case (all lower case carries none); a bad checksum is refused and nothing is sent. " +
				"An entry already in the state keeps its address." + newEntryNote,
			Required:      true,
			Validators:    []validator.String{stringvalidator.LengthAtLeast(1)},
			PlanModifiers: replace,
		},
		"identity_id": schema.StringAttribute{
			MarkdownDescription: "Identity that owns the address, for third-party integrations. Unset: a first-party " +
				"address, with no identity scope." + newEntryNote,
			Optional:      true,
			Validators:    []validator.String{stringvalidator.LengthAtLeast(1)},
			PlanModifiers: replace,
		},
		"nickname": schema.StringAttribute{
			MarkdownDescription: "Name of the address in the book. When unset, the service generates one, which " +
				"is recorded. Changing it updates the entry in place.",
			Optional:      true,
			Computed:      true,
			Validators:    []validator.String{stringvalidator.LengthAtLeast(1)},
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"bookmarked": schema.BoolAttribute{
			MarkdownDescription: "Whether the address is bookmarked (sent as `bookmarked_status`). Default `false`. " +
				"Changing it updates the entry in place.",
			Optional: true,
			Computed: true,
			Default:  booldefault.StaticBool(false),
		},
		"travelrule_metadata": travelruleArgument(),
	}
	destinationAddressComputedShape.computedInto(attrs, allButStatus)
	resp.Schema = schema.Schema{
		MarkdownDescription: "An entry of the withdrawal address book (`PUT /transfer/crypto-destination-address`, " +
			"read back through `GET /transfer/crypto-destination-addresses`): an address that withdrawals may be " +
			"sent to, with its nickname and its Travel Rule data. The service reviews each new address: `status` " +
			"is `PENDING` until it is `APPROVED` or `REJECTED`, and follows the service on every refresh.\n\n" +
			"Creating it first looks the `(crypto_network, address, identity_id)` tuple up in the book. An address " +
			"already there is never taken over: the apply fails, names it (id and status) and shows the `import` " +
			"block that adopts it, and sends nothing. Otherwise one PUT adds it. If that PUT ends without an answer " +
			"(a timeout, server errors until the retries ran out, an interrupted run), the state records the attempt " +
			"and when it started, and the next apply adopts the address the lookup then finds only when it matches " +
			"the configuration, holds the nickname and bookmark the attempt sent, and the service made it after the " +
			"attempt started; otherwise it is refused with its import block. A run " +
			"killed during the PUT records nothing: the next apply names the address and offers the import.\n\n" +
			"`nickname`, `bookmarked` and `travelrule_metadata` are updated in place (a PUT naming the entry's " +
			"`id`); the other arguments name the entry, and changing them adds a new one. The API has no delete: " +
			"destroying the resource only removes it from the Terraform state, and the address stays in the " +
			"service's address book.",
		Attributes: attrs,
	}
}

// Patterns of the Travel Rule's physical address.
var (
	countryPattern = regexp.MustCompile(`^[A-Z]{3}$`)
)

// ValidateConfig checks the shape of the address on its network.
func (r *cryptoDestinationAddressResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var network, address types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("crypto_network"), &network)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("address"), &address)...)
	if resp.Diagnostics.HasError() || address.IsNull() || address.IsUnknown() || network.IsUnknown() {
		return
	}
	if why := addressShapeProblem(network.ValueString(), address.ValueString()); why != "" {
		resp.Diagnostics.AddAttributeError(path.Root("address"), "Invalid address", "address "+why+".")
	}
}

func (r *cryptoDestinationAddressResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() && !req.State.Raw.IsNull() {
		resp.Diagnostics.AddWarning("Destroying a crypto destination address does not remove it from the address book",
			"The API has no endpoint to delete an address from the address book: destroy only removes it from the "+
				"Terraform state, and the address stays in the service's book (and usable for withdrawals, if approved).")
		return
	}
	if req.State.Raw.IsNull() && !req.Plan.Raw.IsNull() && req.Config.Raw.IsFullyKnown() {
		r.planCreate(ctx, req, resp)
	}
}

// planCreate looks the address of a new entry up at plan, so that the plan
// of an address already in the book fails before anyone approves it, as
// its apply would. A book the plan cannot read is left to the apply, which
// looks the address up again before it sends anything.
func (r *cryptoDestinationAddressResource) planCreate(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if r.data == nil || r.data.run.pinnedScopeRefused(destinationWords.scope, destinationWords.resourceType, &resp.Diagnostics) {
		return
	}
	config, d := getDestinationAddress(ctx, req.Config)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	args := config.args
	if checksumRefused(args.CryptoNetwork, args.Address, path.Root("address"), "address book entry", "", &resp.Diagnostics) {
		return
	}
	// The apply's destroy of the unconfirmed state receives the plan's
	// private state, not the state's: it carries the attempt there.
	if attempt, recorded := r.data.run.attempts.lostCreate(destinationWords.refNamespace, args.tuple()); recorded {
		resp.Diagnostics.Append(attempt.record(ctx, resp.Private)...)
	}
	existing, err := lookupTuple(ctx, r.data.client, args)
	if err != nil {
		r.data.run.warnOnce("destination-address-plan-lookup", func() {
			summary, detail := readDestinationError(err, args.describe())
			resp.Diagnostics.AddWarning(summary+" at plan", detail+" The apply looks the address up again before "+
				"it adds it, and never takes over an address that is already in the book.")
		})
		return
	}
	if existing == nil {
		return
	}
	if adopt, why := r.judgeExisting(args, existing); !adopt {
		alreadyInBook(args, existing, why, &resp.Diagnostics)
		return
	}
	resp.Diagnostics.AddWarning("Crypto destination address was added earlier",
		fmt.Sprintf("The address book holds %s as %s (status %s), added by the attempt this state recorded and "+
			"the service never confirmed. Applying records it and sends nothing.", args.describe(),
			shown(existing.ID), shown(deref(existing.Status))))
}

// lookupTuple finds the entry of the book that a's tuple names, matched
// exactly (the list's filters are not trusted to be exact).
func lookupTuple(ctx context.Context, c *client.Client, a cryptoDestinationAddressArgs) (*client.CryptoDestinationAddress, error) {
	l, err := lookupTupleSeen(ctx, c, a)
	return l.found, err
}

// tupleLookup is what a lookup of a tuple saw: the entry of the tuple, the
// ids of every entry it read, and the service's time of the answer.
type tupleLookup struct {
	found    *client.CryptoDestinationAddress
	seen     map[string]bool
	servedAt time.Time
}

// lookupTupleSeen looks the tuple of a up in the book, comparing addresses
// as the service does: the letter case of an EVM address is only a
// checksum, so such an address is looked for among every entry of its
// network (and identity), not by the list's exact filter.
func lookupTupleSeen(ctx context.Context, c *client.Client, a cryptoDestinationAddressArgs) (tupleLookup, error) {
	address := knownString(a.Address)
	q := client.ListCryptoDestinationAddressesQuery{CryptoNetworks: []string{knownString(a.CryptoNetwork)}}
	if !evmAddress.MatchString(address) {
		q.Addresses = []string{address}
	}
	if id := knownString(a.IdentityID); id != "" {
		q.IdentityIDs = []string{id}
	}
	lctx, served := client.WithServedAt(ctx)
	found, err := c.ListCryptoDestinationAddresses(lctx, q)
	l := tupleLookup{seen: map[string]bool{}, servedAt: served.Last()}
	if err != nil {
		return l, err
	}
	for i := range found {
		f := &found[i]
		l.seen[f.ID] = true
		if l.found == nil && sameAddress(f.Address, address) && f.CryptoNetwork == knownString(a.CryptoNetwork) &&
			deref(f.IdentityID) == knownString(a.IdentityID) {
			l.found = f
		}
	}
	return l, nil
}

// existedBefore says why the entry a, answered to a PUT that was to add a
// new address, evidently existed before that PUT (the PUT is an upsert):
// its id was among the entries the lookup read, or the service made it
// before the lookup's answer (by the service's own clock, a second's
// margin); "" when nothing says so.
func (l tupleLookup) existedBefore(a *client.CryptoDestinationAddress) string {
	switch {
	case l.seen[a.ID]:
		return "its id was already in the book when the address was looked up"
	case a.CreatedAt != nil && !l.servedAt.IsZero() && a.CreatedAt.Before(l.servedAt.Add(-time.Second)):
		return fmt.Sprintf("the service made it at %s, before the lookup that found no such address (%s)",
			a.CreatedAt.UTC().Format(time.RFC3339), l.servedAt.UTC().Format(time.RFC3339))
	}
	return ""
}

// request is the PUT of the arguments: by the tuple when id is empty (a
// create), by id otherwise (an update).
func (a cryptoDestinationAddressArgs) request(id string) (client.PutCryptoDestinationAddressRequest, error) {
	req := client.PutCryptoDestinationAddressRequest{ID: id, Nickname: knownString(a.Nickname)}
	if id == "" {
		req.CryptoNetwork, req.Address, req.IdentityID = knownString(a.CryptoNetwork), knownString(a.Address), knownString(a.IdentityID)
	}
	if !a.Bookmarked.IsNull() && !a.Bookmarked.IsUnknown() {
		b := a.Bookmarked.ValueBool()
		req.BookmarkedStatus = &b
	}
	t, err := travelruleRequest(a.TravelruleMetadata)
	req.TravelruleMetadata = t
	return req, err
}

// answerDifferences lists how the answered address differs from the PUT:
// its tuple (that of the request, or of the state for an update), and
// every field the PUT set.
func answerDifferences(req client.PutCryptoDestinationAddressRequest, tuple cryptoDestinationAddressArgs, stateID string, a *client.CryptoDestinationAddress) []string {
	var d []string
	if stateID != "" && a.ID != stateID {
		d = append(d, fmt.Sprintf("id: requested %q, answered %q", stateID, a.ID))
	}
	if why := unusableID(a.ID); why != "" {
		d = append(d, "id: answered "+why)
	}
	d = differ(d, "crypto_network", knownString(tuple.CryptoNetwork), &a.CryptoNetwork, exactly)
	d = differ(d, "address", knownString(tuple.Address), &a.Address, exactly)
	if got, want := deref(a.IdentityID), knownString(tuple.IdentityID); got != want {
		d = append(d, fmt.Sprintf("identity_id: requested %q, answered %q", want, got))
	}
	if req.Nickname != "" {
		d = differ(d, "nickname", req.Nickname, a.Nickname, exactly)
	}
	if req.BookmarkedStatus != nil && (a.Bookmarked == nil || *a.Bookmarked != *req.BookmarkedStatus) {
		d = append(d, fmt.Sprintf("bookmarked: requested %t, answered %v", *req.BookmarkedStatus, ptrText(a.Bookmarked)))
	}
	return append(d, travelruleDifferences(req.TravelruleMetadata, a.TravelruleMetadata)...)
}

func ptrText(b *bool) string {
	if b == nil {
		return "nothing"
	}
	return fmt.Sprint(*b)
}

// matchesConfig lists how an address found in the book differs from what
// the configuration sets (nickname and Travel Rule data when set,
// bookmarked always).
func matchesConfig(cfg cryptoDestinationAddressArgs, a *client.CryptoDestinationAddress) []string {
	req, err := cfg.request("")
	if err != nil {
		return []string{err.Error()}
	}
	return answerDifferences(req, cfg, "", a)
}

// importBlock is the import block that adopts the address id.
func importBlock(id string) string {
	return fmt.Sprintf("  import {\n    to = platform_crypto_destination_address.<name>\n    id = %q\n  }", id)
}

func (r *cryptoDestinationAddressResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if r.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	plan, d := getDestinationAddress(ctx, req.Plan)
	defer forgetLostCreate(ctx, resp.Private, &resp.Diagnostics)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	args := plan.args
	if checksumRefused(args.CryptoNetwork, args.Address, path.Root("address"), "address book entry", " at send", &resp.Diagnostics) {
		return
	}
	look, err := lookupTupleSeen(ctx, r.data.client, args)
	existing := look.found
	if err != nil {
		summary, detail := readDestinationError(err, args.describe())
		resp.Diagnostics.AddError(failure(summary, err), detail+" Nothing was sent: the address is looked up before it is added, "+
			"so that an address already in the book is never taken over.")
		return
	}
	if existing != nil {
		r.adoptOrRefuse(ctx, plan, existing, resp)
		return
	}
	body, err := args.request("")
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("travelrule_metadata"), "Invalid travelrule_metadata", err.Error())
		return
	}
	// The attempt is recorded before it is sent: the state an unconfirmed
	// create leaves carries it (lost_create.go).
	resp.Diagnostics.Append(newLostCreate(look.servedAt, r.data.run.clock(), lostEntryRequest(body)).record(ctx, resp.Private)...)
	if resp.Diagnostics.HasError() {
		return
	}
	a, err := r.data.client.PutCryptoDestinationAddress(ctx, body)
	if err != nil {
		if createOutcomeUnknown(err, destinationWords.path) {
			r.recordUnconfirmed(ctx, plan, err, resp)
			return
		}
		summary, detail := destinationRefusal(err, args.describe())
		resp.Diagnostics.AddError(failure(summary, err), detail)
		return
	}
	if why := look.existedBefore(a); why != "" {
		// The PUT updated an entry that was already in the book: never
		// recorded as a new one.
		resp.Diagnostics.AddAttributeError(path.Root("address"), "Address was already in the address book",
			fmt.Sprintf("The PUT meant to add %s answered with the entry %s (status %s), which existed before it: %s. "+
				"The service's PUT is an upsert, so it updated that entry in place with this configuration's "+
				"nickname, bookmark and Travel Rule data. This configuration did not add it, so it is not recorded as "+
				"this resource's, and a create never takes over an entry of the book.\n\nTo manage that entry with "+
				"this resource, import it:\n\n%s\n\nand check its nickname and Travel Rule data with the service.",
				args.describe(), shown(a.ID), shown(deref(a.Status)), why, importBlock(a.ID)))
		return
	}
	if diffs := answerDifferences(body, args, "", a); len(diffs) > 0 {
		resp.Diagnostics.AddError("Crypto destination address answered differently from the request",
			fmt.Sprintf("The service answered the PUT of %s with address %s, which differs from the request:\n%s\n\n"+
				"The provider does not record an answer it cannot trust, so nothing was recorded. Check the address "+
				"book with the service; if the address was added, the next apply names it and shows the import "+
				"block that adopts it.", args.describe(), shown(a.ID), bulletList(diffs)))
		return
	}
	tflog.Info(ctx, "crypto destination address added", map[string]any{"id": a.ID})
	r.record(ctx, a, &resp.State, resp.Identity, &resp.Diagnostics)
}

// destinationRefusal is the diagnostic of a PUT of what that the service
// refused: nothing was added.
func destinationRefusal(err error, what string) (summary, detail string) {
	switch {
	case errors.Is(err, client.ErrValidation):
		return "Crypto destination address rejected",
			fmt.Sprintf("The service rejected the PUT of %s, so nothing was added: %s.\n\nCorrect the arguments the "+
				"answer names and apply again.", what, err)
	case scopeRefused(err):
		return "Crypto destination address refused",
			fmt.Sprintf("The service refused the PUT of %s, so nothing was added: %s.\n\nWhen the answer names a "+
				"missing permission: adding an address needs the OAuth scope %s; have it granted to the client "+
				"credentials, and if the provider's scopes argument pins the token's scopes, include it there.",
				what, err, client.ScopeWriteCryptoDestinationAddress)
	}
	return "Crypto destination address not added",
		fmt.Sprintf("The service refused the PUT of %s, so nothing was added: %s.", what, err)
}

// adoptOrRefuse handles an address the lookup found in the book: adopted
// when this state recorded an unconfirmed attempt to add it and it
// matches the configuration; refused otherwise, with its import block.
func (r *cryptoDestinationAddressResource) adoptOrRefuse(ctx context.Context, plan cryptoDestinationAddressModel, a *client.CryptoDestinationAddress, resp *resource.CreateResponse) {
	args := plan.args
	adopt, why := r.judgeExisting(args, a)
	if adopt {
		resp.Diagnostics.AddWarning("Crypto destination address was added earlier, not added again",
			fmt.Sprintf("The address book already holds %s as %s (status %s), and this state recorded an attempt to "+
				"add it that the service never confirmed: that attempt added it. It was not sent again; the state "+
				"now holds %s.", args.describe(), shown(a.ID), shown(deref(a.Status)), shown(a.ID)))
		r.record(ctx, a, &resp.State, resp.Identity, &resp.Diagnostics)
		return
	}
	alreadyInBook(args, a, why, &resp.Diagnostics)
}

// judgeExisting says whether an address the lookup found in the book is
// this configuration's: when this state recorded an unconfirmed attempt to
// add it and it matches the configuration. Otherwise why says why not.
func (r *cryptoDestinationAddressResource) judgeExisting(args cryptoDestinationAddressArgs, a *client.CryptoDestinationAddress) (adopt bool, why string) {
	if !r.data.run.attempts.has(destinationWords.refNamespace, args.tuple()) {
		return false, "This configuration did not add it"
	}
	attempt, recorded := r.data.run.attempts.lostCreate(destinationWords.refNamespace, args.tuple())
	if missing := attempt.missing(recorded, lostEntryEvidence(attempt, a)); len(missing) > 0 {
		return false, fmt.Sprintf("This state recorded an attempt to add it whose answer was lost, but nothing "+
			"shows that attempt added it:\n%s\n\nSomeone else may have added it, so it is not recorded as this "+
			"resource's", bulletList(missing))
	}
	if diffs := matchesConfig(args, a); len(diffs) > 0 {
		return false, fmt.Sprintf("This state recorded an unconfirmed attempt to add it, but the address differs "+
			"from the configuration:\n%s\n\nso nothing says that attempt added it", bulletList(diffs))
	}
	return true, ""
}

// lostEntryRequest is what a PUT that adds an entry sets besides its tuple,
// by the API's names: what an entry found after its answer was lost must
// hold.
func lostEntryRequest(req client.PutCryptoDestinationAddressRequest) map[string]string {
	sent := map[string]string{}
	if req.Nickname != "" {
		sent["nickname"] = req.Nickname
	}
	if req.BookmarkedStatus != nil {
		sent["bookmarked_status"] = fmt.Sprint(*req.BookmarkedStatus)
	}
	return sent
}

// lostEntryEvidence is what the entry a, found under the tuple of the lost
// attempt, shows: what it holds of the request, and whether the service
// made it after the attempt started (its created_at).
func lostEntryEvidence(attempt lostCreate, a *client.CryptoDestinationAddress) foundObject {
	f := foundObject{holds: map[string]*string{"nickname": a.Nickname}, made: "at a time the service does not report"}
	if a.Bookmarked != nil {
		b := fmt.Sprint(*a.Bookmarked)
		f.holds["bookmarked_status"] = &b
	}
	if a.CreatedAt != nil {
		f.made = "at " + a.CreatedAt.UTC().Format(time.RFC3339)
		f.madeSince = !a.CreatedAt.Before(attempt.Started)
	}
	return f
}

// alreadyInBook is the error of a create of an address the book already
// holds as a; why says how this configuration relates to it.
func alreadyInBook(args cryptoDestinationAddressArgs, a *client.CryptoDestinationAddress, why string, diags *diag.Diagnostics) {
	diags.AddAttributeError(path.Root("address"), "Address already in the address book",
		fmt.Sprintf("The address book already holds %s as %s (status %s, created_at %s). %s, and a create never takes over an "+
			"address that is already in the book: the PUT would update it in place. Nothing was sent.\n\n"+
			"To manage that entry with this resource, import it:\n\n%s\n\n(or terraform import "+
			"platform_crypto_destination_address.<name> %s); its nickname, bookmark and Travel Rule data then "+
			"follow the configuration. Otherwise remove this resource, or name another address.",
			args.describe(), shown(a.ID), shown(deref(a.Status)), createdText(a.CreatedAt), why, importBlock(a.ID), shown(a.ID)))
}

// createdText is a creation time as a message shows it.
func createdText(t *time.Time) string {
	if t == nil {
		return "not reported"
	}
	return t.UTC().Format(time.RFC3339)
}

// recordUnconfirmed records a create whose PUT ended without an answer:
// the state holds the arguments and no id (Terraform keeps it tainted), and
// the next apply adopts the address it then finds, when it matches.
func (r *cryptoDestinationAddressResource) recordUnconfirmed(ctx context.Context, plan cryptoDestinationAddressModel, err error, resp *resource.CreateResponse) {
	tflog.Warn(ctx, "crypto destination address not confirmed", map[string]any{"error": err.Error()})
	a := &plan.args
	if a.Nickname.IsUnknown() {
		a.Nickname = types.StringNull()
	}
	if a.TravelruleMetadata.IsUnknown() {
		a.TravelruleMetadata = types.ObjectNull(travelruleType.AttrTypes)
	}
	(*shapedState[cryptoDestinationAddressArgs])(&plan).clearUnknownComputed(ctx, &resp.Diagnostics)
	resp.Diagnostics.Append(plan.set(ctx, &resp.State, resp.State.Schema)...)
	setIdentity(ctx, resp.Identity, plan.id(), &resp.Diagnostics)
	resp.Diagnostics.AddError(destinationWords.unknown,
		fmt.Sprintf("The PUT of %s was sent, but the service did not confirm it: %s.\n\nIt may or may not have "+
			"added the address. The state records the attempt: applying again without changing the arguments looks "+
			"the address up, and records the entry it finds when it matches the configuration (nothing is sent "+
			"again), or adds it.", plan.args.describe(), err))
}

// record writes the answered address a to the state and identity.
func (r *cryptoDestinationAddressResource) record(ctx context.Context, a *client.CryptoDestinationAddress, state *tfsdk.State, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	var m cryptoDestinationAddressModel
	m.fromAPI(a, diags)
	if diags.HasError() {
		return
	}
	diags.Append(m.set(ctx, state, state.Schema)...)
	setIdentity(ctx, identity, m.id(), diags)
}

// readDestinationError is the diagnostic of a failed read of the book.
func readDestinationError(err error, what string) (summary, detail string) {
	if scopeRefused(err) {
		return "Not allowed to read the address book",
			fmt.Sprintf("Reading %s from the address book failed: %s.\n\nIt needs the OAuth scope %s: have it granted "+
				"to the client credentials, and if the provider's scopes argument pins the token's scopes, include it "+
				"there.", what, err, client.ScopeReadCryptoDestinationAddress)
	}
	return "Reading the address book failed",
		fmt.Sprintf("Reading %s from the address book failed: %s.\n\nCheck the provider configuration and the "+
			"service's availability, then try again.", what, err)
}

// readByID reads the address id through the list; nil when the book does
// not hold it.
func readByID(ctx context.Context, c *client.Client, id string) (*client.CryptoDestinationAddress, error) {
	found, err := c.ListCryptoDestinationAddresses(ctx, client.ListCryptoDestinationAddressesQuery{IDs: []string{id}})
	if err != nil {
		return nil, err
	}
	for i := range found {
		if found[i].ID == id {
			return &found[i], nil
		}
	}
	return nil, nil
}

// destinationLists reads many entries of the address book at once through
// its list, filtered by ids (the list takes no ref_ids; see listedBy).
var destinationLists = listedBy(
	func(ctx context.Context, c *client.Client, ids, _ []string) iter.Seq2[*client.CryptoDestinationAddress, error] {
		return c.CryptoDestinationAddresses(ctx, client.ListCryptoDestinationAddressesQuery{IDs: ids})
	},
	func(a *client.CryptoDestinationAddress) string {
		if a == nil {
			return ""
		}
		return a.ID
	},
	nil)

// errNotInBook says that the address book does not hold the id read.
var errNotInBook = errors.New("not in the address book")

// readDestination reads the address id for a refresh, gathered with the
// other reads of the address book into list requests by ids (see
// readGatheredBy); nil when the book does not hold it.
func readDestination(ctx context.Context, data *providerData, id string) (*client.CryptoDestinationAddress, error) {
	a, err := readGatheredBy(ctx, data.run, destinationWords.refNamespace, destinationLists.byIDs,
		func(ctx context.Context, c *client.Client, id string) (*client.CryptoDestinationAddress, error) {
			a, err := readByID(ctx, c, id)
			if err == nil && a == nil {
				return nil, errNotInBook
			}
			return a, err
		}, id)
	if errors.Is(err, errNotInBook) {
		return nil, nil
	}
	return a, err
}

func (r *cryptoDestinationAddressResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	if r.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	state, d := getDestinationAddress(ctx, req.State)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	setIdentity(ctx, resp.Identity, state.id(), &resp.Diagnostics)
	id := state.id()
	if id.IsNull() {
		// An unconfirmed create (Terraform holds it tainted).
		attempt, recorded := recordedLostCreate(ctx, req.Private)
		r.data.run.attempts.recordLost(destinationWords.refNamespace, state.args.tuple(), attempt, recorded)
		resp.Diagnostics.AddWarning("Crypto destination address not confirmed",
			fmt.Sprintf("The last create of %s ended without confirmation from the service. Terraform plans to "+
				"create it again: the apply looks it up first, and records the entry it finds when it matches the "+
				"configuration.", state.args.describe()))
		return
	}
	importing := state.args.CryptoNetwork.IsNull()
	var a *client.CryptoDestinationAddress
	var err error
	if importing {
		a, err = readByID(ctx, r.data.client, id.ValueString())
	} else {
		a, err = readDestination(ctx, r.data, id.ValueString())
	}
	switch {
	case err != nil && importing:
		cannotImport(destinationWords, id.ValueString(), err, client.ScopeReadCryptoDestinationAddress, &resp.Diagnostics)
		return
	case err != nil:
		summary, detail := readDestinationError(err, "address "+id.ValueString())
		resp.Diagnostics.AddError(failure(summary, err), detail)
		return
	case a == nil && importing:
		cannotImport(destinationWords, id.ValueString(), client.ErrNotFound, client.ScopeReadCryptoDestinationAddress, &resp.Diagnostics)
		return
	case a == nil:
		tflog.Warn(ctx, "crypto destination address not found; removing it from state", map[string]any{"id": id.ValueString()})
		resp.Diagnostics.AddWarning("Crypto destination address no longer in the address book",
			fmt.Sprintf("The address book no longer holds %s (%s). It was removed from the Terraform state; "+
				"Terraform plans to add it again.", id.ValueString(), state.args.describe()))
		resp.State.RemoveResource(ctx)
		return
	}
	diffs := recordedDifferences(id, a.ID, []recordedField{
		{"crypto_network", state.args.CryptoNetwork, a.CryptoNetwork},
		{"address", state.args.Address, a.Address},
	})
	if got, want := deref(a.IdentityID), knownString(state.args.IdentityID); !importing && got != want {
		diffs = append(diffs, fmt.Sprintf("identity_id: recorded %q, answered %q", want, got))
	}
	if len(diffs) > 0 {
		anotherObject(destinationWords, id.ValueString(), diffs, &resp.Diagnostics)
		return
	}
	r.record(ctx, a, &resp.State, resp.Identity, &resp.Diagnostics)
}

func (r *cryptoDestinationAddressResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if r.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	plan, d := getDestinationAddress(ctx, req.Plan)
	resp.Diagnostics.Append(d...)
	state, d := getDestinationAddress(ctx, req.State)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := state.id().ValueString()
	body, err := plan.args.request(id)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("travelrule_metadata"), "Invalid travelrule_metadata", err.Error())
		return
	}
	a, err := r.data.client.PutCryptoDestinationAddress(ctx, body)
	if err != nil {
		what := "was refused, so nothing changed"
		if createOutcomeUnknown(err, destinationWords.path) {
			what = "ended without an answer: it may or may not have changed the entry; the next refresh reads what it holds"
		}
		resp.Diagnostics.AddError("Crypto destination address not updated",
			fmt.Sprintf("The PUT of address %s (%s) %s: %s.", id, state.args.describe(), what, err))
		return
	}
	if diffs := answerDifferences(body, state.args, id, a); len(diffs) > 0 {
		anotherObject(destinationWords, id, diffs, &resp.Diagnostics)
		return
	}
	r.record(ctx, a, &resp.State, resp.Identity, &resp.Diagnostics)
}

func (r *cryptoDestinationAddressResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, d := getDestinationAddress(ctx, req.State)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	if state.id().IsNull() {
		// A tainted, unconfirmed create, before its retry.
		if r.data != nil {
			attempt, recorded := recordedLostCreate(ctx, req.Private)
			r.data.run.attempts.recordLost(destinationWords.refNamespace, state.args.tuple(), attempt, recorded)
		}
		return
	}
	resp.Diagnostics.AddWarning("Crypto destination address still in the address book",
		fmt.Sprintf("The crypto destination address %s (%s, status %s) was removed from the Terraform state only. "+
			"The API has no endpoint to delete it: it stays in the service's address book. No API call was made.",
			state.id().ValueString(), state.args.describe(), shown(state.str("status").ValueString())))
}

func (r *cryptoDestinationAddressResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importByID(ctx, req, resp)
}

// NewCryptoDestinationAddressListResource is the
// platform_crypto_destination_address list resource.
func NewCryptoDestinationAddressListResource() list.ListResource {
	return newListResource(&destinationAddressList)
}

// destinationAddressList declares the platform_crypto_destination_address
// list resource: the entries of the address book.
var destinationAddressList = listDeclaration[client.ListCryptoDestinationAddressesQuery, client.CryptoDestinationAddress]{
	typeName: "platform_crypto_destination_address",
	description: "Finds the entries of the withdrawal address book (`GET /transfer/crypto-destination-addresses`, " +
		"scope `transfer:read_crypto_destination_address`), newest first. Configuration generated from the " +
		"results imports them by identity; nothing is sent.",
	filters: destinationAddressFilters,
	limit:   func(q *client.ListCryptoDestinationAddressesQuery) *int { return &q.MaxItems },
	list:    (*client.Client).CryptoDestinationAddresses,
	describe: func(a *client.CryptoDestinationAddress) (shapedWriter, string, string) {
		var m cryptoDestinationAddressModel
		var diags diag.Diagnostics
		m.fromAPI(a, &diags)
		return m, a.ID, fmt.Sprintf("%s: %s on %s (%s)", deref(a.Nickname), a.Address, a.CryptoNetwork, deref(a.Status))
	},
}
