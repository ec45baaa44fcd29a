# A payout pipeline's configuration, tested against the emulator: one
# crypto withdrawal, made at most once thanks to its ref_id.
terraform {
  required_providers {
    platform = {
      source  = "platform/platform"
      version = "~> 0.2"
    }
  }
}

# Every setting comes from PLATFORM_* variables: the emulator's in tests
# (it prints them and writes them to -env-file), the service's in
# production.
provider "platform" {}

resource "platform_crypto_withdrawal" "payout" {
  profile_id          = var.profile_id
  destination_address = var.destination_address
  asset               = "BTC"
  crypto_network      = "BITCOIN"
  amount              = var.amount
  ref_id              = var.ref_id
  memo                = "emulator-testing example"
}
