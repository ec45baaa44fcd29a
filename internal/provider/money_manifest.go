package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// The money manifest: every money-moving resource states, as data known at
// plan, what money it moves (the computed attribute money), so that a
// policy over the plan JSON (terraform show -json) can judge the whole
// plan: every provider configuration, module, for_each instance and
// action. The policies under policies/ read it.

// moneyAttribute is the name of the manifest's attribute.
const moneyAttribute = "money"

// movementKinds are the kinds of money movement (money.kind), each
// registered by the file of the type that moves it (movementKind).
var movementKinds []registeredKind

// registeredKind is a kind of money movement and what the description of
// money.kind says of it ("" when its name says enough).
type registeredKind struct{ name, note string }

// movementKind registers the kind name of money movement, with what the
// description of money.kind says of it (note, "" for nothing), and
// returns name.
func movementKind(name, note string) string {
	movementKinds = append(movementKinds, registeredKind{name, note})
	return name
}

// kindDescription is the description of money.kind: every registered
// kind, those without a note first, each group by name.
func kindDescription() string {
	kinds := slices.Clone(movementKinds)
	slices.SortFunc(kinds, func(a, b registeredKind) int {
		if (a.note == "") != (b.note == "") {
			if a.note == "" {
				return -1
			}
			return 1
		}
		return strings.Compare(a.name, b.name)
	})
	var b strings.Builder
	b.WriteString("The kind of money movement: ")
	for i, k := range kinds {
		switch {
		case i == len(kinds)-1 && i > 0:
			b.WriteString(" or ")
		case i > 0:
			b.WriteString(", ")
		}
		b.WriteString("`" + k.name + "`")
		if k.note != "" {
			b.WriteString(" (" + k.note + ")")
		}
	}
	return b.String() + "."
}

// moneyVersion is money.version, the version of the manifest's schema,
// which the shipped policy checks (policies/platform/money.rego,
// manifest_versions). A change of what a field means, or a field a policy
// must read to judge a movement, takes the next version.
const moneyVersion = 1

// moneyAttrTypes are the types of the manifest's fields.
var moneyAttrTypes = map[string]attr.Type{
	"version":         types.Int64Type,
	"kind":            types.StringType,
	"asset":           types.StringType,
	"amount":          types.StringType,
	"from_profile_id": types.StringType,
	"to":              types.StringType,
	"ref_id":          types.StringType,
	"sends":           types.BoolType,
	"summary":         types.StringType,
}

// moneySchema is the manifest's attribute of a money-moving resource.
func moneySchema() schema.SingleNestedAttribute {
	str := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	return schema.SingleNestedAttribute{
		Computed: true,
		MarkdownDescription: "What money this resource moves, as data known at plan for policies over the plan " +
			"(`terraform show -json`): see the guide \"Policy on plans\". Set when the plan creates the object (a " +
			"new one or a replacement) and kept in the state as that plan saw it; null for an object imported " +
			"or created by an earlier version. A part is unknown only when what it comes from is known only at " +
			"apply.",
		Attributes: map[string]schema.Attribute{
			"version": schema.Int64Attribute{Computed: true, MarkdownDescription: fmt.Sprintf("The version of the "+
				"manifest's schema, `%d`: a policy reads the manifests of the versions it knows and refuses the others "+
				"(null in a state written before it was set).", moneyVersion)},
			"kind":  str(kindDescription()),
			"asset": str("The asset that leaves the profile, as configured (a conversion's `source_asset`)."),
			"amount": str("The exact decimal string the service receives as the amount: the `amount`, or the `total` " +
				"when a withdrawal sets `total`; null for an orchestration rule, which routes every deposit whatever its " +
				"amount."),
			"from_profile_id": str("The profile the money leaves."),
			"to": str("Where it goes: the destination address of a crypto withdrawal, the fiat account id of a fiat " +
				"withdrawal, the receiving profile of an internal transfer or of a conversion (its " +
				"`recipient_profile_id`, or its own profile), the destination of an orchestration rule (an address, a " +
				"fiat account id or a profile id; its own profile when it has none)."),
			"ref_id": str("The `ref_id` the transfer is sent with."),
			"sends": schema.BoolAttribute{Computed: true, MarkdownDescription: "`true` when applying the plan " +
				"sends the transfer; `false` when the plan found the `ref_id` already at the service and the apply " +
				"records the existing transfer, sending nothing. `true` also when the plan could not ask the " +
				"service (it warns then, and the apply decides by the same rule): a policy counts it as sent. " +
				"Unknown only while the `ref_id` is (an argument known only at apply). For an orchestration rule, " +
				"`true` means that applying creates the rule, which routes every future deposit."},
			"summary": str("One line for a reviewer: what applying does (`sends ...`; `records, sends nothing: ...` " +
				"when the plan found the `ref_id` at the service and `sends` is `false`; `makes` for a conversion, " +
				"`creates` for an orchestration rule), what moves, where and from where, with the `ref_id` it is " +
				"sent with, and what destroying the resource does, e.g. `sends 0.3 BTC on BITCOIN to bc1q... from " +
				"profile 8c5f..., ref_id 9a1e...; destroying it reverses nothing`. A fiat account is named after its " +
				"id by what the service lists of it (read once per plan for all the plan's accounts): its bank, the " +
				"last four digits of its account number, its metadata `nickname`, its `ref_id` unless that is a " +
				"UUID, as in `to fiat account bb17... (Example Bank, account ending 6789, ref_id payroll-ada)`; or " +
				"why nothing is shown (`not listed by the service`, `not read: the credentials lack the OAuth scope " +
				"...`): a plan never fails for want of a name. It changes with any of its parts, so the diff of " +
				"every create and every replacement shows it, and the diff of a destroy (saved plans too) shows it " +
				"going to null, with what destroying does. Unknown while a part is (an argument known only at " +
				"apply, or whether applying sends). Kept in the state as the plan that created the object wrote " +
				"it: one written by an earlier version keeps that version's text (without what applying and " +
				"destroying do); null in a state written before it was set."),
		},
	}
}

