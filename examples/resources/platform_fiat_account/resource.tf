# Set it with TF_VAR_payroll_account_number; the default is an example.
variable "payroll_account_number" {
  type      = string
  sensitive = true
  default   = "123456789012"
}

# A U.S. bank account the profile withdraws to by wire. The service reviews
# it: status is PENDING until it is APPROVED (or REJECTED).
resource "platform_fiat_account" "payroll" {
  fiat_account_owner = {
    person_details = {
      first_name = "Ada"
      last_name  = "Lovelace"
    }
  }

  fiat_network_instructions = {
    wire = {
      account_number = var.payroll_account_number
      fiat_account_owner_address = {
        country  = "USA"
        address1 = "456 Main Street"
        city     = "New York"
        province = "NY"
        zip_code = "10101"
      }
      routing_details = {
        routing_number_type = "ABA"
        routing_number      = "031302971"
        bank_name           = "Customers Bank"
        bank_address = {
          country  = "USA"
          address1 = "123 Bank Street"
          city     = "New York"
          province = "NY"
          zip_code = "10101"
        }
      }
    }
  }

  metadata = { purpose = "payroll" }
}

output "payroll_account_status" {
  value = platform_fiat_account.payroll.status
}
