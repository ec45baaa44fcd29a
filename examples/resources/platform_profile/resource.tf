# A profile for the treasury's operating funds. Renaming it updates it in
# place; destroying it deactivates it, which the plan refuses while it
# holds a balance above zero.
resource "platform_profile" "treasury" {
  nickname    = "Treasury"
  description = "Operating funds"
}

output "treasury_profile_id" {
  value = platform_profile.treasury.id
}
