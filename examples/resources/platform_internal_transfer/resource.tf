# Funds the payroll profile from the treasury profile: moves 25000 USD
# between two profiles of the customer's once, when the resource is
# created. The service records it as two transfers of one group_id: the
# debit in from_profile_id (this resource's id) and the credit in
# to_profile_id (credit_transfer_id).
#
# WARNING: changing any argument makes a NEW transfer (Terraform plans a
# replacement); the one already made is not reversed. Destroying the
# resource only removes it from the state: to move the money back, declare
# a transfer the other way.
resource "platform_internal_transfer" "fund_payroll" {
  from_profile_id = "7f0b5c1e-3a4d-4f8e-9b2a-1c6d8e0f4a21" # treasury
  to_profile_id   = "3c9a1e7d-6b2f-4d8a-9e5c-0f1b4a7d2e63" # payroll
  asset           = "USD"
  amount          = "25000"

  # One ref_id per funding: the service makes this transfer at most once,
  # even when an apply is retried. When unset, the provider derives one
  # from the arguments at plan, and the plan shows it.
  ref_id = "payroll-funding-2024-07"

  metadata = {
    ticket = "FIN-1301"
  }
}

output "payroll_funding" {
  value = {
    debit_transfer_id  = platform_internal_transfer.fund_payroll.id
    credit_transfer_id = platform_internal_transfer.fund_payroll.credit_transfer_id
    group_id           = platform_internal_transfer.fund_payroll.group_id
    status             = platform_internal_transfer.fund_payroll.status
  }
}
