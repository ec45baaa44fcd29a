package provider

import (
	"time"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// A reward claim (GET /rewards/claims): its shape, the single source of
// its computed attributes. Adding a computed field to a claim is one line
// here.

var rewardClaimShape = objectShape[client.RewardClaim]{
	stringField("id", "Claim id.", func(c *client.RewardClaim) *string { return c.ID }),
	stringField("payout_group_id", "Payout group of the claim.", func(c *client.RewardClaim) *string { return c.PayoutGroupID }),
	stringField("claim_schedule_id", "Claim schedule.", func(c *client.RewardClaim) *string { return c.ClaimScheduleID }),
	stringField("amount", "Amount claimed, as the API gives it.", func(c *client.RewardClaim) *string { return c.Amount }),
	stringField("tx_hash", "Hash of the on-chain transaction.", func(c *client.RewardClaim) *string { return c.TxHash }),
	stringListField("addresses", "Addresses of the claim.", func(c *client.RewardClaim) []string { return c.Addresses }),
	stringField("error_message", "Why the claim failed, when it did.",
		func(c *client.RewardClaim) *string { return c.ErrorMessage }),
	stringField("blockchain", "Blockchain of the claim.", func(c *client.RewardClaim) *string { return c.Blockchain }),
	stringField("asset_type", "Asset of the claim.", func(c *client.RewardClaim) *string { return c.AssetType }),
	stringField("onchain_status", "On-chain status: "+codeList(client.ClaimOnchainStatuses)+".",
		func(c *client.RewardClaim) *string { return c.OnchainStatus }),
	stringField("claim_type", "Kind of claim: "+codeList(client.ClaimTypes)+".",
		func(c *client.RewardClaim) *string { return c.ClaimType }),
	timeField("submitted_at", "Submission time", func(c *client.RewardClaim) *time.Time { return c.SubmittedAt }),
	timeField("confirmed_at", "Confirmation time", func(c *client.RewardClaim) *time.Time { return c.ConfirmedAt }),
	timeField("created_at", "Creation time", func(c *client.RewardClaim) *time.Time { return c.CreatedAt }),
	timeField("updated_at", "Time of the last update", func(c *client.RewardClaim) *time.Time { return c.UpdatedAt }),
}
