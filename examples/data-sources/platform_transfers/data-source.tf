# The withdrawals that failed in the last week, oldest first, and the
# completed ones on chain: for a daily treasury report. The service combines
# `types` with the time filters only, so the status is picked in the
# configuration.
data "platform_transfers" "week_withdrawals" {
  types = ["CRYPTO_WITHDRAWAL"]
  updated_at = {
    gte = timeadd(plantimestamp(), "-168h")
  }
  order_by = "UPDATED_AT"
  order    = "ASC"
}

data "platform_transfers" "recent_completed" {
  statuses  = ["COMPLETED"]
  max_items = 50
}

output "failed_withdrawals" {
  value = [for t in data.platform_transfers.week_withdrawals.items : {
    id      = t.id
    ref_id  = t.ref_id
    amount  = "${t.amount} ${t.asset}"
    details = t.status_details == null ? null : jsondecode(t.status_details)
  } if t.status == "FAILED"]
}

output "recent_tx_hashes" {
  value = { for t in data.platform_transfers.recent_completed.items : t.id => t.crypto_tx_hash if t.type == "CRYPTO_WITHDRAWAL" }
}
