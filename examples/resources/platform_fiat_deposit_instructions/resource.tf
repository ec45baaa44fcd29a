# Wire instructions for funding a profile. Every argument change creates a
# new set (there is no update endpoint); destroying only forgets the set,
# which stays valid on the service.
resource "platform_fiat_deposit_instructions" "payroll" {
  profile_id          = "7f0b5c1e-3a4d-4f8e-9b2a-1c6d8e0f4a21"
  fiat_network        = "WIRE"
  routing_number_type = "ABA" # or "SWIFT"; default chosen by the service

  # Optional. When unset, the provider generates a UUID and records it, so
  # a retried create never makes a second set.
  # ref_id = "payroll-funding-2024"

  metadata = {
    purpose = "payroll"
  }
}

# What the sender of the wire needs.
output "wire_account_number" {
  value = platform_fiat_deposit_instructions.payroll.fiat_network_instructions.wire.account_number
}

output "wire_routing_number" {
  value = platform_fiat_deposit_instructions.payroll.fiat_network_instructions.wire.routing_details.routing_number
}

output "wire_bank_name" {
  value = platform_fiat_deposit_instructions.payroll.fiat_network_instructions.wire.routing_details.bank_name
}

# The memo to quote with every wire.
output "wire_memo" {
  value = platform_fiat_deposit_instructions.payroll.memo_id
}
