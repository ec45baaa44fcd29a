# A treasury payout: sends 0.5 BTC (plus the network fee) once, when the
# resource is created.
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

  # The business reference of this payout, used as the service's replay
  # protection: the withdrawal is made at most once, even when an apply is
  # retried after a timeout or a crash, or the state is lost. Give the next
  # payout a new ref_id. When unset, the provider derives one from the
  # arguments at plan, and the plan shows it.
  ref_id = "treasury-payout-2024-07"

  memo = "July treasury rebalance"

  # Up to 6 pairs, keys and values at most 100 characters.
  metadata = {
    ticket      = "FIN-1234"
    approved_by = "treasury-committee"
    cost_center = "4100"
  }

  # beneficiary = jsonencode({ name = "Example Treasury Ltd", country = "GB" })
  # is sent as given when the service asks for the beneficiary; the service
  # does not report it back, so after an import it is recorded from here.
}

output "payout" {
  value = {
    transfer_id = platform_crypto_withdrawal.treasury_payout.id
    status      = platform_crypto_withdrawal.treasury_payout.status
    fee         = platform_crypto_withdrawal.treasury_payout.fee
    # Amount plus fee debited from the profile.
    total = platform_crypto_withdrawal.treasury_payout.total
  }
}
