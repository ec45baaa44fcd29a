# One stablecoin conversion, by the UUID returned when it was created. An
# unknown id fails the plan with "Stablecoin conversion not found".
variable "conversion_id" {
  description = "UUID of the stablecoin conversion, as returned when it was created."
  type        = string
}

data "platform_stablecoin_conversion" "payroll" {
  id = var.conversion_id
}

output "payroll_conversion" {
  value = {
    what    = "${data.platform_stablecoin_conversion.payroll.amount} ${data.platform_stablecoin_conversion.payroll.source_asset} -> ${data.platform_stablecoin_conversion.payroll.target_asset}"
    status  = data.platform_stablecoin_conversion.payroll.status
    settled = data.platform_stablecoin_conversion.payroll.settled_at != null
  }
}
