# Converts 5000 USD into PYUSD each time the action is invoked. Actions
# need Terraform 1.14 or later.
#
# WARNING: every invocation makes a conversion. The action keeps nothing in
# the state: set ref_id (below) so that invoking it again for the same
# conversion makes nothing new. Cancelling a conversion that has not
# settled is the action platform_stablecoin_conversion_cancel.
action "platform_stablecoin_conversion" "weekly_pyusd" {
  config {
    profile_id   = "7f0b5c1e-3a4d-4f8e-9b2a-1c6d8e0f4a21"
    source_asset = "USD"
    target_asset = "PYUSD" # USD, USDC or PYUSD, other than source_asset
    amount       = "5000"

    # One ref_id per conversion: the service makes it at most once, however
    # many times the action runs. Without it, every invocation converts the
    # amount again.
    ref_id = "weekly-pyusd-2024-w29"

    metadata = {
      week = "2024-W29"
    }
  }
}

# Invoke it when the week's treasury record is created ...
resource "terraform_data" "treasury_week" {
  input = "2024-W29"

  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.platform_stablecoin_conversion.weekly_pyusd]
    }
  }
}

# ... or by hand:
#   terraform apply -invoke=action.platform_stablecoin_conversion.weekly_pyusd
