# Pays a contractor's invoice by wire each time the action is invoked.
# Actions need Terraform 1.14 or later.
#
# WARNING: every invocation sends a fiat withdrawal, and fiat withdrawals
# cannot be reversed. The action keeps nothing in the state: set ref_id
# (below) so that invoking it again for the same invoice sends nothing new.

# The id of a fiat account the service's review has APPROVED: a withdrawal
# to an account that is still PENDING is refused at plan.
variable "fiat_account_id" {
  type        = string
  description = "Id of an APPROVED fiat account of the customer's."
}

action "platform_fiat_withdrawal" "contractor_invoice" {
  config {
    profile_id      = "7f0b5c1e-3a4d-4f8e-9b2a-1c6d8e0f4a21"
    fiat_account_id = var.fiat_account_id
    asset           = "USD"

    # Exactly one of amount or total, as a decimal string.
    amount = "4800.00"

    # One ref_id per payment. With it, the service makes this withdrawal at
    # most once, however many times the action runs. Without it, every
    # invocation sends another withdrawal. Change it for the next invoice.
    ref_id = "contractor-INV-2024-07-042"

    memo = "INV-2024-07-042"
    metadata = {
      invoice = "INV-2024-07-042"
    }
  }
}

# Invoke it when the invoice record is created or changed ...
resource "terraform_data" "contractor_invoice" {
  input = {
    invoice = "INV-2024-07-042"
    amount  = "4800.00"
  }

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.platform_fiat_withdrawal.contractor_invoice]
    }
  }
}

# ... or by hand:
#   terraform apply -invoke=action.platform_fiat_withdrawal.contractor_invoice
