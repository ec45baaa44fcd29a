package provider

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/platform/terraform-provider-platform/internal/client"
)

var (
	_ resource.Resource                = (*fiatAccountResource)(nil)
	_ resource.ResourceWithConfigure   = (*fiatAccountResource)(nil)
	_ resource.ResourceWithImportState = (*fiatAccountResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*fiatAccountResource)(nil)
	_ resource.ResourceWithIdentity    = (*fiatAccountResource)(nil)
)

// NewFiatAccountResource is the constructor of platform_fiat_account.
func NewFiatAccountResource() resource.Resource { return &fiatAccountResource{} }

// fiatAccountResource is a bank account the profile withdraws to: created
// through the money-moving core (POST /transfer/fiat-accounts), read by id
// (GET …/{id}, which has the full account number), changed in place by PUT
// where the service allows it, deleted by DELETE.
type fiatAccountResource struct {
	data *providerData
}

func (r *fiatAccountResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_fiat_account"
}

func (r *fiatAccountResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = idIdentitySchema("fiat account")
}

func (r *fiatAccountResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
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

func wireRoutingAttributes(note string) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"routing_number_type": schema.StringAttribute{
			MarkdownDescription: "Kind of routing number: " + codeList(client.RoutingNumberTypes) + " (`ABA` for U.S. " +
				"wires, `SWIFT` for international ones)." + faReplaceNote,
			Required:   true,
			Validators: []validator.String{stringvalidator.OneOf(client.RoutingNumberTypes...)},
		},
		"routing_number": faRequired("Routing number (ABA) or BIC (SWIFT) of the bank."+faSensitiveNote+faReplaceNote, true),
		"bank_name":      faRequired("Name of the bank."+note, false),
		"bank_address":   addressAttribute("Address of the bank."+note, true),
	}
}

// fiatAccountNetworks are the networks of fiat_network_instructions, of
// which an account has exactly one.
var fiatAccountNetworks = []string{"wire", "cbit", "dbs_act", "cubix", "scb", "rtp"}

