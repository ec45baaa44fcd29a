package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// NewDepositAddressesDataSource is the platform_deposit_addresses data source.
func NewDepositAddressesDataSource() datasource.DataSource {
	return newListDataSource(&depositAddressesDataSource)
}

// depositAddressesDataSource lists crypto deposit addresses
// (GET /transfer/deposit-addresses).
var depositAddressesDataSource = listDataSourceDeclaration[client.ListDepositAddressesQuery, client.DepositAddress]{
	typeName: "platform_deposit_addresses",
	description: "Lists the crypto deposit addresses of the customer, following the API's pages to the " +
		"end with the largest page the API allows (1,000 items). Every filter is optional; all the filters " +
		"that are set apply together.",
	filters: depositAddressFilters,
	shape:   depositAddressShape,
	items:   "The deposit addresses, in the order the API returns them. Fields the API leaves out are null.",
	list:    (*client.Client).DepositAddresses,
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
