# Tops up the payroll profile from the treasury profile each time the
# action is invoked. Actions need Terraform 1.14 or later.
#
# WARNING: every invocation moves the money, and an internal transfer is
# not reversed (to move it back, transfer the other way). The action keeps
# nothing in the state: set ref_id (below) so that invoking it again for
# the same top-up moves nothing new.
action "platform_internal_transfer" "payroll_top_up" {
  config {
    from_profile_id = "7f0b5c1e-3a4d-4f8e-9b2a-1c6d8e0f4a21" # treasury
    to_profile_id   = "3c9a1e7d-6b2f-4d8a-9e5c-0f1b4a7d2e63" # payroll
    asset           = "USD"
    amount          = "15000"

    # One ref_id per top-up: the service makes it at most once, however
    # many times the action runs. Without it, every invocation moves the
    # amount again. Change it for the next top-up.
    ref_id = "payroll-top-up-2024-07-15"

    metadata = {
      payroll_run = "2024-07-15"
    }
  }
}

# Invoke it when the payroll run is recorded ...
resource "terraform_data" "payroll_run" {
  input = {
    run    = "2024-07-15"
    amount = "15000"
  }

  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.platform_internal_transfer.payroll_top_up]
    }
  }
}

# ... or by hand:
#   terraform apply -invoke=action.platform_internal_transfer.payroll_top_up
