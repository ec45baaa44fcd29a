package provider

import (
	"time"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// A stablecoin conversion (GET /conversion/stablecoins/{id}): one shape,
// the single source of its computed attributes. Adding a computed field to
// a conversion is one line here.
var stablecoinConversionShape = objectShape[client.StablecoinConversion]{
	stringField("id", "Id of the conversion.", func(c *client.StablecoinConversion) *string { return c.ID }),
	stringField("profile_id", "Profile of the conversion.", func(c *client.StablecoinConversion) *string { return c.ProfileID }),
	stringField("amount", "Amount to convert (decimal string).", func(c *client.StablecoinConversion) *string { return c.Amount }),
	stringField("source_asset", "Asset converted from.", func(c *client.StablecoinConversion) *string { return c.SourceAsset }),
	stringField("target_asset", "Asset converted to.", func(c *client.StablecoinConversion) *string { return c.TargetAsset }),
	stringField("status", "Current status of the conversion, for example `CREATED`.", func(c *client.StablecoinConversion) *string { return c.Status }),
	stringField("ref_id", "Client-provided reference id given at creation.", func(c *client.StablecoinConversion) *string { return c.RefID }),
	stringField("identity_id", "Identity, for third-party integrations.", func(c *client.StablecoinConversion) *string { return c.IdentityID }),
	stringField("account_id", "Account, for third-party integrations.", func(c *client.StablecoinConversion) *string { return c.AccountID }),
	timeField("created_at", "Time the conversion was requested", func(c *client.StablecoinConversion) *time.Time { return c.CreatedAt }),
	timeField("updated_at", "Time of the last update", func(c *client.StablecoinConversion) *time.Time { return c.UpdatedAt }),
	timeField("settled_at", "Time of settlement; null until settled", func(c *client.StablecoinConversion) *time.Time { return c.SettledAt }),
	timeField("cancelled_at", "Time of cancellation; null unless cancelled", func(c *client.StablecoinConversion) *time.Time { return c.CancelledAt }),
	stringMapField("metadata", "Client-specified metadata.", func(c *client.StablecoinConversion) map[string]string { return c.Metadata }),
	stringField("recipient_profile_id", "For directed settlement, the receiving profile.", func(c *client.StablecoinConversion) *string { return c.RecipientProfileID }),
}
