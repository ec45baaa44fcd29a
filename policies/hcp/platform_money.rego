# METADATA
# title: The platform provider's money policy, for HCP Terraform and Terraform Enterprise
# description: |
#   HCP Terraform evaluates the query that policies.hcl names over
#   {"plan": ..., "run": ...}: data.terraform.platform_money.deny gives it the
#   reasons of data.platform.money.deny, which finds the plan at input.plan.
#   Attach it in one policy set with policies.hcl,
#   policies/platform/money.rego and your settings (package platform_policy).
#   See docs/guides/policy-on-plans.md.
package terraform.platform_money

import data.platform.money

deny contains msg if some msg in money.deny
