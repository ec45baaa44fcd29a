# A conversion this configuration manages. Destroying it never cancels it.
resource "platform_stablecoin_conversion" "month_end" {
  profile_id   = "7f0b5c1e-3a4d-4f8e-9b2a-1c6d8e0f4a21"
  source_asset = "USDC"
  target_asset = "USD"
  amount       = "20000"
  ref_id       = "month-end-usd-2024-07"
}

# Cancels it, while it has not settled, when invoked by hand (Terraform
# 1.14 or later):
#
#   terraform apply -invoke=action.platform_stablecoin_conversion_cancel.month_end
#
# Cancelling is always on purpose: no trigger invokes this action. The
# service cancels a conversion once; a conversion already SETTLED (or
# cancelled) is an error naming its status. The resource shows the status
# CANCELLED at its next refresh, and stays in the state.
action "platform_stablecoin_conversion_cancel" "month_end" {
  config {
    id = platform_stablecoin_conversion.month_end.id
  }
}
