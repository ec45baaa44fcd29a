# Reward claims of one payout group that have not been confirmed on chain.
data "platform_reward_claims" "open" {
  payout_group_id  = "0e7c3d52-51a8-4c4e-9f7e-2d6f0c1b9a11"
  onchain_statuses = ["PENDING", "SUBMITTED", "FAILED"]
}

# Claims on one chain created in the first quarter of 2024 (both bounds
# inclusive).
data "platform_reward_claims" "q1" {
  chain      = "ethereum"
  start_time = "2024-01-01T00:00:00Z"
  end_time   = "2024-03-31T23:59:59Z"
}

output "failed_claims" {
  value = {
    for c in data.platform_reward_claims.open.items : c.id => c.error_message
    if c.error_message != null
  }
}

output "q1_claims" {
  value = length(data.platform_reward_claims.q1.items)
}
