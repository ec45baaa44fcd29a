package provider

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// NewFiatAccountResource is the constructor of platform_fiat_account.
func NewFiatAccountResource() resource.Resource { return newMoneyResource(&fiatAccountType) }

// NewFiatAccountListResource is the platform_fiat_account list resource.
func NewFiatAccountListResource() list.ListResource { return newListResource(&fiatAccountList) }

// fiatAccountList declares the platform_fiat_account list resource. With
// -generate-config-out, each account is read in full (fiatAccountsInFull);
// its numbers are left out of the generated configuration.
var fiatAccountList = listDeclaration[client.ListFiatAccountsQuery, client.FiatAccount]{
	typeName: "platform_fiat_account",
	description: "Finds the fiat accounts of the customer (`GET /transfer/fiat-accounts`, scope " +
		"`transfer:read_fiat_account`), newest first. With `-generate-config-out`, each account is read in full " +
		"(`GET /transfer/fiat-accounts/{id}`) for its owner and addresses, which the list leaves out. The " +
		"account and routing numbers (and CUBIX's `account_id`) are sensitive and never written into generated " +
		"configuration: fill them in before applying it, which imports the accounts by identity.",
	filters: listFilters[client.ListFiatAccountsQuery]{
		arrayFilter("ids", "Only the accounts with these ids.",
			func(q *client.ListFiatAccountsQuery) *[]string { return &q.IDs }),
		arrayFilter("ref_ids", "Only the accounts made with these ref_ids.",
			func(q *client.ListFiatAccountsQuery) *[]string { return &q.RefIDs }),
	},
	limit:  func(q *client.ListFiatAccountsQuery) *int { return &q.MaxItems },
	list:   (*client.Client).FiatAccounts,
	inFull: fiatAccountsInFull,
	describe: func(a *client.FiatAccount) (shapedWriter, string, string) {
		m := fiatAccountNullModel()
		var diags diag.Diagnostics
		m.args.argumentsFrom(a)
		m.computedFrom(a, &diags)
		m.args.withoutSecrets()
		return m, deref(a.ID), accountSummary(a)
	},
}

// fiatAccountsInFull reads each listed account in full (Get Fiat Account):
// the list leaves the owner's name and address out, which the resource's
// configuration needs, so configuration generated from the list alone
// would not validate. An account read back as another is an error.
func fiatAccountsInFull(ctx context.Context, c *client.Client, items iter.Seq2[*client.FiatAccount, error]) iter.Seq2[*client.FiatAccount, error] {
	return func(yield func(*client.FiatAccount, error) bool) {
		for listed, err := range items {
			if err != nil {
				yield(nil, err)
				return
			}
			id := deref(listed.ID)
			full, err := c.GetFiatAccount(ctx, id)
			switch {
			case err != nil:
				yield(nil, fmt.Errorf("reading the listed fiat account %s in full: %w", shown(id), err))
				return
			case deref(full.ID) != id:
				yield(nil, fmt.Errorf("the service answered the read of fiat account %s with the account %s",
					shown(id), shown(deref(full.ID))))
				return
			}
			if !yield(full, nil) {
				return
			}
		}
	}
}

