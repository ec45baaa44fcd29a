# METADATA
# title: Money moved by a Terraform plan of the platform provider
# description: |
#   Reads the plan JSON (terraform show -json), wherever the engine that runs
#   the policy puts it, and denies a plan whose money breaks the limits of
#   data.platform_policy, over every provider configuration, module,
#   for_each instance and action invocation of the plan. See
#   docs/guides/policy-on-plans.md.
package platform.money

# The policy's settings (a data document at data.platform_policy):
#
#   max_plan_total:   {"BTC": "1.5"}   per asset, the most the plan may send
#   max_per_transfer: {"BTC": "0.5"}   per asset, the most one transfer may send
#   allowed_destinations: [{"crypto_network": "BITCOIN", "address": "bc1q..."}]
#                                      destinations outside the list are denied
#   approved_destinations_only: true   destinations must be entries of
#                                      platform_crypto_destination_address that
#                                      the plan shows APPROVED
#   non_money_types:   ["platform_x"]  resource types of this provider that the
#   non_money_actions: ["platform_y"]  policy does not know, which you have
#                                      checked move no money: their creates and
#                                      invocations are allowed without a manifest
#
# What is judged is chosen by the manifest and by the provider, never by a
# list of types alone: every create of a resource of this provider that
# carries money is judged by its manifest, whatever its type; every
# invocation of an action of this provider is judged by money_actions. A
# create of a money type whose money is missing or null (a provider release
# from before the manifest, a type that forgot it), a manifest of a version
# this policy does not read, and a create or an invocation of a type or
# action of this provider that the policy does not know are denied
# (deny_unjudgeable): what the policy cannot judge, it refuses.
#
# Figures are decimal strings, compared exactly. Every rule fails closed: a
# transfer whose amount, asset or destination the plan does not know is
# denied (deny_unjudged), and one whose sends is unknown counts as sent.
default settings := {}

settings := data.platform_policy

# The versions of the money manifest (money.version) this policy reads.
manifest_versions := {1}

# This provider: its registry address, and the prefix of its type names
# (a mirror or a fork under another address keeps it).
provider_addresses := {"registry.terraform.io/platform/platform", "registry.opentofu.org/platform/platform"}

type_prefix := "platform_"

ours(x) if x.provider_name in provider_addresses

ours(x) if startswith(x.type, type_prefix)

# Where the plan is. Every engine hands the plan JSON (terraform show -json)
# to OPA in its own shape; the policy judges it wherever it is, and refuses
# an input in which it finds none, or more than one:
#
#   conftest, Atlantis, opa eval   the input is the plan
#   HCP Terraform, TFE, env0       input.plan
#   Scalr                          input.tfplan
#   Spacelift                      input.third_party_metadata.custom.platform_plan,
#                                  the file platform_plan.custom.spacelift.json
#                                  an after_plan hook writes: Spacelift's own
#                                  input.terraform holds no action invocations
#                                  and may hold sanitized values
plan_places contains {"where": "the input", "plan": input} if is_plan(input)

plan_places contains {"where": "input.plan", "plan": input.plan} if is_plan(input.plan)

plan_places contains {"where": "input.tfplan", "plan": input.tfplan} if is_plan(input.tfplan)

plan_places contains {"where": "input.third_party_metadata.custom.platform_plan", "plan": p} if {
	p := input.third_party_metadata.custom.platform_plan
	is_plan(p)
}

# is_plan: a plan JSON: its format_version, or its resource_changes.
is_plan(p) if {
	is_object(p)
	is_string(p.format_version)
}

is_plan(p) if {
	is_object(p)
	is_array(p.resource_changes)
}

# plan: the plan judged, when the input holds exactly one.
plan := only.plan if {
	count(plan_places) == 1
	some only in plan_places
}

# spacelift: the input of a Spacelift plan policy.
spacelift if {
	is_object(input.spacelift)
	is_object(input.terraform)
}

spacelift_export := "platform_plan.custom.spacelift.json"

