# Reads a set of fiat deposit instructions created elsewhere, by id.
data "platform_fiat_deposit_instructions" "existing" {
  id = "3b8f6c2e-9d4a-4e1b-8f7c-5a2d1e0b9c84"
}

output "existing_instructions_status" {
  value = data.platform_fiat_deposit_instructions.existing.status # VALID or DEPRECATED
}

output "existing_wire_details" {
  value = {
    account_number = data.platform_fiat_deposit_instructions.existing.fiat_network_instructions.wire.account_number
    routing_number = data.platform_fiat_deposit_instructions.existing.fiat_network_instructions.wire.routing_details.routing_number
    memo           = data.platform_fiat_deposit_instructions.existing.memo_id
  }
}
