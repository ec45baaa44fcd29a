# Find the internal transfers out of the treasury profile (their debit
# sides) and bring them under Terraform (Terraform 1.14+):
#
#   terraform query -generate-config-out=internal_transfers.tf
#   terraform apply   # imports them by identity; nothing is sent
list "platform_internal_transfer" "from_treasury" {
  provider = platform

  config {
    profile_ids = ["7f0b5c1e-3a4d-4f8e-9b2a-1c6d8e0f4a21"]
    ref_ids     = ["payroll-funding-2024-07", "payroll-top-up-2024-07-15"]
  }
}