func (r *fiatAccountResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
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
	wireRouting := wireRoutingAttributes(faUpdateNote)
	resp.Schema = schema.Schema{
		MarkdownDescription: "A bank account the profile withdraws fiat to (`POST /transfer/fiat-accounts`, read with " +
			"`GET /transfer/fiat-accounts/{id}`, changed with `PUT`, deleted with `DELETE`).",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "Identifier of the account at the service. Import uses it.",
				Computed:            true, PlanModifiers: stable,
			},
			"ref_id": schema.StringAttribute{
				MarkdownDescription: "Client id of the create. When unset, the provider derives it from the other " +
					"arguments (account and routing numbers cut to their last four characters) and shows it in the " +
					"plan, so a retried create, or the next run after a crash or a timeout, finds the account it " +
					"made instead of making a second one." + faReplaceNote,
				Optional: true, Computed: true, Validators: nonEmpty,
				PlanModifiers: stable,
			},
			"identity_id": schema.StringAttribute{
				MarkdownDescription: "Identity the account belongs to; needed only by customers with third-party " +
					"integrations acting for end users. When unset, the service's answer is recorded." + faReplaceNote,
				Optional: true, Computed: true, Validators: nonEmpty, PlanModifiers: stable,
			},
			"account_id": schema.StringAttribute{
				MarkdownDescription: "Account the fiat account belongs to; same condition as `identity_id`. When unset, " +
					"the service's answer is recorded." + faReplaceNote,
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
							"first_name": faRequired("First name."+faUpdateNote, false),
							"last_name":  faRequired("Last name."+faUpdateNote, false),
						},
					},
					"institution_details": schema.SingleNestedAttribute{
						MarkdownDescription: "The owner when it is an institution.",
						Optional:            true,
						Attributes: map[string]schema.Attribute{
							"name": faRequired("Name of the institution."+faUpdateNote, false),
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
							"account_number": faRequired("Bank account number."+faSensitiveNote+faReplaceNote, true),
							"fiat_account_owner_address": addressAttribute("Address of the account owner."+faUpdateNote,
								true),
							"routing_details": schema.SingleNestedAttribute{
								MarkdownDescription: "Routing details of the bank.", Required: true, Attributes: wireRouting,
							},
							"intermediary_routing_details": schema.SingleNestedAttribute{
								MarkdownDescription: "Routing details of an intermediary (correspondent) bank, for " +
									"international wires. Adding or removing them replaces the account.",
								Optional: true, Attributes: wireRoutingAttributes(faUpdateNote),
							},
						},
					},
					"cbit": schema.SingleNestedAttribute{
						MarkdownDescription: "A CBIT account.", Optional: true, Validators: otherNetworks("cbit"),
						Attributes: map[string]schema.Attribute{
							"wallet_address": faRequired("Wallet address of the CBIT account."+faReplaceNote, false),
						},
					},
					"dbs_act": schema.SingleNestedAttribute{
						MarkdownDescription: "A DBS account.", Optional: true, Validators: otherNetworks("dbs_act"),
						Attributes: map[string]schema.Attribute{
							"account_number": faRequired("Account number."+faSensitiveNote+faReplaceNote, true),
						},
					},
					"cubix": schema.SingleNestedAttribute{
						MarkdownDescription: "A CUBIX account.", Optional: true, Validators: otherNetworks("cubix"),
						Attributes: map[string]schema.Attribute{
							"account_id": faRequired("CUBIX account id (UUID)."+faSensitiveNote+faReplaceNote, true),
						},
					},
					"scb": schema.SingleNestedAttribute{
						MarkdownDescription: "A Standard Chartered account.", Optional: true, Validators: otherNetworks("scb"),
						Attributes: map[string]schema.Attribute{
							"account_number": faRequired("Account number."+faSensitiveNote+faReplaceNote, true),
						},
					},
					"rtp": schema.SingleNestedAttribute{
						MarkdownDescription: "A bank account reached by RTP.", Optional: true, Validators: otherNetworks("rtp"),
						Attributes: map[string]schema.Attribute{
							"account_number": faRequired("Bank account number."+faSensitiveNote+faReplaceNote, true),
							"fiat_account_owner_address": addressAttribute("Address of the account owner."+faReplaceNote,
								false),
							"routing_details": schema.SingleNestedAttribute{
								MarkdownDescription: "Routing details of the bank.", Required: true,
								Attributes: map[string]schema.Attribute{
									"routing_number": faRequired("Routing number."+faSensitiveNote+faReplaceNote, true),
									"bank_name":      faOptional("Name of the bank." + faReplaceNote),
									"bank_address":   addressAttribute("Address of the bank."+faReplaceNote, false),
								},
							},
						},
					},
				},
			},
			"metadata": schema.MapAttribute{
				MarkdownDescription: metadataDescription("the account") + " Adding or changing a pair updates the " +
					"account in place (back to `PENDING` review); removing one replaces it.",
				ElementType: types.StringType,
				Optional:    true,
				Validators:  metadataValidators(),
			},
			"status": schema.StringAttribute{
				MarkdownDescription: "Review status: `PENDING`, `APPROVED` or `REJECTED`. Refreshed from the service; " +
					"every update sets it back to `PENDING`.",
				Computed: true,
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "Creation time (RFC 3339).", Computed: true, PlanModifiers: stable,
			},
			"updated_at": schema.StringAttribute{
				MarkdownDescription: "Time of the last change at the service (RFC 3339).", Computed: true,
			},
		},
	}
}

// fiatAccountWords are the words of a fiat account create.
var fiatAccountWords = createWords{
	kind:         "fiat_account",
	resourceType: "platform_fiat_account",
	noun:         "fiat account",
	plural:       "fiat accounts",
	title:        "Fiat account",
	unknown:      "Outcome of fiat account create unknown",
	made:         "created",
	path:         client.PathFiatAccounts,
	scope:        client.ScopeWriteFiatAccount,
}

