variable "profile_id" {
  description = "Profile the withdrawal is debited from."
  type        = string
  default     = "7f0b5c1e-3a4d-4f8e-9b2a-1c6d8e0f4a21"
}

variable "destination_address" {
  description = "Bitcoin address the withdrawal is sent to."
  type        = string
  default     = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
}

variable "amount" {
  description = "Amount of BTC to send; the fee is added on top."
  type        = string
  default     = "0.5"

  validation {
    condition     = can(regex("^[0-9]*\\.?[0-9]+$", var.amount)) && tonumber(var.amount) > 0
    error_message = "amount must be a positive decimal number such as \"0.5\"."
  }
}

variable "ref_id" {
  description = "Business reference of the payout: the service's replay protection."
  type        = string
  default     = "payout-2024-07"
}