deny_input contains msg if {
	count(plan_places) == 0
	not spacelift
	msg := "no Terraform plan in the policy's input: looked for the plan JSON (terraform show -json) as the input itself (conftest, opa eval, Atlantis), at input.plan (HCP Terraform, Terraform Enterprise, env0), at input.tfplan (Scalr) and at input.third_party_metadata.custom.platform_plan (Spacelift); a policy refuses what it cannot see"
}

deny_input contains msg if {
	count(plan_places) == 0
	spacelift
	msg := sprintf("Spacelift: no export of the plan at input.third_party_metadata.custom.platform_plan: the plan policy's input.terraform holds no action invocations and may hold sanitized values, so the policy cannot see what money the plan moves; add the after_plan hook `terraform show -json spacelift.plan > %s` to the stack", [spacelift_export])
}

deny_input contains msg if {
	count(plan_places) > 1
	msg := sprintf("more than one Terraform plan in the policy's input (%s): the policy cannot tell which one the run applies and refuses both", [
		concat(", ", sort([p.where | some p in plan_places])),
	])
}

# On Spacelift, every change of this provider that Spacelift itself shows
# must be in the export with the same actions: an export of another plan
# is refused.
deny_input contains msg if {
	spacelift
	plan
	some rc in input.terraform.resource_changes
	ours(rc)
	actions := object.get(object.get(rc, "change", {}), "actions", null)
	actions != ["no-op"]
	not exported_as(rc.address, actions)
	msg := sprintf("%s: Spacelift's plan %v it, and the export %s does not: the export is not of this run's plan; write it in an after_plan hook of the stack", [
		rc.address, actions, spacelift_export,
	])
}

exported_as(address, actions) if {
	some rc in plan.resource_changes
	rc.address == address
	rc.change.actions == actions
}

# Resource types of this provider that move money, by money.kind: each
# create of one must carry the manifest. (A Go test of the provider,
# TestPolicyKnowsEveryType, derives these tables from the provider's
# registry: a new type or action fails it until it is here.)
money_types := {
	"platform_crypto_withdrawal": "crypto_withdrawal",
	"platform_fiat_withdrawal": "fiat_withdrawal",
	"platform_internal_transfer": "internal_transfer",
	"platform_stablecoin_conversion": "stablecoin_conversion",
	"platform_orchestration_rule": "orchestration_rule",
}

# Kinds that move no figure now but route every future deposit to their
# destination (an orchestration rule): they have no amount, count toward no
# total, and their destination is judged as a withdrawal's.
standing_kinds := {"orchestration_rule"}

# Resource types of this provider that move no money.
non_money_types := {
	"platform_crypto_destination_address",
	"platform_deposit_address",
	"platform_fiat_account",
	"platform_fiat_deposit_instructions",
	"platform_profile",
}

# Actions of the provider that move money: the kind of each, and the
# arguments of its config that say what leaves (asset), and where it goes
# (to, then the fallback when to is not set).
money_actions := {
	"platform_crypto_withdrawal": {"kind": "crypto_withdrawal", "asset": "asset", "to": ["destination_address"]},
	"platform_fiat_withdrawal": {"kind": "fiat_withdrawal", "asset": "asset", "to": ["fiat_account_id"]},
	"platform_internal_transfer": {"kind": "internal_transfer", "asset": "asset", "to": ["to_profile_id"]},
	"platform_stablecoin_conversion": {
		"kind": "stablecoin_conversion", "asset": "source_asset",
		"to": ["recipient_profile_id", "profile_id"],
	},
}

# Actions of the provider that move no money out of a profile (a
# cancelled conversion gives back what it took).
non_money_actions := {"platform_stablecoin_conversion_cancel"}

# creates: the creates of resources of this provider in the plan (a new
# object or a replacement).
creates contains rc if {
	some rc in object.get(plan, "resource_changes", [])
	object.get(rc, "mode", "managed") == "managed"
	ours(rc)
	"create" in rc.change.actions
}

# carries_money: the create's manifest is there, known or not.
carries_money(rc) if is_object(object.get(object.get(rc.change, "after", {}), "money", null))

carries_money(rc) if object.get(object.get(rc.change, "after_unknown", {}), "money", false) == true

