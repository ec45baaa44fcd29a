package provider

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// A set of fiat deposit instructions (GET
// /transfer/fiat-deposit-instructions/{id}): one shape, the single source of
// its computed attributes in the resource, the data source and the list
// resource platform_fiat_deposit_instructions, beside the arguments, which
// are literal (fiatDepositInstructionsArgs). Adding a computed field to the
// instructions is one line here.
var fiatDepositInstructionsShape = objectShape[client.FiatDepositInstructions]{
	requiredString("id", "Identifier of the instructions, used to read them. Import uses it.",
		func(f *client.FiatDepositInstructions) string { return f.ID }),
	requiredString("status", "Status of the instructions: `VALID` or `DEPRECATED`. Deprecated instructions must no "+
		"longer be used.", func(f *client.FiatDepositInstructions) string { return f.Status }),
	requiredString("memo_id", "Unique memo to quote when initiating a `WIRE` transfer to fund the account.",
		func(f *client.FiatDepositInstructions) string { return f.MemoID }),
	stringField("customer_id", "Customer the instructions belong to; null when the service does not give it.",
		func(f *client.FiatDepositInstructions) *string { return f.CustomerID }),
	requiredTime("created_at", "Creation time", func(f *client.FiatDepositInstructions) time.Time { return f.CreatedAt }),
	objectField("fiat_account_owner", fdiOwnerDescription, instructionsOwner, fiatAccountOwnerShape),
	objectField("fiat_network_instructions", fdiNetworkInstructionsDescription,
		func(f *client.FiatDepositInstructions) *client.FiatNetworkInstructions {
			return f.FiatNetworkInstructions
		},
		fiatNetworkInstructionsShape),
	jsonFieldDescribed("fiat_network_instructions_json", fdiNetworkInstructionsJSONDescription,
		func(f *client.FiatDepositInstructions) json.RawMessage { return f.FiatNetworkInstructionsRaw }),
}

// instructionsOwner is the owner of the account the instructions credit:
// the answer's, or the one inside fiat_network_instructions.
func instructionsOwner(f *client.FiatDepositInstructions) *client.FiatAccountOwner {
	if f.FiatAccountOwner == nil && f.FiatNetworkInstructions != nil {
		return f.FiatNetworkInstructions.FiatAccountOwner
	}
	return f.FiatAccountOwner
}

// fiatDepositInstructionsArgs are the arguments of the resource (computed
// from the answer in the data source).
type fiatDepositInstructionsArgs struct {
	ProfileID         types.String `tfsdk:"profile_id"`
	FiatNetwork       types.String `tfsdk:"fiat_network"`
	RefID             types.String `tfsdk:"ref_id"`
	IdentityID        types.String `tfsdk:"identity_id"`
	AccountID         types.String `tfsdk:"account_id"`
	RoutingNumberType types.String `tfsdk:"routing_number_type"`
	Metadata          types.Map    `tfsdk:"metadata"`
}

// fiatDepositInstructionsModel is one set of instructions: its arguments
// and the computed attributes of fiatDepositInstructionsShape.
type fiatDepositInstructionsModel shapedState[fiatDepositInstructionsArgs]

// newFiatDepositInstructionsModel is a model whose arguments are all null.
func newFiatDepositInstructionsModel() fiatDepositInstructionsModel {
	return fiatDepositInstructionsModel{args: fiatDepositInstructionsArgs{
		ProfileID: types.StringNull(), FiatNetwork: types.StringNull(), RefID: types.StringNull(),
		IdentityID: types.StringNull(), AccountID: types.StringNull(), RoutingNumberType: types.StringNull(),
		Metadata: types.MapNull(types.StringType),
	}, computed: map[string]attr.Value{}}
}

// set writes m to dst, whose schema is sch.
func (m fiatDepositInstructionsModel) set(ctx context.Context, dst setter, sch typed) diag.Diagnostics {
	return setShaped(ctx, dst, sch, shapedState[fiatDepositInstructionsArgs](m))
}

// str is the computed string attribute name.
func (m fiatDepositInstructionsModel) str(name string) types.String {
	return shapedState[fiatDepositInstructionsArgs](m).str(name)
}

// Descriptions of the computed objects of deposit instructions.
const (
	fdiOwnerDescription = "Owner of the account the deposit is credited to. When the service gives it only inside " +
		"`fiat_network_instructions`, it is taken from there."
	fdiNetworkInstructionsDescription = "How to send a deposit, per fiat network. The `wire` shape is modelled; " +
		"for other networks `wire` is null, and `fiat_network_instructions_json` holds what the service sent."
	fdiNetworkInstructionsJSONDescription = "`fiat_network_instructions` as the service sent it, as a JSON object " +
		"(read it with `jsondecode()`): the instructions of every network, `DBS_ACT`, `CUBIX`, `SCB` and `RTP` " +
		"included, and fields the modelled `wire` object leaves out (such as " +
		"`wire.intermediary_routing_details`). Null when the service sends none."
)

