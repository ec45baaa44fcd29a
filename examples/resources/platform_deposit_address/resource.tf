# Deposit addresses for a treasury profile, one per network. Adding a
# network to the set creates one more address and leaves the others alone.
# There is no update endpoint, so changing an argument creates a new
# address; destroying only forgets an address, which still exists on the
# service and still receives deposits.
resource "platform_deposit_address" "treasury" {
  for_each = toset(["ETHEREUM", "SOLANA", "BITCOIN"])

  profile_id     = "7f0b5c1e-3a4d-4f8e-9b2a-1c6d8e0f4a21"
  crypto_network = each.key

  # A stable ref_id per network: re-running after a failed apply or a lost
  # state never makes a second address. Optional: when unset, the provider
  # derives one from the arguments and shows it in the plan.
  ref_id = "treasury-${lower(each.key)}"

  # Platform-minted USD stablecoin deposits are credited as USD.
  conversion_target_asset = "USD"

  metadata = {
    team = "treasury"
  }
}

# What senders need: the address, and every network it can receive on.
output "deposit_addresses" {
  value = {
    for network, a in platform_deposit_address.treasury : network => {
      address  = a.address
      networks = a.compatible_crypto_networks
    }
  }
}
