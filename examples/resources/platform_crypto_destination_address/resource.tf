# The treasury's cold wallet in the withdrawal address book, with the
# Travel Rule data of the institution that receives the funds. The service
# reviews it: status is PENDING until it is APPROVED (or REJECTED).
resource "platform_crypto_destination_address" "cold_wallet" {
  crypto_network = "ETHEREUM"
  address        = "0xe4b0ACa9Fb669817775274775b20e52118595515"
  nickname       = "treasury-cold-wallet"
  bookmarked     = true

  travelrule_metadata = {
    custodian_type   = "PRIVATE"
    transfer_purpose = "treasury rebalancing"
    beneficiary = {
      institution_details = {
        name = "Example Holdings LLC"
        physical_address = {
          country  = "USA"
          address1 = "100 Main St"
          city     = "New York"
        }
      }
    }
  }
}

output "cold_wallet_status" {
  value = platform_crypto_destination_address.cold_wallet.status
}
