package provider

import (
	"encoding/json"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// This file holds the computed nested objects of fiat deposit instructions
// (and the pieces fiat accounts share with them: address, person details,
// fiat account owner, routing details), described once and rendered both as
// resource and as data source schema, and the one conversion from
// client.FiatDepositInstructions to the model that the
// platform_fiat_deposit_instructions resource and data source share.
//
// Absent or empty API values are null, never "".

// computedAttr describes a computed attribute: a string, a map of strings or
// a single nested object of computed attributes.
type computedAttr struct {
	description string
	// nested, when non-nil, makes the attribute a single nested object.
	nested map[string]computedAttr
	// stringMap makes the attribute a map of strings.
	stringMap bool
}

// computedString is a computed string attribute.
func computedString(description string) computedAttr {
	return computedAttr{description: description}
}

// computedStringMap is a computed map of strings.
func computedStringMap(description string) computedAttr {
	return computedAttr{description: description, stringMap: true}
}

// computedObject is a computed single nested object.
func computedObject(description string, attrs map[string]computedAttr) computedAttr {
	return computedAttr{description: description, nested: attrs}
}

// attrType is the framework type of the attribute's value.
func (a computedAttr) attrType() attr.Type {
	switch {
	case a.nested != nil:
		return a.objectType()
	case a.stringMap:
		return types.MapType{ElemType: types.StringType}
	default:
		return types.StringType
	}
}

// objectType is the object type of a nested attribute.
func (a computedAttr) objectType() types.ObjectType {
	ts := make(map[string]attr.Type, len(a.nested))
	for k, v := range a.nested {
		ts[k] = v.attrType()
	}
	return types.ObjectType{AttrTypes: ts}
}

// resourceAttribute renders the attribute in a resource schema.
func (a computedAttr) resourceAttribute() rschema.Attribute {
	switch {
	case a.nested != nil:
		return rschema.SingleNestedAttribute{
			MarkdownDescription: a.description,
			Computed:            true,
			Attributes:          computedResourceAttributes(a.nested),
		}
	case a.stringMap:
		return rschema.MapAttribute{MarkdownDescription: a.description, Computed: true, ElementType: types.StringType}
	default:
		return rschema.StringAttribute{MarkdownDescription: a.description, Computed: true}
	}
}

// dataSourceAttribute renders the attribute in a data source schema.
func (a computedAttr) dataSourceAttribute() dschema.Attribute {
	switch {
	case a.nested != nil:
		return dschema.SingleNestedAttribute{
			MarkdownDescription: a.description,
			Computed:            true,
			Attributes:          computedDataSourceAttributes(a.nested),
		}
	case a.stringMap:
		return dschema.MapAttribute{MarkdownDescription: a.description, Computed: true, ElementType: types.StringType}
	default:
		return dschema.StringAttribute{MarkdownDescription: a.description, Computed: true}
	}
}

// computedResourceAttributes renders attrs in a resource schema.
func computedResourceAttributes(attrs map[string]computedAttr) map[string]rschema.Attribute {
	out := make(map[string]rschema.Attribute, len(attrs))
	for k, v := range attrs {
		out[k] = v.resourceAttribute()
	}
	return out
}

// computedDataSourceAttributes renders attrs in a data source schema.
func computedDataSourceAttributes(attrs map[string]computedAttr) map[string]dschema.Attribute {
	out := make(map[string]dschema.Attribute, len(attrs))
	for k, v := range attrs {
		out[k] = v.dataSourceAttribute()
	}
	return out
}

// Shared nested objects.

// addressAttr is the spec's address object.
func addressAttr(description string) computedAttr {
	return computedObject(description, map[string]computedAttr{
		"country":  computedString("Country."),
		"address1": computedString("First address line."),
		"address2": computedString("Second address line; null when the service gives none."),
		"city":     computedString("City."),
		"province": computedString("Province or state."),
		"zip_code": computedString("Postal code."),
	})
}

// personDetailsAttr names a person.
func personDetailsAttr(description string) computedAttr {
	return computedObject(description, map[string]computedAttr{
		"first_name": computedString("First name."),
		"last_name":  computedString("Last name."),
	})
}

// fiatAccountOwnerAttr is the owner of a fiat account.
func fiatAccountOwnerAttr(description string) computedAttr {
	return computedObject(description, map[string]computedAttr{
		"person_details": personDetailsAttr("Name of the owner; null when the service does not give it."),
	})
}

// routingDetailsAttr describes how to route a wire.
func routingDetailsAttr(description string) computedAttr {
	return computedObject(description, map[string]computedAttr{
		"routing_number_type": computedString("Kind of routing number: `ABA` or `SWIFT`."),
		"routing_number":      computedString("Routing number (ABA) or BIC (SWIFT) of the receiving bank."),
		"bank_name":           computedString("Name of the receiving bank."),
		"bank_address":        addressAttr("Address of the receiving bank; null when the service does not give it."),
	})
}

// wireInstructionsAttr are the WIRE instructions of a deposit instruction set.
func wireInstructionsAttr(description string) computedAttr {
	return computedObject(description, map[string]computedAttr{
		"account_number":             computedString("Account number to send the wire to."),
		"fiat_account_owner_address": addressAttr("Address of the account owner; null when the service does not give it."),
		"routing_details":            routingDetailsAttr("Routing details of the receiving bank."),
	})
}

// fiatNetworkInstructionsAttr is fiat_network_instructions of a deposit
// instruction set.
func fiatNetworkInstructionsAttr() computedAttr {
	return computedObject("How to send a deposit, per fiat network. The service documents only the "+
		"`wire` shape; for other networks `wire` is null.", map[string]computedAttr{
		"wire": wireInstructionsAttr("Instructions for a `WIRE` deposit; null for other fiat networks. " +
			"Quote `memo_id` with the wire."),
		"fiat_account_owner": fiatAccountOwnerAttr("Owner of the account, as given inside the instructions."),
		"metadata": computedStringMap("Metadata given inside the instructions. Values that are not strings " +
			"are rendered as JSON."),
	})
}

// Values of the shared nested objects.

// objectValue builds an object of a's type from vals.
func objectValue(a computedAttr, vals map[string]attr.Value, diags *diag.Diagnostics) types.Object {
	o, d := types.ObjectValue(a.objectType().AttrTypes, vals)
	diags.Append(d...)
	return o
}

// addressValue is a as an address object, or null when a is nil.
func addressValue(a *client.Address, diags *diag.Diagnostics) types.Object {
	t := addressAttr("")
	if a == nil {
		return types.ObjectNull(t.objectType().AttrTypes)
	}
	return objectValue(t, map[string]attr.Value{
		"country":  stringValue(a.Country),
		"address1": stringValue(a.Address1),
		"address2": stringValue(a.Address2),
		"city":     stringValue(a.City),
		"province": stringValue(a.Province),
		"zip_code": stringValue(a.ZipCode),
	}, diags)
}

// personDetailsValue is p as a person_details object, or null when p is nil.
func personDetailsValue(p *client.PersonDetails, diags *diag.Diagnostics) types.Object {
	t := personDetailsAttr("")
	if p == nil {
		return types.ObjectNull(t.objectType().AttrTypes)
	}
	return objectValue(t, map[string]attr.Value{
		"first_name": stringValue(p.FirstName),
		"last_name":  stringValue(p.LastName),
	}, diags)
}

// fiatAccountOwnerValue is o as a fiat_account_owner object, or null when o
// is nil.
func fiatAccountOwnerValue(o *client.FiatAccountOwner, diags *diag.Diagnostics) types.Object {
	t := fiatAccountOwnerAttr("")
	if o == nil {
		return types.ObjectNull(t.objectType().AttrTypes)
	}
	return objectValue(t, map[string]attr.Value{
		"person_details": personDetailsValue(o.PersonDetails, diags),
	}, diags)
}

// routingDetailsValue is r as a routing_details object, or null when r is nil.
func routingDetailsValue(r *client.RoutingDetails, diags *diag.Diagnostics) types.Object {
	t := routingDetailsAttr("")
	if r == nil {
		return types.ObjectNull(t.objectType().AttrTypes)
	}
	return objectValue(t, map[string]attr.Value{
		"routing_number_type": stringValue(r.RoutingNumberType),
		"routing_number":      stringValue(r.RoutingNumber),
		"bank_name":           stringValue(r.BankName),
		"bank_address":        addressValue(r.BankAddress, diags),
	}, diags)
}

// wireInstructionsValue is w as the wire object of deposit instructions, or
// null when w is nil.
func wireInstructionsValue(w *client.WireInstructions, diags *diag.Diagnostics) types.Object {
	t := wireInstructionsAttr("")
	if w == nil {
		return types.ObjectNull(t.objectType().AttrTypes)
	}
	return objectValue(t, map[string]attr.Value{
		"account_number":             stringValue(w.AccountNumber),
		"fiat_account_owner_address": addressValue(w.FiatAccountOwnerAddress, diags),
		"routing_details":            routingDetailsValue(w.RoutingDetails, diags),
	}, diags)
}

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

// fiatNetworkInstructionsValue is n as fiat_network_instructions, or null
// when n is nil.
func fiatNetworkInstructionsValue(n *client.FiatNetworkInstructions, diags *diag.Diagnostics) types.Object {
	t := fiatNetworkInstructionsAttr()
	if n == nil {
		return types.ObjectNull(t.objectType().AttrTypes)
	}
	return objectValue(t, map[string]attr.Value{
		"wire":               wireInstructionsValue(n.Wire, diags),
		"fiat_account_owner": fiatAccountOwnerValue(n.FiatAccountOwner, diags),
		"metadata":           anyMapValue(n.Metadata),
	}, diags)
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
}

// fiatDepositInstructionsComputed are the attributes that only the service
// sets, with their descriptions; both schemas render them.
func fiatDepositInstructionsComputed() map[string]computedAttr {
	return map[string]computedAttr{
		"fiat_account_owner": fiatAccountOwnerAttr("Owner of the account the deposit is credited to. " +
			"When the service gives it only inside `fiat_network_instructions`, it is taken from there."),
		"fiat_network_instructions": fiatNetworkInstructionsAttr(),
	}
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
	m.FiatAccountOwner = fiatAccountOwnerValue(owner, &diags)
	m.FiatNetworkInstructions = fiatNetworkInstructionsValue(f.FiatNetworkInstructions, &diags)
	return diags
}
