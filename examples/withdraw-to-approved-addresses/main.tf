# Withdraw only to approved addresses: the destination is an entry of the
# withdrawal address book, and the withdrawal is sent only once the
# service's review has approved it.
#
# The first apply adds the address to the book; while it is PENDING, the
# withdrawal's precondition stops the apply before anything is sent. Once
# the address is APPROVED, `terraform apply` sends the withdrawal (the
# refresh reads the new status).

terraform {
  required_version = ">= 1.11"

  required_providers {
    platform = {
      source  = "platform/platform"
      version = "~> 0.2"
    }
  }
}

provider "platform" {}

resource "platform_crypto_destination_address" "payee" {
  crypto_network = var.payee.network
  address        = var.payee.address
  nickname       = var.payee.nickname

  # Travel Rule data lives on the address, not on each withdrawal.
  travelrule_metadata = {
    custodian_type = "PRIVATE"
    beneficiary = {
      person_details = {
        first_name = var.payee.first_name
        last_name  = var.payee.last_name
      }
    }
  }
}

resource "platform_crypto_withdrawal" "payout" {
  profile_id          = var.profile_id
  destination_address = platform_crypto_destination_address.payee.address
  crypto_network      = platform_crypto_destination_address.payee.crypto_network
  asset               = var.payout.asset
  amount              = var.payout.amount
  ref_id              = var.payout.reference

  lifecycle {
    precondition {
      condition     = platform_crypto_destination_address.payee.status == "APPROVED"
      error_message = "The destination ${platform_crypto_destination_address.payee.address} is ${platform_crypto_destination_address.payee.status} in the address book: withdrawals go to APPROVED addresses only."
    }
  }
}

output "payout" {
  value = {
    transfer    = platform_crypto_withdrawal.payout.id
    destination = platform_crypto_destination_address.payee.nickname
    status      = platform_crypto_withdrawal.payout.status
  }
}
