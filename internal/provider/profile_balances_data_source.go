package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// NewProfileBalancesDataSource is the platform_profile_balances data source.
func NewProfileBalancesDataSource() datasource.DataSource {
	return newObjectDataSource(&profileBalancesDataSource)
}

// profileBalancesDataSource reads the balances of one profile (GET
// /profiles/{id}/balances).
var profileBalancesDataSource = objectDataSourceDeclaration{
	typeName: "platform_profile_balances",
	description: "Reads the balances of one profile (`GET /profiles/{id}/balances`, scope `" +
		client.ScopeReadBalances + "`): by asset, what is available and what is held for trading, as exact " +
		"decimal strings (never rounded through a number). The provider's `withdrawal_guard.check_balances` " +
		"compares what a plan sends from a profile with the same figures.",
	attributes: profileBalancesDataSourceAttributes,
	read:       profileBalancesDataSourceRead,
}

// profileBalanceShape is one balance of a profile.
var profileBalanceShape = objectShape[client.ProfileBalance]{
	requiredString("asset", "Asset of the balance, for example `USD` or `BTC`.",
		func(b *client.ProfileBalance) string { return b.Asset }),
	requiredString("available", "Available balance, an exact decimal string as the service answered it.",
		func(b *client.ProfileBalance) string { return b.Available }),
	requiredString("trading", "Balance held for trading, an exact decimal string as the service answered it.",
		func(b *client.ProfileBalance) string { return b.Trading }),
}

// profileBalancesDataSourceAttributes are the profile that names the
// balances and the balances.
func profileBalancesDataSourceAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"profile_id": schema.StringAttribute{
			MarkdownDescription: "Profile whose balances are read.",
			Required:            true,
			Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
		},
		"balances": schema.ListNestedAttribute{
			MarkdownDescription: "The profile's balances, by asset, in the service's order.",
			Computed:            true,
			NestedObject:        schema.NestedAttributeObject{Attributes: profileBalanceShape.attributes()},
		},
	}
}

// profileBalancesDataSourceRead reads the balances of the profile
// profile_id names.
func profileBalancesDataSourceRead(ctx context.Context, c *client.Client, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var profile types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("profile_id"), &profile)...)
	if resp.Diagnostics.HasError() {
		return
	}
	balances, err := c.GetProfileBalances(ctx, profile.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("profile_id"), failure("Unable to read the profile's balances", err),
			fmt.Sprintf("Reading the balances of profile %s failed: %s.", shown(profile.ValueString()), err))
		return
	}
	typ := profileBalanceShape.objectType()
	items := make([]attr.Value, 0, len(balances))
	for i := range balances {
		items = append(items, profileBalanceShape.value(&balances[i], &resp.Diagnostics))
	}
	list, diags := types.ListValue(typ, items)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("profile_id"), profile)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("balances"), list)...)
}
