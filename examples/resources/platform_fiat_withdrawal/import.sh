# Fiat withdrawals are imported by their transfer id; nothing is sent.
terraform import platform_fiat_withdrawal.supplier_payout 2b7e4c19-5d8a-4f3e-a1c6-9e0d3b7f5a42
