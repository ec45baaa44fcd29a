import {
  to       = platform_fiat_withdrawal.supplier_payout
  identity = { id = "2b7e4c19-5d8a-4f3e-a1c6-9e0d3b7f5a42" }
}
