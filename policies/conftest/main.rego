# METADATA
# title: The platform provider's money policy, for conftest and Atlantis
# description: |
#   conftest reads the rule deny of the package main by default: this entry
#   gives it the reasons of data.platform.money.deny. Load it with
#   policies/platform/money.rego (conftest test --policy policies ...).
#   See docs/guides/policy-on-plans.md.
package main

import data.platform.money

deny contains msg if some msg in money.deny
