package provider

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/bypass"
	"github.com/platform/terraform-provider-platform/internal/client"
)

// List resources (Terraform 1.14+): `terraform query` finds the money
// flows' transfers, fiat deposit instructions, fiat accounts and addresses
// that exist at the service, and `-generate-config-out` writes configuration with an
// import block by identity for each. Applying that configuration imports them: nothing is
// sent.

var (
	_ list.ListResourceWithConfigure = (*fiatDepositInstructionsListResource)(nil)
	_ list.ListResourceWithConfigure = (*cryptoDestinationAddressListResource)(nil)
	_ list.ListResourceWithConfigure = (*fiatAccountListResource)(nil)
)

// NewCryptoDestinationAddressListResource is the
// platform_crypto_destination_address list resource.
func NewCryptoDestinationAddressListResource() list.ListResource {
	return &cryptoDestinationAddressListResource{}
}

type cryptoDestinationAddressListResource struct{ data *providerData }

func (l *cryptoDestinationAddressListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_crypto_destination_address"
}

func (l *cryptoDestinationAddressListResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (l *cryptoDestinationAddressListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Finds the entries of the withdrawal address book (`GET /transfer/crypto-destination-addresses`, " +
			"scope `transfer:read_crypto_destination_address`), newest first. Configuration generated from the " +
			"results imports them by identity; nothing is sent.",
		Attributes: destinationAddressFilters.listResourceAttributes(),
	}
}

func (l *cryptoDestinationAddressListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	q := client.ListCryptoDestinationAddressesQuery{MaxItems: int(req.Limit)}
	none := destinationAddressFilters.read(ctx, req.Config, &q, &diags)
	if !listReady(l.data, &diags, none, stream) {
		return
	}
	stream.Results = listResults(ctx, req, l.data.client.CryptoDestinationAddresses(ctx, q), func(a *client.CryptoDestinationAddress) (shapedWriter, string, string) {
		var m cryptoDestinationAddressModel
		var diags diag.Diagnostics
		m.fromAPI(a, &diags)
		return m, a.ID, fmt.Sprintf("%s: %s on %s (%s)", deref(a.Nickname), a.Address, a.CryptoNetwork, deref(a.Status))
	}, nil)
}

// NewCryptoWithdrawalListResource is the platform_crypto_withdrawal list
// resource: the transfer list resource of its flow.
func NewCryptoWithdrawalListResource() list.ListResource {
	return newTransferListResource(&cryptoWithdrawalFlow,
		func(_ context.Context, _ *client.Client, t *client.Transfer) *client.Transfer { return t },
		client.TransferTypeCryptoWithdr)
}

// NewFiatDepositInstructionsListResource is the platform_fiat_deposit_instructions list resource.
func NewFiatDepositInstructionsListResource() list.ListResource {
	return &fiatDepositInstructionsListResource{}
}

type fiatDepositInstructionsListResource struct{ data *providerData }

// fiatDepositInstructionsListFilters are the filters of the
// platform_fiat_deposit_instructions list resource.
var fiatDepositInstructionsListFilters = listFilters[client.ListFiatDepositInstructionsQuery]{
	arrayFilter("ids", "Only the instructions with these ids.",
		func(q *client.ListFiatDepositInstructionsQuery) *[]string { return &q.IDs }),
	arrayFilter("ref_ids", "Only the instructions made with these ref_ids.",
		func(q *client.ListFiatDepositInstructionsQuery) *[]string { return &q.RefIDs }),
}

func (l *fiatDepositInstructionsListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_fiat_deposit_instructions"
}

func (l *fiatDepositInstructionsListResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (l *fiatDepositInstructionsListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Finds the fiat deposit instructions of the customer (`GET /transfer/fiat-deposit-instructions`, " +
			"scope `transfer:read_fiat_deposit_instructions`), newest first. Configuration generated from the " +
			"results imports them by identity; nothing is created.",
		Attributes: fiatDepositInstructionsListFilters.listResourceAttributes(),
	}
}

func (l *fiatDepositInstructionsListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	q := client.ListFiatDepositInstructionsQuery{MaxItems: int(req.Limit)}
	none := fiatDepositInstructionsListFilters.read(ctx, req.Config, &q, &diags)
	if !listReady(l.data, &diags, none, stream) {
		return
	}
	stream.Results = listResults(ctx, req, l.data.client.FiatDepositInstructionsList(ctx, q), func(f *client.FiatDepositInstructions) (shapedWriter, string, string) {
		m := newFiatDepositInstructionsModel()
		m.fromAPI(f, false)
		return m, f.ID, fmt.Sprintf("%s instructions, memo_id %s (%s)", m.args.FiatNetwork.ValueString(), f.MemoID, f.Status)
	}, nil)
}

// listReady reports whether a list is to be read: not when the
// configuration has errors or the provider is not configured (the stream
// carries the diagnostics), nor when the filters match nothing (an empty
// array filter: no results and no request, as in the list data sources).
func listReady(data *providerData, diags *diag.Diagnostics, none bool, stream *list.ListResultsStream) bool {
	if !diags.HasError() && data == nil {
		notConfigured(diags)
	}
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(*diags)
		return false
	}
	if none {
		stream.Results = list.NoListResults
		return false
	}
	return true
}

// listResults turns the objects of a client list into list results: the
// identity of each, its display name, and its state when Terraform asks
// for it.
//
// reject, when set, says why an item is not one of the type (the answer is
// not trusted to have applied its filters): such an item is skipped with a
// warning, so that configuration generated from the results never imports
// it.
func listResults[T any](ctx context.Context, req list.ListRequest, items iter.Seq2[*T, error], describe func(*T) (model shapedWriter, id, display string), reject func(*T) string) iter.Seq[list.ListResult] {
	return func(push func(list.ListResult) bool) {
		bypass.LimitMemoryForLists()
		for it, err := range items {
			res := req.NewListResult(ctx)
			if err != nil {
				res.Diagnostics.AddError(failure("Listing failed", err), err.Error())
				push(res)
				return
			}
			if reject != nil {
				if why := reject(it); why != "" {
					var skipped list.ListResult
					skipped.Diagnostics.AddWarning("Result skipped", why)
					if !push(skipped) {
						return
					}
					continue
				}
			}
			model, id, display := describe(it)
			res.DisplayName = shown(display)
			res.Diagnostics.Append(res.Identity.SetAttribute(ctx, path.Root("id"), id)...)
			if req.IncludeResource {
				res.Diagnostics.Append(model.set(ctx, res.Resource, res.Resource.Schema)...)
			}
			if !push(res) {
				return
			}
		}
	}
}

var _ list.ListResourceWithConfigure = (*depositAddressListResource)(nil)

// NewDepositAddressListResource is the platform_deposit_address list resource.
func NewDepositAddressListResource() list.ListResource { return &depositAddressListResource{} }

type depositAddressListResource struct{ data *providerData }

// depositAddressListFilters are the filters of the platform_deposit_address
// list resource: the array filters of List Deposit Addresses.
var depositAddressListFilters = listFilters[client.ListDepositAddressesQuery]{
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
}

func (l *depositAddressListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_deposit_address"
}

func (l *depositAddressListResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (l *depositAddressListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Finds the crypto deposit addresses of the customer (`GET /transfer/deposit-addresses`, " +
			"scope `transfer:read_deposit_address`), newest first. Configuration generated from the results " +
			"imports them by identity; nothing is created.",
		Attributes: depositAddressListFilters.listResourceAttributes(),
	}
}

func (l *depositAddressListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	q := client.ListDepositAddressesQuery{MaxItems: int(req.Limit)}
	none := depositAddressListFilters.read(ctx, req.Config, &q, &diags)
	if !listReady(l.data, &diags, none, stream) {
		return
	}
	stream.Results = listResults(ctx, req, l.data.client.DepositAddresses(ctx, q), func(d *client.DepositAddress) (shapedWriter, string, string) {
		m := depositAddressModel{args: depositAddressArgs{
			ProfileID: types.StringNull(), CryptoNetwork: types.StringNull(), IdentityID: types.StringNull(),
			AccountID: types.StringNull(), RefID: types.StringNull(), Metadata: types.MapNull(types.StringType),
			ConversionTargetAsset: types.StringNull(),
		}}
		var diags diag.Diagnostics
		m.fromAPI(d, &diags)
		return m, deref(d.ID), fmt.Sprintf("%s address %s (ref_id %s)", deref(d.CryptoNetwork), deref(d.Address), deref(d.RefID))
	}, func(d *client.DepositAddress) string {
		if why := unusableID(deref(d.ID)); why != "" {
			return "The service listed a deposit address whose id is " + why + ". It is left out of the results."
		}
		return ""
	})
}

// NewFiatAccountListResource is the platform_fiat_account list resource.
func NewFiatAccountListResource() list.ListResource { return &fiatAccountListResource{} }

type fiatAccountListResource struct{ data *providerData }

// fiatAccountListFilters are the filters of the platform_fiat_account list
// resource.
var fiatAccountListFilters = listFilters[client.ListFiatAccountsQuery]{
	arrayFilter("ids", "Only the accounts with these ids.",
		func(q *client.ListFiatAccountsQuery) *[]string { return &q.IDs }),
	arrayFilter("ref_ids", "Only the accounts made with these ref_ids.",
		func(q *client.ListFiatAccountsQuery) *[]string { return &q.RefIDs }),
}

func (l *fiatAccountListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_fiat_account"
}

func (l *fiatAccountListResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (l *fiatAccountListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Finds the fiat accounts of the customer (`GET /transfer/fiat-accounts`, scope " +
			"`transfer:read_fiat_account`), newest first. With `-generate-config-out`, each account is read in full " +
			"(`GET /transfer/fiat-accounts/{id}`) for its owner and addresses, which the list leaves out. The " +
			"account and routing numbers (and CUBIX's `account_id`) are sensitive and never written into generated " +
			"configuration: fill them in before applying it, which imports the accounts by identity.",
		Attributes: fiatAccountListFilters.listResourceAttributes(),
	}
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

func (l *fiatAccountListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	q := client.ListFiatAccountsQuery{MaxItems: int(req.Limit)}
	none := fiatAccountListFilters.read(ctx, req.Config, &q, &diags)
	if !listReady(l.data, &diags, none, stream) {
		return
	}
	items := l.data.client.FiatAccounts(ctx, q)
	if req.IncludeResource {
		items = fiatAccountsInFull(ctx, l.data.client, items)
	}
	stream.Results = listResults(ctx, req, items, func(a *client.FiatAccount) (shapedWriter, string, string) {
		m := fiatAccountNullModel()
		var diags diag.Diagnostics
		m.args.argumentsFrom(a)
		m.computedFrom(a, &diags)
		m.args.withoutSecrets()
		return m, deref(a.ID), accountSummary(a)
	}, nil)
}

// transferListResource is the list resource of a money flow whose objects
// are transfers of the given types (T wraps a listed transfer): `terraform
// query` finds them through List Transfers, and configuration generated
// from the results imports them by identity; nothing is sent.
type transferListResource[A, O, R any] struct {
	f *flow[A, O, R]
	// wrap is the object of a listed transfer (for an internal transfer,
	// with its credit side read).
	wrap  func(ctx context.Context, c *client.Client, t *client.Transfer) *O
	types []string
	data  *providerData
}

// newTransferListResource is the list resource of the flow f, whose
// transfers have one of the types.
func newTransferListResource[A, O, R any](f *flow[A, O, R], wrap func(ctx context.Context, c *client.Client, t *client.Transfer) *O, types ...string) list.ListResource {
	return &transferListResource[A, O, R]{f: f, wrap: wrap, types: types}
}

// transferListFilters are the filters of a transfer list resource of the
// noun's plural.
func transferListFilters(plural string) listFilters[client.ListTransfersQuery] {
	return listFilters[client.ListTransfersQuery]{
		arrayFilter("profile_ids", "Only the "+plural+" of these profiles.",
			func(q *client.ListTransfersQuery) *[]string { return &q.ProfileIDs }),
		arrayFilter("ref_ids", "Only the "+plural+" made with these ref_ids.",
			func(q *client.ListTransfersQuery) *[]string { return &q.RefIDs }),
		arrayFilter("statuses", "Only the "+plural+" with these statuses.",
			func(q *client.ListTransfersQuery) *[]string { return &q.Statuses }, client.TransferStatuses...),
	}
}

// serviceQuery is the list request of the filters f, and what is kept of
// its answer. List Transfers combines ref_ids, profile_ids and type with
// no other filter, and statuses not with type: the most selective filter
// set is sent (ref_ids, else profile_ids, else statuses, else the types
// with the limit), and every filter, the types included, is checked on
// each transfer answered.
func (l *transferListResource[A, O, R]) serviceQuery(f client.ListTransfersQuery, limit int) (client.ListTransfersQuery, func(*client.Transfer) bool) {
	var q client.ListTransfersQuery
	switch {
	case len(f.RefIDs) > 0:
		q.RefIDs = f.RefIDs
	case len(f.ProfileIDs) > 0:
		q.ProfileIDs = f.ProfileIDs
	case len(f.Statuses) > 0:
		q.Statuses = f.Statuses
	default:
		q.Types, q.MaxItems = l.types, limit
	}
	in := func(set []string, v string) bool { return len(set) == 0 || slices.Contains(set, v) }
	// The types sent, a transfer of another type is the service's to
	// answer for: it is listed, and refused with a warning (foreign).
	types := l.types
	if len(q.Types) > 0 {
		types = nil
	}
	return q, func(t *client.Transfer) bool {
		return t != nil && in(types, t.Type) && in(f.RefIDs, deref(t.RefID)) &&
			in(f.ProfileIDs, t.ProfileID) && in(f.Statuses, t.Status)
	}
}

func (l *transferListResource[A, O, R]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + strings.TrimPrefix(l.f.objects.words.resourceType, "platform")
}

func (l *transferListResource[A, O, R]) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (l *transferListResource[A, O, R]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	w := l.f.objects.words
	resp.Schema = listschema.Schema{
		MarkdownDescription: fmt.Sprintf("Finds the %s of the customer (`GET /transfer/transfers` of the types %s, "+
			"scope `transfer:read_transfer`), newest first. Configuration generated from the results imports them "+
			"by identity; nothing is sent.", w.plural, codeList(l.types)),
		Attributes: transferListFilters(w.plural).listResourceAttributes(),
	}
}

func (l *transferListResource[A, O, R]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	var f client.ListTransfersQuery
	none := transferListFilters(l.f.objects.words.plural).read(ctx, req.Config, &f, &diags)
	if !listReady(l.data, &diags, none, stream) {
		return
	}
	q, keep := l.serviceQuery(f, int(req.Limit))
	c := l.data.client
	objects := func(yield func(*O, error) bool) {
		kept := int64(0)
		for t, err := range c.Transfers(ctx, q) {
			if err != nil {
				yield(nil, err)
				return
			}
			if !keep(t) {
				continue
			}
			if !yield(l.wrap(ctx, c, t), nil) {
				return
			}
			if kept++; req.Limit > 0 && kept >= req.Limit {
				return
			}
		}
	}
	stream.Results = listResults(ctx, req, objects, func(obj *O) (shapedWriter, string, string) {
		return l.f.listed(obj), l.f.objects.id(obj), fmt.Sprintf("%s (ref_id %s, %s)", l.f.objects.describe(obj),
			l.f.refIDOf(obj), l.f.objects.status(obj))
	}, func(obj *O) string {
		d := l.f.whyForeign(obj)
		if l.f.plan.unlisted != nil {
			if why := l.f.plan.unlisted(obj); why != "" {
				d = append(d, why)
			}
		}
		if len(d) > 0 {
			return fmt.Sprintf("The service listed %s among the %s, but configuration cannot declare it as one:\n%s\n\n"+
				"It is left out of the results, so that no configuration generated from them imports it.",
				shown(l.f.objects.id(obj)), l.f.objects.words.plural, bulletList(d))
		}
		return ""
	})
}

var _ list.ListResourceWithConfigure = (*orchestrationRuleListResource)(nil)

// NewOrchestrationRuleListResource is the platform_orchestration_rule list
// resource.
func NewOrchestrationRuleListResource() list.ListResource { return &orchestrationRuleListResource{} }

type orchestrationRuleListResource struct{ data *providerData }

// orchestrationRuleListFilters are the filters of the
// platform_orchestration_rule list resource: those of List Orchestration
// Rules, which has no ref_id filter.
var orchestrationRuleListFilters = listFilters[client.ListOrchestrationRulesQuery]{
	stringFilter("profile_id", "Only the rules of this profile.",
		func(q *client.ListOrchestrationRulesQuery) *string { return &q.ProfileID }),
	arrayFilter("statuses", "Only the rules in these statuses (sent as `status`): "+
		codeList(client.OrchestrationRuleStatuses)+".",
		func(q *client.ListOrchestrationRulesQuery) *[]string { return &q.Statuses }, client.OrchestrationRuleStatuses...),
	oneOfFilter("source_asset", "Only the rules of deposits of this asset.", client.OrchestrationRuleAssets,
		func(q *client.ListOrchestrationRulesQuery) *string { return &q.SourceAsset }),
	oneOfFilter("destination_asset", "Only the rules that convert to this asset.", client.OrchestrationRuleAssets,
		func(q *client.ListOrchestrationRulesQuery) *string { return &q.DestinationAsset }),
	arrayFilter("ids", "Only the rules with these ids.",
		func(q *client.ListOrchestrationRulesQuery) *[]string { return &q.IDs }),
	orderFilter(func(q *client.ListOrchestrationRulesQuery) *string { return &q.Order }),
}

func (l *orchestrationRuleListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_orchestration_rule"
}

func (l *orchestrationRuleListResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (l *orchestrationRuleListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Finds the orchestration rules of the customer (`GET /orchestration/rules`, scope " +
			"`orchestration:read_orchestration_rule`), newest first. Configuration generated from the results " +
			"imports them by identity; nothing is created.",
		Attributes: orchestrationRuleListFilters.listResourceAttributes(),
	}
}

func (l *orchestrationRuleListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	q := client.ListOrchestrationRulesQuery{MaxItems: int(req.Limit)}
	none := orchestrationRuleListFilters.read(ctx, req.Config, &q, &diags)
	if !listReady(l.data, &diags, none, stream) {
		return
	}
	stream.Results = listResults(ctx, req, l.data.client.OrchestrationRules(ctx, q), func(r *client.OrchestrationRule) (shapedWriter, string, string) {
		m := orchestrationRuleModel{args: orchestrationRuleArgs{
			ProfileID: types.StringNull(), Nickname: types.StringNull(), SourceAsset: types.StringNull(),
			DestinationAsset: types.StringNull(), Source: types.ObjectNull(ruleSourceTypes),
			Destination: types.ObjectNull(ruleDestinationTypes), IdentityID: types.StringNull(),
			AccountID: types.StringNull(), RefID: types.StringNull(), WaitForActive: types.StringNull(),
		}}
		var diags diag.Diagnostics
		m.fromAPI(r, &diags)
		return m, deref(r.ID), fmt.Sprintf("%s (ref_id %s)", orchestrationRuleSummary(r), deref(r.RefID))
	}, func(r *client.OrchestrationRule) string {
		if why := unusableID(deref(r.ID)); why != "" {
			return "The service listed an orchestration rule whose id is " + why + ". It is left out of the results."
		}
		return ""
	})
}

var _ list.ListResourceWithConfigure = (*profileListResource)(nil)

// NewProfileListResource is the platform_profile list resource.
func NewProfileListResource() list.ListResource { return &profileListResource{} }

type profileListResource struct{ data *providerData }

// profileListFilters are the filters of the platform_profile list
// resource: those of List Profiles.
var profileListFilters = listFilters[client.ListProfilesQuery]{
	arrayFilter("ids", "Only the profiles with these ids.",
		func(q *client.ListProfilesQuery) *[]string { return &q.IDs }),
	stringFilter("nickname", "Only the profiles whose nickname begins with this text, compared without letter case "+
		"(as the service filters).", func(q *client.ListProfilesQuery) *string { return &q.Nickname }),
}

func (l *profileListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_profile"
}

func (l *profileListResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (l *profileListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Finds the active profiles of the account (`GET /profiles`, scope `funding:read_profile`), " +
			"oldest first, the default profile among them. Configuration generated from the results imports them by " +
			"identity; nothing is sent.",
		Attributes: profileListFilters.listResourceAttributes(),
	}
}

func (l *profileListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	q := client.ListProfilesQuery{MaxItems: int(req.Limit)}
	none := profileListFilters.read(ctx, req.Config, &q, &diags)
	if !listReady(l.data, &diags, none, stream) {
		return
	}
	stream.Results = listResults(ctx, req, l.data.client.Profiles(ctx, q), func(p *client.Profile) (shapedWriter, string, string) {
		var m profileModel
		m.fromAPI(p)
		return m, p.ID, fmt.Sprintf("%s (%s)", p.Nickname, p.Type)
	}, nil)
}