// fiatAccountType declares platform_fiat_account on the money core: a bank
// account the profile withdraws to, created with a ref_id (POST
// /transfer/fiat-accounts), read by id (GET …/{id}, which has the full
// account number), changed in place by PUT where the service allows it
// (fiatAccountInPlace), deleted by DELETE.
var fiatAccountType = moneyType[fiatAccountArgs, *client.FiatAccount, client.CreateFiatAccountRequest]{
	objects:  fiatAccountObjects,
	schema:   fiatAccountSchema,
	identity: "fiat account",
	refresh:  refreshPolicy{scopeRefused: keepWithWarning, gone: forgetWithWarning, another: failKeepingState},
	say: lifecycleWords[fiatAccountArgs]{
		unconfirmed: " (it looks the ref_id up first), so the service does not make a second account",
		notRefreshed: "The fiat accounts keep the values and the review status recorded when they were last read; " +
			"a change made outside Terraform is not noticed.",
		gone: func(m shapedState[fiatAccountArgs]) message {
			return message{"Fiat account " + id(m).ValueString() + " no longer exists",
				fmt.Sprintf("The service no longer knows the fiat account %s (%s): it was deleted outside Terraform. It "+
					"was removed from the Terraform state, and Terraform plans to create it again.", id(m).ValueString(),
					fiatAccountWhat(m.args))}
		},
	},
	plan: typePlan[fiatAccountArgs]{
		refID:   func(a *fiatAccountArgs) *types.String { return &a.RefID },
		unread:  func(a fiatAccountArgs) bool { return a.FiatAccountOwner == nil },
		summary: fiatAccountWhat,
	},
	create: typeCreate[fiatAccountArgs, *client.FiatAccount, client.CreateFiatAccountRequest]{
		request: func(ctx context.Context, a fiatAccountArgs, refID string) (client.CreateFiatAccountRequest, error) {
			return a.request(ctx, refID)
		},
		derive: func(ctx context.Context, a fiatAccountArgs, _ string) (string, bool) { return a.derivedRefID(ctx) },
		secrets: func(a fiatAccountArgs) []*string {
			n := a.FiatNetworkInstructions.request()
			return sensitiveValues(&n)
		},
		post: func(ctx context.Context, c *client.Client, body client.CreateFiatAccountRequest) (*client.FiatAccount, error) {
			return c.CreateFiatAccount(ctx, body, func(ctx context.Context) (*client.FiatAccount, bool, error) {
				return lookupFiatAccount(ctx, c, body.RefID)
			})
		},
		existing:    func(error) (*client.FiatAccount, bool) { return nil, false },
		differences: fiatAccountDifferences,
		lookupFirst: true,
		created: func(_ context.Context, m *shapedState[fiatAccountArgs], a *client.FiatAccount, _ createOutcome, diags *diag.Diagnostics) {
			(*fiatAccountModel)(m).computedFrom(a, diags)
		},
	},
	read: typeRead[fiatAccountArgs, *client.FiatAccount]{
		recorded: func(_ context.Context, m shapedState[fiatAccountArgs], a *client.FiatAccount) []string {
			return fieldDifferences([]recordedField{{"ref_id", m.args.RefID, deref(a.RefID)}})
		},
		refreshed: readFiatAccount,
		adopt:     readFiatAccount,
	},
	change: typeChange[fiatAccountArgs]{
		planChange: planFiatAccountChange,
		update:     updateFiatAccount,
		remove:     deleteFiatAccount,
	},
}

// readFiatAccount sets the state m from the full account a a refresh or
// an import read: what the service holds is what the state records.
func readFiatAccount(_ context.Context, m *shapedState[fiatAccountArgs], a *client.FiatAccount, diags *diag.Diagnostics) {
	m.args.argumentsFrom(a)
	(*fiatAccountModel)(m).computedFrom(a, diags)
}

// mailingAddressRegexp is the published pattern of every part of an address.
var mailingAddressRegexp = regexp.MustCompile(`^[0-9A-Za-z /?:().,&'+-]+$`)

// Notes that end the descriptions of the arguments.
const (
	faReplaceNote = " Changing it replaces the account (the service cannot change it): the old one is deleted and a " +
		"new one created, which the service reviews again."
	faUpdateNote = " Changing it updates the account in place, which sends it back to `PENDING` review; removing " +
		"it replaces the account (an update cannot clear a value)."
	faSensitiveNote = " Sensitive: never shown in plans or logs."
)

// addressLineAttribute is one line of a postal address argument, as the
// published reference bounds it (a fiat account's addresses and the Travel
// Rule data's alike).
func addressLineAttribute(d string) schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: d + " At most 35 characters of letters, digits, spaces and `/?:().,&'+-`.",
		Optional:            true,
		Validators: []validator.String{stringvalidator.LengthBetween(1, 35),
			stringvalidator.RegexMatches(mailingAddressRegexp, "must hold only letters, digits, spaces and /?:().,&'+-")},
	}
}

func addressAttribute(desc string, required bool) schema.SingleNestedAttribute {
	part := addressLineAttribute
	country := part("Country.")
	country.Optional, country.Required = false, true
	return schema.SingleNestedAttribute{
		MarkdownDescription: desc,
		Required:            required,
		Optional:            !required,
		Attributes: map[string]schema.Attribute{
			"country": country, "address1": part("First address line."), "address2": part("Second address line."),
			"city": part("City."), "province": part("Province or state."), "zip_code": part("Postal code."),
		},
	}
}

func faRequired(desc string, sensitive bool) schema.StringAttribute {
	return schema.StringAttribute{MarkdownDescription: desc, Required: true, Sensitive: sensitive,
		Validators: []validator.String{stringvalidator.LengthAtLeast(1)}}
}

func faOptional(desc string) schema.StringAttribute {
	return schema.StringAttribute{MarkdownDescription: desc, Optional: true,
		Validators: []validator.String{stringvalidator.LengthAtLeast(1)}}
}

func wireRoutingAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"routing_number_type": schema.StringAttribute{
			MarkdownDescription: "Kind of routing number: " + codeList(client.RoutingNumberTypes) + " (`ABA` for U.S. " +
				"wires, `SWIFT` for international ones).",
			Required:   true,
			Validators: []validator.String{stringvalidator.OneOf(client.RoutingNumberTypes...)},
		},
		"routing_number": faRequired("Routing number (ABA) or BIC (SWIFT) of the bank."+faSensitiveNote, true),
		"bank_name":      faRequired("Name of the bank.", false),
		"bank_address":   addressAttribute("Address of the bank.", true),
	}
}

