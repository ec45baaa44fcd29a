# The best bid and best ask of BTCUSD at the moment of the read, and the
# spread between them. The provider needs ws_url (or PLATFORM_WS_URL) and
# client credentials allowed the scope
# exchange:read_aggregated_marketdata_stream.
data "platform_top_of_book" "btc" {
  market = "BTCUSD"

  # Optional: fail when no top-of-book message arrives within this time
  # (token, connection and subscription included). Default "10s".
  timeout = "5s"
}

locals {
  # Prices are decimal strings. Arithmetic on them as Terraform numbers can
  # show binary rounding noise in the last digits, hence format() below.
  btc_bid = tonumber(data.platform_top_of_book.btc.best_bid_price)
  btc_ask = tonumber(data.platform_top_of_book.btc.best_ask_price)
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

output "btc_spread" {
  description = "Best ask minus best bid, in USD and in basis points of the mid price."
  value = {
    usd = format("%.2f", local.btc_ask - local.btc_bid)
    bps = format("%.2f", (local.btc_ask - local.btc_bid) / ((local.btc_ask + local.btc_bid) / 2) * 10000)
  }
}

# Warn (a check does not stop the run) when the market is too thin to
# trade at a fair price.
check "btc_spread_tight" {
  assert {
    condition     = (local.btc_ask - local.btc_bid) / local.btc_bid < 0.001
    error_message = "The BTCUSD spread is wider than 10 basis points."
  }
}
