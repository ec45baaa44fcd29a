# Orchestration rules are imported by their id.
terraform import platform_orchestration_rule.usdc_to_treasury 0b4f3a52-9d1e-4c7a-8f26-5e3b1d9c7a40
