import {
  to       = platform_crypto_destination_address.cold_wallet
  identity = { id = "31f20a34-c1eb-4c86-adad-1e46bc271e1a" }
}
