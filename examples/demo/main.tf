# A tour of the platform provider: it funds profiles with wire instructions,
# sends one treasury withdrawal, reads accounts, deposit addresses, reward
# claims and a stablecoin conversion, and takes a snapshot of the market.
#
# `make demo` applies it against the local emulator, which it starts and
# stops; the provider is configured from the PLATFORM_* environment
# variables the emulator writes (client id and secret, base_url, auth_url,
# ws_url).

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