// fiatAccountNetworks are the networks of fiat_network_instructions, of
// which an account has exactly one.
var fiatAccountNetworks = []string{"wire", "cbit", "dbs_act", "cubix", "scb", "rtp"}

func fiatAccountSchema() schema.Schema {
	stable := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	nonEmpty := []validator.String{stringvalidator.LengthAtLeast(1)}
	otherNetworks := func(self string) []validator.Object {
		var others []string
		for _, n := range fiatAccountNetworks {
			if n != self {
				others = append(others, n)
			}
		}
		return []validator.Object{exactlyOneOfSiblings(others...)}
	}
	// oneField is a network whose instructions are a single required value.
	oneField := func(network, desc, field string, value schema.StringAttribute) schema.SingleNestedAttribute {
		return schema.SingleNestedAttribute{
			MarkdownDescription: desc, Optional: true, Validators: otherNetworks(network),
			Attributes: map[string]schema.Attribute{field: value},
		}
	}
	attrs := map[string]schema.Attribute{
		"ref_id": schema.StringAttribute{
			MarkdownDescription: "Client id of the create. When unset, the provider derives it from the other " +
				"arguments (account and routing numbers cut to their last four characters) and shows it in the " +
				"plan, so a retried create, or the next run after a crash or a timeout, finds the account it " +
				"made instead of making a second one.",
			Optional: true, Computed: true, Validators: nonEmpty,
			PlanModifiers: stable,
		},
		"identity_id": schema.StringAttribute{
			MarkdownDescription: "Identity the account belongs to; needed only by customers with third-party " +
				"integrations acting for end users. When unset, the service's answer is recorded.",
			Optional: true, Computed: true, Validators: nonEmpty, PlanModifiers: stable,
		},
		"account_id": schema.StringAttribute{
			MarkdownDescription: "Account the fiat account belongs to; same condition as `identity_id`. When unset, " +
				"the service's answer is recorded.",
			Optional: true, Computed: true, Validators: nonEmpty, PlanModifiers: stable,
		},
		"fiat_account_owner": schema.SingleNestedAttribute{
			MarkdownDescription: "Owner of the account: exactly one of `person_details` and " +
				"`institution_details`. Changing from one to the other replaces the account.",
			Required: true,
			Attributes: map[string]schema.Attribute{
				"person_details": schema.SingleNestedAttribute{
					MarkdownDescription: "The owner when it is a person.",
					Optional:            true,
					Validators:          []validator.Object{exactlyOneOfSiblings("institution_details")},
					Attributes: map[string]schema.Attribute{
						"first_name": faRequired("First name.", false),
						"last_name":  faRequired("Last name.", false),
					},
				},
				"institution_details": schema.SingleNestedAttribute{
					MarkdownDescription: "The owner when it is an institution.",
					Optional:            true,
					Attributes: map[string]schema.Attribute{
						"name": faRequired("Name of the institution.", false),
					},
				},
			},
		},
		"fiat_network_instructions": schema.SingleNestedAttribute{
			MarkdownDescription: "Where the account is, for exactly one fiat network: `wire`, `cbit`, `dbs_act`, " +
				"`cubix`, `scb` or `rtp`. Changing the network replaces the account.",
			Required: true,
			Attributes: map[string]schema.Attribute{
				"wire": schema.SingleNestedAttribute{
					MarkdownDescription: "A bank account reached by wire.",
					Optional:            true,
					Validators:          otherNetworks("wire"),
					Attributes: map[string]schema.Attribute{
						"account_number":             faRequired("Bank account number."+faSensitiveNote, true),
						"fiat_account_owner_address": addressAttribute("Address of the account owner.", true),
						"routing_details": schema.SingleNestedAttribute{
							MarkdownDescription: "Routing details of the bank.", Required: true, Attributes: wireRoutingAttributes(),
						},
						"intermediary_routing_details": schema.SingleNestedAttribute{
							MarkdownDescription: "Routing details of an intermediary (correspondent) bank, for " +
								"international wires. Adding or removing them replaces the account.",
							Optional: true, Attributes: wireRoutingAttributes(),
						},
					},
				},
				"cbit": oneField("cbit", "A CBIT account.",
					"wallet_address", faRequired("Wallet address of the CBIT account.", false)),
				"dbs_act": oneField("dbs_act", "A DBS account.",
					"account_number", faRequired("Account number."+faSensitiveNote, true)),
				"cubix": oneField("cubix", "A CUBIX account.",
					"account_id", faRequired("CUBIX account id (UUID)."+faSensitiveNote, true)),
				"scb": oneField("scb", "A Standard Chartered account.",
					"account_number", faRequired("Account number."+faSensitiveNote, true)),
				"rtp": schema.SingleNestedAttribute{
					MarkdownDescription: "A bank account reached by RTP.", Optional: true, Validators: otherNetworks("rtp"),
					Attributes: map[string]schema.Attribute{
						"account_number":             faRequired("Bank account number."+faSensitiveNote, true),
						"fiat_account_owner_address": addressAttribute("Address of the account owner.", false),
						"routing_details": schema.SingleNestedAttribute{
							MarkdownDescription: "Routing details of the bank.", Required: true,
							Attributes: map[string]schema.Attribute{
								"routing_number": faRequired("Routing number."+faSensitiveNote, true),
								"bank_name":      faOptional("Name of the bank."),
								"bank_address":   addressAttribute("Address of the bank.", false),
							},
						},
					},
				},
			},
		},
		"metadata": schema.MapAttribute{
			MarkdownDescription: metadataDescription("the account") + " Removing a pair counts as removing a value.",
			ElementType:         types.StringType,
			Optional:            true,
			Validators:          metadataValidators(),
		},
	}
	withChangeNotes(attrs, "")
	// The computed attributes are the account's own: its id and creation
	// time never change; its status and update time follow the service.
	said := map[string]string{
		"id": "Identifier of the account at the service. Import uses it.",
		"status": "Review status: `PENDING`, `APPROVED` or `REJECTED`. Refreshed from the service; every update " +
			"sets it back to `PENDING`.",
	}
	fiatAccountComputedShape.computedInto(attrs, func(name string) bool { return name == "id" || name == "created_at" })
	for name, d := range said {
		if str, ok := attrs[name].(schema.StringAttribute); ok {
			str.MarkdownDescription = d
			attrs[name] = str
		}
	}
	return schema.Schema{
		MarkdownDescription: "A bank account the profile withdraws fiat to (`POST /transfer/fiat-accounts`, read with " +
			"`GET /transfer/fiat-accounts/{id}`, changed with `PUT`, deleted with `DELETE`).\n\n" +
			"Which argument changes update the account in place and which replace it is said on each argument. An " +
			"update sends the account back to `PENDING` review.",
		Attributes: attrs,
	}
}

