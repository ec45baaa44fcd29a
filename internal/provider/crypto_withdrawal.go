package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// A crypto withdrawal: a transfer (see transfer.go) of type
// CRYPTO_WITHDRAWAL, made by POST /transfer/crypto-withdrawals from the
// arguments below (the model the rows of cryptoWithdrawalFlow read and
// write, for the resource and the action), and sent under max_fee with a
// guaranteed fee quoted first (sendWithinMaxFee).

// cryptoWithdrawalArgs are the arguments of a crypto withdrawal.
type cryptoWithdrawalArgs struct {
	ProfileID          types.String         `tfsdk:"profile_id"`
	DestinationAddress types.String         `tfsdk:"destination_address"`
	Asset              types.String         `tfsdk:"asset"`
	CryptoNetwork      types.String         `tfsdk:"crypto_network"`
	Amount             types.String         `tfsdk:"amount"`
	Total              types.String         `tfsdk:"total"`
	RefID              types.String         `tfsdk:"ref_id"`
	IdentityID         types.String         `tfsdk:"identity_id"`
	AccountID          types.String         `tfsdk:"account_id"`
	BalanceAsset       types.String         `tfsdk:"balance_asset"`
	Metadata           types.Map            `tfsdk:"metadata"`
	FeeID              types.String         `tfsdk:"fee_id"`
	Beneficiary        jsontypes.Normalized `tfsdk:"beneficiary"`
	Memo               types.String         `tfsdk:"memo"`
	MaxFee             types.String         `tfsdk:"max_fee"`
}

// summary describes the withdrawal of a in a few words, for messages.
func (a cryptoWithdrawalArgs) summary() string {
	what := knownString(a.Amount) + " " + knownString(a.Asset)
	if knownString(a.Amount) == "" {
		what = "total " + knownString(a.Total) + " " + knownString(a.Asset)
	}
	return fmt.Sprintf("%s on %s to %s from profile %s", what, knownString(a.CryptoNetwork),
		knownString(a.DestinationAddress), knownString(a.ProfileID))
}

// moneyKindCryptoWithdrawal is the money.kind of a crypto withdrawal.
var moneyKindCryptoWithdrawal = movementKind("crypto_withdrawal", "")

// withdrawalMovement is what the withdrawal of a moves: its amount, or its
// total when it sets total, to its destination address.
func withdrawalMovement(a cryptoWithdrawalArgs) movement {
	amount, figure := moneyFigure(a.Amount, a.Total)
	return movement{kind: moneyKindCryptoWithdrawal, asset: a.Asset, amount: amount, figureName: figure,
		from: a.ProfileID, debits: a.BalanceAsset, to: a.DestinationAddress, address: a.DestinationAddress, network: a.CryptoNetwork,
		identity: a.IdentityID, fiatAccount: types.StringNull(), limitTypes: []string{client.TransferTypeCryptoWithdr},
		what: a.summary()}
}

// postCryptoWithdrawal posts the withdrawal body.
func postCryptoWithdrawal(ctx context.Context, c *client.Client, body client.CryptoWithdrawalRequest) (*client.Transfer, error) {
	return c.CreateCryptoWithdrawal(ctx, body)
}

// sendWithinMaxFee is the send of a crypto withdrawal (cryptoWithdrawalFlow.create.send),
// for the resource and the action alike: with max_fee, a guaranteed fee is
// quoted first, the withdrawal is posted only with a fee at most max_fee
// (an expired quote is quoted again once), and the fee the answer charged
// is checked too; without, body is posted as it is.
func sendWithinMaxFee(ctx context.Context, run *moneyRun, a cryptoWithdrawalArgs, body client.CryptoWithdrawalRequest, post corePost[client.CryptoWithdrawalRequest, *client.Transfer]) (createResult[*client.Transfer], diag.Diagnostics) {
	maxFee := knownString(a.MaxFee)
	if maxFee == "" {
		return post(ctx, body, nil)
	}
	var diags diag.Diagnostics
	for attempt := 1; ; attempt++ {
		quote, ok := quoteWithinMaxFee(ctx, run, body, maxFee, &diags)
		if !ok {
			return createResult[*client.Transfer]{}, diags
		}
		body.FeeID = quote.ID
		var lastErr error
		res, d := post(ctx, body, &lastErr)
		if attempt == 1 && res.outcome == outcomeRefused && client.IsExpiredFee(lastErr) {
			tflog.Info(ctx, "guaranteed fee expired before the withdrawal, quoting again", map[string]any{
				"ref_id": body.RefID, "fee_id": quote.ID})
			continue
		}
		diags.Append(d...)
		if res.outcome == outcomeConfirmed || res.outcome == outcomeAdopted {
			checkChargedFee(res, quote, maxFee, &diags)
		}
		return res, diags
	}
}

// checkFoundFee checks the fee of a withdrawal recorded without sending
// (cryptoWithdrawalFlow.create.found) against its max_fee.
func checkFoundFee(a cryptoWithdrawalArgs, res createResult[*client.Transfer], diags *diag.Diagnostics) {
	if maxFee := knownString(a.MaxFee); maxFee != "" {
		checkChargedFee(res, nil, maxFee, diags)
	}
}

