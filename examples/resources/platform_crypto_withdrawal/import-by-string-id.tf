import {
  to = platform_crypto_withdrawal.treasury_payout
  id = "9c1f4e2a-7b3d-4a6e-8f5c-2d1b0e9a7c64"
}
