# Deposit addresses of one profile on EVM networks, newest first.
data "platform_deposit_addresses" "evm" {
  profile_ids = ["6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b"]
  networks    = ["ETHEREUM", "BASE", "ARBITRUM_ONE"]
}

# Addresses created since a date, oldest first, at most 50 of them.
data "platform_deposit_addresses" "recent" {
  created_at = {
    gt = "2024-06-01T00:00:00Z"
  }
  order     = "ASC"
  max_items = 50
}

output "evm_addresses_by_network" {
  value = {
    for network in distinct([for a in data.platform_deposit_addresses.evm.items : a.crypto_network]) :
    network => [for a in data.platform_deposit_addresses.evm.items : a.address if a.crypto_network == network]
  }
}
