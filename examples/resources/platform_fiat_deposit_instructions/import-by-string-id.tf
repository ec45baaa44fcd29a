import {
  to = platform_fiat_deposit_instructions.funding["payroll"]
  id = "3b8f6c2e-9d4a-4e1b-8f7c-5a2d1e0b9c84"
}