// fiatAccountComputedShape is what the resource computes of an account:
// the account less its arguments.
var fiatAccountComputedShape = fiatAccountShape.without("ref_id", "identity_id", "account_id", "fiat_account_owner",
	"fiat_network_instructions", "metadata")

// fiatAccountInPlace is how a change of each argument of a fiat account
// applies: the argument paths (attribute names joined by dots; "*" is
// any one attribute) that UpdateFiatAccount sets in place. Every other
// argument change replaces the account, and so does removing a value of
// one of these (the service ignores empty values, so an update cannot
// clear one). The plan (fiatAccountChanges) and the arguments'
// descriptions (withChangeNotes) both read it.
var fiatAccountInPlace = []string{
	"fiat_account_owner.person_details.first_name",
	"fiat_account_owner.person_details.last_name",
	"fiat_account_owner.institution_details.name",
	"fiat_network_instructions.wire.fiat_account_owner_address.*",
	"fiat_network_instructions.wire.routing_details.bank_name",
	"fiat_network_instructions.wire.routing_details.bank_address.*",
	"fiat_network_instructions.wire.intermediary_routing_details.bank_name",
	"fiat_network_instructions.wire.intermediary_routing_details.bank_address.*",
	"metadata",
}

// withChangeNotes ends the description of every argument under attrs (at
// the path prefix) with what changing it does, from fiatAccountInPlace.
func withChangeNotes(attrs map[string]schema.Attribute, prefix string) {
	for name, a := range attrs {
		p := joinName(prefix, name)
		switch at := a.(type) {
		case schema.SingleNestedAttribute:
			withChangeNotes(at.Attributes, p)
			attrs[name] = at
		case schema.StringAttribute:
			at.MarkdownDescription += changeNote(p)
			attrs[name] = at
		case schema.MapAttribute:
			at.MarkdownDescription += changeNote(p)
			attrs[name] = at
		}
	}
}

// changeNote is the end of the description of the argument at path p.
func changeNote(p string) string {
	if updatable(p) {
		return faUpdateNote
	}
	return faReplaceNote
}

// fiatAccountObjects is how the core reads fiat accounts: looked up by ref_id
// through the list (ref_ids filter; an exact match only) and then read by
// id, which has the full account: the service publishes no replay answer
// for this create, so the core looks before it sends.
var fiatAccountObjects = moneyObjects[*client.FiatAccount]{
	words:     fiatAccountWords,
	id:        func(a *client.FiatAccount) string { return deref(a.ID) },
	createdAt: func(a *client.FiatAccount) time.Time { return deref(a.CreatedAt) },
	describe:  accountSummary,
	status:    func(a *client.FiatAccount) string { return deref(a.AccountStatus()) },
	lookup:    lookupFiatAccount,
	get: func(ctx context.Context, c *client.Client, id string) (*client.FiatAccount, error) {
		return c.GetFiatAccount(ctx, id)
	},
	readScope: client.ScopeReadFiatAccount,
	lists:     fiatAccountLists,
}

