# The OPA policy set of the platform provider's money policy: this file,
# platform_money.rego, money.rego (policies/platform) and the settings
# (platform_policy.rego) in one folder of the policy set.
policy "platform_money" {
  query             = "data.terraform.platform_money.deny"
  enforcement_level = "mandatory"
}
