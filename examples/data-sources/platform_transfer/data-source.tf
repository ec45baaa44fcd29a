# A pipeline step that sends a payout and reports where it stands. The
# withdrawal's own status follows the service on every refresh; the
# platform_transfer data source reads any transfer (a withdrawal, a
# deposit, ...) by id or by the ref_id it was made with.
#
# Gate the next step on the payout being on chain, for example:
#   terraform apply -refresh-only -auto-approve
#   test "$(terraform output -raw payout_status)" = COMPLETED
resource "platform_crypto_withdrawal" "payout" {
  profile_id          = "7f0b5c1e-3a4d-4f8e-9b2a-1c6d8e0f4a21"
  destination_address = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
  asset               = "BTC"
  crypto_network      = "BITCOIN"
  amount              = "0.25"
  ref_id              = "payout-run-2024-07-31"
}

# The same transfer, read by its ref_id.
data "platform_transfer" "payout" {
  ref_id = platform_crypto_withdrawal.payout.ref_id
}

output "payout_status" {
  value = platform_crypto_withdrawal.payout.status
}

output "payout" {
  value = {
    transfer_id    = data.platform_transfer.payout.id
    status         = data.platform_transfer.payout.status
    crypto_tx_hash = data.platform_transfer.payout.crypto_tx_hash
    fee            = data.platform_transfer.payout.fee
    updated_at     = data.platform_transfer.payout.updated_at
  }
}
