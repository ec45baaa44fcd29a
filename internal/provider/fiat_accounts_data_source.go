package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// NewFiatAccountsDataSource is the platform_fiat_accounts data source.
func NewFiatAccountsDataSource() datasource.DataSource {
	return newListDataSource(&fiatAccountsDataSource)
}

// fiatAccountsDataSource lists fiat accounts (GET /transfer/fiat-accounts).
var fiatAccountsDataSource = listDataSourceDeclaration[client.ListFiatAccountsQuery, client.FiatAccount]{
	typeName: "platform_fiat_accounts",
	description: "Lists the fiat (bank) accounts of the customer, following the API's pages to the " +
		"end with the largest page the API allows (1,000 items). Every filter is optional; all the filters " +
		"that are set apply together. Deleted accounts are left out unless `include_deleted` is true.",
	filters: fiatAccountFilters,
	shape:   fiatAccountShape,
	items:   "The fiat accounts, in the order the API returns them. Fields the API leaves out are null.",
	list:    (*client.Client).FiatAccounts,
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
