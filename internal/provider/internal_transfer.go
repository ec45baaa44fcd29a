package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// An internal transfer between two profiles of the customer: the debit
// side the service answers POST /transfer/internal with (a transfer of
// type INTERNAL_TRANSFER_DEBIT), and the credit side of the same group,
// where List Transfers shows it.

// internalTransfer is both sides of an internal transfer; credit is nil
// where the service does not show it.
type internalTransfer struct {
	client.Transfer
	credit *client.Transfer
}

// internalTransferArgs are the arguments of an internal transfer.
type internalTransferArgs struct {
	FromProfileID types.String `tfsdk:"from_profile_id"`
	ToProfileID   types.String `tfsdk:"to_profile_id"`
	Asset         types.String `tfsdk:"asset"`
	Amount        types.String `tfsdk:"amount"`
	RefID         types.String `tfsdk:"ref_id"`
	IdentityID    types.String `tfsdk:"identity_id"`
	AccountID     types.String `tfsdk:"account_id"`
	Metadata      types.Map    `tfsdk:"metadata"`
}

// summary describes the transfer of a in a few words, for messages.
func (a internalTransferArgs) summary() string {
	return fmt.Sprintf("%s %s from profile %s to profile %s", knownString(a.Amount), knownString(a.Asset),
		knownString(a.FromProfileID), knownString(a.ToProfileID))
}

// moneyKindInternalTransfer is the money.kind of an internal transfer.
var moneyKindInternalTransfer = movementKind("internal_transfer", "")

// moves is what the transfer of a moves: its amount to another profile of
// the customer's.
func (a internalTransferArgs) moves() movement {
	null := types.StringNull()
	return movement{kind: moneyKindInternalTransfer, asset: a.Asset, amount: a.Amount, figureName: "amount",
		from: a.FromProfileID, to: a.ToProfileID, address: null, network: null, identity: null, fiatAccount: null,
		limitTypes: []string{client.TransferTypeInternalDebit}, what: a.summary()}
}

// internalTransferShape is what the resource computes: the debit side less
// the arguments, and the credit side's id.
var internalTransferShape = append(
	shapeVia(transferShape.without("profile_id", "asset", "amount", "ref_id", "identity_id", "account_id", "metadata"),
		func(t *internalTransfer) *client.Transfer { return &t.Transfer }),
	stringField("credit_transfer_id", "The credit side of the transfer, in the receiving profile (a transfer of "+
		"type `INTERNAL_TRANSFER_CREDIT` of the same `group_id`); null while the service does not list it.",
		func(t *internalTransfer) *string {
			if t.credit == nil {
				return nil
			}
			return &t.credit.ID
		}),
)

// withCredit is the internal transfer of the debit side t, with its credit
// side where the service lists it (List Transfers by ref_id): the
// transfer of type INTERNAL_TRANSFER_CREDIT of the same group.
func withCredit(ctx context.Context, c *client.Client, t *client.Transfer) (*internalTransfer, error) {
	it := &internalTransfer{Transfer: *t}
	if t.RefID == nil || t.GroupID == nil {
		return it, nil
	}
	// ref_ids combines with no type filter: the type is checked here.
	q := client.ListTransfersQuery{RefIDs: []string{*t.RefID}, MaxItems: 100}
	for other, err := range c.Transfers(ctx, q) {
		if err != nil {
			return it, err
		}
		if other.Type == client.TransferTypeInternalCredit && deref(other.GroupID) == *t.GroupID &&
			deref(other.RefID) == *t.RefID {
			it.credit = other
			return it, nil
		}
	}
	return it, nil
}

// internalTransferObjects is how the core reads internal transfers: the debit
// side by id, looked up by ref_id among the debits of List Transfers.
var internalTransferObjects = moneyObjects[*internalTransfer]{
	words:     internalTransferWords,
	id:        func(t *internalTransfer) string { return t.ID },
	createdAt: func(t *internalTransfer) time.Time { return t.CreatedAt },
	describe:  func(t *internalTransfer) string { return transferSummary(&t.Transfer) },
	status:    func(t *internalTransfer) string { return t.Status },
	lookup: func(ctx context.Context, c *client.Client, refID string) (*internalTransfer, bool, error) {
		t, found, err := transferLookup(client.TransferTypeInternalDebit)(ctx, c, refID)
		if !found || err != nil {
			return nil, found, err
		}
		it, _ := withCredit(ctx, c, t)
		return it, true, nil
	},
	get:       getInternalTransfer,
	readScope: client.ScopeReadTransfer,
	lists:     internalTransferLists,
	// Completed or failed, with its credit side recorded: an internal
	// transfer whose credit side the service did not list yet is read
	// until it does.
	final: func(recorded func(string) string) bool {
		return transferFinal(recorded) && recorded("credit_transfer_id") != ""
	},
}

