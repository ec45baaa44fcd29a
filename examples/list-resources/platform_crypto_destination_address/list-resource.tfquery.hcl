# Find the entries of the withdrawal address book on Ethereum and generate
# the configuration that adopts them (Terraform 1.14+):
#
#   terraform query -generate-config-out=addresses.tf
#   terraform apply   # imports them by identity; nothing is sent
list "platform_crypto_destination_address" "ethereum" {
  provider = platform
  config {
    crypto_networks = ["ETHEREUM"]
  }
}
