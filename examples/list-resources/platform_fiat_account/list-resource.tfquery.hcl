# Find the fiat accounts of the customer and generate the configuration that
# adopts them (Terraform 1.14+). The list masks account numbers, so the
# generated configuration leaves the sensitive arguments to fill in:
#
#   terraform query -generate-config-out=accounts.tf
#   # set account_number and routing_number in accounts.tf, then
#   terraform apply   # imports them by identity; nothing is created
list "platform_fiat_account" "all" {
  provider = platform
}