// internalTransferLists reads many internal transfers at once through
// List Transfers, each list read to its end, as the lookup and the read of
// one take them: by ref_ids, the first INTERNAL_TRANSFER_DEBIT of each
// ref_id, with its credit side from the same answer (both sides carry the
// ref_id); by ids, the transfers with the ids, then the credit sides of
// those that have a ref_id and a group in one more list of their ref_ids.
// A credit side is an INTERNAL_TRANSFER_CREDIT of the same ref_id and
// group_id, as withCredit takes it.
var internalTransferLists = &objectLists[*internalTransfer]{
	byRefIDs: func(ctx context.Context, c *client.Client, refIDs []string) (map[string]*internalTransfer, error) {
		all, err := transfersListed(ctx, c, client.ListTransfersQuery{RefIDs: refIDs})
		if err != nil {
			return nil, err
		}
		asked := make(map[string]bool, len(refIDs))
		for _, r := range refIDs {
			asked[r] = true
		}
		out := map[string]*internalTransfer{}
		for _, t := range all {
			r := deref(t.RefID)
			if t.Type == client.TransferTypeInternalDebit && asked[r] && out[r] == nil {
				out[r] = pairedWithCredit(t, all)
			}
		}
		return out, nil
	},
	byIDs: func(ctx context.Context, c *client.Client, ids []string) (map[string]*internalTransfer, error) {
		found, err := transfersBy(ctx, c, client.ListTransfersQuery{IDs: ids}, ids, func(t *client.Transfer) string { return t.ID })
		if err != nil {
			return nil, err
		}
		var refs []string
		for _, t := range found {
			if t.RefID != nil && t.GroupID != nil && !slices.Contains(refs, *t.RefID) {
				refs = append(refs, *t.RefID)
			}
		}
		var sides []*client.Transfer
		if len(refs) > 0 {
			if sides, err = transfersListed(ctx, c, client.ListTransfersQuery{RefIDs: refs}); err != nil {
				return nil, err
			}
		}
		out := make(map[string]*internalTransfer, len(found))
		for id, t := range found {
			out[id] = pairedWithCredit(t, sides)
		}
		return out, nil
	},
}

// pairedWithCredit is the internal transfer of t with its credit side
// among sides, as withCredit finds it.
func pairedWithCredit(t *client.Transfer, sides []*client.Transfer) *internalTransfer {
	it := &internalTransfer{Transfer: *t}
	if t.RefID == nil || t.GroupID == nil {
		return it
	}
	for _, other := range sides {
		if other.Type == client.TransferTypeInternalCredit && deref(other.GroupID) == *t.GroupID &&
			deref(other.RefID) == *t.RefID {
			it.credit = other
			break
		}
	}
	return it
}

// postInternalTransfer sends the transfer; its credit side is read after,
// and not finding it fails nothing: the transfer was made.
func postInternalTransfer(ctx context.Context, c *client.Client, body client.InternalTransferRequest) (*internalTransfer, error) {
	t, err := c.CreateInternalTransfer(ctx, body)
	if err != nil {
		return nil, err
	}
	it, err := withCredit(ctx, c, t)
	if err != nil {
		tflog.Warn(ctx, "credit side of the internal transfer not read", map[string]any{"id": t.ID, "error": err.Error()})
	}
	return it, nil
}

// getInternalTransfer reads both sides of the transfer id.
func getInternalTransfer(ctx context.Context, c *client.Client, id string) (*internalTransfer, error) {
	t, err := c.GetTransfer(ctx, id)
	if err != nil {
		return nil, err
	}
	return withCredit(ctx, c, t)
}

// existingInternalTransfer is the transfer a 409 reports as made earlier
// with the ref_id; its credit side is not read.
func existingInternalTransfer(err error) (*internalTransfer, bool) {
	t, ok := client.ExistingTransfer(err)
	if !ok {
		return nil, false
	}
	return &internalTransfer{Transfer: *t}, true
}

// internalTransferInvariants lists how the transfer t breaks what an
// answer to req must keep: the figures of its debit side, and, where the
// service lists it, a credit side that says CREDIT, of the requested asset
// and amount, with a usable id.
func internalTransferInvariants(req client.InternalTransferRequest, t *internalTransfer) []string {
	d := transferFigures(&t.Transfer)
	c := t.credit
	if c == nil {
		return d
	}
	if !strings.EqualFold(c.Direction, "CREDIT") {
		d = append(d, fmt.Sprintf("credit side direction: %q, not CREDIT", shown(c.Direction)))
	}
	d = differ(d, "credit side asset", req.Asset, &c.Asset, strings.EqualFold)
	d = differ(d, "credit side amount", req.Amount, &c.Amount, decimalEqual)
	if why := unusableID(c.ID); why != "" {
		d = append(d, "credit side id: answered "+why)
	}
	return d
}

// internalTransferUnverified says what of t could not be checked: a credit
// side the service does not list (its profile, asset, amount and status),
// or one whose status says the money did not arrive.
func internalTransferUnverified(t *internalTransfer) []string {
	c := t.credit
	switch {
	case c == nil:
		return []string{"credit side: the service does not list it (yet), so the receiving profile, the asset, " +
			"the amount and the status of the credit were not checked; a refresh checks them once it is listed, " +
			"and credit_transfer_id stays null until then."}
	case transferFailed(c) && !transferFailed(&t.Transfer):
		return []string{fmt.Sprintf("credit side %s: status %s while the debit %s is %s: the service reports that "+
			"the money left profile %s but did not reach profile %s. Check the transfer with the service.",
			shown(c.ID), shown(c.Status), shown(t.ID), shown(t.Status), shown(t.ProfileID), shown(c.ProfileID))}
	}
	return nil
}

// internalTransferWords are the words of an internal transfer.
var internalTransferWords = createWords{
	refNamespace: "internal_transfer",
	resourceType: "platform_internal_transfer",
	noun:         "internal transfer",
	made:         "sent",
	path:         client.PathInternalTransfers,
	scope:        client.ScopeWriteInternalTransfer,
}.filled()
