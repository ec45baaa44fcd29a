variable "funding_profiles" {
  description = "Profiles to fund by wire, by team: each gets its own deposit instructions."
  type        = map(string)
  default = {
    payroll  = "0b6f3c1a-52d4-4c9e-8a71-3f2e9d6b1c40"
    treasury = "7f0b5c1e-3a4d-4f8e-9b2a-1c6d8e0f4a21"
  }
}

variable "treasury_payout" {
  description = "The treasury withdrawal: where to, how much, and its business reference (used as ref_id)."
  type = object({
    reference   = string
    profile_id  = string
    address     = string
    asset       = string
    network     = string
    amount      = string
    approved_by = string
  })
  default = {
    reference   = "treasury-rebalance-2024-07-01"
    profile_id  = "7f0b5c1e-3a4d-4f8e-9b2a-1c6d8e0f4a21"
    address     = "0x9f8c3a1b2d4e5f60718293a4b5c6d7e8f9a0b1c2"
    asset       = "ETH"
    network     = "ETHEREUM"
    amount      = "2.5"
    approved_by = "cfo"
  }
}

variable "conversion_id" {
  description = "Id of a stablecoin conversion to report on (the emulator prints one as PLATFORM_DEMO_CONVERSION_ID)."
  type        = string
}

variable "deposit_profile_id" {
  description = "Only list the deposit addresses of this profile; null lists those of every profile."
  type        = string
  default     = null
}

variable "payout_group_id" {
  description = "Only report the reward claims of this payout group; null reports every group."
  type        = string
  default     = null
}

variable "market" {
  description = "Market to quote."
  type        = string
  default     = "ETHUSD"
}
