# Adopts an internal transfer made elsewhere, by the id of its debit side;
# nothing is sent.
import {
  to = platform_internal_transfer.fund_payroll
  id = "5e2d8b1a-9c4f-4a7e-b3d6-1f8c0a5e9b27"
}
