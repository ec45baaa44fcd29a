package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// assetDecimals are the decimals of the smallest unit of well-known assets
// (a satoshi is 0.00000001 BTC, a wei 10^-18 ETH, a lamport 10^-9 SOL; the
// usual stablecoins have 6, fiat currencies 2). An amount more precise than
// its asset's smallest unit cannot be sent as written: the plan warns. The
// service publishes no precision of its own, so other assets are not
// checked and the service decides.
var assetDecimals = map[string]int{
	"BTC": 8, "ETH": 18, "SOL": 9, "USDC": 6, "USDT": 6, "PYUSD": 6, "USDP": 6, "USD": 2, "EUR": 2, "GBP": 2, "SGD": 2,
}

// decimalsOf is the number of digits after the dot of a plain decimal,
// trailing zeros aside ("0.50" has 1).
func decimalsOf(amount string) int {
	_, frac, ok := strings.Cut(amount, ".")
	if !ok {
		return 0
	}
	return len(strings.TrimRight(frac, "0"))
}

// precisionWarning warns at validation when an amount of a withdrawal has
// more decimals than its well-known asset's smallest unit.
type precisionWarning struct{}

var (
	_ resource.ConfigValidator = precisionWarning{}
	_ action.ConfigValidator   = precisionWarning{}
)

func (precisionWarning) Description(context.Context) string {
	return "amount and total have at most the decimals of their asset's smallest unit, when it is well known (BTC 8, ETH 18, SOL 9, USDC 6, USD 2, ...): a warning"
}

func (v precisionWarning) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v precisionWarning) ValidateResource(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	v.validate(ctx, req.Config, &resp.Diagnostics)
}

func (v precisionWarning) ValidateAction(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	v.validate(ctx, req.Config, &resp.Diagnostics)
}

func (precisionWarning) validate(ctx context.Context, cfg tfsdk.Config, diags *diag.Diagnostics) {
	var asset types.String
	if d := cfg.GetAttribute(ctx, path.Root("asset"), &asset); d.HasError() || asset.IsNull() || asset.IsUnknown() {
		return
	}
	key, ok := assetKey(asset.ValueString())
	if !ok {
		return
	}
	most, known := assetDecimals[key]
	if !known {
		return
	}
	for _, attr := range []string{"amount", "total"} {
		var v types.String
		if d := cfg.GetAttribute(ctx, path.Root(attr), &v); d.HasError() || v.IsNull() || v.IsUnknown() || !plainDecimal(v.ValueString()) {
			continue
		}
		if n := decimalsOf(v.ValueString()); n > most {
			diags.AddAttributeWarning(path.Root(attr), "Amount more precise than its asset",
				fmt.Sprintf("%s %s has %d decimals, and the smallest unit of %s has %d: the amount cannot be sent as "+
					"written, and the service may refuse it (nothing is sent then). Round it to %d decimals.", attr, quotedPrefix(v.ValueString()), n, key, most, most))
		}
	}
}
