package provider

import (
	"encoding/json"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// This file holds the computed objects of fiat deposit instructions (and
// the ones fiat accounts share with them: address, person details, fiat
// account owner, routing details), each described once as an objectShape
// (objects.go), and the one conversion from client.FiatDepositInstructions
// to the model that the platform_fiat_deposit_instructions resource and
// data source share.
//
// The fields of the shared objects are listed by name, the order in which
// list data sources write them.

var (
	addressShape = objectShape[client.Address]{
		stringField("address1", "First address line.", func(a *client.Address) *string { return a.Address1 }),
		stringField("address2", "Second address line; null when the service gives none.",
			func(a *client.Address) *string { return a.Address2 }),
		stringField("city", "City.", func(a *client.Address) *string { return a.City }),
		stringField("country", "Country.", func(a *client.Address) *string { return a.Country }),
		stringField("province", "Province or state.", func(a *client.Address) *string { return a.Province }),
		stringField("zip_code", "Postal code.", func(a *client.Address) *string { return a.ZipCode }),
	}
	personDetailsShape = objectShape[client.PersonDetails]{
		stringField("first_name", "First name.", func(p *client.PersonDetails) *string { return p.FirstName }),
		stringField("last_name", "Last name.", func(p *client.PersonDetails) *string { return p.LastName }),
	}
	institutionDetailsShape = objectShape[client.InstitutionDetails]{
		stringField("name", "Name of the institution.", func(d *client.InstitutionDetails) *string { return d.Name }),
	}
	fiatAccountOwnerShape = objectShape[client.FiatAccountOwner]{
		objectField("institution_details", "The owner when it is an institution; null otherwise, or when the "+
			"service does not give it.",
			func(o *client.FiatAccountOwner) *client.InstitutionDetails { return o.InstitutionDetails },
			institutionDetailsShape),
		objectField("person_details", "Name of the owner; null when the service does not give it.",
			func(o *client.FiatAccountOwner) *client.PersonDetails { return o.PersonDetails }, personDetailsShape),
	}
	routingDetailsShape = objectShape[client.RoutingDetails]{
		objectField("bank_address", "Address of the receiving bank; null when the service does not give it.",
			func(r *client.RoutingDetails) *client.Address { return r.BankAddress }, addressShape),
		stringField("bank_name", "Name of the receiving bank.", func(r *client.RoutingDetails) *string { return r.BankName }),
		stringField("routing_number", "Routing number (ABA) or BIC (SWIFT) of the receiving bank.",
			func(r *client.RoutingDetails) *string { return r.RoutingNumber }),
		stringField("routing_number_type", "Kind of routing number: `ABA` or `SWIFT`.",
			func(r *client.RoutingDetails) *string { return r.RoutingNumberType }),
	}
	// wireInstructionsShape is the WIRE object of deposit instructions.
	wireInstructionsShape = objectShape[client.WireInstructions]{
		stringField("account_number", "Account number to send the wire to.",
			func(w *client.WireInstructions) *string { return w.AccountNumber }),
		objectField("fiat_account_owner_address", "Address of the account owner; null when the service does not give it.",
			func(w *client.WireInstructions) *client.Address { return w.FiatAccountOwnerAddress }, addressShape),
		objectField("routing_details", "Routing details of the receiving bank.",
			func(w *client.WireInstructions) *client.RoutingDetails { return w.RoutingDetails }, routingDetailsShape),
	}
	fiatNetworkInstructionsShape = objectShape[client.FiatNetworkInstructions]{
		objectField("fiat_account_owner", "Owner of the account, as given inside the instructions.",
			func(n *client.FiatNetworkInstructions) *client.FiatAccountOwner { return n.FiatAccountOwner },
			fiatAccountOwnerShape),
		anyMapField("metadata", "Metadata given inside the instructions.",
			func(n *client.FiatNetworkInstructions) map[string]any { return n.Metadata }),
		objectField("wire", "Instructions for a `WIRE` deposit; null for other fiat networks. Quote `memo_id` with the wire.",
			func(n *client.FiatNetworkInstructions) *client.WireInstructions { return n.Wire }, wireInstructionsShape),
	}
)

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

// anyMapValue renders free-form metadata as a map of strings: strings as
// they are, other values as JSON. It is null when m is empty.
func anyMapValue(m map[string]any) types.Map {
	if len(m) == 0 {
		return types.MapNull(types.StringType)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	elems := make(map[string]attr.Value, len(m))
	for _, k := range keys {
		switch v := m[k].(type) {
		case string:
			elems[k] = types.StringValue(v)
		case nil:
			elems[k] = types.StringNull()
		default:
			b, err := json.Marshal(v)
			if err != nil {
				elems[k] = types.StringNull()
				continue
			}
			elems[k] = types.StringValue(string(b))
		}
	}
	return types.MapValueMust(types.StringType, elems)
}

// The model shared by the platform_fiat_deposit_instructions resource and
// data source.

// fiatDepositInstructionsModel is one set of fiat deposit instructions. The
// resource and the data source have the same attributes; in the data source
// every attribute but id is computed.
type fiatDepositInstructionsModel struct {
	ID                      types.String      `tfsdk:"id"`
	ProfileID               types.String      `tfsdk:"profile_id"`
	FiatNetwork             types.String      `tfsdk:"fiat_network"`
	RefID                   types.String      `tfsdk:"ref_id"`
	IdentityID              types.String      `tfsdk:"identity_id"`
	AccountID               types.String      `tfsdk:"account_id"`
	RoutingNumberType       types.String      `tfsdk:"routing_number_type"`
	Metadata                types.Map         `tfsdk:"metadata"`
	Status                  types.String      `tfsdk:"status"`
	MemoID                  types.String      `tfsdk:"memo_id"`
	CustomerID              types.String      `tfsdk:"customer_id"`
	CreatedAt               timetypes.RFC3339 `tfsdk:"created_at"`
	FiatAccountOwner        types.Object      `tfsdk:"fiat_account_owner"`
	FiatNetworkInstructions types.Object      `tfsdk:"fiat_network_instructions"`
	// FiatNetworkInstructionsJSON is fiat_network_instructions as the
	// service sent it, every network included.
	FiatNetworkInstructionsJSON jsontypes.Normalized `tfsdk:"fiat_network_instructions_json"`
}

// Descriptions shared by the resource and the data source.
const (
	fdiStatusDescription     = "Status of the instructions: `VALID` or `DEPRECATED`. Deprecated instructions must no longer be used."
	fdiMemoIDDescription     = "Unique memo to quote when initiating a `WIRE` transfer to fund the account."
	fdiCustomerIDDescription = "Customer the instructions belong to; null when the service does not give it."
	fdiCreatedAtDescription  = "Creation time (RFC 3339)."
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
	arg := func(cur *types.String, answered types.String) {
		switch {
		case keepKnownArgs && !cur.IsNull() && !cur.IsUnknown():
		case !answered.IsNull():
			*cur = answered
		case cur.IsUnknown():
			*cur = types.StringNull()
		}
	}
	m.ID = types.StringValue(f.ID)
	arg(&m.ProfileID, optionalString(f.ProfileID))
	if m.FiatNetwork.IsNull() || m.FiatNetwork.IsUnknown() {
		m.FiatNetwork = inferFiatNetwork(f.FiatNetworkInstructions)
	}
	arg(&m.RefID, stringValue(f.RefID))
	arg(&m.IdentityID, optionalString(f.IdentityID))
	arg(&m.AccountID, stringValue(f.AccountID))
	arg(&m.RoutingNumberType, inferRoutingNumberType(f.FiatNetworkInstructions))
	switch {
	case keepKnownArgs && !m.Metadata.IsNull() && !m.Metadata.IsUnknown():
	case len(f.Metadata) > 0:
		m.Metadata = stringMapValue(f.Metadata)
	case m.Metadata.IsUnknown():
		m.Metadata = types.MapNull(types.StringType)
	}
	m.Status = optionalString(f.Status)
	m.MemoID = optionalString(f.MemoID)
	m.CustomerID = stringValue(f.CustomerID)
	m.CreatedAt = rfc3339OrNull(f.CreatedAt)
	owner := f.FiatAccountOwner
	if owner == nil && f.FiatNetworkInstructions != nil {
		owner = f.FiatNetworkInstructions.FiatAccountOwner
	}
	m.FiatAccountOwner = fiatAccountOwnerShape.value(owner, &diags)
	m.FiatNetworkInstructions = fiatNetworkInstructionsShape.value(f.FiatNetworkInstructions, &diags)
	m.FiatNetworkInstructionsJSON = jsonValue(f.FiatNetworkInstructionsRaw)
	return diags
}