# invocations: the invocations of actions of this provider in the plan.
# Each is its own movement, even when it equals another but for what
# triggered it (a for_each of records, each triggering the action).
invocations contains ai if {
	some ai in object.get(plan, "action_invocations", [])
	ours(ai)
}

allowed_types := {t | some t in object.get(settings, "non_money_types", [])}

allowed_actions := {t | some t in object.get(settings, "non_money_actions", [])}

deny_unjudgeable contains msg if {
	some rc in object.get(plan, "resource_changes", [])
	ours(rc)
	not is_array(object.get(object.get(rc, "change", {}), "actions", null))
	msg := sprintf("%s: a change of the platform provider whose actions the plan does not show: the policy cannot judge it and refuses it", [
		object.get(rc, "address", "(a change without an address)"),
	])
}

deny_unjudgeable contains msg if {
	some rc in creates
	money_types[rc.type]
	not carries_money(rc)
	msg := sprintf("%s: a create of %s, which moves money, without its money manifest (money is missing or null): the policy cannot judge it and refuses it; plan it with a release of the provider that sets money (0.2.0 or later)", [
		rc.address, rc.type,
	])
}

deny_unjudgeable contains msg if {
	some rc in creates
	not money_types[rc.type]
	not rc.type in non_money_types
	not rc.type in allowed_types
	not carries_money(rc)
	msg := sprintf(`%s: a create of %s, a type of the platform provider this policy does not know, without a money manifest: the policy cannot judge whether it moves money and refuses it; use the policy of the provider's release, or, if you have checked that %s moves no money, allow it with "non_money_types": ["%s"] in data.platform_policy`, [
		rc.address, rc.type, rc.type, rc.type,
	])
}

deny_unjudgeable contains msg if {
	some ai in invocations
	not money_actions[ai.type]
	not ai.type in non_money_actions
	not ai.type in allowed_actions
	msg := sprintf(`%s: an invocation of %s, an action of the platform provider this policy does not know: the policy cannot judge whether it moves money and refuses it; use the policy of the provider's release, or, if you have checked that %s moves no money, allow it with "non_money_actions": ["%s"] in data.platform_policy`, [
		ai.address, ai.type, ai.type, ai.type,
	])
}

# transfers: every transfer the plan may send, as
# {address, kind, asset, amount, to, network, sends, unknown}, where unknown
# names the parts the plan does not know.
transfers contains t if {
	some rc in creates
	carries_money(rc)
	money := money_of(rc)
	unknown_money := object.get(object.get(rc.change, "after_unknown", {}), "money", false)
	t := {
		"address": rc.address,
		"kind": object.get(money, "kind", rc.type),
		"asset": object.get(money, "asset", null),
		"amount": object.get(money, "amount", null),
		"to": object.get(money, "to", null),
		"network": network_of(object.get(rc.change, "after", {})),
		"sends": object.get(money, "sends", null),
		"version": object.get(money, "version", null),
		"unknown": unknown_parts(money, unknown_money) - figure_parts(money),
	}
}

# network_of: the network of the destination address of a create: a crypto
# withdrawal's crypto_network, a rule's destination.crypto.network; null
# when it goes to no address.
network_of(after) := after.crypto_network if is_string(object.get(after, "crypto_network", null))

else := n if {
	n := object.get(after, ["destination", "crypto", "network"], null)
	is_string(n)
}

else := null

# figure_parts: the parts a standing kind does not have (it routes future
# deposits, whatever their amount).
figure_parts(money) := {"amount"} if object.get(money, "kind", null) in standing_kinds

else := set()

# money_of: the create's manifest, {} when the plan knows none of it.
money_of(rc) := m if {
	m := object.get(object.get(rc.change, "after", {}), "money", null)
	is_object(m)
} else := {}

