# The import reads the whole account, account number included.
import {
  to = platform_fiat_account.payroll
  id = "dde1b3c5-d02a-48f6-8d11-16b4f532ea49"
}
