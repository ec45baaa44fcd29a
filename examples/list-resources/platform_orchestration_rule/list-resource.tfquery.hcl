# Find the active orchestration rules of a profile and generate the
# configuration that adopts them (Terraform 1.14+):
#
#   terraform query -generate-config-out=rules.tf
#   terraform apply   # imports them by identity; nothing is created
list "platform_orchestration_rule" "treasury" {
  provider = platform

  config {
    profile_id = "7f0b5c1e-3a4d-4f8e-9b2a-1c6d8e0f4a21"
    statuses   = ["ACTIVE", "PENDING"]
  }
}
