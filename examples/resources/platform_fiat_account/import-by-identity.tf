import {
  to       = platform_fiat_account.payroll
  identity = { id = "dde1b3c5-d02a-48f6-8d11-16b4f532ea49" }
}
