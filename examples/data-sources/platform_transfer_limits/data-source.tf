# The service's limits of crypto withdrawals and what remains of them, and a
# precondition of the configuration's own: this payout must fit in what
# remains of every daily USD limit (its value computed by the configuration).
data "platform_transfer_limits" "withdrawals" {}

locals {
  payout_usd = 12000
  daily_usd = [
    for l in data.platform_transfer_limits.withdrawals.items : l
    if l.limit_asset == "USD" && l.period_seconds == "86400"
  ]
}

resource "terraform_data" "payout_fits" {
  lifecycle {
    precondition {
      condition     = alltrue([for l in local.daily_usd : local.payout_usd <= tonumber(l.remaining)])
      error_message = "The payout of ${local.payout_usd} USD does not fit in what remains of the daily limits."
    }
  }
}

output "limits" {
  value = [for l in data.platform_transfer_limits.withdrawals.items :
  "${l.rule_id}: ${l.remaining} of ${l.limit} ${l.limit_asset} (${l.period_seconds == "0" ? "single transaction" : "${l.period_seconds}s"})"]
}
