variable "profile_id" {
  description = "Profile the withdrawal debits."
  type        = string
  default     = "7f0b5c1e-3a4d-4f8e-9b2a-1c6d8e0f4a21"
}

variable "payee" {
  description = "The destination: its network, address and nickname in the address book, and who receives the funds."
  type = object({
    network    = string
    address    = string
    nickname   = string
    first_name = string
    last_name  = string
  })
  default = {
    network    = "ETHEREUM"
    address    = "0x2f6b1c0e8d4a3b5c7e9f1a2b3c4d5e6f7a8b9c0d"
    nickname   = "ada-personal-wallet"
    first_name = "Ada"
    last_name  = "Lovelace"
  }
}

variable "payout" {
  description = "The withdrawal: asset, amount and business reference (its ref_id)."
  type = object({
    asset     = string
    amount    = string
    reference = string
  })
  default = {
    asset     = "ETH"
    amount    = "0.75"
    reference = "payout-ada-2024-07"
  }
}
