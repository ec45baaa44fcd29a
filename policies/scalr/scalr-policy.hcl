# The Scalr policy group of the platform provider's money policy:
# platform_money.rego is the whole policy in one file (its settings at its
# top).
version = "v1"

policy "platform_money" {
  enabled           = true
  enforcement_level = "hard-mandatory"
}
