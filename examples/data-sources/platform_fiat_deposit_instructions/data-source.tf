# Reads deposit instructions created elsewhere (another configuration, the
# web app, a partner) by their id, to publish the wire details.
variable "instructions_id" {
  description = "Id of the fiat deposit instructions to read."
  type        = string
}

data "platform_fiat_deposit_instructions" "existing" {
  id = var.instructions_id
}

# Publish them only while they are valid: DEPRECATED instructions must not
# be handed to senders any more.
check "instructions_valid" {
  assert {
    condition     = data.platform_fiat_deposit_instructions.existing.status == "VALID"
    error_message = "Deposit instructions ${var.instructions_id} are ${data.platform_fiat_deposit_instructions.existing.status}."
  }
}

output "existing_wire_details" {
  value = {
    bank           = data.platform_fiat_deposit_instructions.existing.fiat_network_instructions.wire.routing_details.bank_name
    account_number = data.platform_fiat_deposit_instructions.existing.fiat_network_instructions.wire.account_number
    routing_number = data.platform_fiat_deposit_instructions.existing.fiat_network_instructions.wire.routing_details.routing_number
    memo           = data.platform_fiat_deposit_instructions.existing.memo_id
  }
}
