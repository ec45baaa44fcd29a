package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

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
var withdrawalKind = moneyKind[*client.Transfer]{
	words:       withdrawalWords,
	id:          func(t *client.Transfer) string { return t.ID },
	createdAt:   func(t *client.Transfer) time.Time { return t.CreatedAt },
	describe:    transferSummary,
	lookup:      lookupWithdrawal,
	lookupScope: client.ScopeReadTransfer,
}

// transferSummary describes a transfer in a few words, its text as it
// may be shown (see shown).
func transferSummary(t *client.Transfer) string {
	what := t.Amount + " " + t.Asset
	if t.Type != "" && t.Type != client.TransferTypeCryptoWithdr {
		what = t.Type + " of " + what
	}
	if t.CryptoNetwork != nil {
		what += " on " + *t.CryptoNetwork
	}
	if t.DestinationAddress != nil {
		what += " to " + *t.DestinationAddress
	}
	if t.Memo != nil {
		what += " (memo " + *t.Memo + ")"
	}
	return shown(what + " from profile " + t.ProfileID)
}

// lookupWithdrawal finds the crypto withdrawal made with refID. The answer
// is not trusted to have applied the filters: only a withdrawal with that
// ref_id counts.
func lookupWithdrawal(ctx context.Context, c *client.Client, refID string) (*client.Transfer, bool, error) {
	q := client.ListTransfersQuery{RefIDs: []string{refID}, Types: []string{client.TransferTypeCryptoWithdr}, MaxItems: 100}
	for t, err := range c.Transfers(ctx, q) {
		if err != nil {
			return nil, false, err
		}
		if deref(t.RefID) == refID && t.Type == client.TransferTypeCryptoWithdr {
			return t, true, nil
		}
	}
	return nil, false, nil
}

// deref is *p, or "" for nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// withdrawalSend is one send of a crypto withdrawal.
type withdrawalSend struct {
	args  cryptoWithdrawalArgs
	refID string
	// derived: refID was derived from the arguments; recorded: the state
	// of this run recorded an unconfirmed attempt with it.
	derived, recorded bool
}

// sendCryptoWithdrawal is the one call that sends a crypto withdrawal, for
// the resource and the action alike: it builds the request of s.args with
// s.refID (which overrides args.RefID), sends it, and sorts the answer (see
// createRun.run).
func sendCryptoWithdrawal(ctx context.Context, data *providerData, s withdrawalSend) (createResult[*client.Transfer], diag.Diagnostics) {
	body, diags := s.args.request(ctx, s.refID)
	if diags.HasError() {
		return createResult[*client.Transfer]{}, diags
	}
	tflog.Info(ctx, "sending crypto withdrawal", map[string]any{
		"ref_id": s.refID, "asset": body.Asset, "crypto_network": body.CryptoNetwork,
		"amount": body.Amount, "total": body.Total,
	})
	res, d := createRun[*client.Transfer]{
		kind:     withdrawalKind,
		refID:    s.refID,
		derived:  s.derived,
		recorded: s.recorded,
		window:   data.recoveryWindow,
		now:      data.clock(),
		send: func(ctx context.Context) (*client.Transfer, error) {
			return data.client.CreateCryptoWithdrawal(ctx, body)
		},
		existing:    client.ExistingTransfer,
		differences: func(t *client.Transfer) []string { return withdrawalDifferences(body, t) },
	}.run(ctx)
	diags.Append(d...)
	if res.outcome == outcomeConfirmed || res.outcome == outcomeAdopted {
		tflog.Info(ctx, "crypto withdrawal recorded", map[string]any{"ref_id": s.refID, "id": res.obj.ID, "status": res.obj.Status})
	}
	return res, diags
}
