# Tests of the money policy on every engine that runs it, over plans that
# Terraform 1.11, Terraform 1.15 (with actions) and OpenTofu 1.12 made
# against the provider's emulator (policies/testdata/engines/<cli>/<plan>;
# rewritten by go test ./internal/provider -run TestAccPolicies_everyEngine
# -update under each CLI), each handed over in the shape its engine's
# documentation gives, and judged by the rule that engine reads.
package platform.engines_test

import data.platform.money

plans := data.testdata.engines

one_btc := {"max_per_transfer": {"BTC": "1"}, "max_plan_total": {"BTC": "1"}}

half_btc_total := {"max_per_transfer": {"BTC": "1"}, "max_plan_total": {"BTC": "0.5"}}

# The plans, the settings each is judged by, and what every engine must
# say of it: denied with these reasons, or not denied.
expected := {
	"half": {"settings": one_btc, "denied": []},
	"five": {"settings": one_btc, "denied": [
		"platform_crypto_withdrawal.payout: sends 5 BTC, over max_per_transfer 1",
		"the plan sends 5 BTC in all (every provider configuration, module, instance and action), over max_plan_total 1",
	]},
	"half_and_action_five": {"settings": one_btc, "denied": [
		`action.platform_crypto_withdrawal.bonus (AfterCreate of terraform_data.records["payday"]): sends 5 BTC, over max_per_transfer 1`,
		"the plan sends 5.5 BTC in all (every provider configuration, module, instance and action), over max_plan_total 1",
	]},
	"three_records": {"settings": half_btc_total, "denied": ["the plan sends 1.2 BTC in all (every provider configuration, module, instance and action), over max_plan_total 0.5"]},
	"one_record": {"settings": half_btc_total, "denied": []},
}

engines := {"opa", "conftest", "hcp", "scalr", "env0", "spacelift"}

# wrap: the input each engine gives the policy around a plan.
wrap("opa", p) := p

wrap("conftest", p) := p

wrap("hcp", p) := {"plan": p, "run": {"id": "run-CZcmD7eagjhyX0vN", "is_destroy": false, "organization": {"name": "treasury"}}}

wrap("scalr", p) := {"tfplan": p, "tfrun": {"is_destroy": false, "source": "vcs", "workspace": {"name": "payroll"}}}

wrap("env0", p) := {"plan": p, "deploymentRequest": {"type": "deploy", "triggerName": "user"}, "approvers": []}

wrap("spacelift", p) := object.union(spacelift_seen(p), {"third_party_metadata": {"custom": {"platform_plan": p}}})

# spacelift_seen: what Spacelift itself gives a plan policy: a subset of
# each change, and no action invocations.
spacelift_seen(p) := {
	"spacelift": {"run": {"type": "PROPOSED"}, "stack": {"id": "payroll"}},
	"terraform": {
		"terraform_version": p.terraform_version,
		"resource_changes": [{
			"address": rc.address, "type": rc.type, "name": rc.name, "provider_name": rc.provider_name,
			"change": {"actions": rc.change.actions, "before": rc.change.before, "after": rc.change.after},
		} |
			some rc in p.resource_changes
		],
	},
}

# deny_on: the rule each engine reads, with the settings where its entry
# keeps them (a data document, or the bundle's own rule).
deny_on("opa", inp, s) := d if {
	d := money.deny with input as inp with data.platform_policy as s
}

deny_on("conftest", inp, s) := d if {
	d := data.main.deny with input as inp with data.platform_policy as s
}

deny_on("hcp", inp, s) := d if {
	d := data.terraform.platform_money.deny with input as inp with data.platform_policy as s
}

deny_on("scalr", inp, s) := d if {
	d := data.terraform.deny with input as inp with data.terraform.platform_policy as s
}

deny_on("env0", inp, s) := d if {
	d := data.env0.deny with input as inp with data.platform_policy as s
}

deny_on("spacelift", inp, s) := d if {
	d := data.spacelift.deny with input as inp with data.spacelift.platform_policy as s
}

as_expected(engine, p, want) if {
	got := deny_on(engine, wrap(engine, p), want.settings)
	count(want.denied) == 0
	count(got) == 0
}

