# Adopts a stablecoin conversion made elsewhere, by its id; nothing is
# converted.
import {
  to = platform_stablecoin_conversion.treasury_usdc
  id = "8d4f2a6c-1e9b-4c7d-a5f3-6b0e2d9c1a58"
}
