package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"

	"github.com/platform/terraform-provider-platform/internal/client"
)

var _ datasource.DataSourceWithConfigure = (*transferLimitsDataSource)(nil)

// NewTransferLimitsDataSource is the platform_transfer_limits data source.
func NewTransferLimitsDataSource() datasource.DataSource { return &transferLimitsDataSource{} }

// transferLimitsDataSource lists the transfer limits of one transfer type
// and what remains of them (GET /transfer/limits/utilizations).
type transferLimitsDataSource struct {
	data *providerData
}

// transferLimitsQuery is the query of platform_transfer_limits.
type transferLimitsQuery struct {
	TransferType string `json:"transfer_type"`
}

// transferLimitFilters are the arguments of platform_transfer_limits.
var transferLimitFilters = listFilters[transferLimitsQuery]{
	oneOfFilter("transfer_type", "The transfer type whose limits are listed, one of "+codeList(client.TransferTypes)+
		". Default `"+client.TransferTypeCryptoWithdr+"`, the limits the provider's withdrawal_guard checks.",
		client.TransferTypes, func(q *transferLimitsQuery) *string { return &q.TransferType }),
}

func (d *transferLimitsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_transfer_limits"
}

func (d *transferLimitsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = listSchema(schema.Schema{
		MarkdownDescription: "Lists the service's transfer limits of one transfer type and what remains of each " +
			"(`GET /transfer/limits/utilizations`, scope `" + client.ScopeReadTransferLimit + "`), so that a " +
			"configuration can show them or check its own withdrawals against them in a precondition. A " +
			"single-transaction limit has `period_seconds = \"0\"`. The provider's `withdrawal_guard` " +
			"(`check_service_limits`) compares every withdrawal of a plan with the same figures.",
		Attributes: transferLimitFilters.dataSourceAttributes(map[string]schema.Attribute{
			"id": listIDAttribute(),
			"items": transferLimitShape.listAttribute("The limits, in the order the API returns them. Fields " +
				"the API leaves out are null."),
		}),
	})
}

func (d *transferLimitsDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (d *transferLimitsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if d.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	var q transferLimitsQuery
	none := transferLimitFilters.read(ctx, req.Config, &q, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if q.TransferType == "" {
		q.TransferType = client.TransferTypeCryptoWithdr
	}
	readList(ctx, req, resp, filtersID("transfer_limits", q), transferLimitShape,
		d.data.client.TransferLimits(ctx, q.TransferType), none, "transfer limits")
}
