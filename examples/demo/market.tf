# Best bid and ask, and the order book five levels deep, read from the
# WebSocket stream at plan time.
data "platform_top_of_book" "quote" {
  market = var.market
}

locals {
  best_bid = tonumber(data.platform_top_of_book.quote.best_bid_price)
  best_ask = tonumber(data.platform_top_of_book.quote.best_ask_price)
}

data "platform_order_book" "book" {
  market = var.market
  depth  = 5
}

# A token for the market-data stream, opened for this run only: ephemeral,
# so it is never written to the plan or the state. Its access_token would
# typically be handed to a provisioner or to another provider; here a check
# only confirms what the authorization server granted, and nothing secret
# is output.
ephemeral "platform_access_token" "market_data" {
  scopes = ["exchange:read_aggregated_marketdata_stream"]
}

check "market_data_access" {
  assert {
    condition     = contains(ephemeral.platform_access_token.market_data.granted_scopes, "exchange:read_aggregated_marketdata_stream")
    error_message = "The API client was not granted the scope of the market-data stream."
  }
}
