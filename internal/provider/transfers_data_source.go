package provider

import (
	"context"
	"encoding/json"
	"time"

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

var transferShape = objectShape[client.Transfer]{
	requiredString("id", "Transfer id.", func(t *client.Transfer) string { return t.ID }),
	stringField("ref_id", "Client-specified id the transfer was made with.", func(t *client.Transfer) *string { return t.RefID }),
	requiredString("profile_id", transferAttributeDescriptions["profile_id"], func(t *client.Transfer) string { return t.ProfileID }),
	stringField("identity_id", transferAttributeDescriptions["identity_id"], func(t *client.Transfer) *string { return t.IdentityID }),
	stringField("account_id", transferAttributeDescriptions["account_id"], func(t *client.Transfer) *string { return t.AccountID }),
	requiredString("amount", transferAttributeDescriptions["amount"], func(t *client.Transfer) string { return t.Amount }),
	requiredString("total", transferAttributeDescriptions["total"], func(t *client.Transfer) string { return t.Total }),
	requiredString("fee", transferAttributeDescriptions["fee"], func(t *client.Transfer) string { return t.Fee }),
	requiredString("asset", transferAttributeDescriptions["asset"], func(t *client.Transfer) string { return t.Asset }),
	stringField("balance_asset", transferAttributeDescriptions["balance_asset"], func(t *client.Transfer) *string { return t.BalanceAsset }),
	requiredString("direction", transferAttributeDescriptions["direction"], func(t *client.Transfer) string { return t.Direction }),
	requiredString("type", transferAttributeDescriptions["type"], func(t *client.Transfer) string { return t.Type }),
	requiredString("status", transferAttributeDescriptions["status"], func(t *client.Transfer) string { return t.Status }),
	jsonField("secondary_status", "More granular explanation of the status.", func(t *client.Transfer) json.RawMessage { return t.SecondaryStatus }),
	jsonField("status_details", "Why the transfer is in its state.", func(t *client.Transfer) json.RawMessage { return t.StatusDetails }),
	requiredTime("created_at", "Creation time", func(t *client.Transfer) time.Time { return t.CreatedAt }),
	requiredTime("updated_at", "Time of the last update", func(t *client.Transfer) time.Time { return t.UpdatedAt }),
	stringMapField("metadata", "Client-specified key/value pairs.", func(t *client.Transfer) map[string]string { return t.Metadata }),
	stringField("destination_address", transferAttributeDescriptions["destination_address"], func(t *client.Transfer) *string { return t.DestinationAddress }),
	stringField("crypto_network", transferAttributeDescriptions["crypto_network"], func(t *client.Transfer) *string { return t.CryptoNetwork }),
	stringField("crypto_tx_hash", transferAttributeDescriptions["crypto_tx_hash"], func(t *client.Transfer) *string { return t.CryptoTxHash }),
	stringField("crypto_tx_index", transferAttributeDescriptions["crypto_tx_index"], func(t *client.Transfer) *string { return t.CryptoTxIndex }),
	stringField("group_id", transferAttributeDescriptions["group_id"], func(t *client.Transfer) *string { return t.GroupID }),
	stringField("fiat_account_id", transferAttributeDescriptions["fiat_account_id"], func(t *client.Transfer) *string { return t.FiatAccountID }),
	stringField("notional_value", transferAttributeDescriptions["notional_value"], func(t *client.Transfer) *string { return t.NotionalValue }),
	stringField("memo", transferAttributeDescriptions["memo"], func(t *client.Transfer) *string { return t.Memo }),
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
			"items": transferShape.listAttribute("The transfers, in the order the API returns them, with the fields " +
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
	readList(ctx, req, resp, filtersID("transfers", q), transferShape, d.data.client.Transfers(ctx, q), none, "transfers")
}
