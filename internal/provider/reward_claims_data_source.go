package provider

import (
	"time"

	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/platform/terraform-provider-platform/internal/client"
)

var (
	_ datasource.DataSourceWithConfigure      = (*rewardClaimsDataSource)(nil)
	_ datasource.DataSourceWithValidateConfig = (*rewardClaimsDataSource)(nil)
)

// NewRewardClaimsDataSource is the platform_reward_claims data source.
func NewRewardClaimsDataSource() datasource.DataSource { return &rewardClaimsDataSource{} }

// rewardClaimsDataSource lists reward claim transactions (GET /rewards/claims).
type rewardClaimsDataSource struct {
	data *providerData
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

func (d *rewardClaimsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_reward_claims"
}

func (d *rewardClaimsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = listSchema(schema.Schema{
		MarkdownDescription: "Lists reward claim transactions, in the order the API returns them, following the API's pages to the end. " +
			"Every filter is optional; all the filters that are set apply together.",
		Attributes: rewardClaimFilters.dataSourceAttributes(map[string]schema.Attribute{
			"id": listIDAttribute(),
			"items": rewardClaimShape.listAttribute("The reward claims, in the order the API returns them. " +
				"Fields the API leaves out are null."),
		}),
	})
}

func (d *rewardClaimsDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
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

func (d *rewardClaimsDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (d *rewardClaimsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if d.data == nil {
		notConfigured(&resp.Diagnostics)
		return
	}
	var q client.ListRewardClaimsQuery
	none := rewardClaimFilters.read(ctx, req.Config, &q, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	readList(ctx, req, resp, filtersID("reward_claims", q), rewardClaimShape,
		d.data.client.RewardClaims(ctx, q), none, "reward claims")
}