// fiatAccountKind is how the core reads fiat accounts: looked up by ref_id
// through the list (ref_ids filter; an exact match only) and then read by
// id, which has the full account: the service publishes no replay answer
// for this create, so the core looks before it sends.
var fiatAccountKind = moneyKind[*client.FiatAccount]{
	words: fiatAccountWords,
	id:    func(a *client.FiatAccount) string { return deref(a.ID) },
	createdAt: func(a *client.FiatAccount) time.Time {
		if a.CreatedAt == nil {
			return time.Time{}
		}
		return *a.CreatedAt
	},
	describe:    accountSummary,
	lookup:      lookupFiatAccount,
	lookupScope: client.ScopeReadFiatAccount,
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
		full, err := c.GetFiatAccount(ctx, deref(a.ID))
		if errors.Is(err, client.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, false, err
		}
		if deref(full.ID) != deref(a.ID) || deref(full.RefID) != refID {
			return nil, false, fmt.Errorf("reading fiat account %s answered another account", shown(deref(a.ID)))
		}
		return full, true, nil
	}
	return nil, false, nil
}

// getFiatAccount reads src into a model.
func getFiatAccount(ctx context.Context, src getter) (fiatAccountModel, diag.Diagnostics) {
	var m fiatAccountModel
	diags := src.Get(ctx, &m)
	return m, diags
}

// registerSensitive has the client scrub the sensitive values of m from
// its logs and errors.
func (r *fiatAccountResource) registerSensitive(m *fiatAccountModel) {
	if r.data == nil || r.data.client == nil {
		return
	}
	n := m.FiatNetworkInstructions.request()
	for _, p := range sensitiveValues(&n) {
		if p != nil {
			r.data.client.AddSensitive(*p)
		}
	}
}

// planUnchanged: an unchanged account is left as it is (see ModifyPlan).
func (r *fiatAccountResource) planUnchanged(context.Context, *providerData, tfsdk.State) bool {
	return true
}

func (r *fiatAccountResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	switch {
	case req.Plan.Raw.IsNull():
		return
	case req.State.Raw.IsNull():
		if !req.Config.Raw.IsFullyKnown() {
			return
		}
		config, d := getFiatAccount(ctx, req.Config)
		resp.Diagnostics.Append(d...)
		if resp.Diagnostics.HasError() {
			return
		}
		r.registerSensitive(&config)
		planNewObject(ctx, r.data, newObjectPlan[*client.FiatAccount]{
			kind:       fiatAccountKind,
			configured: config.RefID,
			derive:     func() (string, bool) { return config.derivedRefID(ctx) },
			what:       fiatAccountWhat(&config),
			show:       true,
			differences: func(refID string, a *client.FiatAccount) []string {
				body, _ := config.request(ctx, refID)
				return fiatAccountDifferences(body, a)
			},
		}, resp)
		return
	}
	if req.Plan.Raw.Equal(req.State.Raw) {
		return
	}
	replace, changed := fiatAccountChanges(req.State.Raw, req.Plan.Raw)
	if len(replace) > 0 {
		resp.RequiresReplace = append(resp.RequiresReplace, replace...)
		return
	}
	if !changed {
		return
	}
	state, d := getFiatAccount(ctx, req.State)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.AddWarning("Updating fiat account "+state.ID.ValueString()+" sends it back to review",
		fmt.Sprintf("Applying this plan updates the fiat account %s (%s) in place. The service then sets it back to "+
			"PENDING and reviews the change again: until it is APPROVED, withdrawals to it may be refused.",
			state.ID.ValueString(), fiatAccountWhat(&state)))
}

