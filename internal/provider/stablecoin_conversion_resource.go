package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// NewStablecoinConversionResource is the constructor of
// platform_stablecoin_conversion.
func NewStablecoinConversionResource() resource.Resource {
	t := stablecoinConversionFlow.declare()
	return newMoneyResource(&t)
}

// NewStablecoinConversionAction is the constructor of the
// platform_stablecoin_conversion action.
func NewStablecoinConversionAction() action.Action { return newMoneyAction(&stablecoinConversionFlow) }

// stablecoinConversionFlow declares platform_stablecoin_conversion: one
// conversion between USD and a stablecoin, made when the resource is
// created, read back by id to follow its status. A destroy forgets it:
// cancelling is the platform_stablecoin_conversion_cancel action.
var stablecoinConversionFlow = flow[stablecoinConversionArgs, client.StablecoinConversion, client.StablecoinConversionRequest]{
	objects: stablecoinConversionObjects,
	texts: flowTexts{
		description: "Makes one stablecoin conversion (`POST /conversion/stablecoins`) when it is created: an amount of " +
			"`source_asset` of the profile becomes `target_asset`, credited to `recipient_profile_id` (directed " +
			"settlement) or to the profile itself. Each refresh reads it (`GET /conversion/stablecoins/{id}`, scope `" +
			client.ScopeReadStablecoinConversion + "`) and follows its `status`.\n\n" +
			flowDescription(stablecoinConversionWords) +
			"\n\nDestroying the resource never cancels the conversion: cancelling one that has not settled is the " +
			"action `platform_stablecoin_conversion_cancel`, invoked on purpose. The service publishes no list of " +
			"conversions, so a plan cannot look a `ref_id` up in advance: the apply tells a replay by the service's " +
			"answer.",
		actionDescription: "Makes one stablecoin conversion (`POST /conversion/stablecoins`) each time it is invoked.",
		irreversible: "the conversion is not cancelled; cancelling one that has not settled is the " +
			"platform_stablecoin_conversion_cancel action.",
	},
	args: []flowArg[stablecoinConversionArgs, client.StablecoinConversionRequest, *client.StablecoinConversion]{
		{name: "profile_id", required: true, description: "Profile whose `source_asset` is converted.",
			validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			arg:        func(a *stablecoinConversionArgs) *types.String { return &a.ProfileID },
			req:        func(r *client.StablecoinConversionRequest) *string { return &r.ProfileID },
			got:        func(c *client.StablecoinConversion) *string { return c.ProfileID }},
		{name: "source_asset", required: true, description: "Asset converted from, for example `USD`.",
			validators: []validator.String{assetValidator{}},
			arg:        func(a *stablecoinConversionArgs) *types.String { return &a.SourceAsset },
			req:        func(r *client.StablecoinConversionRequest) *string { return &r.SourceAsset },
			got:        func(c *client.StablecoinConversion) *string { return c.SourceAsset }},
		{name: "target_asset", required: true, description: "Asset converted to, for example `USDC`.",
			validators: []validator.String{assetValidator{}, differentFrom{other: path.Root("source_asset")}},
			arg:        func(a *stablecoinConversionArgs) *types.String { return &a.TargetAsset },
			req:        func(r *client.StablecoinConversionRequest) *string { return &r.TargetAsset },
			got:        func(c *client.StablecoinConversion) *string { return c.TargetAsset }},
		{name: "amount", required: true, equal: decimalEqual,
			description: "Amount of `source_asset` to convert, as a decimal string above zero, sent exactly as written, " +
				"with at most the decimals of the smallest unit of `source_asset` (USD 2, USDC 6, ...).",
			validators: []validator.String{positiveAmountValidator(), amountPrecisionOf("source_asset")},
			arg:        func(a *stablecoinConversionArgs) *types.String { return &a.Amount },
			req:        func(r *client.StablecoinConversionRequest) *string { return &r.Amount },
			got:        func(c *client.StablecoinConversion) *string { return c.Amount }},
		{name: "recipient_profile_id",
			description: "For directed settlement, the profile credited with `target_asset`; unset, the profile " +
				"itself.",
			validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			arg:        func(a *stablecoinConversionArgs) *types.String { return &a.RecipientProfileID },
			req:        func(r *client.StablecoinConversionRequest) *string { return &r.RecipientProfileID },
			got:        func(c *client.StablecoinConversion) *string { return c.RecipientProfileID }},
		flowRefID(stablecoinConversionWords, func(a *stablecoinConversionArgs) *types.String { return &a.RefID },
			func(r *client.StablecoinConversionRequest) *string { return &r.RefID },
			func(c *client.StablecoinConversion) *string { return c.RefID }),
		flowIdentity(func(a *stablecoinConversionArgs) *types.String { return &a.IdentityID },
			func(r *client.StablecoinConversionRequest) *string { return &r.IdentityID },
			func(c *client.StablecoinConversion) *string { return c.IdentityID }),
		flowAccount(func(a *stablecoinConversionArgs) *types.String { return &a.AccountID },
			func(r *client.StablecoinConversionRequest) *string { return &r.AccountID },
			func(c *client.StablecoinConversion) *string { return c.AccountID }),
	},
	metadata: flowMetadata[stablecoinConversionArgs, client.StablecoinConversion, client.StablecoinConversionRequest]{
		arg: func(a *stablecoinConversionArgs) *types.Map { return &a.Metadata },
		req: func(r *client.StablecoinConversionRequest) *map[string]string { return &r.Metadata },
		got: func(c *client.StablecoinConversion) map[string]string { return c.Metadata },
	},
	computed: stablecoinConversionShape.without("profile_id", "source_asset", "target_asset", "amount",
		"recipient_profile_id", "ref_id", "identity_id", "account_id", "metadata"),
	plan: flowPlan[stablecoinConversionArgs, client.StablecoinConversion]{
		moves:   stablecoinConversionArgs.moves,
		summary: stablecoinConversionArgs.summary,
	},
	create: flowCreate[stablecoinConversionArgs, client.StablecoinConversion, client.StablecoinConversionRequest]{
		post: func(ctx context.Context, c *client.Client, body client.StablecoinConversionRequest) (*client.StablecoinConversion, error) {
			return c.CreateStablecoinConversion(ctx, body)
		},
		existing: client.ExistingStablecoinConversion,
	},
	answer: flowAnswer[client.StablecoinConversion, client.StablecoinConversionRequest]{
		failed: func(c *client.StablecoinConversion) bool { return deref(c.Status) == stablecoinConversionCancelled },
	},
}
