# A funding pipeline: wire instructions for every profile that takes
# deposits, one set per profile. Adding a profile to the map creates one
# more set and leaves the others alone. There is no update endpoint, so
# changing an argument creates a new set; destroying only forgets a set,
# which stays valid on the service.
locals {
  funding_profiles = {
    payroll   = "7f0b5c1e-3a4d-4f8e-9b2a-1c6d8e0f4a21"
    treasury  = "2c9e4a7d-1b3f-4e6a-8d0c-5f7b9a1e3c62"
    merchants = "9a4f1e6c-7d2b-4c8e-b3a5-0e6d2f8c4b17"
  }
}

resource "platform_fiat_deposit_instructions" "funding" {
  for_each = local.funding_profiles

  profile_id          = each.value
  fiat_network        = "WIRE"
  routing_number_type = "ABA" # or "SWIFT" for senders abroad

  # A stable ref_id per profile: re-running the pipeline after a failed
  # apply or a lost state never makes a second set. Optional: when unset,
  # the provider generates a UUID and records it.
  ref_id = "wire-funding-${each.key}"

  metadata = {
    team     = each.key
    pipeline = "funding"
  }
}

# What each team's senders need: the bank details, and the memo to quote
# with every wire.
output "wire_instructions" {
  value = {
    for team, fdi in platform_fiat_deposit_instructions.funding : team => {
      bank           = fdi.fiat_network_instructions.wire.routing_details.bank_name
      routing_number = fdi.fiat_network_instructions.wire.routing_details.routing_number
      account_number = fdi.fiat_network_instructions.wire.account_number
      memo           = fdi.memo_id
    }
  }
}
