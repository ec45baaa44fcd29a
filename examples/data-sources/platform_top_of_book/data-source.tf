# The best bid and best ask of BTC-USD at the moment of the read. The
# provider needs ws_url (or PLATFORM_WS_URL) and client credentials allowed
# the scope exchange:read_aggregated_marketdata_stream.
data "platform_top_of_book" "btc" {
  market = "BTC-USD"

  # Optional: fail when no top-of-book message arrives within this time
  # (token, connection and subscription included). Default "10s".
  timeout = "5s"
}

output "btc_best_bid" {
  value = data.platform_top_of_book.btc.best_bid_price
}

output "btc_best_ask" {
  value = data.platform_top_of_book.btc.best_ask_price
}

output "btc_quoted_at" {
  value = data.platform_top_of_book.btc.timestamp
}
