package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"

	"github.com/platform/terraform-provider-platform/internal/client"
)

var _ datasource.DataSourceWithConfigure = (*transfersDataSource)(nil)

// NewTransfersDataSource is the platform_transfers data source.
func NewTransfersDataSource() datasource.DataSource { return &transfersDataSource{} }

// transfersDataSource lists transfers (GET /transfer/transfers).
type transfersDataSource struct {
	data *providerData
}

// transferFilters are the filters of platform_transfers.
var transferFilters = listFilters[client.ListTransfersQuery]{
	arrayFilter("ids", "Only the transfers with these ids.",
		func(q *client.ListTransfersQuery) *[]string { return &q.IDs }),
	arrayFilter("ref_ids", "Only the transfers made with these client-specified ids.",
		func(q *client.ListTransfersQuery) *[]string { return &q.RefIDs }),
	arrayFilter("profile_ids", "Only the transfers of these profiles.",
		func(q *client.ListTransfersQuery) *[]string { return &q.ProfileIDs }),
	arrayFilter("identity_ids", "Only the transfers of these identities.",
		func(q *client.ListTransfersQuery) *[]string { return &q.IdentityIDs }),
	arrayFilter("account_ids", "Only the transfers of these accounts.",
		func(q *client.ListTransfersQuery) *[]string { return &q.AccountIDs }),
	arrayFilter("group_ids", "Only the transfers of these internal transfer groups.",
		func(q *client.ListTransfersQuery) *[]string { return &q.GroupIDs }),
	arrayFilter("crypto_tx_hashes", "Only the transfers with these on-chain transaction hashes.",
		func(q *client.ListTransfersQuery) *[]string { return &q.CryptoTxHashes }),
	arrayFilter("types", "Only the transfers of these types (sent as `type`), for example "+
		"`CRYPTO_WITHDRAWAL`, `CRYPTO_DEPOSIT`, `WIRE_DEPOSIT`, `WIRE_WITHDRAWAL`, `INTERNAL_TRANSFER_DEBIT`, "+
		"`INTERNAL_TRANSFER_CREDIT` or `RTP_DEPOSIT`. The service adds types over time, so any value is "+
		"sent as given.",
		func(q *client.ListTransfersQuery) *[]string { return &q.Types }),
	arrayFilter("statuses", "Only the transfers with these statuses.",
		func(q *client.ListTransfersQuery) *[]string { return &q.Statuses }, client.TransferStatuses...),
	createdAtFilter("transfers", func(q *client.ListTransfersQuery) *client.TimeFilter { return &q.CreatedAt }),
	timeRangeFilter("updated_at", "updated", "time of the last update", "transfers",
		func(q *client.ListTransfersQuery) *client.TimeFilter { return &q.UpdatedAt }),
	oneOfFilter("order", "Order of `items`: `DESC` (newest first) or `ASC`. Unset leaves the service's "+
		"default, which is `DESC`.", client.Orders, func(q *client.ListTransfersQuery) *string { return &q.Order }),
	oneOfFilter("order_by", "Time that `order` sorts by: `CREATED_AT` or `UPDATED_AT`. Unset leaves the "+
		"service's default, `CREATED_AT`.", client.TransferOrderBys,
		func(q *client.ListTransfersQuery) *string { return &q.OrderBy }),
	maxItemsFilter(func(q *client.ListTransfersQuery) *int { return &q.MaxItems }),
}

func (d *transfersDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_transfers"
}

func (d *transfersDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = listSchema(schema.Schema{
		MarkdownDescription: "Lists the customer's transfers (`GET /transfer/transfers`, scope `transfer:read_transfer`): " +
			"withdrawals, deposits, internal transfers and more, following the API's pages to the end with the " +
			"largest page the API allows (1,000 items). Every filter is optional; all the filters that are set " +
			"apply together.",
		Attributes: transferFilters.dataSourceAttributes(map[string]schema.Attribute{
			"id": listIDAttribute(),
			"items": transferItemShape.listAttribute("The transfers, in the order the API returns them, with the fields " +
				"of `platform_transfer` except `customer_id` (always the provider's own customer) and " +
				"`auto_conversion` (read one transfer with `platform_transfer` for it), so that 100,000 of them " +
				"are read in about 150 MiB. Fields the API leaves out are null."),
		}),
	})
}

func (d *transfersDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (d *transfersDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if d.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	var q client.ListTransfersQuery
	none := transferFilters.read(ctx, req.Config, &q, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	readList(ctx, req, resp, filtersID("transfers", q), transferItemShape, d.data.client.Transfers(ctx, q), none, "transfers")
}
