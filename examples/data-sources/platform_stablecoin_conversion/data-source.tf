# One stablecoin conversion, by the UUID returned when it was created. An
# unknown id fails the plan with "Stablecoin conversion not found".
data "platform_stablecoin_conversion" "payroll" {
  id = "3fd4fad9-7c21-47d8-b5d0-32d47ecbaf8c"
}

output "payroll_conversion" {
  value = {
    what    = "${data.platform_stablecoin_conversion.payroll.amount} ${data.platform_stablecoin_conversion.payroll.source_asset} -> ${data.platform_stablecoin_conversion.payroll.target_asset}"
    status  = data.platform_stablecoin_conversion.payroll.status
    settled = data.platform_stablecoin_conversion.payroll.settled_at != null
  }
}
