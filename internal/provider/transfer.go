package provider

import (
	"encoding/json"
	"time"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// A transfer (GET /transfer/transfers/{id}): one shape, the single source
// of its computed attributes in platform_transfer, in the items of
// platform_transfers, and in platform_crypto_withdrawal (resource and list
// resource), where the fields that are arguments are left out. Adding a
// computed field to a transfer is one line here.
var transferShape = objectShape[client.Transfer]{
	requiredString("id", "Transfer id.", func(t *client.Transfer) string { return t.ID }),
	stringField("ref_id", "Client-specified id the transfer was made with.", func(t *client.Transfer) *string { return t.RefID }),
	requiredString("profile_id", "Profile of the transfer.", func(t *client.Transfer) string { return t.ProfileID }),
	stringField("identity_id", "Identity of the user, for third-party integrations; null when none.", func(t *client.Transfer) *string { return t.IdentityID }),
	stringField("account_id", "Account of that identity; null when none.", func(t *client.Transfer) *string { return t.AccountID }),
	requiredString("amount", "Amount moved, as a decimal string.", func(t *client.Transfer) string { return t.Amount }),
	requiredString("total", "Total debited or credited, fee included, as a decimal string.", func(t *client.Transfer) string { return t.Total }),
	requiredString("fee", "Fee, as a decimal string.", func(t *client.Transfer) string { return t.Fee }),
	requiredString("asset", "Asset of the transfer, for example `BTC` or `USD`.", func(t *client.Transfer) string { return t.Asset }),
	stringField("balance_asset", "Asset balance debited, for the service-issued USD stablecoin; null otherwise.", func(t *client.Transfer) *string { return t.BalanceAsset }),
	requiredString("direction", "`DEBIT` or `CREDIT`.", func(t *client.Transfer) string { return t.Direction }),
	requiredString("type", "Type of the transfer, for example `CRYPTO_WITHDRAWAL`, `CRYPTO_DEPOSIT` or `WIRE_DEPOSIT`.", func(t *client.Transfer) string { return t.Type }),
	requiredString("status", "`PENDING`, `COMPLETED` or `FAILED`.", func(t *client.Transfer) string { return t.Status }),
	jsonField("secondary_status", "More granular explanation of the status.", func(t *client.Transfer) json.RawMessage { return t.SecondaryStatus }),
	jsonField("status_details", "Why the transfer is in its state, for specific error conditions.", func(t *client.Transfer) json.RawMessage { return t.StatusDetails }),
	requiredTime("created_at", "Creation time of the transfer", func(t *client.Transfer) time.Time { return t.CreatedAt }),
	requiredTime("updated_at", "Time of the last update of the transfer", func(t *client.Transfer) time.Time { return t.UpdatedAt }),
	stringMapField("metadata", "Client-specified key/value pairs; null when none.", func(t *client.Transfer) map[string]string { return t.Metadata }),
	stringField("destination_address", "Crypto address of a crypto transfer; null otherwise.", func(t *client.Transfer) *string { return t.DestinationAddress }),
	stringField("crypto_network", "Network of a crypto transfer; null otherwise.", func(t *client.Transfer) *string { return t.CryptoNetwork }),
	stringField("crypto_tx_hash", "On-chain transaction hash; null until there is one.", func(t *client.Transfer) *string { return t.CryptoTxHash }),
	stringField("crypto_tx_index", "Output index or output address; null until there is one.", func(t *client.Transfer) *string { return t.CryptoTxIndex }),
	stringField("group_id", "Group linking both sides of an internal transfer; null otherwise.", func(t *client.Transfer) *string { return t.GroupID }),
	stringField("fiat_account_id", "Fiat account of a fiat transfer; null otherwise.", func(t *client.Transfer) *string { return t.FiatAccountID }),
	stringField("notional_value", "USD value of amount plus fee at transfer time; null when the service gives none.", func(t *client.Transfer) *string { return t.NotionalValue }),
	stringField("memo", "Memo of the transfer; null when none.", func(t *client.Transfer) *string { return t.Memo }),
	requiredString("customer_id", "Customer the transfer belongs to.", func(t *client.Transfer) string { return t.CustomerID }),
	jsonField("auto_conversion", "Auto-conversion details.", func(t *client.Transfer) json.RawMessage { return t.AutoConversion }),
}

// transferItemShape is a transfer as an item of platform_transfers, which
// leaves out the customer (always the provider's own) and the
// auto-conversion details.
var transferItemShape = transferShape.without("customer_id", "auto_conversion")
