package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// NewCryptoDestinationAddressesDataSource is the
// platform_crypto_destination_addresses data source.
func NewCryptoDestinationAddressesDataSource() datasource.DataSource {
	return newListDataSource(&cryptoDestinationAddressesDataSource)
}

// cryptoDestinationAddressesDataSource lists the withdrawal address book
// (GET /transfer/crypto-destination-addresses).
var cryptoDestinationAddressesDataSource = listDataSourceDeclaration[client.ListCryptoDestinationAddressesQuery, client.CryptoDestinationAddress]{
	typeName: "platform_crypto_destination_addresses",
	description: "Lists the withdrawal address book (`GET /transfer/crypto-destination-addresses`, scope " +
		"`transfer:read_crypto_destination_address`), following the API's pages to the end with the largest page " +
		"the API allows (1,000 items). Every filter is optional; all the filters that are set apply together.",
	filters: destinationAddressesDataSourceFilters,
	shape:   cryptoDestinationAddressShape,
	items: "The addresses, in the order the API returns them " +
		"(newest first unless `order = \"ASC\"`). Fields the API leaves out are null.",
	list: (*client.Client).CryptoDestinationAddresses,
}

// destinationAddressFilters are the filters of the address book shared by
// the data source and the list resource (which has no max_items, order
// or order_by: Terraform caps and orders its results).
var destinationAddressFilters = listFilters[client.ListCryptoDestinationAddressesQuery]{
	arrayFilter("ids", "Only the addresses with these ids.",
		func(q *client.ListCryptoDestinationAddressesQuery) *[]string { return &q.IDs }),
	arrayFilter("identity_ids", "Only the addresses scoped to these identities.",
		func(q *client.ListCryptoDestinationAddressesQuery) *[]string { return &q.IdentityIDs }),
	arrayFilter("crypto_networks", "Only the addresses on these networks, for example "+codeList(client.CryptoNetworks)+
		"; another is an error at plan, which names the nearest network for a typo.", func(q *client.ListCryptoDestinationAddressesQuery) *[]string { return &q.CryptoNetworks }).
		withValidators(cryptoNetworkValues),
	arrayFilter("addresses", "Only these addresses (compared exactly).",
		func(q *client.ListCryptoDestinationAddressesQuery) *[]string { return &q.Addresses }),
	arrayFilter("nicknames", "Only the addresses with these nicknames.",
		func(q *client.ListCryptoDestinationAddressesQuery) *[]string { return &q.Nicknames }),
	boolFilter("bookmarked_status", "Only bookmarked addresses (`true`) or only the others (`false`). Unset lists "+
		"both.", func(q *client.ListCryptoDestinationAddressesQuery) **bool { return &q.BookmarkedStatus }),
}

// destinationAddressesDataSourceFilters add what only the data source has.
var destinationAddressesDataSourceFilters = append(destinationAddressFilters[:len(destinationAddressFilters):len(destinationAddressFilters)],
	createdAtFilter("addresses", func(q *client.ListCryptoDestinationAddressesQuery) *client.CreatedAtFilter { return &q.CreatedAt }),
	orderFilter(func(q *client.ListCryptoDestinationAddressesQuery) *string { return &q.Order }),
	oneOfFilter("order_by", "What `order` sorts by: `CREATED_AT`, the only value the API has (and its default).",
		[]string{"CREATED_AT"}, func(q *client.ListCryptoDestinationAddressesQuery) *string { return &q.OrderBy }),
	maxItemsFilter(func(q *client.ListCryptoDestinationAddressesQuery) *int { return &q.MaxItems }),
)
