# Every bank account linked to the customer (deleted ones left out), newest
# first. The provider follows the API's pages to the end, 1,000 at a time.
data "platform_fiat_accounts" "all" {}

# Accounts created during 2024, oldest first, deleted ones included.
data "platform_fiat_accounts" "opened_2024" {
  include_deleted = true
  order           = "ASC"

  created_at = {
    gte = "2024-01-01T00:00:00Z"
    lt  = "2025-01-01T00:00:00Z"
  }
}

# Accounts by the ids given when they were created (at most 100 values per
# filter); max_items stops paging as soon as that many are read.
data "platform_fiat_accounts" "by_ref" {
  ref_ids   = ["payroll-account", "treasury-account"]
  max_items = 10
}

output "wire_accounts" {
  value = {
    for a in data.platform_fiat_accounts.all.items :
    a.id => {
      bank   = a.fiat_network_instructions.wire.routing_details.bank_name
      number = a.fiat_network_instructions.wire.account_number
      status = a.fiat_network_instructions.wire.status
      # Owner and person details are null when the service does not give them.
      owner = try("${a.fiat_account_owner.person_details.first_name} ${a.fiat_account_owner.person_details.last_name}", null)
    }
    if a.fiat_network_instructions.wire != null
  }
}
