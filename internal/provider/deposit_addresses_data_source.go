package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"

	"github.com/platform/terraform-provider-platform/internal/client"
)

var _ datasource.DataSourceWithConfigure = (*depositAddressesDataSource)(nil)

// NewDepositAddressesDataSource is the platform_deposit_addresses data source.
func NewDepositAddressesDataSource() datasource.DataSource { return &depositAddressesDataSource{} }

// depositAddressesDataSource lists crypto deposit addresses
// (GET /transfer/deposit-addresses).
type depositAddressesDataSource struct {
	data *providerData
}

// depositAddressFilters are the filters of platform_deposit_addresses.
var depositAddressFilters = listFilters[client.ListDepositAddressesQuery]{
	arrayFilter("profile_ids", "Only the addresses of these profiles.",
		func(q *client.ListDepositAddressesQuery) *[]string { return &q.ProfileIDs }),
	arrayFilter("identity_ids", "Only the addresses of these identities.",
		func(q *client.ListDepositAddressesQuery) *[]string { return &q.IdentityIDs }),
	arrayFilter("ids", "Only the addresses with these ids (UUIDs).",
		func(q *client.ListDepositAddressesQuery) *[]string { return &q.IDs }),
	arrayFilter("ref_ids", "Only the addresses with these client-specified ids.",
		func(q *client.ListDepositAddressesQuery) *[]string { return &q.RefIDs }),
	arrayFilter("account_ids", "Only the addresses of these accounts.",
		func(q *client.ListDepositAddressesQuery) *[]string { return &q.AccountIDs }),
	arrayFilter("networks", "Only the addresses on these crypto networks, for example "+codeList(client.CryptoNetworks)+
		"; another is an error at plan, which names the nearest network for a typo.", func(q *client.ListDepositAddressesQuery) *[]string { return &q.Networks }).
		withValidators(cryptoNetworkValues),
	createdAtFilter("addresses", func(q *client.ListDepositAddressesQuery) *client.CreatedAtFilter { return &q.CreatedAt }),
	orderFilter(func(q *client.ListDepositAddressesQuery) *string { return &q.Order }),
	maxItemsFilter(func(q *client.ListDepositAddressesQuery) *int { return &q.MaxItems }),
}

func (d *depositAddressesDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_deposit_addresses"
}

func (d *depositAddressesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = listSchema(schema.Schema{
		MarkdownDescription: "Lists the crypto deposit addresses of the customer, following the API's pages to the " +
			"end with the largest page the API allows (1,000 items). Every filter is optional; all the filters " +
			"that are set apply together.",
		Attributes: depositAddressFilters.dataSourceAttributes(map[string]schema.Attribute{
			"id": listIDAttribute(),
			"items": depositAddressShape.listAttribute("The deposit addresses, in the order the API returns them. " +
				"Fields the API leaves out are null."),
		}),
	})
}

func (d *depositAddressesDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (d *depositAddressesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if d.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	var q client.ListDepositAddressesQuery
	none := depositAddressFilters.read(ctx, req.Config, &q, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	readList(ctx, req, resp, filtersID("deposit_addresses", q), depositAddressShape,
		d.data.client.DepositAddresses(ctx, q), none, "deposit addresses")
}
