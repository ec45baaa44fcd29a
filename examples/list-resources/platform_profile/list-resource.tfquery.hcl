# Find the profiles whose nickname begins with "ops" and generate the
# configuration that adopts them (Terraform 1.14+):
#
#   terraform query -generate-config-out=profiles.tf
#   terraform apply   # imports them by identity; nothing is sent
list "platform_profile" "ops" {
  provider = platform
  config {
    nickname = "ops"
  }
}