// moneyOf is the manifest of a money movement; values may be unknown.
type moneyOf struct {
	kind                         string
	asset, amount, from, to, ref types.String
	sends                        types.Bool
	// summary is money.summary: what a reviewer reads in the diff.
	summary types.String
}

// value is m as the attribute's object.
func (m moneyOf) value(diags *diag.Diagnostics) types.Object {
	obj, d := types.ObjectValue(moneyAttrTypes, map[string]attr.Value{
		"version": types.Int64Value(moneyVersion), "kind": types.StringValue(m.kind), "asset": m.asset, "amount": m.amount, "from_profile_id": m.from,
		"to": m.to, "ref_id": m.ref, "sends": m.sends, "summary": m.summary,
	})
	diags.Append(d...)
	return obj
}

// withSends is the manifest v with sends set to sent where the plan left it
// unknown, and its summary, unknown with it, said by m (its fiat account
// is not read then: the summary says so).
func withSends(v attr.Value, sent bool, m movement, does string) attr.Value {
	obj, ok := v.(basetypes.ObjectValue)
	if !ok || obj.IsNull() || obj.IsUnknown() {
		return v
	}
	attrs := obj.Attributes()
	if !attrs["sends"].IsUnknown() {
		return v
	}
	attrs["sends"] = types.BoolValue(sent)
	if attrs["summary"].IsUnknown() {
		ref, _ := attrs["ref_id"].(basetypes.StringValue)
		attrs["summary"] = m.summary(ref, types.BoolValue(sent), summaryWords{does: does,
			fiat: func(string) string { return "not read: the plan could not say whether applying sends" }})
	}
	out, _ := types.ObjectValue(moneyAttrTypes, attrs)
	return out
}

// recordsOnly reports whether the manifest v says that applying records
// the object the plan found under its ref_id and sends nothing: its sends
// is known and false.
func recordsOnly(v attr.Value) bool {
	obj, ok := v.(basetypes.ObjectValue)
	if !ok || obj.IsNull() || obj.IsUnknown() {
		return false
	}
	sends, ok := obj.Attributes()["sends"].(basetypes.BoolValue)
	return ok && !sends.IsNull() && !sends.IsUnknown() && !sends.ValueBool()
}

// setMoney sets the planned manifest.
func setMoney(ctx context.Context, plan *tfsdk.Plan, m moneyOf, diags *diag.Diagnostics) {
	diags.Append(plan.SetAttribute(ctx, path.Root(moneyAttribute), m.value(diags))...)
}

// followAnswer sets the computed attributes of m to those of an answered
// object, computed, but keeps the manifest as the plan that made (or
// recorded) the object saw it: an answer never rewrites what a reviewed
// plan said would move.
func followAnswer[A any](m *shapedState[A], computed map[string]attr.Value) {
	money, planned := m.computed[moneyAttribute]
	m.computed = computed
	if planned {
		m.computed[moneyAttribute] = money
	}
}
