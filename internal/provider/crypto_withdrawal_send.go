package provider

import (
	"context"
	"fmt"

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
	made:         "sent",
	path:         client.PathCryptoWithdrawals,
	scope:        client.ScopeWriteCryptoWithdrawal,
}

// derivedRefID is the ref_id derived from the arguments (see
// idempotent_create.go); ok is false when an argument is unknown.
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

// sendCryptoWithdrawal is the one call that sends a crypto withdrawal, for
// the resource and the action alike: it builds the request of args with
// refID (which overrides args.RefID), sends it, and sorts the answer (see
// createRun.run).
func sendCryptoWithdrawal(ctx context.Context, c *client.Client, args cryptoWithdrawalArgs, refID string) (createResult[*client.Transfer], diag.Diagnostics) {
	body, diags := args.request(ctx, refID)
	if diags.HasError() {
		return createResult[*client.Transfer]{}, diags
	}
	tflog.Info(ctx, "sending crypto withdrawal", map[string]any{
		"ref_id": refID, "asset": body.Asset, "crypto_network": body.CryptoNetwork,
		"amount": body.Amount, "total": body.Total,
	})
	res, d := createRun[*client.Transfer]{
		words: withdrawalWords,
		refID: refID,
		send: func(ctx context.Context) (*client.Transfer, error) {
			return c.CreateCryptoWithdrawal(ctx, body)
		},
		existing:    client.ExistingTransfer,
		differences: func(t *client.Transfer) []string { return withdrawalDifferences(body, t) },
		id:          func(t *client.Transfer) string { return t.ID },
	}.run(ctx)
	diags.Append(d...)
	if res.outcome == outcomeConfirmed || res.outcome == outcomeAdopted {
		tflog.Info(ctx, "crypto withdrawal recorded", map[string]any{"ref_id": refID, "id": res.obj.ID, "status": res.obj.Status})
	}
	return res, diags
}
