# The balances of the treasury profile, by asset, as exact decimal strings.
variable "treasury_profile_id" {
  description = "Id of the profile whose balances are read."
  type        = string
}

data "platform_profile_balances" "treasury" {
  profile_id = var.treasury_profile_id
}

locals {
  available = { for b in data.platform_profile_balances.treasury.balances : b.asset => b.available }
}

# What the profile holds of USD; an asset it holds none of is absent.
output "usd_available" {
  value = lookup(local.available, "USD", "0")
}
