package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"

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

// The platform_stablecoin_conversion resource's object: a conversion made
// by POST /conversion/stablecoins from the arguments below, read back by
// id. The service publishes no list of conversions, so a ref_id is not
// looked up at plan: a replay is told by the create's 409 answer.

// stablecoinConversionArgs are the arguments of a conversion.
type stablecoinConversionArgs struct {
	ProfileID          types.String `tfsdk:"profile_id"`
	SourceAsset        types.String `tfsdk:"source_asset"`
	TargetAsset        types.String `tfsdk:"target_asset"`
	Amount             types.String `tfsdk:"amount"`
	RecipientProfileID types.String `tfsdk:"recipient_profile_id"`
	RefID              types.String `tfsdk:"ref_id"`
	IdentityID         types.String `tfsdk:"identity_id"`
	AccountID          types.String `tfsdk:"account_id"`
	Metadata           types.Map    `tfsdk:"metadata"`
}

// summary describes the conversion of a in a few words, for messages.
func (a stablecoinConversionArgs) summary() string {
	out := fmt.Sprintf("%s %s to %s in profile %s", knownString(a.Amount), knownString(a.SourceAsset),
		knownString(a.TargetAsset), knownString(a.ProfileID))
	if r := knownString(a.RecipientProfileID); r != "" {
		out += " for profile " + r
	}
	return out
}

// moneyKindStablecoinConversion is the money.kind of a stablecoin conversion.
var moneyKindStablecoinConversion = movementKind("stablecoin_conversion", "")

// moves is what the conversion of a moves: its amount of the source asset
// leaves the profile; the target asset goes to the recipient profile, or
// to the profile itself.
func (a stablecoinConversionArgs) moves() movement {
	null := types.StringNull()
	to := a.RecipientProfileID
	if to.IsNull() {
		to = a.ProfileID
	}
	return movement{kind: moneyKindStablecoinConversion, asset: a.SourceAsset, amount: a.Amount, figureName: "amount",
		from: a.ProfileID, to: to, address: null, network: null, identity: null, fiatAccount: null, what: a.summary()}
}

// stablecoinConversionObjects is how the core reads conversions: by id (GET
// /conversion/stablecoins/{id}); they cannot be looked up by ref_id.
var stablecoinConversionObjects = moneyObjects[*client.StablecoinConversion]{
	words:     stablecoinConversionWords,
	id:        func(c *client.StablecoinConversion) string { return deref(c.ID) },
	createdAt: func(c *client.StablecoinConversion) time.Time { return deref(c.CreatedAt) },
	describe: func(c *client.StablecoinConversion) string {
		out := fmt.Sprintf("conversion of %s %s to %s in profile %s", deref(c.Amount), deref(c.SourceAsset),
			deref(c.TargetAsset), deref(c.ProfileID))
		if r := deref(c.RecipientProfileID); r != "" {
			out += " for profile " + r
		}
		return shown(out)
	},
	status: func(c *client.StablecoinConversion) string { return deref(c.Status) },
	get: func(ctx context.Context, c *client.Client, id string) (*client.StablecoinConversion, error) {
		return c.GetStablecoinConversion(ctx, id)
	},
	readScope: client.ScopeReadStablecoinConversion,
	// Settled or cancelled, a conversion moves no further.
	final: func(recorded func(string) string) bool {
		return recorded("settled_at") != "" || recorded("cancelled_at") != ""
	},
}

// stablecoinConversionCancelled is the status of a cancelled conversion.
const stablecoinConversionCancelled = "CANCELLED"

// stablecoinConversionWords are the words of a stablecoin conversion.
var stablecoinConversionWords = createWords{
	refNamespace: "stablecoin_conversion",
	resourceType: "platform_stablecoin_conversion",
	noun:         "stablecoin conversion",
	made:         "made",
	path:         client.PathStablecoinConversions,
	scope:        client.ScopeWriteStablecoinConversion,
}.filled()