# An invocation's transfer: every invocation counts, each by its place in
# the plan, except one that equals an earlier invocation of the same
# action, ref_id included: the service makes a ref_id of a kind once.
transfers contains t if {
	some place, ai in object.get(plan, "action_invocations", [])
	ours(ai)
	a := money_actions[ai.type]
	not made_before(place, ai)
	cfg := object.get(ai, "config_values", {})
	cu := object.get(ai, "config_unknown", {})
	t := {
		"address": invocation_address(ai),
		"place": place,
		"kind": a.kind,
		"asset": object.get(cfg, a.asset, null),
		"amount": action_amount(cfg),
		"to": action_to(cfg, a.to),
		"network": object.get(cfg, "crypto_network", null),
		"sends": true,
		"version": "action",
		"unknown": {p | some p in ["asset", "amount", "to"]; action_unknown(cu, a, p)},
	}
}

# made_before: an earlier invocation of the same action has the same
# configuration and a known ref_id: the service makes that movement once.
made_before(place, ai) if {
	ref := object.get(ai.config_values, "ref_id", null)
	is_string(ref)
	ref != ""
	not object.get(object.get(ai, "config_unknown", {}), "ref_id", false)
	some earlier, other in plan.action_invocations
	earlier < place
	other.type == ai.type
	object.get(other, "provider_name", null) == object.get(ai, "provider_name", null)
	other.config_values == ai.config_values
	object.get(other, "config_unknown", {}) == object.get(ai, "config_unknown", {})
}

# invocation_address: the action's address and what triggers it.
invocation_address(ai) := sprintf("%s (%s of %s)", [ai.address, trigger.action_trigger_event, trigger.triggering_resource_address]) if {
	trigger := ai.lifecycle_action_trigger
	is_string(trigger.triggering_resource_address)
	is_string(trigger.action_trigger_event)
} else := ai.address

action_amount(cfg) := cfg.amount if object.get(cfg, "amount", null) != null

else := object.get(cfg, "total", null)

# action_to: the first of the arguments names that the config sets.
action_to(cfg, names) := object.get(cfg, names[0], null) if object.get(cfg, names[0], null) != null

else := object.get(cfg, names[1], null) if count(names) > 1

else := null

action_unknown(cu, a, "asset") if cu[a.asset] == true
action_unknown(cu, a, "to") if cu[a.to[0]] == true
action_unknown(cu, _, "amount") if cu.amount == true
action_unknown(cu, _, "amount") if cu.total == true

# unknown_parts: the parts of a manifest the plan does not know.
unknown_parts(_, true) := {"asset", "amount", "to", "sends"}

unknown_parts(money, u) := {p |
	some p in ["asset", "amount", "to", "sends"]
	part_unknown(money, u, p)
} if u != true

part_unknown(_, u, p) if {
	is_object(u)
	u[p] == true
}

part_unknown(money, _, p) if object.get(money, p, null) == null

# sent: the transfers the apply sends (or may send: sends unknown).
sent contains t if {
	some t in transfers
	t.sends != false
}

# units is a decimal string as an integer of 10^-30 units, exact in OPA's
# integer arithmetic; undefined when it is not a plain decimal of at most 30
# decimals.
units(s) := n if {
	is_string(s)
	regex.match(`^[0-9]{1,34}(\.[0-9]{1,30})?$`, s)
	parts := array.concat(split(s, "."), [""])
	frac := parts[1]
	padded := concat("", [frac, substring("000000000000000000000000000000", 0, 30 - count(frac))])
	n := to_number(concat("", [parts[0], padded]))
}

# judged: a transfer whose figures the policies can read: an invocation
# (read from its config by money_actions), or a manifest of a version the
# policy reads.
judged(t) if {
	count(t.unknown) == 0
	figure_readable(t)
	is_string(t.asset)
	is_string(t.to)
	readable_version(t.version)
}

readable_version("action")

figure_readable(t) if units(t.amount)

figure_readable(t) if t.kind in standing_kinds

readable_version(v) if v in manifest_versions

deny_unjudged contains msg if {
	some t in sent
	not judged(t)
	msg := sprintf("%s: cannot be judged (unknown or unreadable: %s); a policy refuses what it cannot judge%s", [
		t.address, concat(", ", sort(unjudged_parts(t))), version_hint(t.version),
	])
}

unjudged_parts(t) := t.unknown if count(t.unknown) > 0

