# Every USDC deposit to the rule's deposit address on ETHEREUM becomes USDG
# and goes to an address of the withdrawal address book.
resource "platform_crypto_destination_address" "treasury" {
  crypto_network = "ETHEREUM"
  address        = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
  nickname       = "treasury cold wallet"
}

resource "platform_orchestration_rule" "usdc_to_treasury" {
  profile_id        = "7f0b5c1e-3a4d-4f8e-9b2a-1c6d8e0f4a21"
  nickname          = "USDC deposits to the treasury as USDG"
  source_asset      = "USDC"
  destination_asset = "USDG"
  source            = { crypto = { network = "ETHEREUM" } }
  destination = {
    crypto = {
      address = platform_crypto_destination_address.treasury.address
      network = platform_crypto_destination_address.treasury.crypto_network
    }
  }
}

# Customers send USDC here.
output "deposit_address" {
  value = platform_orchestration_rule.usdc_to_treasury.deposit_address
}
