# Sends 0.25 BTC (plus the network fee) each time the action is invoked.
# Actions need Terraform 1.14 or later.
#
# WARNING: every invocation sends a withdrawal, and withdrawals cannot be
# reversed. The action keeps nothing in the state: set ref_id (below) so
# that invoking it again for the same payment sends nothing new.
action "platform_crypto_withdrawal" "supplier_payout" {
  config {
    profile_id          = "7f0b5c1e-3a4d-4f8e-9b2a-1c6d8e0f4a21"
    destination_address = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
    asset               = "BTC"
    crypto_network      = "BITCOIN"

    # Exactly one of amount (fee added on top) or total (fee included).
    amount = "0.25"

    # One ref_id per payment. With it, the service makes this withdrawal at
    # most once, however many times the action runs: a repeat with the same
    # arguments is answered with the withdrawal already made. Without it,
    # the provider generates a new ref_id for every invocation (replay-safe
    # across that invocation's retries only), so every run sends another
    # withdrawal. Change it for the next payment.
    ref_id = "supplier-payout-2024-07"

    memo = "July supplier invoice"
    metadata = {
      invoice = "INV-2024-07-118"
    }
  }
}

# Invoke it when the payout record is created or changed ...
resource "terraform_data" "supplier_payout" {
  input = {
    invoice = "INV-2024-07-118"
    amount  = "0.25"
  }

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.platform_crypto_withdrawal.supplier_payout]
    }
  }
}

# ... or by hand:
#   terraform apply -invoke=action.platform_crypto_withdrawal.supplier_payout
# If an invocation fails because the service did not confirm the
# withdrawal, the error names the ref_id to set; invoking again with it
# sends nothing new if the first attempt went through.
