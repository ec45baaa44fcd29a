package provider

import (
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

// networkOf names the network of instructions and its bank, for messages.
func networkOf(n *client.FiatNetworkInstructions) (network, bank string) {
	if n == nil {
		return "", ""
	}
	switch {
	case n.Wire != nil:
		if n.Wire.RoutingDetails != nil {
			bank = deref(n.Wire.RoutingDetails.BankName)
		}
		return "wire", bank
	case n.Cbit != nil:
		return "cbit", ""
	case n.DBSAct != nil:
		return "dbs_act", ""
	case n.Cubix != nil:
		return "cubix", ""
	case n.SCB != nil:
		return "scb", ""
	case n.RTP != nil:
		if n.RTP.RoutingDetails != nil {
			bank = deref(n.RTP.RoutingDetails.BankName)
		}
		return "rtp", bank
	}
	return "", ""
}
