package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// NewTransfersDataSource is the platform_transfers data source.
func NewTransfersDataSource() datasource.DataSource { return newListDataSource(&transfersDataSource) }

// transfersDataSource lists transfers (GET /transfer/transfers). Its
// validators refuse at validation what the service refuses: ids, ref_ids,
// type, profile_ids, identity_ids and account_ids each combine with the
// time filters only, and order_by names the time filter's time.
var transfersDataSource = listDataSourceDeclaration[client.ListTransfersQuery, client.Transfer]{
	typeName: "platform_transfers",
	description: "Lists the customer's transfers (`GET /transfer/transfers`, scope `transfer:read_transfer`): " +
		"withdrawals, deposits, internal transfers and more, following the API's pages to the end with the " +
		"largest page the API allows (1,000 items). Every filter is optional; all the filters that are set " +
		"apply together, except that `ids`, `ref_ids`, `types`, `profile_ids`, `identity_ids` and `account_ids` " +
		"each combine with the `created_at` and `updated_at` filters only, and that `order_by` must name the " +
		"time of a time filter set beside it, as the service requires.",
	filters: transferFilters,
	shape:   transferItemShape,
	items: "The transfers, in the order the API returns them, with the fields " +
		"of `platform_transfer` except `customer_id` (always the provider's own customer) and " +
		"`auto_conversion` (read one transfer with `platform_transfer` for it), so that 100,000 of them " +
		"are read in about 150 MiB. Fields the API leaves out are null.",
	list: (*client.Client).Transfers,
	validators: []datasource.ConfigValidator{aloneFilters{
		alone:  []string{"ids", "ref_ids", "types", "profile_ids", "identity_ids", "account_ids"},
		others: []string{"ids", "ref_ids", "types", "profile_ids", "identity_ids", "account_ids", "group_ids", "crypto_tx_hashes", "statuses"},
	}, orderByTimeFilter{}},
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

// orderByTimeFilter refuses an order_by that names another time than the
// time filter set beside it, which the service refuses.
type orderByTimeFilter struct{}

func (orderByTimeFilter) Description(context.Context) string {
	return "order_by, when a time filter is set, names that filter's time"
}

func (v orderByTimeFilter) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (orderByTimeFilter) ValidateDataSource(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var orderBy types.String
	var created, updated attr.Value
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("order_by"), &orderBy)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("created_at"), &created)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("updated_at"), &updated)...)
	want := map[string]string{"CREATED_AT": "created_at", "UPDATED_AT": "updated_at"}
	for name, filter := range map[string]attr.Value{"created_at": created, "updated_at": updated} {
		if f, ok := want[orderBy.ValueString()]; ok && f != name && filter != nil && !filter.IsNull() {
			resp.Diagnostics.AddAttributeError(path.Root("order_by"), "order_by does not match the time filter",
				fmt.Sprintf("order_by = %q cannot go with the %s filter: the service requires order_by to name the "+
					"time the filter is on. Set order_by = %q, or filter on %s.", orderBy.ValueString(), name,
					strings.ToUpper(name), f))
		}
	}
}

// aloneFilters refuses a configuration that sets one of alone with
// another of others.
type aloneFilters struct{ alone, others []string }

func (v aloneFilters) Description(context.Context) string {
	return "each of " + strings.Join(v.alone, ", ") + " combines with the created_at and updated_at filters only"
}

func (v aloneFilters) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v aloneFilters) ValidateDataSource(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	set := func(name string) bool {
		var val attr.Value
		resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(name), &val)...)
		return val != nil && !val.IsNull()
	}
	for _, a := range v.alone {
		if !set(a) {
			continue
		}
		for _, o := range v.others {
			if o != a && set(o) {
				resp.Diagnostics.AddAttributeError(path.Root(a), "Filters the service does not combine",
					fmt.Sprintf("%s can be combined with the created_at and updated_at filters only, not with %s: "+
						"the service refuses the list otherwise. Remove %s or %s (and filter the items in the "+
						"configuration, for example with a for expression).", a, o, a, o))
				return
			}
		}
	}
}
