package provider

import (
	"time"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// A deposit address (GET /transfer/deposit-addresses): its shape, the
// single source of its computed attributes. Adding a computed field to a
// deposit address is one line here.

var depositAddressShape = objectShape[client.DepositAddress]{
	stringField("id", "Deposit address id (UUID).", func(d *client.DepositAddress) *string { return d.ID }),
	stringField("profile_id", "Profile credited by deposits to the address.",
		func(d *client.DepositAddress) *string { return d.ProfileID }),
	stringField("customer_id", "Customer.", func(d *client.DepositAddress) *string { return d.CustomerID }),
	stringField("identity_id", "Identity.", func(d *client.DepositAddress) *string { return d.IdentityID }),
	stringField("ref_id", "Client-specified id.", func(d *client.DepositAddress) *string { return d.RefID }),
	stringField("crypto_network", "Network of the address, for example `ETHEREUM`.",
		func(d *client.DepositAddress) *string { return d.CryptoNetwork }),
	stringField("address", "The crypto address.", func(d *client.DepositAddress) *string { return d.Address }),
	stringField("account_id", "Account the address belongs to.", func(d *client.DepositAddress) *string { return d.AccountID }),
	stringField("conversion_target_asset", "Asset that deposits to the address are converted to; null when they are not converted.",
		func(d *client.DepositAddress) *string { return d.ConversionTargetAsset }),
	stringListField("compatible_crypto_networks", "Networks compatible with the address.",
		func(d *client.DepositAddress) []string { return d.CompatibleCryptoNetworks }),
	stringMapField("metadata", "Client metadata of the address.",
		func(d *client.DepositAddress) map[string]string { return d.Metadata }),
	timeField("created_at", "Creation time", func(d *client.DepositAddress) *time.Time { return d.CreatedAt }),
}
