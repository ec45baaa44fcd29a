package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/shopspring/decimal"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// The provider's one amount type. An amount is a decimal string of the
// spec's pattern (digits, at most one dot) and of at most maxDecimalLength
// characters. The configuration refuses anything else at validation; the
// guards, the requests and the comparison of answers parse only what
// passes (plainDecimal), and a figure that does not pass is refused by
// whatever reads it, never taken for zero.
//
// Spellings: any spelling of the pattern within the bound is accepted and
// judged by its value ("0005" and "5.000" are 5); the request carries the
// string exactly as configured, so what the service reads is what the
// guards judged. Changing only the spelling of an amount already sent is
// still a change of the argument, as it always was. Zero is refused where
// an amount moves money (amount, total).

// maxDecimalLength bounds the decimals the provider parses: no amount of
// the service is longer, and a longer one (a million digits in an answer)
// would take seconds to compare.
const maxDecimalLength = 64

// decimalRegexp is the spec's pattern of amounts.
var decimalRegexp = regexp.MustCompile(client.DecimalPattern)

// plainDecimal reports whether s is a decimal of the spec's pattern and of
// at most maxDecimalLength characters: the only strings parsed as decimals.
func plainDecimal(s string) bool {
	return len(s) <= maxDecimalLength && decimalRegexp.MatchString(s)
}

// parseAmount parses a plain decimal (see plainDecimal).
func parseAmount(s string) (decimal.Decimal, bool) {
	if !plainDecimal(s) {
		return decimal.Decimal{}, false
	}
	d, err := decimal.NewFromString(s)
	return d, err == nil
}

// quotedPrefix quotes s, cut to its first maxDecimalLength bytes.
func quotedPrefix(s string) string {
	if len(s) > maxDecimalLength {
		return fmt.Sprintf("%q… (%d characters)", s[:maxDecimalLength], len(s))
	}
	return fmt.Sprintf("%q", s)
}

// amountForm is the allowed form of an amount, as messages state it.
var amountForm = fmt.Sprintf("a decimal number written with digits and at most one dot, such as `0.5`, of at "+
	"most %d characters (pattern `%s`)", maxDecimalLength, client.DecimalPattern)

// amountValidator checks an amount: the pattern, the length and, when
// positive, a value above zero.
type amountValidator struct{ positive bool }

var _ validator.String = amountValidator{}

func decimalValidator() validator.String { return amountValidator{} }

// positiveAmountValidator is the validator of an amount that moves money.
func positiveAmountValidator() validator.String { return amountValidator{positive: true} }

func (v amountValidator) Description(context.Context) string {
	if v.positive {
		return "must be " + amountForm + ", above zero"
	}
	return "must be " + amountForm
}

func (v amountValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v amountValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	raw := req.ConfigValue.ValueString()
	d, ok := parseAmount(raw)
	if !ok || (v.positive && !d.IsPositive()) {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid amount",
			fmt.Sprintf("Attribute %s %s, got %s.", req.Path, v.Description(ctx), quotedPrefix(raw)))
	}
}

// assetRegexp is the form of an asset: letters and digits, such as BTC.
var assetRegexp = regexp.MustCompile(`^[A-Za-z0-9]{1,20}$`)

// assetKey is the asset as the guards compare it (upper case), and whether
// it is an asset at all.
func assetKey(asset string) (string, bool) {
	if !assetRegexp.MatchString(asset) {
		return "", false
	}
	return strings.ToUpper(asset), true
}

// assetValidator checks an asset's form.
type assetValidator struct{}

var _ validator.String = assetValidator{}

func (assetValidator) Description(context.Context) string {
	return "must be an asset code of 1 to 20 letters and digits, such as `BTC` (no spaces); the guards compare " +
		"assets in upper case"
}

func (v assetValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v assetValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if raw := req.ConfigValue.ValueString(); !assetRegexp.MatchString(raw) {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid asset",
			fmt.Sprintf("Attribute %s %s, got %s.", req.Path, v.Description(ctx), quotedPrefix(raw)))
	}
}
