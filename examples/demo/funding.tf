# Wire instructions for every funding profile. Adding a profile to
# var.funding_profiles creates one more set; the others are untouched.
resource "platform_fiat_deposit_instructions" "funding" {
  for_each = var.funding_profiles

  profile_id          = each.value
  fiat_network        = "WIRE"
  routing_number_type = "ABA"
  ref_id              = "wire-funding-${each.key}"

  metadata = {
    team       = each.key
    managed_by = "terraform"
  }
}

# The same instructions read back by id, as another configuration that only
# knows the id would.
data "platform_fiat_deposit_instructions" "funding" {
  for_each = platform_fiat_deposit_instructions.funding

  id = each.value.id
}

# The bank accounts already linked to the customer, oldest first.
data "platform_fiat_accounts" "linked" {
  order = "ASC"
}
