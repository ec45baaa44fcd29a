# The reviewed provider block: the limits every money movement of every
# module must keep (crypto and fiat withdrawals, internal transfers and
# stablecoin conversions, resources and actions), in one place, by asset,
# fiat assets included. A plan that breaks one fails before anyone approves
# it, and nothing is sent.
provider "platform" {
  withdrawal_guard {
    max_amount           = { BTC = "0.5", USDC = "25000", USD = "25000" } # one withdrawal
    max_run_total        = { BTC = "2", USDC = "100000", USD = "100000" } # the whole plan
    check_service_limits = true                                           # the service's own limits, at plan
  }
}

# Each withdrawal also bounds its own fee: a guaranteed fee is quoted at
# apply, and the withdrawal is sent only when the fee is at most max_fee.
resource "platform_crypto_withdrawal" "payout" {
  profile_id          = "8c5f7a42-6a9d-4d55-9f4e-0b6d1e1c2a33"
  destination_address = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"
  asset               = "BTC"
  crypto_network      = "BITCOIN"
  amount              = "0.25"
  max_fee             = "0.0005"
}
