package provider

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"regexp"
	"slices"
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
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// NewCryptoDestinationAddressResource is the constructor of
// platform_crypto_destination_address.
func NewCryptoDestinationAddressResource() resource.Resource {
	return newMoneyResource(&destinationAddressType)
}

// destinationAddressType declares platform_crypto_destination_address on
// the money core: an entry of the withdrawal address book. The one PUT of
// the API creates it (naming the tuple) and updates it (naming its id); it
// is read through the list (ids filter); the API has no delete, so a
// destroy forgets it. The create has no ref_id: its key is the tuple
// (network, address, identity), which finds an entry again after a lost
// answer (lost_create.go).
var destinationAddressType = moneyType[cryptoDestinationAddressArgs, *client.CryptoDestinationAddress, client.PutCryptoDestinationAddressRequest]{
	objects: moneyObjects[*client.CryptoDestinationAddress]{
		words: destinationWords,
		id: func(a *client.CryptoDestinationAddress) string {
			if a == nil {
				return ""
			}
			return a.ID
		},
		createdAt: func(a *client.CryptoDestinationAddress) time.Time {
			if a.CreatedAt == nil {
				return time.Time{}
			}
			return *a.CreatedAt
		},
		describe:  func(a *client.CryptoDestinationAddress) string { return a.Address + " on " + a.CryptoNetwork },
		get:       readByID,
		readScope: client.ScopeReadCryptoDestinationAddress,
		lists:     destinationLists,
	},
	key:      &destinationKey,
	schema:   destinationAddressSchema,
	identity: "crypto destination address",
	refresh:  refreshPolicy{scopeRefused: failKeepingState, gone: forgetWithWarning, another: failKeepingState},
	say: lifecycleWords[cryptoDestinationAddressArgs]{
		destroy: &message{"Destroying a crypto destination address does not remove it from the address book",
			"The API has no endpoint to delete an address from the address book: destroy only removes it from the " +
				"Terraform state, and the address stays in the service's book (and usable for withdrawals, if approved)."},
		forgotten: func(m shapedState[cryptoDestinationAddressArgs]) message {
			return message{"Crypto destination address still in the address book",
				fmt.Sprintf("The crypto destination address %s (%s, status %s) was removed from the Terraform state only. "+
					"The API has no endpoint to delete it: it stays in the service's address book. No API call was made.",
					id(m).ValueString(), m.args.describe(), shown(m.str("status").ValueString()))}
		},
		gone: func(m shapedState[cryptoDestinationAddressArgs]) message {
			return message{"Crypto destination address no longer in the address book",
				fmt.Sprintf("The address book no longer holds %s (%s). It was removed from the Terraform state; "+
					"Terraform plans to add it again.", id(m).ValueString(), m.args.describe())}
		},
		readFailed: func(m shapedState[cryptoDestinationAddressArgs], err error) message {
			summary, detail := readDestinationError(err, "address "+id(m).ValueString())
			return message{failure(summary, err), detail}
		},
	},
	plan: typePlan[cryptoDestinationAddressArgs]{
		unread:     func(a cryptoDestinationAddressArgs) bool { return a.CryptoNetwork.IsNull() },
		summary:    func(a cryptoDestinationAddressArgs) string { return a.describe() },
		validators: []resource.ConfigValidator{addressShapeValidator{}},
	},
	create: typeCreate[cryptoDestinationAddressArgs, *client.CryptoDestinationAddress, client.PutCryptoDestinationAddressRequest]{
		request: func(_ context.Context, a cryptoDestinationAddressArgs, _ string) (client.PutCryptoDestinationAddressRequest, error) {
			return a.request("")
		},
		requestArgument: "travelrule_metadata",
		post: func(ctx context.Context, c *client.Client, body client.PutCryptoDestinationAddressRequest) (*client.CryptoDestinationAddress, error) {
			return c.PutCryptoDestinationAddress(ctx, body)
		},
		differences: func(body client.PutCryptoDestinationAddressRequest, a *client.CryptoDestinationAddress) []string {
			return answerDifferences(body, tupleOf(body), "", a)
		},
		created: func(_ context.Context, m *shapedState[cryptoDestinationAddressArgs], a *client.CryptoDestinationAddress, _ createOutcome, diags *diag.Diagnostics) {
			(*cryptoDestinationAddressModel)(m).fromAPI(a, diags)
		},
	},
	read: typeRead[cryptoDestinationAddressArgs, *client.CryptoDestinationAddress]{
		recorded: func(_ context.Context, m shapedState[cryptoDestinationAddressArgs], a *client.CryptoDestinationAddress) []string {
			d := fieldDifferences([]recordedField{
				{"crypto_network", m.args.CryptoNetwork, a.CryptoNetwork},
				{"address", m.args.Address, a.Address},
			})
			if got, want := deref(a.IdentityID), knownString(m.args.IdentityID); got != want {
				d = append(d, fmt.Sprintf("identity_id: recorded %q, answered %q", want, got))
			}
			return d
		},
		refreshed: fromAPIInto,
		adopt:     fromAPIInto,
	},
	change: typeChange[cryptoDestinationAddressArgs]{update: updateDestinationAddress},
}

