# Tests of the money policies over plans that Terraform 1.15 made against
# the provider's emulator (policies/testdata; rewritten by
# go test ./internal/provider -run TestAccPolicies -update). The plans hold
# a root provider, an aliased one, a module, for_each instances, an action
# invocation, and a withdrawal whose ref_id the service already held.
package platform.money_test

import data.platform.money

known := data.testdata.policy_known

unknown := data.testdata.policy_unknown

test_within_allowed if {
	count(money.deny) == 0 with input as known
		with data.platform_policy as {"max_plan_total": {"BTC": "1.3"}, "max_per_transfer": {"btc": "0.5"}}
}

test_the_adopted_withdrawal_is_not_counted if {
	# 0.25 + 0.5 + 0.4 (alias) + 0.1 (module) + 0.05 (action); the 0.3 the
	# service already holds is recorded, not sent.
	money.total_units.BTC == money.units("1.3") with input as known
}

test_cap_split_across_two_aliases_denied if {
	msgs := money.deny with input as known with data.platform_policy as {"max_plan_total": {"BTC": "1.2"}}
	some m in msgs
	contains(m, "the plan sends 1.3 BTC in all")
}

test_per_transfer_cap_denied if {
	msgs := money.deny with input as known with data.platform_policy as {"max_per_transfer": {"BTC": "0.45"}}
	msgs == {`platform_crypto_withdrawal.payroll["b"]: sends 0.5 BTC, over max_per_transfer 0.45`}
}

test_unapproved_destination_denied if {
	msgs := money.deny with input as known with data.platform_policy as {"approved_destinations_only": true}
	some m in msgs
	startswith(m, `platform_crypto_withdrawal.payroll["b"]: destination bc1qpolicyb on BITCOIN is not an APPROVED`)
	some a in msgs
	startswith(a, "action.platform_crypto_withdrawal.bonus: destination bc1qpolicybonus")
	not any_mentions(msgs, `payroll["a"]`)
}

test_allow_list if {
	msgs := money.deny with input as known with data.platform_policy as {"allowed_destinations": [
		{"crypto_network": "BITCOIN", "address": "bc1qpolicya"},
		{"crypto_network": "BITCOIN", "address": "bc1qpolicyb"},
		{"crypto_network": "BITCOIN", "address": "bc1qpolicyops"},
		{"crypto_network": "BITCOIN", "address": "bc1qpolicytreasury"},
	]}
	msgs == {"action.platform_crypto_withdrawal.bonus: destination bc1qpolicybonus on BITCOIN is not in allowed_destinations"}
}

test_unknown_amount_denied if {
	msgs := money.deny with input as unknown with data.platform_policy as {"max_plan_total": {"BTC": "100"}}
	msgs == {"platform_crypto_withdrawal.ops: cannot be judged (unknown or unreadable: amount, sends); a policy refuses what it cannot judge"}
}

test_unknown_amount_denied_without_settings if {
	count(money.deny_unjudged) == 1 with input as unknown
}

test_decimals_exact if {
	money.units("0.1") + money.units("0.2") == money.units("0.3")
	money.from_units(money.units("86.2651")) == "86.2651"
	money.from_units(money.units("1")) == "1"
	not money.units("1e5")
	not money.units("0.1234567890123456789012345678901")
}

any_mentions(msgs, s) if {
	some m in msgs
	contains(m, s)
}

# Every money type counts: a fiat withdrawal (resource), an internal
# transfer and a stablecoin conversion (actions), by the asset that leaves.
flows := {
	"resource_changes": [{
		"address": "platform_fiat_withdrawal.payout",
		"type": "platform_fiat_withdrawal",
		"change": {
			"actions": ["create"],
			"after": {"money": {
				"kind": "fiat_withdrawal", "asset": "USD", "amount": "1250.5",
				"from_profile_id": "prof-1", "to": "fa-1", "ref_id": "r1", "sends": true,
			}},
			"after_unknown": {"money": {}},
		},
	}],
	"action_invocations": [
		{
			"address": "action.platform_internal_transfer.sweep",
			"type": "platform_internal_transfer",
			"config_values": {"from_profile_id": "prof-1", "to_profile_id": "prof-2", "asset": "USD", "amount": "500"},
			"config_unknown": {},
		},
		{
			"address": "action.platform_stablecoin_conversion.convert",
			"type": "platform_stablecoin_conversion",
			"config_values": {"profile_id": "prof-1", "source_asset": "USD", "target_asset": "USDC", "amount": "1000"},
			"config_unknown": {},
		},
	],
}

test_every_money_type_counts if {
	money.total_units.USD == money.units("2750.5") with input as flows
	msgs := money.deny with input as flows with data.platform_policy as {
		"max_plan_total": {"USD": "2000"},
		"approved_destinations_only": true,
	}
	msgs == {"the plan sends 2750.5 USD in all (every provider configuration, module, instance and action), over max_plan_total 2000"}
}

test_conversion_goes_to_its_own_profile if {
	some t in money.transfers with input as flows
	t.kind == "stablecoin_conversion"
	t.to == "prof-1"
}
