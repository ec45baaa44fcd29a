package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// NewRewardClaimsDataSource is the platform_reward_claims data source.
func NewRewardClaimsDataSource() datasource.DataSource {
	return newListDataSource(&rewardClaimsDataSource)
}

// rewardClaimsDataSource lists reward claim transactions (GET /rewards/claims).
var rewardClaimsDataSource = listDataSourceDeclaration[client.ListRewardClaimsQuery, client.RewardClaim]{
	typeName: "platform_reward_claims",
	description: "Lists reward claim transactions, in the order the API returns them, following the API's pages to the end. " +
		"Every filter is optional; all the filters that are set apply together.",
	filters:    rewardClaimFilters,
	shape:      rewardClaimShape,
	items:      "The reward claims, in the order the API returns them. Fields the API leaves out are null.",
	list:       (*client.Client).RewardClaims,
	validators: []datasource.ConfigValidator{claimTimeWindow{}},
}

// rewardClaimFilters are the filters of platform_reward_claims.
var rewardClaimFilters = listFilters[client.ListRewardClaimsQuery]{
	stringFilter("payout_group_id", "Only the claims of this payout group.",
		func(q *client.ListRewardClaimsQuery) *string { return &q.PayoutGroupID }),
	arrayFilter("onchain_statuses", "Only the claims in these on-chain statuses (sent as the "+
		"query key `statuses`, as the API reference publishes it).",
		func(q *client.ListRewardClaimsQuery) *[]string { return &q.OnchainStatuses }, client.ClaimOnchainStatuses...),
	stringFilter("asset_type", "Only the claims of this asset, for example `USDG`.",
		func(q *client.ListRewardClaimsQuery) *string { return &q.AssetType }),
	stringFilter("chain", "Only the claims on this chain.",
		func(q *client.ListRewardClaimsQuery) *string { return &q.Chain }),
	stringFilter("jurisdiction", "Only the claims of this jurisdiction.",
		func(q *client.ListRewardClaimsQuery) *string { return &q.Jurisdiction }),
	timeFilter("start_time", "Only the claims created at or after this time",
		func(q *client.ListRewardClaimsQuery) *time.Time { return &q.StartTime }),
	timeFilter("end_time", "Only the claims created at or before this time",
		func(q *client.ListRewardClaimsQuery) *time.Time { return &q.EndTime }),
	maxItemsFilter(func(q *client.ListRewardClaimsQuery) *int { return &q.MaxItems }),
}

// claimTimeWindow refuses a start_time after the end_time, which no claim
// could match.
type claimTimeWindow struct{}

func (claimTimeWindow) Description(context.Context) string {
	return "start_time, when end_time is set too, is at or before it"
}

func (v claimTimeWindow) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (claimTimeWindow) ValidateDataSource(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var start, end timetypes.RFC3339
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("start_time"), &start)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("end_time"), &end)...)
	if resp.Diagnostics.HasError() || start.IsNull() || start.IsUnknown() || end.IsNull() || end.IsUnknown() {
		return
	}
	var diags diag.Diagnostics
	s := rfc3339Time(start, path.Root("start_time"), &diags)
	e := rfc3339Time(end, path.Root("end_time"), &diags)
	if diags.HasError() {
		return // The attributes' own validators report it.
	}
	if s.After(e) {
		resp.Diagnostics.AddAttributeError(path.Root("start_time"), "Invalid time window",
			fmt.Sprintf("start_time (%s) is after end_time (%s): both bounds are inclusive, so no claim could match. "+
				"Swap them or widen the window.", start.ValueString(), end.ValueString()))
	}
}