// fiatAccountWhat names an account of the configuration or state: owner,
// network and bank, never its numbers.
func fiatAccountWhat(m *fiatAccountModel) string {
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

// fiatAccountUpdatable are the argument paths UpdateFiatAccount can set
// (attribute names joined by dots; "*" is any one attribute). Every other
// argument change replaces the account.
var fiatAccountUpdatable = []string{
	"fiat_account_owner.person_details.first_name",
	"fiat_account_owner.person_details.last_name",
	"fiat_account_owner.institution_details.name",
	"fiat_network_instructions.wire.fiat_account_owner_address.*",
	"fiat_network_instructions.wire.routing_details.bank_name",
	"fiat_network_instructions.wire.routing_details.bank_address.*",
	"fiat_network_instructions.wire.intermediary_routing_details.bank_name",
	"fiat_network_instructions.wire.intermediary_routing_details.bank_address.*",
}

// fiatAccountComputed are the attributes the service sets.
var fiatAccountComputed = map[string]bool{"id": true, "status": true, "created_at": true, "updated_at": true}

func updatable(p string) bool {
	for _, u := range fiatAccountUpdatable {
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
			leaves(p, name, s, n, func(lp path.Path, lname string, sv, nv tftypes.Value) {
				judge(lp, lname, sv, nv, &replace, &changed)
			})
			return
		}
		judge(p, name, s, n, &replace, &changed)
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

// judge sorts the change of one leaf.
func judge(p path.Path, name string, s, n tftypes.Value, replace *[]path.Path, changed *bool) {
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

// leaves calls f for every leaf under an object attribute whose state is s
// and plan n, either of which may be null or unknown.
func leaves(p path.Path, name string, s, n tftypes.Value, f func(path.Path, string, tftypes.Value, tftypes.Value)) {
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
		leaves(p.AtName(k), joinName(name, k), sv, nv, f)
	}
}

func (r *fiatAccountResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if r.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	plan, d := getFiatAccount(ctx, req.Plan)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.registerSensitive(&plan)
	// Whether the ref_id is configured is read from the configuration: the
	// plan shows a derived one too.
	var configured types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("ref_id"), &configured)...)
	refID, derived, ok := createKey(ctx, fiatAccountWords, plan.RefID, configured,
		func() (string, bool) { return plan.derivedRefID(ctx) }, resp.Private, &resp.Diagnostics)
	if !ok || resp.Diagnostics.HasError() {
		return
	}
	body, err := plan.request(ctx, refID)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("metadata"), "Invalid metadata", err.Error())
		return
	}
	tflog.Info(ctx, "creating fiat account", map[string]any{"ref_id": refID})
	res, diags := createRun[*client.FiatAccount]{
		kind:     fiatAccountKind,
		refID:    refID,
		derived:  derived,
		recorded: r.data.attempts.has(fiatAccountWords.kind, refID),
		window:   r.data.recoveryWindow,
		now:      r.data.clock(),
		send: func(ctx context.Context) (*client.FiatAccount, error) {
			return r.data.client.CreateFiatAccount(ctx, body, func(ctx context.Context) (*client.FiatAccount, bool, error) {
				return lookupFiatAccount(ctx, r.data.client, refID)
			})
		},
		existing:    func(error) (*client.FiatAccount, bool) { return nil, false },
		differences: func(a *client.FiatAccount) []string { return fiatAccountDifferences(body, a) },
		lookupFirst: true,
		data:        r.data,
	}.run(ctx)
	if diags.HasError() || res.outcome == outcomeRefused {
		resp.Diagnostics.Append(diags...)
		return
	}
	plan.RefID = types.StringValue(refID)
	if res.outcome == outcomeUnconfirmed {
		resp.Diagnostics.Append(diags...)
		plan.clearUnknown()
		recordUnconfirmedCreate(ctx, resp, fiatAccountWords, plan.ID, refID, res.err, resp.State.Set(ctx, &plan))
		return
	}
	resp.Diagnostics.Append(diags...)
	plan.computedFrom(res.obj)
	tflog.Info(ctx, "fiat account recorded", map[string]any{"ref_id": refID, "id": plan.ID.ValueString()})
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	setIdentity(ctx, resp.Identity, plan.ID, &resp.Diagnostics)
}

