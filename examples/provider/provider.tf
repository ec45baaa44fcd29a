terraform {
  required_providers {
    platform = {
      source  = "platform/platform"
      version = "~> 0.2"
    }
  }
}

variable "platform_client_secret" {
  description = "OAuth 2.0 client secret of the API client Terraform runs as."
  type        = string
  sensitive   = true
}

provider "platform" {
  # Credentials of an OAuth 2.0 client (client credentials grant). Both can
  # instead come from PLATFORM_CLIENT_ID and PLATFORM_CLIENT_SECRET.
  client_id     = "terraform-treasury"
  client_secret = var.platform_client_secret

  # Sandbox and production have different addresses; base_url includes the
  # /v2 version segment. Tokens are requested from {auth_url}/oauth2/token.
  base_url = "https://api.sandbox.example.com/v2"
  auth_url = "https://auth.sandbox.example.com"
  ws_url   = "wss://stream.sandbox.example.com" # only for market data

  # Optional tuning: one HTTP attempt may take 30s, and requests that are
  # safe to repeat are retried up to 4 times on 429, 5xx and network errors.
  request_timeout = "30s"
  max_retries     = 4

  # Optional: leave unset to let every operation request a token with only
  # the scope it needs. Setting it pins one token with exactly these scopes.
  # scopes = ["transfer:read_fiat_account", "transfer:read_deposit_address"]
}
