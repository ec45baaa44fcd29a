# Find every set of fiat deposit instructions of the customer and generate
# the configuration that adopts them (Terraform 1.14+):
#
#   terraform query -generate-config-out=instructions.tf
#   terraform apply   # imports them by identity; nothing is created
list "platform_fiat_deposit_instructions" "all" {
  provider = platform
}
