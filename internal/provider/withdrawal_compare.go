package provider

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// What the service confirms must be what was asked: the answer of a create
// (or the object a replay answer reports) is compared with the request
// before the provider records it.

// differ appends "field: requested r, answered a" to d when the two differ.
func differ(d []string, field, requested string, answered *string, equal func(a, b string) bool) []string {
	switch {
	case answered == nil:
		return append(d, fmt.Sprintf("%s: requested %q, answered none", field, requested))
	case !equal(requested, *answered):
		return append(d, fmt.Sprintf("%s: requested %q, answered %q", field, requested, shown(*answered)))
	}
	return d
}

func exactly(a, b string) bool { return a == b }

// decimalEqual compares two decimal strings by value, so that "0.50" and
// "0.5" are equal; an invalid one (or one too long) equals nothing and is
// never parsed.
func decimalEqual(a, b string) bool {
	if !plainDecimal(a) || !plainDecimal(b) {
		return false
	}
	x, err1 := decimal.NewFromString(a)
	y, err2 := decimal.NewFromString(b)
	return err1 == nil && err2 == nil && x.Equal(y)
}

// nonNegativeDecimal reports whether s is a valid decimal of at least zero,
// checked against the spec's pattern and the length cap before it is
// parsed.
func nonNegativeDecimal(s string) bool {
	if !plainDecimal(s) {
		return false
	}
	d, err := decimal.NewFromString(s)
	return err == nil && !d.IsNegative()
}

// maxIDLength bounds the ids the provider records: no id of the service is
// longer.
const maxIDLength = 256

// unusableID says why an answered id cannot be recorded (empty, too long,
// or holding control or invisible characters), or "".
func unusableID(id string) string {
	switch {
	case id == "":
		return "none"
	case len(id) > maxIDLength:
		return fmt.Sprintf("%q, longer than %d characters", shown(id), maxIDLength)
	case !utf8.ValidString(id) || strings.ContainsFunc(id, unsafeRune):
		return fmt.Sprintf("%q, which holds control or invisible characters", shown(id))
	}
	return ""
}

// metadataDifference describes how two metadata maps differ, or "".
func metadataDifference(requested, answered map[string]string) string {
	if maps.Equal(requested, answered) || (len(requested) == 0 && len(answered) == 0) {
		return ""
	}
	render := func(m map[string]string) string {
		keys := slices.Sorted(maps.Keys(m))
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%s=%q", k, m[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprintf("metadata: requested %s, answered %s", render(requested), render(answered))
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
