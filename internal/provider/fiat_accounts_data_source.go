package provider

import (
	"context"

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
