package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"

	"github.com/platform/terraform-provider-platform/internal/client"
)

var _ datasource.DataSourceWithConfigure = (*fiatAccountsDataSource)(nil)

// NewFiatAccountsDataSource is the platform_fiat_accounts data source.
func NewFiatAccountsDataSource() datasource.DataSource { return &fiatAccountsDataSource{} }

// fiatAccountsDataSource lists fiat accounts (GET /transfer/fiat-accounts).
type fiatAccountsDataSource struct {
	data *providerData
}

// fiatAccountFilters are the filters of platform_fiat_accounts.
var fiatAccountFilters = listFilters[client.ListFiatAccountsQuery]{
	arrayFilter("ids", "Only the accounts with these ids (UUIDs).",
		func(q *client.ListFiatAccountsQuery) *[]string { return &q.IDs }),
	arrayFilter("ref_ids", "Only the accounts with these client-specified ids, given at creation.",
		func(q *client.ListFiatAccountsQuery) *[]string { return &q.RefIDs }),
	boolFilter("include_deleted", "Include deleted accounts. Unset leaves the service's default, which leaves them out.",
		func(q *client.ListFiatAccountsQuery) **bool { return &q.IncludeDeleted }),
	createdAtFilter("accounts", func(q *client.ListFiatAccountsQuery) *client.CreatedAtFilter { return &q.CreatedAt }),
	orderFilter(func(q *client.ListFiatAccountsQuery) *string { return &q.Order }),
	maxItemsFilter(func(q *client.ListFiatAccountsQuery) *int { return &q.MaxItems }),
}

// Shapes of the objects of a fiat account. The address, owner and routing
// details are the objects of fiat deposit instructions
// (fiat_instructions_types.go); the wire object of a fiat account has
// status and metadata besides.
var (
	fiatAccountWireShape = objectShape[client.WireInstructions]{
		stringField("account_number", "Bank account number; may be partly masked.",
			func(w *client.WireInstructions) *string { return w.AccountNumber }),
		objectField("fiat_account_owner_address", "Address of the account owner; null when the service does not give it.",
			func(w *client.WireInstructions) *client.Address { return w.FiatAccountOwnerAddress }, addressShape),
		objectField("routing_details", "Routing details of the account's bank.",
			func(w *client.WireInstructions) *client.RoutingDetails { return w.RoutingDetails }, routingDetailsShape),
		stringField("status", "Status of the account's wire details, for example `PENDING`.",
			func(w *client.WireInstructions) *string { return w.Status }),
		anyMapField("metadata", "Metadata of the account's wire details.",
			func(w *client.WireInstructions) map[string]any { return w.Metadata }),
	}
	fiatAccountNetworkShape = objectShape[client.FiatNetworkInstructions]{
		objectField("wire", "Wire (`WIRE`) details of the account; null when the account has none.",
			func(f *client.FiatNetworkInstructions) *client.WireInstructions { return f.Wire }, fiatAccountWireShape),
	}
	fiatAccountShape = objectShape[client.FiatAccount]{
		stringField("id", "Fiat account id (UUID).", func(a *client.FiatAccount) *string { return a.ID }),
		stringField("ref_id", "Client-specified id given when the account was created.",
			func(a *client.FiatAccount) *string { return a.RefID }),
		stringField("identity_id", "Identity of the account.", func(a *client.FiatAccount) *string { return a.IdentityID }),
		stringField("account_id", "Account the fiat account belongs to.",
			func(a *client.FiatAccount) *string { return a.AccountID }),
		objectField("fiat_account_owner", "Owner of the account.",
			func(a *client.FiatAccount) *client.FiatAccountOwner { return a.FiatAccountOwner }, fiatAccountOwnerShape),
		objectField("fiat_network_instructions", "Network details of the account.",
			func(a *client.FiatAccount) *client.FiatNetworkInstructions { return a.FiatNetworkInstructions },
			fiatAccountNetworkShape),
		stringField("status", "Status of the account: `PENDING`, `APPROVED` or `REJECTED`. Read from the top level "+
			"of the item, where the API reference puts it, or else from the wire details.",
			func(a *client.FiatAccount) *string { return a.AccountStatus() }),
		anyMapField("metadata", "Metadata of the account, read from the top level of the item or else from the "+
			"wire details.", func(a *client.FiatAccount) map[string]any { return a.AccountMetadata() }),
		timeField("created_at", "Creation time", func(a *client.FiatAccount) *time.Time { return a.CreatedAt }),
		timeField("updated_at", "Time of the last update", func(a *client.FiatAccount) *time.Time { return a.UpdatedAt }),
	}
)

func (d *fiatAccountsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_fiat_accounts"
}

func (d *fiatAccountsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = listSchema(schema.Schema{
		MarkdownDescription: "Lists the fiat (bank) accounts of the customer, following the API's pages to the " +
			"end with the largest page the API allows (1,000 items). Every filter is optional; all the filters " +
			"that are set apply together. Deleted accounts are left out unless `include_deleted` is true.",
		Attributes: fiatAccountFilters.dataSourceAttributes(map[string]schema.Attribute{
			"id": listIDAttribute(),
			"items": fiatAccountShape.listAttribute("The fiat accounts, in the order the API returns them. " +
				"Fields the API leaves out are null."),
		}),
	})
}

func (d *fiatAccountsDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (d *fiatAccountsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if d.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	var q client.ListFiatAccountsQuery
	none := fiatAccountFilters.read(ctx, req.Config, &q, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	readList(ctx, req, resp, filtersID("fiat_accounts", q), fiatAccountShape,
		d.data.client.FiatAccounts(ctx, q), none, "fiat accounts")
}
