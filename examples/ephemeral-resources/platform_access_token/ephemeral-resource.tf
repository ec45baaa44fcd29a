# A token that can only read fiat accounts, for a script run by a
# provisioner. Requires Terraform 1.10 or later: the token is written to
# neither the plan nor the state, and is requested anew in every run.
ephemeral "platform_access_token" "accounts_reader" {
  scopes = ["transfer:read_fiat_account"]
}

variable "export_script" {
  description = "Script that exports the fiat accounts; it reads its bearer token from PLATFORM_TOKEN."
  type        = string
  default     = "./scripts/export-fiat-accounts.sh"
}

resource "terraform_data" "export_fiat_accounts" {
  provisioner "local-exec" {
    command = var.export_script
    environment = {
      PLATFORM_TOKEN = ephemeral.platform_access_token.accounts_reader.access_token
    }
  }
}

# Tokens can also feed other providers' ephemeral or write-only arguments,
# for example a secret store that hands the token to a workload (write-only
# arguments need Terraform 1.11 or later):
#
# resource "aws_secretsmanager_secret_version" "platform_token" {
#   secret_id                = aws_secretsmanager_secret.platform_token.id
#   secret_string_wo         = ephemeral.platform_access_token.accounts_reader.access_token
#   secret_string_wo_version = 1
# }