// checkChargedFee compares the fee the service charged a withdrawal sent
// under max_fee with max_fee and, when this send made it, with the quote
// it carried (quote is nil for a transfer recorded without sending): a
// service that ignored the fee_id (or answered a fee it cannot justify)
// fails the apply loudly. The transfer was sent: it is
// recorded all the same, and the error names the difference.
func checkChargedFee(res createResult[*client.Transfer], quote *client.CryptoWithdrawalFee, maxFee string, diags *diag.Diagnostics) {
	t := res.obj
	limit, _ := parseAmount(maxFee)
	fee, ok := parseAmount(t.Fee)
	var problem string
	switch {
	case !ok:
		problem = fmt.Sprintf("the answer's fee %s is not a decimal, so it cannot be compared with max_fee %s",
			quotedPrefix(shown(t.Fee)), limit)
	case fee.GreaterThan(limit):
		problem = fmt.Sprintf("the service charged the fee %s %s, %s above max_fee %s", fee, t.Asset,
			fee.Sub(limit), limit)
	case res.outcome == outcomeConfirmed && quote != nil && !decimalEqual(t.Fee, quote.Fee):
		problem = fmt.Sprintf("the service charged the fee %s %s, not the guaranteed fee %s of the quote %s it "+
			"was sent with (a difference of %s)", fee, t.Asset, quote.Fee, quote.ID, differenceOf(t.Fee, quote.Fee))
	default:
		return
	}
	diags.AddAttributeError(path.Root("max_fee"), "Crypto withdrawal sent with a fee it was not allowed",
		fmt.Sprintf("The withdrawal %s (ref_id %s) was sent, and %s.\n\nThe transfer is recorded as it is: "+
			"nothing is sent again for it, since every retry carries the same ref_id. Take the fee up with the "+
			"service. A resource is left tainted by this error: to accept the transfer as it is, run terraform "+
			"untaint on it; a replacement sends nothing new for it (the same ref_id) and fails the same way.",
			shown(t.ID), shown(deref(t.RefID)), problem))
}

// differenceOf is a minus b, both decimals.
func differenceOf(a, b string) string {
	x, _ := parseAmount(a)
	y, _ := parseAmount(b)
	return x.Sub(y).String()
}

// quoteWithinMaxFee asks for a guaranteed fee for body and reports whether
// it is at most maxFee; otherwise the error names both figures.
func quoteWithinMaxFee(ctx context.Context, run *moneyRun, body client.CryptoWithdrawalRequest, maxFee string, diags *diag.Diagnostics) (*client.CryptoWithdrawalFee, bool) {
	q, err := run.client.CreateCryptoWithdrawalFee(ctx, client.CryptoWithdrawalFeeRequest{
		Asset: body.Asset, DestinationAddress: body.DestinationAddress, CryptoNetwork: body.CryptoNetwork,
		Amount: body.Amount, Total: body.Total,
	})
	if err != nil {
		hint := ""
		if scopeRefused(err) {
			hint = " Quoting needs the OAuth scope " + client.ScopeWriteWithdrawalFee + "; have it granted to the " +
				"client credentials (and, if the provider's scopes argument pins the token's scopes, include it there)."
		}
		diags.AddAttributeError(path.Root("max_fee"), failure("Crypto withdrawal not sent: no guaranteed fee", err),
			fmt.Sprintf("max_fee is set, so the withdrawal (ref_id %s) is sent only with a guaranteed fee, and "+
				"quoting one failed: %s.%s Nothing was sent.", body.RefID, err, hint))
		return nil, false
	}
	limit, _ := parseAmount(maxFee)
	fee, ok := parseAmount(q.Fee)
	switch {
	case !ok:
		diags.AddAttributeError(path.Root("max_fee"), "Crypto withdrawal not sent: unreadable guaranteed fee",
			fmt.Sprintf("The service quoted the fee %s, which is not a decimal, for the withdrawal with ref_id %s. "+
				"Nothing was sent.", quotedPrefix(q.Fee), body.RefID))
		return nil, false
	case !strings.EqualFold(q.Asset, body.Asset):
		diags.AddAttributeError(path.Root("max_fee"), "Crypto withdrawal not sent: guaranteed fee for another asset",
			fmt.Sprintf("The service quoted a fee in %s for a withdrawal of %s (ref_id %s). Nothing was sent.",
				shown(q.Asset), body.Asset, body.RefID))
		return nil, false
	case fee.GreaterThan(limit):
		diags.AddAttributeError(path.Root("max_fee"), "Crypto withdrawal not sent: fee above max_fee",
			fmt.Sprintf("The service's guaranteed fee for this withdrawal (ref_id %s) is %s %s, above max_fee %s %s. "+
				"Nothing was sent. Apply again later, or raise max_fee if that fee is acceptable.",
				body.RefID, fee, body.Asset, limit, body.Asset))
		return nil, false
	}
	tflog.Info(ctx, "guaranteed fee within max_fee", map[string]any{"ref_id": body.RefID, "fee_id": q.ID,
		"fee": q.Fee, "max_fee": maxFee})
	return q, true
}
