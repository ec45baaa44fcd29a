package main

// purposes is the one line README.md gives each type, by its block
// ("resource platform_profile"). make generate refuses a registered type
// without one, and a line for a type the provider no longer registers; a
// list resource needs none (they all do one thing, said once).
var purposes = map[string]string{
	// Resources.
	"resource platform_crypto_destination_address": "An entry of the withdrawal address book, with its Travel Rule data; `status` follows the service's review (PENDING, APPROVED, REJECTED); an address already in the book is imported, never taken over; destroy only forgets.",
	"resource platform_crypto_withdrawal":          "Sends one crypto withdrawal when created; a change sends a **new** withdrawal and destroy never reverses one.",
	"resource platform_deposit_address":            "Creates a crypto deposit address for a profile; `address` and `compatible_crypto_networks` are known after apply; every change makes a new address, destroy only forgets (the address keeps receiving deposits).",
	"resource platform_fiat_account":               "A bank account the profile withdraws to; account numbers are sensitive, an update sends it back to PENDING review, destroy deletes it.",
	"resource platform_fiat_deposit_instructions":  "Creates wire (or other fiat network) instructions for funding a profile; every change makes a new set, destroy only forgets.",
	"resource platform_fiat_withdrawal":            "Sends one payout to an APPROVED bank account when created; a change sends a **new** one and destroy never reverses one.",
	"resource platform_internal_transfer":          "Moves an asset between two profiles once, when created; its debit and credit sides are read back; destroy only forgets.",
	"resource platform_orchestration_rule":         "A standing instruction: every deposit of an asset to the rule's source is converted and sent to its destination (an address, a bank account or a profile), which the plan shows before the rule exists; destroy deletes it.",
	"resource platform_profile":                    "A profile, the set of balances every movement is on; a nickname another profile has is refused at plan; destroy deactivates it, which the plan refuses while it holds a balance.",
	"resource platform_stablecoin_conversion":      "Converts between USD and a stablecoin once, when created; destroy only forgets (cancelling is the action `platform_stablecoin_conversion_cancel`).",

	// Data sources.
	"data platform_crypto_destination_addresses": "Lists the withdrawal address book, filtered by network, address, nickname, identity, bookmark and creation time.",
	"data platform_deposit_addresses":            "Lists crypto deposit addresses, filtered by profile, network, ids and more.",
	"data platform_fiat_accounts":                "Lists the customer's fiat (bank) accounts, with filters.",
	"data platform_fiat_deposit_instructions":    "Reads one set of fiat deposit instructions by id.",
	"data platform_order_book":                   "Takes one snapshot of a market's order book (to a depth) from the WebSocket stream, with spread and mid price.",
	"data platform_profile_balances":             "Reads a profile's balances by asset, as exact decimal strings.",
	"data platform_reward_claims":                "Lists reward claim transactions, filtered by payout group, on-chain status, chain and time.",
	"data platform_stablecoin_conversion":        "Reads one stablecoin conversion by id.",
	"data platform_top_of_book":                  "Takes one snapshot of a market's best bid and best ask from the WebSocket stream.",
	"data platform_transfer":                     "Reads one transfer (a withdrawal's status and on-chain hash, a deposit, ...) by id or by ref_id.",
	"data platform_transfer_limits":              "Lists the service's transfer limits of one transfer type and what remains of each.",
	"data platform_transfers":                    "Lists transfers, filtered by type, status, profile, ref_id, hash, creation and update time.",

	// Ephemeral resources.
	"ephemeral platform_access_token": "An access token for chosen scopes, for other tools in the run; never stored in state or plan.",

	// Actions.
	"action platform_crypto_withdrawal":            "Sends one crypto withdrawal each time it is invoked, without a resource in state, under the same guards as the resource.",
	"action platform_fiat_withdrawal":              "Sends one payout to a bank account each time it is invoked, without a resource in state, under the same guards as the resource.",
	"action platform_internal_transfer":            "Moves an asset between two profiles each time it is invoked, without a resource in state, under the same guards as the resource.",
	"action platform_stablecoin_conversion":        "Makes one stablecoin conversion each time it is invoked, without a resource in state, under the same guards as the resource.",
	"action platform_stablecoin_conversion_cancel": "Cancels a stablecoin conversion that has not settled.",
}
