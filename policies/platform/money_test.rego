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
	startswith(m, `platform_crypto_withdrawal.payroll["b"]: destination bc1qszx64wk3y7n7ysy8z29ldwuvz9f9r9qr9gfvsd on BITCOIN is not an APPROVED`)
	some a in msgs
	startswith(a, "action.platform_crypto_withdrawal.bonus (AfterCreate of terraform_data.payday): destination bc1qfmpweveprqulkztrcmnad2kzdcfe3sksmmctd9")
	not any_mentions(msgs, `payroll["a"]`)
}

test_allow_list if {
	msgs := money.deny with input as known with data.platform_policy as {"allowed_destinations": [
		{"crypto_network": "BITCOIN", "address": "bc1qynuh5zzze09a3kdl2jvurypczq4yqprzah2xt2"},
		{"crypto_network": "BITCOIN", "address": "bc1qszx64wk3y7n7ysy8z29ldwuvz9f9r9qr9gfvsd"},
		{"crypto_network": "BITCOIN", "address": "bc1qq5jmdarwqswfemh74ns43jqrs3kq5jwnj2rkpu"},
		{"crypto_network": "BITCOIN", "address": "bc1qpwhhuz6xqcl6lm5rw47rpg9jxhjq27e9tamm76"},
	]}
	msgs == {"action.platform_crypto_withdrawal.bonus (AfterCreate of terraform_data.payday): destination bc1qfmpweveprqulkztrcmnad2kzdcfe3sksmmctd9 on BITCOIN is not in allowed_destinations"}
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
				"version": 1, "kind": "fiat_withdrawal", "asset": "USD", "amount": "1250.5",
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

# What the policy judges is chosen by the manifest and the provider: a plan
# of one withdrawal of amount BTC as the provider plans it, and the ways a
# plan could hide it, under a cap of 1 BTC.
withdrawal_plan(amount) := {"resource_changes": [{
	"address": "platform_crypto_withdrawal.big",
	"mode": "managed",
	"type": "platform_crypto_withdrawal",
	"provider_name": "registry.terraform.io/platform/platform",
	"change": {
		"actions": ["create"],
		"after": {"crypto_network": "BITCOIN", "money": {
			"version": 1, "kind": "crypto_withdrawal", "asset": "BTC", "amount": amount,
			"from_profile_id": "prof-1", "to": "bc1qbig", "ref_id": "big", "sends": true,
		}},
		"after_unknown": {"money": {}},
	},
}]}

one_btc := {"max_per_transfer": {"BTC": "1"}, "max_plan_total": {"BTC": "1"}}

deny_five_btc(plan) := msgs if {
	msgs := money.deny with input as plan with data.platform_policy as one_btc
}

test_five_btc_denied if {
	msgs := deny_five_btc(withdrawal_plan("5"))
	msgs["platform_crypto_withdrawal.big: sends 5 BTC, over max_per_transfer 1"]
}

test_half_btc_allowed if {
	count(deny_five_btc(withdrawal_plan("0.5"))) == 0
}

test_money_removed_denied if {
	plan := json.patch(withdrawal_plan("5"), [
		{"op": "remove", "path": "/resource_changes/0/change/after/money"},
		{"op": "remove", "path": "/resource_changes/0/change/after_unknown/money"},
	])
	msgs := deny_five_btc(plan)
	msgs == {"platform_crypto_withdrawal.big: a create of platform_crypto_withdrawal, which moves money, without its money manifest (money is missing or null): the policy cannot judge it and refuses it; plan it with a release of the provider that sets money (0.2.0 or later)"}
}

test_money_null_denied if {
	plan := json.patch(withdrawal_plan("5"), [{"op": "replace", "path": "/resource_changes/0/change/after/money", "value": null}])
	some m in deny_five_btc(plan)
	contains(m, "without its money manifest (money is missing or null)")
}

test_unknown_type_judged_by_its_manifest if {
	plan := json.patch(withdrawal_plan("5"), [{"op": "replace", "path": "/resource_changes/0/type", "value": "platform_crypto_payout"}])
	some m in deny_five_btc(plan)
	contains(m, "sends 5 BTC, over max_per_transfer 1")
}

test_unknown_type_without_money_denied if {
	plan := json.patch(withdrawal_plan("5"), [
		{"op": "replace", "path": "/resource_changes/0/type", "value": "platform_crypto_payout"},
		{"op": "remove", "path": "/resource_changes/0/change/after/money"},
	])
	some m in deny_five_btc(plan)
	contains(m, "a create of platform_crypto_payout, a type of the platform provider this policy does not know")
	contains(m, `allow it with "non_money_types": ["platform_crypto_payout"] in data.platform_policy`)
}

test_unknown_type_allowed_explicitly if {
	plan := json.patch(withdrawal_plan("5"), [
		{"op": "replace", "path": "/resource_changes/0/type", "value": "platform_profile"},
		{"op": "remove", "path": "/resource_changes/0/change/after/money"},
	])
	count(money.deny) == 0 with input as plan with data.platform_policy as {"non_money_types": ["platform_profile"]}
}

test_a_known_money_type_cannot_be_allowed_without_money if {
	plan := json.patch(withdrawal_plan("5"), [{"op": "remove", "path": "/resource_changes/0/change/after/money"}])
	count(money.deny) == 1 with input as plan
		with data.platform_policy as {"non_money_types": ["platform_crypto_withdrawal"]}
}

unknown_action := {"format_version": "1.2", "action_invocations": [{
	"address": "action.platform_crypto_withdrawal_batch.all",
	"type": "platform_crypto_withdrawal_batch",
	"provider_name": "registry.terraform.io/platform/platform",
	"config_values": {"profile_id": "prof-1", "asset": "BTC", "amount": "5"},
	"config_unknown": {},
}]}

test_unknown_action_denied if {
	msgs := deny_five_btc(unknown_action)
	some m in msgs
	startswith(m, "action.platform_crypto_withdrawal_batch.all: an invocation of platform_crypto_withdrawal_batch, an action of the platform provider this policy does not know")
	contains(m, `"non_money_actions": ["platform_crypto_withdrawal_batch"]`)
	count(money.deny) == 0 with input as unknown_action
		with data.platform_policy as {"non_money_actions": ["platform_crypto_withdrawal_batch"]}
}

test_manifest_of_another_version_denied if {
	plan := json.patch(withdrawal_plan("0.5"), [{"op": "replace", "path": "/resource_changes/0/change/after/money/version", "value": 2}])
	msgs := deny_five_btc(plan)
	msgs == {"platform_crypto_withdrawal.big: cannot be judged (unknown or unreadable: version); a policy refuses what it cannot judge (money.version 2; this policy reads the versions [1]: use the policy of the provider's release)"}
}

test_other_providers_are_not_judged if {
	plan := {"resource_changes": [{
		"address": "aws_instance.web", "mode": "managed", "type": "aws_instance",
		"provider_name": "registry.terraform.io/hashicorp/aws",
		"change": {"actions": ["create"], "after": {}, "after_unknown": {}},
	}]}
	count(deny_five_btc(plan)) == 0
}
