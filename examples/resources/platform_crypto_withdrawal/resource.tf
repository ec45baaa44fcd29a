# Sends 0.5 BTC (plus the network fee) once, when the resource is created.
#
# WARNING: changing any argument sends a NEW withdrawal (Terraform plans a
# replacement); the one already sent is not reversed. Destroying the
# resource only removes it from the state: withdrawals cannot be reversed.
resource "platform_crypto_withdrawal" "treasury_payout" {
  profile_id          = "7f0b5c1e-3a4d-4f8e-9b2a-1c6d8e0f4a21"
  destination_address = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
  asset               = "BTC"
  crypto_network      = "BITCOIN"

  # Exactly one of amount (fee added on top) or total (fee included).
  amount = "0.5"

  # Optional. When unset, the provider generates a UUID, sends it with the
  # request and every retry of it, and records it. If an apply fails
  # without confirmation from the service, applying again retries with the
  # same ref_id, so the withdrawal is never made twice.
  # ref_id = "treasury-payout-2024-07"

  memo = "July treasury rebalance"
  metadata = {
    ticket = "FIN-1234"
  }
  beneficiary = jsonencode({
    name    = "Example Treasury Ltd"
    country = "GB"
  })
}

output "payout_total" {
  description = "Amount plus fee debited from the profile."
  value       = platform_crypto_withdrawal.treasury_payout.total
}

output "payout_transfer_id" {
  value = platform_crypto_withdrawal.treasury_payout.id
}