// lookupFiatAccount finds the live account made with refID.
func lookupFiatAccount(ctx context.Context, c *client.Client, refID string) (*client.FiatAccount, bool, error) {
	q := client.ListFiatAccountsQuery{RefIDs: []string{refID}, MaxItems: 100}
	for a, err := range c.FiatAccounts(ctx, q) {
		if err != nil {
			return nil, false, err
		}
		if deref(a.RefID) != refID || deref(a.ID) == "" {
			continue
		}
		full, ok, err := fullFiatAccount(ctx, c, a, refID)
		if err != nil || ok {
			return full, ok, err
		}
	}
	return nil, false, nil
}

// fullFiatAccount reads by id the account a, listed under refID, for its
// full answer: not ok when the service no longer knows it (deleted since
// the list), an error when the read fails or answers another account.
func fullFiatAccount(ctx context.Context, c *client.Client, a *client.FiatAccount, refID string) (*client.FiatAccount, bool, error) {
	full, err := c.GetFiatAccount(ctx, deref(a.ID))
	if errors.Is(err, client.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if deref(full.ID) != deref(a.ID) || deref(full.RefID) != refID {
		return nil, false, fmt.Errorf("reading fiat account %s answered another account", shown(deref(a.ID)))
	}
	return full, true, nil
}

// fiatAccountLists looks many ref_ids up at once, as lookupFiatAccount
// looks one: the list filtered by them, read to its end, then each account
// listed under an asked ref_id read by id, in the list's order, until one
// of each is found; a read that fails fails the lookups of the whole list.
// The refresh reads each account alone by id: the list masks the account
// numbers the read by id answers.
var fiatAccountLists = &objectLists[*client.FiatAccount]{
	byRefIDs: func(ctx context.Context, c *client.Client, refIDs []string) (map[string]*client.FiatAccount, error) {
		asked := make(map[string]bool, len(refIDs))
		for _, r := range refIDs {
			asked[r] = true
		}
		var listed []*client.FiatAccount
		for a, err := range c.FiatAccounts(ctx, client.ListFiatAccountsQuery{RefIDs: refIDs}) {
			if err != nil {
				return nil, err
			}
			if a != nil && asked[deref(a.RefID)] && deref(a.ID) != "" {
				listed = append(listed, a)
			}
		}
		out := make(map[string]*client.FiatAccount, len(listed))
		for _, a := range listed {
			ref := deref(a.RefID)
			if out[ref] != nil {
				continue
			}
			full, ok, err := fullFiatAccount(ctx, c, a, ref)
			if err != nil {
				return nil, err
			}
			if ok {
				out[ref] = full
			}
		}
		return out, nil
	},
}

// planFiatAccountChange plans an account whose configuration changed: a
// replacement when an argument that cannot change in place changed (see
// fiatAccountInPlace), an update otherwise, which sends it back to review.
func planFiatAccountChange(_ context.Context, _ *moneyRun, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, state shapedState[fiatAccountArgs]) {
	replace, changed := fiatAccountChanges(req.State.Raw, req.Plan.Raw)
	if len(replace) > 0 {
		resp.RequiresReplace = append(resp.RequiresReplace, replace...)
		return
	}
	if !changed {
		return
	}
	objID := id(state).ValueString()
	resp.Diagnostics.AddWarning("Updating fiat account "+objID+" sends it back to review",
		fmt.Sprintf("Applying this plan updates the fiat account %s (%s) in place. The service then sets it back to "+
			"PENDING and reviews the change again: until it is APPROVED, withdrawals to it may be refused.",
			objID, fiatAccountWhat(state.args)))
}

// fiatAccountWhat names an account of the configuration or state: owner,
// network and bank, never its numbers.
func fiatAccountWhat(m fiatAccountArgs) string {
	owner := m.FiatAccountOwner.request()
	n := m.FiatNetworkInstructions.request()
	network, bank := networkOf(&n)
	parts := []string{}
	if o := ownerName(&owner); o != "" {
		parts = append(parts, "owner "+o)
	}
	if network != "" {
		parts = append(parts, network)
	}
	if bank != "" {
		parts = append(parts, "at "+bank)
	}
	return shown(strings.Join(parts, ", "))
}

// fiatAccountComputed are the attributes the service sets: those of
// fiatAccountComputedShape.
var fiatAccountComputed = func() map[string]bool {
	out := map[string]bool{}
	for name := range fiatAccountComputedShape.resourceAttributes() {
		out[name] = true
	}
	return out
}()

// updatable reports whether fiatAccountInPlace holds the argument path p.
func updatable(p string) bool {
	for _, u := range fiatAccountInPlace {
		if prefix, ok := strings.CutSuffix(u, "*"); ok {
			if rest, ok := strings.CutPrefix(p, prefix); ok && !strings.Contains(rest, ".") {
				return true
			}
		} else if p == u {
			return true
		}
	}
	return false
}

// fiatAccountChanges compares the state and the plan of an account: the
// attribute paths whose change needs a replacement, and whether anything
// the update can set changed. An updatable value that goes away needs a
// replacement (the service ignores empty values); so does a metadata key
// that goes away. An unknown value counts as changed.
func fiatAccountChanges(state, plan tftypes.Value) (replace []path.Path, changed bool) {
	var walk func(p path.Path, name string, s, n tftypes.Value)
	walk = func(p path.Path, name string, s, n tftypes.Value) {
		if s.Equal(n) {
			return
		}
		switch {
		case name == "metadata":
			var sm, nm map[string]tftypes.Value
			_ = s.As(&sm)
			if n.IsKnown() {
				_ = n.As(&nm)
			}
			for k := range sm {
				if v, ok := nm[k]; !n.IsKnown() || !ok || v.IsNull() {
					replace = append(replace, p)
					return
				}
			}
			changed = true
			return
		case n.Type().Is(tftypes.Object{}) && n.IsKnown() && !n.IsNull() && !s.IsNull():
			var sm, nm map[string]tftypes.Value
			_ = s.As(&sm)
			_ = n.As(&nm)
			for k, nv := range nm {
				walk(p.AtName(k), joinName(name, k), sm[k], nv)
			}
			return
		case n.Type().Is(tftypes.Object{}):
			// An object appears, goes away or is unknown: judged by its
			// leaves (absent ones are null).
			eachLeaf(p, name, s, n, func(lp path.Path, lname string, sv, nv tftypes.Value) {
				judgeLeaf(lp, lname, sv, nv, &replace, &changed)
			})
			return
		}
		judgeLeaf(p, name, s, n, &replace, &changed)
	}
	var sm, nm map[string]tftypes.Value
	_ = state.As(&sm)
	_ = plan.As(&nm)
	for k, nv := range nm {
		if fiatAccountComputed[k] {
			continue
		}
		walk(path.Root(k), k, sm[k], nv)
	}
	return replace, changed
}

// judgeLeaf sorts the change of one leaf.
func judgeLeaf(p path.Path, name string, s, n tftypes.Value, replace *[]path.Path, changed *bool) {
	if s.Equal(n) {
		return
	}
	if name == "ref_id" || name == "identity_id" || name == "account_id" {
		if !n.IsKnown() {
			// Optional and computed: kept from the state unless configured.
			return
		}
	}
	if updatable(name) && (!n.IsKnown() || !n.IsNull()) {
		*changed = true
		return
	}
	*replace = append(*replace, p)
}

func joinName(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

// eachLeaf calls f for every leaf under an object attribute whose state is s
// and plan n, either of which may be null or unknown.
func eachLeaf(p path.Path, name string, s, n tftypes.Value, f func(path.Path, string, tftypes.Value, tftypes.Value)) {
	t, ok := n.Type().(tftypes.Object)
	if !ok {
		f(p, name, s, n)
		return
	}
	var sm, nm map[string]tftypes.Value
	if s.IsKnown() && !s.IsNull() {
		_ = s.As(&sm)
	}
	if n.IsKnown() && !n.IsNull() {
		_ = n.As(&nm)
	}
	for k, at := range t.AttributeTypes {
		sv, nv := sm[k], nm[k]
		if sv.Type() == nil {
			sv = tftypes.NewValue(at, nil)
		}
		if nv.Type() == nil {
			nv = tftypes.NewValue(at, nil)
			if !n.IsKnown() {
				nv = tftypes.NewValue(at, tftypes.UnknownValue)
			}
		}
		eachLeaf(p.AtName(k), joinName(name, k), sv, nv, f)
	}
}

// computedFrom sets the computed attributes of m from the account a, and
// the optional arguments m leaves unknown or null.
func (m *fiatAccountModel) computedFrom(a *client.FiatAccount, diags *diag.Diagnostics) {
	m.computed = fiatAccountComputedShape.attrValues(a, diags)
	args := &m.args
	for _, f := range []struct {
		dst *types.String
		v   *string
	}{{&args.RefID, a.RefID}, {&args.IdentityID, a.IdentityID}, {&args.AccountID, a.AccountID}} {
		if f.dst.IsNull() || f.dst.IsUnknown() {
			*f.dst = stringValue(f.v)
		}
	}
	if args.Metadata.IsUnknown() {
		args.Metadata = types.MapNull(types.StringType)
	}
}

// argumentsFrom sets the arguments of m from the full account a (a read by
// id): what the service holds is what the state records, so a change made
// elsewhere shows as a difference in the next plan. Empty values are
// null. A sensitive value the answer masks keeps the recorded one when
// their last four characters agree.
func (m *fiatAccountArgs) argumentsFrom(a *client.FiatAccount) {
	m.RefID = faKeepOr(m.RefID, a.RefID)
	m.IdentityID = faKeepOr(m.IdentityID, a.IdentityID)
	m.AccountID = faKeepOr(m.AccountID, a.AccountID)
	if o := a.FiatAccountOwner; o != nil {
		owner := &fiatAccountOwnerModel{}
		if p := o.PersonDetails; p != nil {
			owner.PersonDetails = &fiatAccountPersonModel{FirstName: stringValue(p.FirstName), LastName: stringValue(p.LastName)}
		}
		if i := o.InstitutionDetails; i != nil {
			owner.InstitutionDetails = &fiatAccountInstitutionModel{Name: stringValue(i.Name)}
		}
		m.FiatAccountOwner = owner
	}
	if n := a.FiatNetworkInstructions; n != nil {
		m.FiatNetworkInstructions = networkModelFrom(n, m.FiatNetworkInstructions)
	}
	md := a.AccountMetadata()
	if len(md) == 0 {
		m.Metadata = types.MapNull(types.StringType)
	} else {
		m.Metadata = anyMapValue(md)
	}
}

// faKeepOr is the answered value, or the recorded one when the answer has none.
func faKeepOr(recorded types.String, answered *string) types.String {
	if v := stringValue(answered); !v.IsNull() {
		return v
	}
	if recorded.IsUnknown() {
		return types.StringNull()
	}
	return recorded
}

// secretFrom is an answered sensitive value; a masked one (its last four
// characters after X or *) keeps the recorded value with the same last
// four.
func secretFrom(answered *string, recorded types.String) types.String {
	v := deref(answered)
	if v == "" {
		return types.StringNull()
	}
	if len(v) > 4 && strings.Trim(v[:len(v)-4], "X*•") == "" {
		if r := knownString(recorded); len(r) >= 4 && r[len(r)-4:] == v[len(v)-4:] {
			return recorded
		}
	}
	return types.StringValue(v)
}

func addressModelFrom(a *client.Address) *fiatAccountAddressModel {
	if a == nil {
		return nil
	}
	return &fiatAccountAddressModel{Country: stringValue(a.Country), Address1: stringValue(a.Address1),
		Address2: stringValue(a.Address2), City: stringValue(a.City), Province: stringValue(a.Province),
		ZipCode: stringValue(a.ZipCode)}
}

func wireRoutingFrom(r *client.RoutingDetails, recorded *fiatAccountWireRoutingModel) *fiatAccountWireRoutingModel {
	if r == nil {
		return nil
	}
	prior := types.StringNull()
	if recorded != nil {
		prior = recorded.RoutingNumber
	}
	return &fiatAccountWireRoutingModel{RoutingNumberType: stringValue(r.RoutingNumberType),
		RoutingNumber: secretFrom(r.RoutingNumber, prior), BankName: stringValue(r.BankName),
		BankAddress: addressModelFrom(r.BankAddress)}
}

// networkModelFrom is the instructions n as arguments; recorded holds the
// sensitive values the state recorded.
func networkModelFrom(n *client.FiatNetworkInstructions, recorded *fiatAccountNetworkModel) *fiatAccountNetworkModel {
	if recorded == nil {
		recorded = &fiatAccountNetworkModel{}
	}
	out := &fiatAccountNetworkModel{}
	if w := n.Wire; w != nil {
		rw := recorded.Wire
		if rw == nil {
			rw = &fiatAccountWireModel{AccountNumber: types.StringNull()}
		}
		out.Wire = &fiatAccountWireModel{
			AccountNumber:              secretFrom(w.AccountNumber, rw.AccountNumber),
			FiatAccountOwnerAddress:    addressModelFrom(w.FiatAccountOwnerAddress),
			RoutingDetails:             wireRoutingFrom(w.RoutingDetails, rw.RoutingDetails),
			IntermediaryRoutingDetails: wireRoutingFrom(w.IntermediaryRoutingDetails, rw.IntermediaryRoutingDetails),
		}
	}
	if c := n.Cbit; c != nil {
		out.Cbit = &fiatAccountCbitModel{WalletAddress: stringValue(c.WalletAddress)}
	}
	number := func(a *client.AccountNumberInstructions, rec *fiatAccountNumberModel) *fiatAccountNumberModel {
		if a == nil {
			return nil
		}
		prior := types.StringNull()
		if rec != nil {
			prior = rec.AccountNumber
		}
		return &fiatAccountNumberModel{AccountNumber: secretFrom(a.AccountNumber, prior)}
	}
	out.DBSAct, out.SCB = number(n.DBSAct, recorded.DBSAct), number(n.SCB, recorded.SCB)
	if c := n.Cubix; c != nil {
		prior := types.StringNull()
		if recorded.Cubix != nil {
			prior = recorded.Cubix.AccountID
		}
		out.Cubix = &fiatAccountCubixModel{AccountID: secretFrom(c.AccountID, prior)}
	}
	if r := n.RTP; r != nil {
		rr := recorded.RTP
		if rr == nil {
			rr = &fiatAccountRTPModel{AccountNumber: types.StringNull()}
		}
		rtp := &fiatAccountRTPModel{AccountNumber: secretFrom(r.AccountNumber, rr.AccountNumber),
			FiatAccountOwnerAddress: addressModelFrom(r.FiatAccountOwnerAddress)}
		if rd := r.RoutingDetails; rd != nil {
			prior := types.StringNull()
			if rr.RoutingDetails != nil {
				prior = rr.RoutingDetails.RoutingNumber
			}
			rtp.RoutingDetails = &fiatAccountRTPRoutingModel{RoutingNumber: secretFrom(rd.RoutingNumber, prior),
				BankName: stringValue(rd.BankName), BankAddress: addressModelFrom(rd.BankAddress)}
		}
		out.RTP = rtp
	}
	return out
}

// updateFiatAccount changes the account in place (PUT) and checks the
// answer against the configuration.
func updateFiatAccount(ctx context.Context, run *moneyRun, plan, state shapedState[fiatAccountArgs], diags *diag.Diagnostics) (shapedState[fiatAccountArgs], bool) {
	objID := id(state).ValueString()
	body, err := plan.args.updateRequest(ctx)
	if err != nil {
		diags.AddAttributeError(path.Root("metadata"), "Invalid metadata", err.Error())
		return plan, false
	}
	tflog.Info(ctx, "updating fiat account", map[string]any{"id": objID})
	a, err := run.client.UpdateFiatAccount(ctx, objID, body)
	if err != nil {
		diags.AddError(failure("Updating fiat account "+objID+" failed", err),
			fmt.Sprintf("The service did not update the fiat account %s: %s.\n\nThe state keeps the values before "+
				"the update. Applying again sends the same update.", objID, err))
		return plan, false
	}
	full, _ := plan.args.request(ctx, knownString(plan.args.RefID))
	if diffs := fiatAccountDifferences(full, a); len(diffs) > 0 || deref(a.ID) != objID {
		if deref(a.ID) != objID {
			diffs = append(diffs, fmt.Sprintf("id: requested %q, answered %q", objID, shown(deref(a.ID))))
		}
		diags.AddError("Fiat account answered differently from the update",
			fmt.Sprintf("The service answered the update of fiat account %s with an account that differs from the "+
				"configuration:\n%s\n\nThe state keeps the values before the update; the next refresh reads the "+
				"account again.", objID, bulletList(diffs)))
		return plan, false
	}
	(*fiatAccountModel)(&plan).computedFrom(a, diags)
	return plan, true
}

// deleteFiatAccount deletes the account at the service; one already gone
// is deleted.
func deleteFiatAccount(ctx context.Context, run *moneyRun, state shapedState[fiatAccountArgs], diags *diag.Diagnostics) {
	objID := id(state).ValueString()
	err := run.client.DeleteFiatAccount(ctx, objID)
	if errors.Is(err, client.ErrNotFound) {
		tflog.Info(ctx, "fiat account already gone", map[string]any{"id": objID})
		return
	}
	if err != nil {
		diags.AddError(failure("Deleting fiat account "+objID+" failed", err),
			fmt.Sprintf("The service did not delete the fiat account %s: %s.\n\nIt stays in the state; destroy again "+
				"to retry.", objID, err))
	}
}

// fiatAccountNullModel is an account with every argument null (a list
// result before it is filled).
func fiatAccountNullModel() fiatAccountModel {
	n := types.StringNull()
	return fiatAccountModel{args: fiatAccountArgs{RefID: n, IdentityID: n, AccountID: n,
		Metadata: types.MapNull(types.StringType)}}
}

// withoutSecrets clears the sensitive values of m: a list result carries
// only what the list shows, and the list masks them.
func (m *fiatAccountArgs) withoutSecrets() {
	n := m.FiatNetworkInstructions
	if n == nil {
		return
	}
	if n.Wire != nil {
		n.Wire.AccountNumber = types.StringNull()
		for _, r := range []*fiatAccountWireRoutingModel{n.Wire.RoutingDetails, n.Wire.IntermediaryRoutingDetails} {
			if r != nil {
				r.RoutingNumber = types.StringNull()
			}
		}
	}
	for _, a := range []*fiatAccountNumberModel{n.DBSAct, n.SCB} {
		if a != nil {
			a.AccountNumber = types.StringNull()
		}
	}
	if n.Cubix != nil {
		n.Cubix.AccountID = types.StringNull()
	}
	if n.RTP != nil {
		n.RTP.AccountNumber = types.StringNull()
		if n.RTP.RoutingDetails != nil {
			n.RTP.RoutingDetails.RoutingNumber = types.StringNull()
		}
	}
}
