# Converts 10000 USD of the treasury profile into USDC once, when the
# resource is created. The service settles it later: each refresh follows
# its status (CREATED, then SETTLED, or CANCELLED).
#
# WARNING: changing any argument makes a NEW conversion (Terraform plans a
# replacement). Destroying the resource only removes it from the state; it
# never cancels the conversion. Cancelling one that has not settled is the
# action platform_stablecoin_conversion_cancel, invoked on purpose.
resource "platform_stablecoin_conversion" "treasury_usdc" {
  profile_id   = "7f0b5c1e-3a4d-4f8e-9b2a-1c6d8e0f4a21"
  source_asset = "USD"
  target_asset = "USDC" # USD, USDC or PYUSD, other than source_asset
  amount       = "10000"

  # Directed settlement: the USDC is credited to another profile of the
  # customer's. Leave it unset to credit the profile itself.
  recipient_profile_id = "3c9a1e7d-6b2f-4d8a-9e5c-0f1b4a7d2e63"

  # The service makes one conversion per ref_id, even when an apply is
  # retried. When unset, the provider derives one from the arguments at
  # plan, and the plan shows it.
  ref_id = "treasury-usdc-2024-07"

  metadata = {
    ticket = "FIN-1302"
  }
}

output "treasury_usdc" {
  value = {
    conversion_id = platform_stablecoin_conversion.treasury_usdc.id
    status        = platform_stablecoin_conversion.treasury_usdc.status
    settled_at    = platform_stablecoin_conversion.treasury_usdc.settled_at
  }
}
