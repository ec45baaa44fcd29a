output "wire_instructions" {
  description = "What each team's senders need to fund their profile by wire."
  value = {
    for team, fdi in platform_fiat_deposit_instructions.funding : team => {
      bank           = fdi.fiat_network_instructions.wire.routing_details.bank_name
      routing_number = fdi.fiat_network_instructions.wire.routing_details.routing_number
      account_number = fdi.fiat_network_instructions.wire.account_number
      memo           = fdi.memo_id
      status         = data.platform_fiat_deposit_instructions.funding[team].status
    }
  }
}

output "treasury_withdrawal" {
  value = {
    id     = platform_crypto_withdrawal.treasury.id
    ref_id = platform_crypto_withdrawal.treasury.ref_id
    amount = "${platform_crypto_withdrawal.treasury.amount} ${platform_crypto_withdrawal.treasury.asset}"
    fee    = platform_crypto_withdrawal.treasury.fee
    total  = platform_crypto_withdrawal.treasury.total
    status = platform_crypto_withdrawal.treasury.status
  }
}

output "linked_bank_accounts" {
  value = length(data.platform_fiat_accounts.linked.items)
}

output "evm_deposit_addresses" {
  description = "Deposit addresses by network."
  value = {
    for network in distinct([for a in data.platform_deposit_addresses.evm.items : a.crypto_network]) :
    network => [for a in data.platform_deposit_addresses.evm.items : a.address if a.crypto_network == network]
  }
}

output "open_reward_claims" {
  value = length(data.platform_reward_claims.open.items)
}

output "conversion" {
  value = join(" ", [
    data.platform_stablecoin_conversion.report.amount,
    data.platform_stablecoin_conversion.report.source_asset,
    "->",
    data.platform_stablecoin_conversion.report.target_asset,
    "(${data.platform_stablecoin_conversion.report.status})",
  ])
}

output "best_bid" {
  value = "${data.platform_top_of_book.quote.best_bid_price} (${data.platform_top_of_book.quote.best_bid_amount})"
}

output "best_ask" {
  value = "${data.platform_top_of_book.quote.best_ask_price} (${data.platform_top_of_book.quote.best_ask_amount})"
}

output "spread" {
  description = "Best ask minus best bid, in quote currency and in basis points of the mid price."
  value = {
    quote = format("%.2f", local.best_ask - local.best_bid)
    bps   = format("%.1f", (local.best_ask - local.best_bid) / ((local.best_ask + local.best_bid) / 2) * 10000)
  }
}

output "order_book" {
  value = {
    mid_price = data.platform_order_book.book.mid_price
    spread    = data.platform_order_book.book.spread
    # A sum of numbers is a binary float (0.1 + 0.2 is not 0.3 exactly):
    # formatted with 8 decimals, it shows the sum of the amounts.
    bid_depth = format("%.8f", sum([for level in data.platform_order_book.book.bids : tonumber(level.amount)]))
    ask_depth = format("%.8f", sum([for level in data.platform_order_book.book.asks : tonumber(level.amount)]))
  }
}