// timeString renders t as RFC 3339, or null.
func timeString(t *time.Time) types.String {
	if t == nil || t.IsZero() {
		return types.StringNull()
	}
	return types.StringValue(t.UTC().Format(time.RFC3339Nano))
}

// computedFrom sets the computed attributes of m from the account a, and
// the optional arguments m leaves unknown or null.
func (m *fiatAccountModel) computedFrom(a *client.FiatAccount) {
	m.ID = types.StringValue(deref(a.ID))
	m.Status = stringValue(a.AccountStatus())
	m.CreatedAt = timeString(a.CreatedAt)
	m.UpdatedAt = timeString(a.UpdatedAt)
	for _, f := range []struct {
		dst *types.String
		v   *string
	}{{&m.RefID, a.RefID}, {&m.IdentityID, a.IdentityID}, {&m.AccountID, a.AccountID}} {
		if f.dst.IsNull() || f.dst.IsUnknown() {
			*f.dst = stringValue(f.v)
		}
	}
	if m.Metadata.IsUnknown() {
		m.Metadata = types.MapNull(types.StringType)
	}
}

// argumentsFrom sets the arguments of m from the full account a (a read by
// id): what the service holds is what the state records, so a change made
// elsewhere shows as a difference in the next plan. Empty values are
// null. A sensitive value the answer masks keeps the recorded one when
// their last four characters agree.
func (m *fiatAccountModel) argumentsFrom(a *client.FiatAccount) {
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

// readFiatAccountError is the diagnostic of a failed read of account id.
func readFiatAccountError(err error, id string) (summary, detail string) {
	if scopeRefused(err) {
		return "Not allowed to read fiat accounts",
			fmt.Sprintf("Reading the fiat account %s failed: %s.\n\nReading fiat accounts needs the OAuth scope %s: "+
				"have it granted to the client credentials, and if the provider's scopes argument pins the token's "+
				"scopes, include it there.", id, err, client.ScopeReadFiatAccount)
	}
	return "Reading fiat account failed",
		fmt.Sprintf("Reading the fiat account %s failed: %s.\n\nCheck the provider configuration and the service's "+
			"availability, then try again.", id, err)
}

func (r *fiatAccountResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	if r.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	state, d := getFiatAccount(ctx, req.State)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.registerSensitive(&state)
	setIdentity(ctx, resp.Identity, state.ID, &resp.Diagnostics)
	id := state.ID.ValueString()
	if state.ID.IsNull() {
		// A create whose outcome is unknown (Terraform holds it tainted).
		derived, _ := state.derivedRefID(ctx)
		if !recordUnconfirmed(ctx, r.data, req.Private, fiatAccountWords, state.RefID.ValueString(), derived, &resp.Diagnostics) {
			return
		}
		resp.Diagnostics.AddWarning("Fiat account not confirmed",
			fmt.Sprintf("The last create of this fiat account (ref_id %s) ended without confirmation from the "+
				"service. Terraform plans to create it again; with unchanged arguments the retry uses the same "+
				"ref_id and looks it up first, so the service does not make a second account.", state.RefID.ValueString()))
		return
	}
	importing := state.FiatAccountOwner == nil
	a, err := r.data.client.GetFiatAccount(ctx, id)
	if errors.Is(err, client.ErrNotFound) && !importing {
		tflog.Warn(ctx, "fiat account not found; removing it from state", map[string]any{"id": id})
		resp.Diagnostics.AddWarning("Fiat account "+id+" no longer exists",
			fmt.Sprintf("The service no longer knows the fiat account %s (%s): it was deleted outside Terraform. It "+
				"was removed from the Terraform state, and Terraform plans to create it again.", id, fiatAccountWhat(&state)))
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		if importing {
			cannotImport(fiatAccountWords, id, err, client.ScopeReadFiatAccount, &resp.Diagnostics)
			return
		}
		summary, detail := readFiatAccountError(err, id)
		resp.Diagnostics.AddError(failure(summary, err), detail)
		return
	}
	if d := recordedDifferences(state.ID, deref(a.ID), []recordedField{{"ref_id", state.RefID, deref(a.RefID)}}); len(d) > 0 {
		if importing {
			notImportable(fiatAccountWords, id, d, &resp.Diagnostics)
			return
		}
		anotherObject(fiatAccountWords, id, d, &resp.Diagnostics)
		return
	}
	state.argumentsFrom(a)
	r.registerSensitive(&state)
	state.computedFrom(a)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *fiatAccountResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if r.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	plan, d := getFiatAccount(ctx, req.Plan)
	resp.Diagnostics.Append(d...)
	state, d := getFiatAccount(ctx, req.State)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.registerSensitive(&plan)
	id := state.ID.ValueString()
	body, err := plan.updateRequest(ctx)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("metadata"), "Invalid metadata", err.Error())
		return
	}
	tflog.Info(ctx, "updating fiat account", map[string]any{"id": id})
	a, err := r.data.client.UpdateFiatAccount(ctx, id, body)
	if err != nil {
		resp.Diagnostics.AddError(failure("Updating fiat account "+id+" failed", err),
			fmt.Sprintf("The service did not update the fiat account %s: %s.\n\nThe state keeps the values before "+
				"the update. Applying again sends the same update.", id, err))
		return
	}
	full, _ := plan.request(ctx, knownString(plan.RefID))
	if diffs := fiatAccountDifferences(full, a); len(diffs) > 0 || deref(a.ID) != id {
		if deref(a.ID) != id {
			diffs = append(diffs, fmt.Sprintf("id: requested %q, answered %q", id, shown(deref(a.ID))))
		}
		resp.Diagnostics.AddError("Fiat account answered differently from the update",
			fmt.Sprintf("The service answered the update of fiat account %s with an account that differs from the "+
				"configuration:\n%s\n\nThe state keeps the values before the update; the next refresh reads the "+
				"account again.", id, bulletList(diffs)))
		return
	}
	plan.computedFrom(a)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	setIdentity(ctx, resp.Identity, plan.ID, &resp.Diagnostics)
}

