# Stablecoin conversions are imported by their id; nothing is converted.
terraform import platform_stablecoin_conversion.treasury_usdc 8d4f2a6c-1e9b-4c7d-a5f3-6b0e2d9c1a58
