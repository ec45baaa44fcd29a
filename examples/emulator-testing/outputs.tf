output "transfer_id" {
  description = "Id of the transfer the withdrawal made."
  value       = platform_crypto_withdrawal.payout.id
}

output "status" {
  description = "Status of the transfer: PENDING until the network settles it."
  value       = platform_crypto_withdrawal.payout.status
}

output "fee" {
  description = "Network fee charged on top of the amount."
  value       = platform_crypto_withdrawal.payout.fee
}

output "total" {
  description = "Amount plus fee, debited from the profile."
  value       = platform_crypto_withdrawal.payout.total
}