func (r *fiatAccountResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, d := getFiatAccount(ctx, req.State)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	if state.ID.IsNull() {
		// A tainted, unconfirmed create, before its retry.
		derived, _ := state.derivedRefID(ctx)
		recordUnconfirmed(ctx, r.data, req.Private, fiatAccountWords, state.RefID.ValueString(), derived, &resp.Diagnostics)
		return
	}
	if r.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	id := state.ID.ValueString()
	err := r.data.client.DeleteFiatAccount(ctx, id)
	if errors.Is(err, client.ErrNotFound) {
		tflog.Info(ctx, "fiat account already gone", map[string]any{"id": id})
		return
	}
	if err != nil {
		resp.Diagnostics.AddError(failure("Deleting fiat account "+id+" failed", err),
			fmt.Sprintf("The service did not delete the fiat account %s: %s.\n\nIt stays in the state; destroy again "+
				"to retry.", id, err))
	}
}

func (r *fiatAccountResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importByID(ctx, req, resp)
}

// fiatAccountNullModel is an account with every attribute null (a list
// result before it is filled).
func fiatAccountNullModel() fiatAccountModel {
	n := types.StringNull()
	return fiatAccountModel{ID: n, RefID: n, IdentityID: n, AccountID: n, Metadata: types.MapNull(types.StringType),
		Status: n, CreatedAt: n, UpdatedAt: n}
}

// set writes m to dst (a list result's resource state).
func (m fiatAccountModel) set(ctx context.Context, dst setter, _ typed) diag.Diagnostics {
	return dst.Set(ctx, &m)
}

// withoutSecrets clears the sensitive values of m: a list result carries
// only what the list shows, and the list masks them.
func (m *fiatAccountModel) withoutSecrets() {
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
