# One withdrawal from the treasury profile. Its ref_id is the business
# reference, so the withdrawal is made at most once whatever happens to the
# state; changing any argument would send a NEW withdrawal.
resource "platform_crypto_withdrawal" "treasury" {
  profile_id          = var.treasury_payout.profile_id
  destination_address = var.treasury_payout.address
  asset               = var.treasury_payout.asset
  crypto_network      = var.treasury_payout.network
  amount              = var.treasury_payout.amount
  ref_id              = var.treasury_payout.reference
  memo                = "Treasury rebalance"

  metadata = {
    reference   = var.treasury_payout.reference
    approved_by = var.treasury_payout.approved_by
  }
}

# Deposit addresses on EVM networks only.
data "platform_deposit_addresses" "evm" {
  networks    = ["ETHEREUM", "BASE", "ARBITRUM_ONE"]
  profile_ids = var.deposit_profile_id == null ? null : [var.deposit_profile_id]
}

# Reward claims that have not settled yet: still pending, submitted, or failed.
data "platform_reward_claims" "open" {
  payout_group_id  = var.payout_group_id
  onchain_statuses = ["PENDING", "SUBMITTED", "FAILED"]
}

data "platform_stablecoin_conversion" "report" {
  id = var.conversion_id
}