// inferFiatNetwork guesses fiat_network from the instructions the service
// returned: it reports only WIRE, the one shape the API documents.
func inferFiatNetwork(n *client.FiatNetworkInstructions) types.String {
	if n != nil && n.Wire != nil {
		return types.StringValue("WIRE")
	}
	return types.StringNull()
}

// inferRoutingNumberType is the routing number type of WIRE instructions.
func inferRoutingNumberType(n *client.FiatNetworkInstructions) types.String {
	if n != nil && n.Wire != nil && n.Wire.RoutingDetails != nil {
		return stringValue(n.Wire.RoutingDetails.RoutingNumberType)
	}
	return types.StringNull()
}

// fromAPI sets the attributes of m from f.
//
// Computed attributes always take the answered values. Arguments take them
// too, except that an argument the answer does not carry keeps its value in
// m (null when it was unknown), and, when keepKnownArgs is set (after a
// create or update), an argument with a known value in m keeps it, so that
// the state holds exactly what was configured. fiat_network is not part of
// the answer: when m has none, it is inferred from the instructions (WIRE
// is the only shape the API documents).
func (m *fiatDepositInstructionsModel) fromAPI(f *client.FiatDepositInstructions, keepKnownArgs bool) diag.Diagnostics {
	var diags diag.Diagnostics
	a := &m.args
	arg := func(cur *types.String, answered types.String) {
		switch {
		case keepKnownArgs && !cur.IsNull() && !cur.IsUnknown():
		case !answered.IsNull():
			*cur = answered
		case cur.IsUnknown():
			*cur = types.StringNull()
		}
	}
	arg(&a.ProfileID, optionalString(f.ProfileID))
	if a.FiatNetwork.IsNull() || a.FiatNetwork.IsUnknown() {
		a.FiatNetwork = inferFiatNetwork(f.FiatNetworkInstructions)
	}
	arg(&a.RefID, stringValue(f.RefID))
	arg(&a.IdentityID, optionalString(f.IdentityID))
	arg(&a.AccountID, stringValue(f.AccountID))
	arg(&a.RoutingNumberType, inferRoutingNumberType(f.FiatNetworkInstructions))
	switch {
	case keepKnownArgs && !a.Metadata.IsNull() && !a.Metadata.IsUnknown():
	case len(f.Metadata) > 0:
		a.Metadata = stringMapValue(f.Metadata)
	case a.Metadata.IsUnknown():
		a.Metadata = types.MapNull(types.StringType)
	}
	m.computed = fiatDepositInstructionsShape.attrValues(f, &diags)
	return diags
}

// request is the create request of the arguments with the given ref_id.
func (a fiatDepositInstructionsArgs) request(ctx context.Context, refID string) (client.FiatDepositInstructionsRequest, error) {
	req := client.FiatDepositInstructionsRequest{
		ProfileID:         knownString(a.ProfileID),
		FiatNetwork:       knownString(a.FiatNetwork),
		RefID:             refID,
		IdentityID:        knownString(a.IdentityID),
		AccountID:         knownString(a.AccountID),
		RoutingNumberType: knownString(a.RoutingNumberType),
	}
	if !a.Metadata.IsNull() && !a.Metadata.IsUnknown() {
		req.Metadata = map[string]string{}
		if d := a.Metadata.ElementsAs(ctx, &req.Metadata, false); d.HasError() {
			return req, errors.New("metadata is not a map of strings")
		}
	}
	return req, nil
}

// derivedRefID is the ref_id derived from the arguments (see
// money_core.go), or, after the set made with it was deprecated, its
// successor: the ref_id derived from the same request and the id of that
// deprecated set. ok is false when an argument is unknown.
func (a fiatDepositInstructionsArgs) derivedRefID(ctx context.Context, afterDeprecated string) (string, bool) {
	req, err := a.request(ctx, "")
	if err != nil {
		return "", false
	}
	if afterDeprecated == "" {
		return derivedRefID(instructionsWords.refNamespace, req)
	}
	return derivedRefID(instructionsWords.refNamespace, struct {
		Request         client.FiatDepositInstructionsRequest `json:"request"`
		AfterDeprecated string                                `json:"after_deprecated"`
	}{req, afterDeprecated})
}

// instructionsWords are the words of a fiat deposit instructions create.
var instructionsWords = createWords{
	refNamespace: "fiat_deposit_instructions",
	resourceType: "platform_fiat_deposit_instructions",
	noun:         "set of fiat deposit instructions",
	plural:       "sets of fiat deposit instructions",
	title:        "Fiat deposit instructions",
	unknown:      "Outcome of fiat deposit instructions create unknown",
	made:         "created",
	path:         client.PathFiatDepositInstructions,
	scope:        client.ScopeWriteFiatDepositInstr,
}