else := {p | some p in ["amount", "asset", "to", "version"]; unreadable(t, p)}

unreadable(t, "amount") if not figure_readable(t)

unreadable(t, "asset") if not is_string(t.asset)

unreadable(t, "to") if not is_string(t.to)

unreadable(t, "version") if not readable_version(t.version)

version_hint(v) := "" if readable_version(v)

else := sprintf(" (money.version %v; this policy reads the versions %v: use the policy of the provider's release)", [
	v, sort(manifest_versions),
])

# The plan's total by asset, in units, over every judged transfer it sends.
total_units[asset] := sum([units(t.amount) | some t in sent; judged(t); upper(t.asset) == asset]) if {
	some t in sent
	judged(t)
	asset := upper(t.asset)
}

deny_plan_total contains msg if {
	some asset, cap in object.get(settings, "max_plan_total", {})
	total := total_units[upper(asset)]
	total > units(cap)
	msg := sprintf("the plan sends %s %s in all (every provider configuration, module, instance and action), over max_plan_total %s", [
		from_units(total), upper(asset), cap,
	])
}

deny_per_transfer contains msg if {
	some t in sent
	judged(t)
	some asset, cap in object.get(settings, "max_per_transfer", {})
	upper(asset) == upper(t.asset)
	units(t.amount) > units(cap)
	msg := sprintf("%s: sends %s %s, over max_per_transfer %s", [t.address, t.amount, t.asset, cap])
}

# The destination rules judge what leaves to an address: crypto
# withdrawals, and orchestration rules whose destination is an address
# (every deposit they route goes there). The other kinds, and rules to a
# fiat account or a profile, go to a bank account of the customer's or
# stay within its profiles.
to_address(t) if t.kind == "crypto_withdrawal"

to_address(t) if {
	t.kind == "orchestration_rule"
	is_string(t.network)
}

deny_destination contains msg if {
	allowed := object.get(settings, "allowed_destinations", null)
	is_array(allowed)
	some t in sent
	to_address(t)
	judged(t)
	not destination_in(t, allowed)
	msg := sprintf("%s: destination %s on %v is not in allowed_destinations", [t.address, t.to, t.network])
}

destination_in(t, list) if {
	some d in list
	d.address == t.to
	d.crypto_network == t.network
}

deny_destination contains msg if {
	object.get(settings, "approved_destinations_only", false) == true
	some t in sent
	to_address(t)
	judged(t)
	not destination_in(t, approved_in_plan)
	msg := sprintf("%s: destination %s on %v is not an APPROVED platform_crypto_destination_address of this plan", [
		t.address, t.to, t.network,
	])
}

# approved_in_plan: the address book entries the plan shows APPROVED (in
# the state it starts from, and unchanged or updated by it).
approved_in_plan contains {"address": r.values.address, "crypto_network": r.values.crypto_network} if {
	some r in resources(object.get(plan, "prior_state", {}))
	r.type == "platform_crypto_destination_address"
	r.values.status == "APPROVED"
}

resources(state) := [r |
	some path, v in walk(state)
	is_object(v)
	v.mode == "managed"
	r := v
]

# from_units is units as a decimal string.
from_units(n) := decimal_of(digits) if {
	raw := sprintf("%v", [n])
	digits := concat("", [substring("0000000000000000000000000000000", 0, max([0, 31 - count(raw)])), raw])
}

decimal_of(digits) := whole if {
	frac := trim_right(substring(digits, count(digits) - 30, 30), "0")
	frac == ""
	whole := substring(digits, 0, count(digits) - 30)
} else := concat(".", [
	substring(digits, 0, count(digits) - 30),
	trim_right(substring(digits, count(digits) - 30, 30), "0"),
])

# reasons: every reason to refuse the plan.
reasons := ((((deny_input | deny_unjudgeable) | deny_unjudged) | deny_plan_total) | deny_per_transfer) | deny_destination

# deny: the reasons, as a set rule that merges with other deny rules of a
# package (an engine's entry, or a bundle of this policy).
deny contains msg if some msg in reasons
