# The five best levels on each side of the ETHUSD order book at the moment
# of the read, with the spread and mid price computed exactly.
data "platform_order_book" "eth" {
  market = "ETHUSD"
  depth  = 5 # default 10, from 1 to 1000

  # Optional: fail when no snapshot arrives within this time. Default "10s".
  timeout = "10s"
}

output "eth_spread" {
  value = data.platform_order_book.eth.spread
}

output "eth_mid_price" {
  value = data.platform_order_book.eth.mid_price
}

# Total amount offered on the five best asks.
output "eth_ask_depth" {
  value = sum([for level in data.platform_order_book.eth.asks : tonumber(level.amount)])
}
