# Internal transfers are imported by the id of their debit side (the
# transfer in from_profile_id); nothing is sent.
terraform import platform_internal_transfer.fund_payroll 5e2d8b1a-9c4f-4a7e-b3d6-1f8c0a5e9b27
