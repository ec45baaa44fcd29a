# A withdrawal made elsewhere (another pipeline, the web console) is imported
# by its transfer id. Nothing is sent: the provider reads the transfer and
# fills every argument from it, so a configuration that matches plans no
# change. With Terraform 1.12+, an import block can name it by identity:
#
#   import {
#     to       = platform_crypto_withdrawal.treasury_payout
#     identity = { id = "9c1f4e2a-7b3d-4a6e-8f5c-2d1b0e9a7c64" }
#   }
terraform import platform_crypto_withdrawal.treasury_payout 9c1f4e2a-7b3d-4a6e-8f5c-2d1b0e9a7c64
