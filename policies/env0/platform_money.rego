# METADATA
# title: The platform provider's money policy, for env zero approval policies
# description: |
#   env zero evaluates the rules of the package env0 over
#   {"plan": ..., "deploymentRequest": ..., "approvers": ...}: deny gives it
#   the reasons of data.platform.money.deny, which finds the plan at
#   input.plan. Keep it in the policy folder with
#   policies/platform/money.rego and your settings (package platform_policy).
#   See docs/guides/policy-on-plans.md.
package env0

import data.platform.money

deny contains msg if some msg in money.deny
