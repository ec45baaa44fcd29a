package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// assetDecimals are the decimals of the smallest unit of the assets whose
// unit is fixed and published: a native coin's by its network (a satoshi is
// 0.00000001 BTC, a wei 10^-18 ETH, a lamport 10^-9 SOL), the service's
// stablecoins' by their issuers (6), fiat currencies' by the service (its
// reference holds fiat amounts to 2 decimals). The service refuses a finer
// amount ("Exceeds Maximum Precision Allowed", as its reference shows for
// ETH and 18), so such an amount cannot be right: it is an error at plan,
// before anything is sent. An asset not listed here is not checked: the
// service decides.
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

// amountPrecision refuses an amount with more decimals than the smallest
// unit of its asset (assetDecimals), read from the attribute asset. The
// same validator checks the arguments of the resource and of the action.
type amountPrecision struct{ asset path.Path }

var _ validator.String = amountPrecision{}

// amountPrecisionOf is the check of an amount whose asset is the root
// attribute asset.
func amountPrecisionOf(asset string) amountPrecision {
	return amountPrecision{asset: path.Root(asset)}
}

func (v amountPrecision) Description(context.Context) string {
	return "at most the decimals of the smallest unit of " + v.asset.String() +
		" (BTC 8, ETH 18, SOL 9, USDC, USDT, PYUSD and USDP 6, USD, EUR, GBP and SGD 2; other assets are not checked)"
}

func (v amountPrecision) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v amountPrecision) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || !plainDecimal(req.ConfigValue.ValueString()) {
		return
	}
	var asset types.String
	if d := req.Config.GetAttribute(ctx, v.asset, &asset); d.HasError() || asset.IsNull() || asset.IsUnknown() {
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
	if n := decimalsOf(req.ConfigValue.ValueString()); n > most {
		resp.Diagnostics.AddAttributeError(req.Path, "Amount more precise than its asset",
			fmt.Sprintf("%s %s has %d decimals, and the smallest unit of %s has %d: the service refuses it, "+
				"and nothing is sent. Round it to at most %d decimals.",
				req.Path, quotedPrefix(req.ConfigValue.ValueString()), n, key, most, most))
	}
}
