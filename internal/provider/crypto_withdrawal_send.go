package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/shopspring/decimal"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// withdrawalWords are the words of a crypto withdrawal's create.
var withdrawalWords = createWords{
	kind:         "crypto_withdrawal",
	resourceType: "platform_crypto_withdrawal",
	noun:         "crypto withdrawal",
	plural:       "crypto withdrawals",
	title:        "Crypto withdrawal",
	unknown:      "Outcome of crypto withdrawal unknown",
	made:         "sent",
	path:         client.PathCryptoWithdrawals,
	scope:        client.ScopeWriteCryptoWithdrawal,
}

// derivedRefID is the ref_id derived from the arguments (see
// money_core.go); ok is false when an argument is unknown.
func (a cryptoWithdrawalArgs) derivedRefID(ctx context.Context) (string, bool) {
	req, diags := a.request(ctx, "")
	if diags.HasError() {
		return "", false
	}
	return derivedRefID(withdrawalWords.kind, req)
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

// withdrawalKind is how the core reads crypto withdrawals: transfers,
// looked up at plan by ref_id through List Transfers (scope
// transfer:read_transfer).
var withdrawalKind = transferKind(withdrawalWords, client.TransferTypeCryptoWithdr)

// withdrawalSend is one send of a crypto withdrawal.
type withdrawalSend struct {
	args  cryptoWithdrawalArgs
	refID string
	// derived: refID was derived from the arguments; recorded: the state
	// of this run recorded an unconfirmed attempt with it.
	derived, recorded bool
}

// sendCryptoWithdrawal is the send of a crypto withdrawal, for the
// resource and the action alike, once the core passed it through the
// provider's withdrawal_guard (see sendMoney): it builds the request of
// s.args with s.refID (which overrides args.RefID), sends it, and sorts the
// answer (see createRun.run). With max_fee, a guaranteed fee is quoted
// first, and the fee the answer charged is checked too.
func sendCryptoWithdrawal(ctx context.Context, data *providerData, s withdrawalSend) (createResult[*client.Transfer], diag.Diagnostics) {
	body, diags := s.args.request(ctx, s.refID)
	if diags.HasError() {
		return createResult[*client.Transfer]{}, diags
	}
	maxFee := knownString(s.args.MaxFee)
	if maxFee == "" {
		res, d := runWithdrawal(ctx, data, s, body, nil)
		diags.Append(d...)
		return res, diags
	}
	// A guaranteed fee first, and the withdrawal only with a fee at most
	// max_fee; an expired quote is quoted again once.
	for attempt := 1; ; attempt++ {
		quote, ok := quoteWithinMaxFee(ctx, data, body, maxFee, &diags)
		if !ok {
			return createResult[*client.Transfer]{}, diags
		}
		body.FeeID = quote.ID
		var lastErr error
		res, d := runWithdrawal(ctx, data, s, body, &lastErr)
		if attempt == 1 && res.outcome == outcomeRefused && client.IsExpiredFee(lastErr) {
			tflog.Info(ctx, "guaranteed fee expired before the withdrawal, quoting again", map[string]any{
				"ref_id": s.refID, "fee_id": quote.ID})
			continue
		}
		diags.Append(d...)
		if res.outcome == outcomeConfirmed || res.outcome == outcomeAdopted {
			checkChargedFee(res, quote, maxFee, &diags)
		}
		return res, diags
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
func quoteWithinMaxFee(ctx context.Context, data *providerData, body client.CryptoWithdrawalRequest, maxFee string, diags *diag.Diagnostics) (*client.CryptoWithdrawalFee, bool) {
	q, err := data.client.CreateCryptoWithdrawalFee(ctx, client.CryptoWithdrawalFeeRequest{
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

// runWithdrawal sends body through the core (see createRun.run); lastErr,
// when given, receives the error of the last send.
func runWithdrawal(ctx context.Context, data *providerData, s withdrawalSend, body client.CryptoWithdrawalRequest, lastErr *error) (createResult[*client.Transfer], diag.Diagnostics) {
	tflog.Info(ctx, "sending crypto withdrawal", map[string]any{
		"ref_id": s.refID, "asset": body.Asset, "crypto_network": body.CryptoNetwork,
		"amount": body.Amount, "total": body.Total,
	})
	res, diags := createRun[*client.Transfer]{
		kind:     withdrawalKind,
		refID:    s.refID,
		derived:  s.derived,
		recorded: s.recorded,
		window:   data.recoveryWindow,
		now:      data.clock(),
		send: func(ctx context.Context) (*client.Transfer, error) {
			t, err := data.client.CreateCryptoWithdrawal(ctx, body)
			if lastErr != nil {
				*lastErr = err
			}
			return t, err
		},
		existing:    client.ExistingTransfer,
		differences: func(t *client.Transfer) []string { return withdrawalDifferences(body, t) },
	}.run(ctx)
	if res.outcome == outcomeConfirmed || res.outcome == outcomeAdopted {
		tflog.Info(ctx, "crypto withdrawal recorded", map[string]any{"ref_id": s.refID, "id": res.obj.ID, "status": res.obj.Status})
	}
	return res, diags
}

// withdrawalDifferences lists how the transfer t differs from the
// withdrawal request req: profile, asset, network, destination, amount or
// total (by decimal value), metadata and ref_id, and every optional
// argument the request set (identity, account, balance asset, memo), which
// must come back equal; its fee, amount and total must be non-negative
// decimals with amount + fee = total, its type a crypto withdrawal and its
// direction a debit.
func withdrawalDifferences(req client.CryptoWithdrawalRequest, t *client.Transfer) []string {
	var d []string
	d = differ(d, "profile_id", req.ProfileID, &t.ProfileID, exactly)
	d = differ(d, "asset", req.Asset, &t.Asset, strings.EqualFold)
	d = differ(d, "crypto_network", req.CryptoNetwork, t.CryptoNetwork, strings.EqualFold)
	d = differ(d, "destination_address", req.DestinationAddress, t.DestinationAddress, exactly)
	if req.Amount != "" {
		d = differ(d, "amount", req.Amount, &t.Amount, decimalEqual)
	}
	if req.Total != "" {
		d = differ(d, "total", req.Total, &t.Total, decimalEqual)
	}
	if req.RefID != "" {
		d = differ(d, "ref_id", req.RefID, t.RefID, exactly)
	}
	// An optional argument that was sent must come back equal: the memo is
	// part of the destination on the networks that take one.
	for _, opt := range []struct {
		field     string
		requested string
		answered  *string
	}{
		{"identity_id", req.IdentityID, t.IdentityID},
		{"account_id", req.AccountID, t.AccountID},
		{"balance_asset", req.BalanceAsset, t.BalanceAsset},
		{"memo", req.Memo, t.Memo},
	} {
		if opt.requested != "" {
			d = differ(d, opt.field, opt.requested, opt.answered, exactly)
		}
	}
	if req.Memo == "" && t.Memo != nil && *t.Memo != "" {
		d = append(d, fmt.Sprintf("memo: requested none, answered %q", shown(*t.Memo)))
	}
	if t.Type != client.TransferTypeCryptoWithdr {
		d = append(d, fmt.Sprintf("type: answered %q, a crypto withdrawal is a %s", shown(t.Type), client.TransferTypeCryptoWithdr))
	}
	if why := unusableID(t.ID); why != "" {
		d = append(d, "id: answered "+why)
	}
	if m := metadataDifference(req.Metadata, t.Metadata); m != "" {
		d = append(d, m)
	}
	valid := true
	for _, f := range []struct{ name, v string }{{"fee", t.Fee}, {"amount", t.Amount}, {"total", t.Total}} {
		if !nonNegativeDecimal(f.v) {
			d = append(d, fmt.Sprintf("%s: answered %s, not a non-negative decimal of at most %d characters",
				f.name, quotedPrefix(f.v), maxDecimalLength))
			valid = false
		}
	}
	if valid {
		amount, fee, total := decimal.RequireFromString(t.Amount), decimal.RequireFromString(t.Fee), decimal.RequireFromString(t.Total)
		if !amount.Add(fee).Equal(total) {
			d = append(d, fmt.Sprintf("total: answered %s, but amount %s plus fee %s is %s", t.Total, t.Amount,
				t.Fee, amount.Add(fee)))
		}
	}
	if !strings.EqualFold(t.Direction, "DEBIT") {
		d = append(d, fmt.Sprintf("direction: answered %q, a withdrawal is a DEBIT", shown(t.Direction)))
	}
	return d
}
