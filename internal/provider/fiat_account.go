package provider

import (
	"time"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// A fiat account (GET /transfer/fiat-accounts): its shape, the single
// source of its computed attributes. Adding a computed field to a fiat
// account is one line here.

// Shapes of the objects of a fiat account. The address, owner and routing
// details are the objects of fiat deposit instructions
// (fiat_objects.go); the wire object of a fiat account has
// status and metadata besides.
var (
	fiatAccountWireShape = objectShape[client.WireInstructions]{
		stringField("account_number", "Bank account number; may be partly masked.",
			func(w *client.WireInstructions) *string { return w.AccountNumber }),
		objectField("fiat_account_owner_address", "Address of the account owner; null when the service does not give it.",
			func(w *client.WireInstructions) *client.Address { return w.FiatAccountOwnerAddress }, addressShape),
		objectField("routing_details", "Routing details of the account's bank.",
			func(w *client.WireInstructions) *client.RoutingDetails { return w.RoutingDetails }, routingDetailsShape),
		stringField("status", "Status of the account's wire details, for example `PENDING`.",
			func(w *client.WireInstructions) *string { return w.Status }),
		anyMapField("metadata", "Metadata of the account's wire details.",
			func(w *client.WireInstructions) map[string]any { return w.Metadata }),
	}
	fiatAccountNetworkShape = objectShape[client.FiatNetworkInstructions]{
		objectField("wire", "Wire (`WIRE`) details of the account; null when the account has none.",
			func(f *client.FiatNetworkInstructions) *client.WireInstructions { return f.Wire }, fiatAccountWireShape),
	}
	fiatAccountShape = objectShape[client.FiatAccount]{
		stringField("id", "Fiat account id (UUID).", func(a *client.FiatAccount) *string { return a.ID }),
		stringField("ref_id", "Client-specified id given when the account was created.",
			func(a *client.FiatAccount) *string { return a.RefID }),
		stringField("identity_id", "Identity of the account.", func(a *client.FiatAccount) *string { return a.IdentityID }),
		stringField("account_id", "Account the fiat account belongs to.",
			func(a *client.FiatAccount) *string { return a.AccountID }),
		objectField("fiat_account_owner", "Owner of the account.",
			func(a *client.FiatAccount) *client.FiatAccountOwner { return a.FiatAccountOwner }, fiatAccountOwnerShape),
		objectField("fiat_network_instructions", "Network details of the account.",
			func(a *client.FiatAccount) *client.FiatNetworkInstructions { return a.FiatNetworkInstructions },
			fiatAccountNetworkShape),
		stringField("status", "Status of the account: `PENDING`, `APPROVED` or `REJECTED`. Read from the top level "+
			"of the item, where the API reference puts it, or else from the wire details.",
			func(a *client.FiatAccount) *string { return a.AccountStatus() }),
		anyMapField("metadata", "Metadata of the account, read from the top level of the item or else from the "+
			"wire details.", func(a *client.FiatAccount) map[string]any { return a.AccountMetadata() }),
		timeField("created_at", "Creation time", func(a *client.FiatAccount) *time.Time { return a.CreatedAt }),
		timeField("updated_at", "Time of the last update", func(a *client.FiatAccount) *time.Time { return a.UpdatedAt }),
	}
)