as_expected(engine, p, want) if {
	got := deny_on(engine, wrap(engine, p), want.settings)
	count(want.denied) > 0
	every reason in want.denied {
		reason in got
	}
}

test_every_engine_judges_every_plan if {
	failures := {sprintf("%s %s on %s", [cli, name, engine]) |
		some cli, by_name in plans
		some name, p in by_name
		some engine in engines
		not as_expected(engine, p, expected[name])
	}
	print(failures)
	count(failures) == 0
}

test_every_plan_is_there if {
	count(plans.terraform_1_15) == count(expected)
	count(plans.terraform_1_11) == 2
	count(plans.opentofu_1_12) == 2
}

# An input in which no plan is found is denied, on every engine.
no_plan := {
	"opa": {},
	"conftest": {},
	"hcp": {"run": {"id": "run-CZcmD7eagjhyX0vN"}},
	"scalr": {"tfrun": {"source": "vcs"}},
	"env0": {"deploymentRequest": {"type": "deploy"}, "approvers": []},
}

test_no_plan_denied_everywhere if {
	every engine, inp in no_plan {
		some reason in deny_on(engine, inp, one_btc)
		startswith(reason, "no Terraform plan in the policy's input")
	}
}

test_spacelift_without_its_export_denied if {
	p := plans.terraform_1_15.half
	some reason in deny_on("spacelift", spacelift_seen(p), one_btc)
	contains(reason, "platform_plan.custom.spacelift.json")
	count(deny_on("spacelift", wrap("spacelift", p), one_btc)) == 0
}

test_spacelift_export_of_another_plan_denied if {
	seen := spacelift_seen(plans.terraform_1_15.five)
	inp := object.union(seen, {"third_party_metadata": {"custom": {"platform_plan": plans.terraform_1_15.one_record}}})
	some reason in deny_on("spacelift", inp, one_btc)
	contains(reason, "platform_crypto_withdrawal.payout: Spacelift's plan")
}

test_two_plans_denied if {
	p := plans.terraform_1_15.half
	some reason in deny_on("opa", {"plan": p, "tfplan": p}, one_btc)
	startswith(reason, "more than one Terraform plan in the policy's input (input.plan, input.tfplan)")
}

# Every invocation counts: three invocations that differ only by their
# trigger are three withdrawals; invocations of one ref_id and one
# configuration are one, as the service makes a ref_id once.
test_each_invocation_counts if {
	money.total_units.BTC == money.units("1.2") with input as plans.terraform_1_15.three_records
	money.total_units.BTC == money.units("0.4") with input as plans.terraform_1_15.one_record
}

test_invocations_of_one_ref_id_count_once if {
	p := plans.terraform_1_15.three_records
	with_ref := [object.union(ai, {"config_values": {"ref_id": "bonus-2026-11"}}) | some ai in p.action_invocations]
	money.total_units.BTC == money.units("0.4") with input as object.union(p, {"action_invocations": with_ref})
}

test_invocations_of_one_ref_id_but_other_amounts_count_each if {
	p := plans.terraform_1_15.three_records
	with_ref := [object.union(ai, {"config_values": {"ref_id": "bonus-2026-11", "amount": sprintf("0.%d", [i + 1])}}) |
		some i, ai in p.action_invocations
	]
	money.total_units.BTC == money.units("0.6") with input as object.union(p, {"action_invocations": with_ref})
}

# A change without after_unknown (as Spacelift's subset has none) never
# makes an unknown amount known or zero.
test_missing_after_unknown_is_not_known if {
	inp := json.patch(plans.terraform_1_15.five, [
		{"op": "remove", "path": "/resource_changes/0/change/after/money/amount"},
		{"op": "remove", "path": "/resource_changes/0/change/after_unknown"},
	])
	some reason in money.deny with input as inp with data.platform_policy as one_btc
	reason == "platform_crypto_withdrawal.payout: cannot be judged (unknown or unreadable: amount); a policy refuses what it cannot judge"
}

test_change_without_actions_denied if {
	inp := json.patch(plans.terraform_1_15.half, [{"op": "remove", "path": "/resource_changes/0/change/actions"}])
	some reason in money.deny with input as inp
	reason == "platform_crypto_withdrawal.payout: a change of the platform provider whose actions the plan does not show: the policy cannot judge it and refuses it"
}
