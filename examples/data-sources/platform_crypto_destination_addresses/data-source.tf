# The bookmarked addresses of the book on EVM networks, newest first.
data "platform_crypto_destination_addresses" "bookmarked_evm" {
  crypto_networks   = ["ETHEREUM", "BASE", "ARBITRUM_ONE"]
  bookmarked_status = true
}

# Addresses added since a date, oldest first, at most 50 of them.
data "platform_crypto_destination_addresses" "recent" {
  created_at = {
    gte = "2024-06-01T00:00:00Z"
  }
  order     = "ASC"
  max_items = 50
}

# Only the approved ones may receive withdrawals.
output "approved_addresses" {
  value = {
    for a in data.platform_crypto_destination_addresses.bookmarked_evm.items :
    a.nickname => a.address if a.status == "APPROVED"
  }
}
