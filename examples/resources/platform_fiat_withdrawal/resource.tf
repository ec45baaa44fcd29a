# The bank account the payout goes to: the id of a platform_fiat_account
# (or of an account linked elsewhere) that the service's review has
# APPROVED. A withdrawal to an account that is still PENDING is refused at
# plan, so a new account is applied first and the withdrawal planned once
# its status is APPROVED (see the guide "Paying out to a bank account").
variable "fiat_account_id" {
  type        = string
  description = "Id of an APPROVED fiat account of the customer's."
}

# A supplier payout by wire: pays 1250.50 USD to the bank account once,
# when the resource is created.
#
# WARNING: changing any argument sends a NEW withdrawal (Terraform plans a
# replacement); the one already sent is not reversed. Destroying the
# resource only removes it from the state: fiat withdrawals cannot be
# reversed.
resource "platform_fiat_withdrawal" "supplier_payout" {
  profile_id      = "7f0b5c1e-3a4d-4f8e-9b2a-1c6d8e0f4a21"
  fiat_account_id = var.fiat_account_id
  asset           = "USD"

  # Exactly one of amount (paid to the account) or total (debited from
  # the profile, fee included), as a decimal string.
  amount = "1250.50"

  # The business reference of this payout, the service's replay
  # protection: it is paid at most once, even when an apply is retried
  # after a timeout or a crash. When unset, the provider derives one from
  # the arguments at plan, and the plan shows it.
  ref_id = "supplier-payout-INV-2024-07-118"

  memo = "INV-2024-07-118"

  # Up to 6 pairs, keys and values at most 100 characters.
  metadata = {
    invoice     = "INV-2024-07-118"
    cost_center = "4100"
  }
}

output "supplier_payout" {
  value = {
    transfer_id = platform_fiat_withdrawal.supplier_payout.id
    status      = platform_fiat_withdrawal.supplier_payout.status
    type        = platform_fiat_withdrawal.supplier_payout.type
    # Amount plus fee debited from the profile.
    total = platform_fiat_withdrawal.supplier_payout.total
  }
}
