package provider

import (
	"context"
	"iter"

	"github.com/hashicorp/terraform-plugin-framework/datasource"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// NewTransferLimitsDataSource is the platform_transfer_limits data source.
func NewTransferLimitsDataSource() datasource.DataSource {
	return newListDataSource(&transferLimitsDataSource)
}

// transferLimitsDataSource lists the transfer limits of one transfer type
// and what remains of them (GET /transfer/limits/utilizations).
var transferLimitsDataSource = listDataSourceDeclaration[transferLimitsQuery, client.TransferLimit]{
	typeName: "platform_transfer_limits",
	description: "Lists the service's transfer limits of one transfer type and what remains of each " +
		"(`GET /transfer/limits/utilizations`, scope `" + client.ScopeReadTransferLimit + "`), so that a " +
		"configuration can show them or check its own withdrawals against them in a precondition. A " +
		"single-transaction limit has `period_seconds = \"0\"`. The provider's `withdrawal_guard` " +
		"(`check_service_limits`) compares every withdrawal of a plan with the same figures.",
	filters: transferLimitFilters,
	shape:   transferLimitShape,
	items:   "The limits, in the order the API returns them. Fields the API leaves out are null.",
	defaults: func(q *transferLimitsQuery) {
		if q.TransferType == "" {
			q.TransferType = client.TransferTypeCryptoWithdr
		}
	},
	list: func(c *client.Client, ctx context.Context, q transferLimitsQuery) iter.Seq2[*client.TransferLimit, error] {
		return c.TransferLimits(ctx, q.TransferType)
	},
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