// fromAPIInto sets every attribute of m from the address a.
func fromAPIInto(_ context.Context, m *shapedState[cryptoDestinationAddressArgs], a *client.CryptoDestinationAddress, diags *diag.Diagnostics) {
	(*cryptoDestinationAddressModel)(m).fromAPI(a, diags)
}

// destinationKey is the key of an entry of the book: its tuple. An entry
// found under it after a lost PUT is the attempt's only when it holds the
// nickname and bookmark the attempt sent and the service made it after
// the attempt started (its created_at).
var destinationKey = naturalKey[cryptoDestinationAddressArgs, *client.CryptoDestinationAddress, client.PutCryptoDestinationAddressRequest]{
	of:     cryptoDestinationAddressArgs.tuple,
	attr:   path.Root("address"),
	lookup: lookupTuple,
	refuses: func(a cryptoDestinationAddressArgs, atSend bool, diags *diag.Diagnostics) bool {
		when := ""
		if atSend {
			when = " at send"
		}
		return checksumRefused(a.CryptoNetwork, a.Address, path.Root("address"), "address book entry", when, diags)
	},
	sent: lostEntryRequest,
	judge: func(_ context.Context, _ *client.Client, attempt lostCreate, _ bool, a *client.CryptoDestinationAddress) (foundObject, error) {
		return lostEntryEvidence(attempt, a), nil
	},
	existed: existedBefore,
	say: keyWords[cryptoDestinationAddressArgs, *client.CryptoDestinationAddress]{
		notLookedUp: func(a cryptoDestinationAddressArgs, err error) message {
			summary, detail := readDestinationError(err, a.describe())
			return message{summary + " at plan", detail + " The apply looks the address up again before it adds it, " +
				"and never takes over an address that is already in the book."}
		},
		lookupFailed: func(a cryptoDestinationAddressArgs, err error) message {
			summary, detail := readDestinationError(err, a.describe())
			return message{failure(summary, err), detail + " Nothing was sent: the address is looked up before it is " +
				"added, so that an address already in the book is never taken over."}
		},
		taken: func(a cryptoDestinationAddressArgs, found *client.CryptoDestinationAddress, _ string) message {
			return alreadyInBook(a, found, "This configuration did not add it")
		},
		notJudgedAtPlan: func(a cryptoDestinationAddressArgs, found *client.CryptoDestinationAddress, err error) message {
			summary, detail := readDestinationError(err, a.describe())
			return message{summary + " at plan", detail}
		},
		notJudged: func(a cryptoDestinationAddressArgs, found *client.CryptoDestinationAddress, _ string, err error, _ string) message {
			summary, detail := readDestinationError(err, a.describe())
			return message{failure(summary, err), detail + " Nothing was sent."}
		},
		notItsOwn: func(a cryptoDestinationAddressArgs, found *client.CryptoDestinationAddress, _ foundObject, missing []string, _ string) message {
			return alreadyInBook(a, found, fmt.Sprintf("This state recorded an attempt to add it whose answer was lost, "+
				"but nothing shows that attempt added it:\n%s\n\nSomeone else may have added it, so it is not recorded "+
				"as this resource's", bulletList(missing)))
		},
		foundAtPlan: func(a cryptoDestinationAddressArgs, found *client.CryptoDestinationAddress, _ foundObject) message {
			return message{"Crypto destination address was added earlier",
				fmt.Sprintf("The address book holds %s as %s (status %s), added by the attempt this state recorded and "+
					"the service never confirmed. Applying records it and sends nothing.", a.describe(),
					shown(found.ID), shown(deref(found.Status)))}
		},
		recorded: "this state recorded an attempt to add it that the service never confirmed",
		lost: func(err error) string {
			return fmt.Sprintf("the PUT's answer was lost (%s), and the address it added was found in the book", err)
		},
		adopted: func(a cryptoDestinationAddressArgs, found *client.CryptoDestinationAddress, _ string, _ foundObject) message {
			return message{"Crypto destination address was added earlier, not added again",
				fmt.Sprintf("The address book already holds %s as %s (status %s), and this state recorded an attempt to "+
					"add it that the service never confirmed: that attempt added it. It was not sent again; the state "+
					"now holds %s.", a.describe(), shown(found.ID), shown(deref(found.Status)), shown(found.ID))}
		},
		differs: func(a cryptoDestinationAddressArgs, found *client.CryptoDestinationAddress, _ string, _ foundObject, d []string) message {
			return alreadyInBook(a, found, fmt.Sprintf("This state recorded an unconfirmed attempt to add it, but the "+
				"address differs from the configuration:\n%s\n\nso nothing says that attempt added it", bulletList(d)))
		},
		refused: func(a cryptoDestinationAddressArgs, err error) message {
			summary, detail := destinationRefusal(err, a.describe())
			return message{failure(summary, err), detail}
		},
		answeredDifferently: func(a cryptoDestinationAddressArgs, found *client.CryptoDestinationAddress, d []string) message {
			return message{"Crypto destination address answered differently from the request",
				fmt.Sprintf("The service answered the PUT of %s with address %s, which differs from the request:\n%s\n\n"+
					"The provider does not record an answer it cannot trust, so nothing was recorded. Check the address "+
					"book with the service; if the address was added, the next apply names it and shows the import "+
					"block that adopts it.", a.describe(), shown(found.ID), bulletList(d))}
		},
		unconfirmed: func(a cryptoDestinationAddressArgs, err error) string {
			return fmt.Sprintf("The PUT of %s was sent, but the service did not confirm it: %s.\n\nIt may or may not have "+
				"added the address. The state records the attempt: applying again without changing the arguments looks "+
				"the address up, and records the entry it finds when it matches the configuration (nothing is sent "+
				"again), or adds it.", a.describe(), err)
		},
		notConfirmed: func(a cryptoDestinationAddressArgs) message {
			return message{"Crypto destination address not confirmed",
				fmt.Sprintf("The last create of %s ended without confirmation from the service. Terraform plans to "+
					"create it again: the apply looks it up first, and records the entry it finds when it matches the "+
					"configuration.", a.describe())}
		},
		upserted: func(a cryptoDestinationAddressArgs, found *client.CryptoDestinationAddress, why string) message {
			return message{"Address was already in the address book",
				fmt.Sprintf("The PUT meant to add %s answered with the entry %s (status %s), which existed before it: %s. "+
					"The service's PUT is an upsert, so it updated that entry in place with this configuration's "+
					"nickname, bookmark and Travel Rule data. This configuration did not add it, so it is not recorded as "+
					"this resource's, and a create never takes over an entry of the book.\n\nTo manage that entry with "+
					"this resource, import it:\n\n%s\n\nand check its nickname and Travel Rule data with the service.",
					a.describe(), shown(found.ID), shown(deref(found.Status)), why, importBlock(found.ID))}
		},
	},
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

func destinationAddressSchema() schema.Schema {
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
	return schema.Schema{
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

// addressShapeValidator checks the shape of the address on its network.
type addressShapeValidator struct{}

func (addressShapeValidator) Description(context.Context) string {
	return "address has the shape of an address of crypto_network"
}

func (v addressShapeValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (addressShapeValidator) ValidateResource(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
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

// lookupTuple looks the tuple of a up in the book, comparing addresses
// as the service does: the letter case of an EVM address is only a
// checksum, so such an address is looked for among every entry of its
// network (and identity), not by the list's exact filter. It names every
// entry it read (existedBefore).
func lookupTuple(ctx context.Context, c *client.Client, a cryptoDestinationAddressArgs) (keyFound[*client.CryptoDestinationAddress], error) {
	address := knownString(a.Address)
	q := client.ListCryptoDestinationAddressesQuery{CryptoNetworks: []string{knownString(a.CryptoNetwork)}}
	if !evmAddress.MatchString(address) {
		q.Addresses = []string{address}
	}
	if id := knownString(a.IdentityID); id != "" {
		q.IdentityIDs = []string{id}
	}
	var l keyFound[*client.CryptoDestinationAddress]
	found, err := c.ListCryptoDestinationAddresses(ctx, q)
	if err != nil {
		return l, err
	}
	for i := range found {
		f := &found[i]
		l.seen = append(l.seen, f.ID)
		if !l.found && sameAddress(f.Address, address) && f.CryptoNetwork == knownString(a.CryptoNetwork) &&
			deref(f.IdentityID) == knownString(a.IdentityID) {
			l.obj, l.found = f, true
		}
	}
	return l, nil
}

// existedBefore says why the entry a, answered to a PUT that was to add a
// new address, evidently existed before that PUT (the PUT is an upsert):
// its id was among the entries the lookup read (l), or the service made
// it before the lookup's answer (servedAt, by the service's own clock, a
// second's margin); "" when nothing says so.
func existedBefore(l keyFound[*client.CryptoDestinationAddress], servedAt time.Time, a *client.CryptoDestinationAddress) string {
	switch {
	case slices.Contains(l.seen, a.ID):
		return "its id was already in the book when the address was looked up"
	case a.CreatedAt != nil && !servedAt.IsZero() && a.CreatedAt.Before(servedAt.Add(-time.Second)):
		return fmt.Sprintf("the service made it at %s, before the lookup that found no such address (%s)",
			a.CreatedAt.UTC().Format(time.RFC3339), servedAt.UTC().Format(time.RFC3339))
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

// tupleOf is the tuple a create request names, as arguments.
func tupleOf(req client.PutCryptoDestinationAddressRequest) cryptoDestinationAddressArgs {
	identity := types.StringNull()
	if req.IdentityID != "" {
		identity = types.StringValue(req.IdentityID)
	}
	return cryptoDestinationAddressArgs{CryptoNetwork: types.StringValue(req.CryptoNetwork),
		Address: types.StringValue(req.Address), IdentityID: identity}
}

// importBlock is the import block that adopts the address id.
func importBlock(id string) string {
	return fmt.Sprintf("  import {\n    to = platform_crypto_destination_address.<name>\n    id = %q\n  }", id)
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
func alreadyInBook(args cryptoDestinationAddressArgs, a *client.CryptoDestinationAddress, why string) message {
	return message{"Address already in the address book",
		fmt.Sprintf("The address book already holds %s as %s (status %s, created_at %s). %s, and a create never takes over an "+
			"address that is already in the book: the PUT would update it in place. Nothing was sent.\n\n"+
			"To manage that entry with this resource, import it:\n\n%s\n\n(or terraform import "+
			"platform_crypto_destination_address.<name> %s); its nickname, bookmark and Travel Rule data then "+
			"follow the configuration. Otherwise remove this resource, or name another address.",
			args.describe(), shown(a.ID), shown(deref(a.Status)), createdText(a.CreatedAt), why, importBlock(a.ID), shown(a.ID))}
}

// createdText is a creation time as a message shows it.
func createdText(t *time.Time) string {
	if t == nil {
		return "not reported"
	}
	return t.UTC().Format(time.RFC3339)
}

// updateDestinationAddress applies an in-place change: one PUT naming the
// entry's id; the answer must be that entry.
func updateDestinationAddress(ctx context.Context, run *moneyRun, plan, state shapedState[cryptoDestinationAddressArgs], diags *diag.Diagnostics) (shapedState[cryptoDestinationAddressArgs], bool) {
	objID := id(state).ValueString()
	body, err := plan.args.request(objID)
	if err != nil {
		diags.AddAttributeError(path.Root("travelrule_metadata"), "Invalid travelrule_metadata", err.Error())
		return plan, false
	}
	a, err := run.client.PutCryptoDestinationAddress(ctx, body)
	if err != nil {
		what := "was refused, so nothing changed"
		if createOutcomeUnknown(err, destinationWords.path) {
			what = "ended without an answer: it may or may not have changed the entry; the next refresh reads what it holds"
		}
		diags.AddError("Crypto destination address not updated",
			fmt.Sprintf("The PUT of address %s (%s) %s: %s.", objID, state.args.describe(), what, err))
		return plan, false
	}
	if d := answerDifferences(body, state.args, objID, a); len(d) > 0 {
		anotherObject(destinationWords, objID, d, diags)
		return plan, false
	}
	var next shapedState[cryptoDestinationAddressArgs]
	fromAPIInto(ctx, &next, a, diags)
	return next, !diags.HasError()
}

// readByID reads the address id through the list: client.ErrNotFound
// when the book does not hold it.
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
	return nil, client.ErrNotFound
}

// destinationLists reads many entries of the address book at once through
// its list, filtered by ids (the list takes no ref_ids; see listedBy).
var destinationLists = listedBy(
	func(ctx context.Context, c *client.Client, ids, _ []string) iter.Seq2[*client.CryptoDestinationAddress, error] {
		return c.CryptoDestinationAddresses(ctx, client.ListCryptoDestinationAddressesQuery{IDs: ids})
	},
	func(a *client.CryptoDestinationAddress) string { return a.ID },
	nil)

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
