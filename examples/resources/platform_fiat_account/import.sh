# Fiat accounts are imported by their id; the import reads the whole
# account (GET /transfer/fiat-accounts/{id}), account number included.
terraform import platform_fiat_account.payroll dde1b3c5-d02a-48f6-8d11-16b4f532ea49
