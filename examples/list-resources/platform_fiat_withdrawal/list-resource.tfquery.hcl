# Find the fiat withdrawals made elsewhere (another pipeline, the web
# console) and bring them under Terraform (Terraform 1.14+):
#
#   terraform query -generate-config-out=fiat_withdrawals.tf
#   terraform apply   # imports them by identity; nothing is sent
list "platform_fiat_withdrawal" "treasury" {
  provider = platform

  config {
    profile_ids = ["7f0b5c1e-3a4d-4f8e-9b2a-1c6d8e0f4a21"]
    statuses    = ["PENDING", "COMPLETED"]
  }
}
