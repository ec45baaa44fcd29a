package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/shopspring/decimal"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// A transfer (GET /transfer/transfers/{id}): one shape, the single source
// of its computed attributes in platform_transfer, in the items of
// platform_transfers, and in platform_crypto_withdrawal (resource and list
// resource), where the fields that are arguments are left out. Adding a
// computed field to a transfer is one line here.
var transferShape = objectShape[client.Transfer]{
	requiredString("id", "Transfer id.", func(t *client.Transfer) string { return t.ID }),
	stringField("ref_id", "Client-specified id the transfer was made with.", func(t *client.Transfer) *string { return t.RefID }),
	requiredString("profile_id", "Profile of the transfer.", func(t *client.Transfer) string { return t.ProfileID }),
	stringField("identity_id", "Identity of the user, for third-party integrations; null when none.", func(t *client.Transfer) *string { return t.IdentityID }),
	stringField("account_id", "Account of that identity; null when none.", func(t *client.Transfer) *string { return t.AccountID }),
	requiredString("amount", "Amount moved, as a decimal string.", func(t *client.Transfer) string { return t.Amount }),
	requiredString("total", "Total debited or credited, fee included, as a decimal string.", func(t *client.Transfer) string { return t.Total }),
	requiredString("fee", "Fee, as a decimal string.", func(t *client.Transfer) string { return t.Fee }),
	requiredString("asset", "Asset of the transfer, for example `BTC` or `USD`.", func(t *client.Transfer) string { return t.Asset }),
	stringField("balance_asset", "Asset balance debited, for the service-issued USD stablecoin; null otherwise.", func(t *client.Transfer) *string { return t.BalanceAsset }),
	requiredString("direction", "`DEBIT` or `CREDIT`.", func(t *client.Transfer) string { return t.Direction }),
	requiredString("type", "Type of the transfer, for example `CRYPTO_WITHDRAWAL`, `CRYPTO_DEPOSIT` or `WIRE_DEPOSIT`.", func(t *client.Transfer) string { return t.Type }),
	requiredString("status", "`PENDING`, `COMPLETED` or `FAILED`.", func(t *client.Transfer) string { return t.Status }),
	jsonField("secondary_status", "More granular explanation of the status.", func(t *client.Transfer) json.RawMessage { return t.SecondaryStatus }),
	jsonField("status_details", "Why the transfer is in its state, for specific error conditions.", func(t *client.Transfer) json.RawMessage { return t.StatusDetails }),
	requiredTime("created_at", "Creation time of the transfer", func(t *client.Transfer) time.Time { return t.CreatedAt }),
	requiredTime("updated_at", "Time of the last update of the transfer", func(t *client.Transfer) time.Time { return t.UpdatedAt }),
	stringMapField("metadata", "Client-specified key/value pairs; null when none.", func(t *client.Transfer) map[string]string { return t.Metadata }),
	stringField("destination_address", "Crypto address of a crypto transfer; null otherwise.", func(t *client.Transfer) *string { return t.DestinationAddress }),
	stringField("crypto_network", "Network of a crypto transfer; null otherwise.", func(t *client.Transfer) *string { return t.CryptoNetwork }),
	stringField("crypto_tx_hash", "On-chain transaction hash; null until there is one.", func(t *client.Transfer) *string { return escapedText(t.CryptoTxHash) }),
	stringField("crypto_tx_index", "Output index or output address; null until there is one.", func(t *client.Transfer) *string { return escapedText(t.CryptoTxIndex) }),
	stringField("group_id", "Group linking both sides of an internal transfer; null otherwise.", func(t *client.Transfer) *string { return t.GroupID }),
	stringField("fiat_account_id", "Fiat account of a fiat transfer; null otherwise.", func(t *client.Transfer) *string { return t.FiatAccountID }),
	stringField("notional_value", "USD value of amount plus fee at transfer time; null when the service gives none.", func(t *client.Transfer) *string { return t.NotionalValue }),
	stringField("memo", "Memo of the transfer; null when none.", func(t *client.Transfer) *string { return t.Memo }),
	requiredString("customer_id", "Customer the transfer belongs to.", func(t *client.Transfer) string { return t.CustomerID }),
	jsonField("auto_conversion", "Auto-conversion details.", func(t *client.Transfer) json.RawMessage { return t.AutoConversion }),
}

// transferItemShape is a transfer as an item of platform_transfers, which
// leaves out the customer (always the provider's own) and the
// auto-conversion details.
var transferItemShape = transferShape.without("customer_id", "auto_conversion")

// transferLookup finds the transfer of one of the types made with a
// ref_id, through List Transfers; the answer is not trusted to have applied
// the filters: only a transfer of those types with that ref_id counts.
func transferLookup(types ...string) func(ctx context.Context, c *client.Client, refID string) (*client.Transfer, bool, error) {
	return func(ctx context.Context, c *client.Client, refID string) (*client.Transfer, bool, error) {
		// ref_ids combines with no type filter: the types are checked here.
		q := client.ListTransfersQuery{RefIDs: []string{refID}, MaxItems: 100}
		for t, err := range c.Transfers(ctx, q) {
			if err != nil {
				return nil, false, err
			}
			if deref(t.RefID) == refID && slices.Contains(types, t.Type) {
				return t, true, nil
			}
		}
		return nil, false, nil
	}
}

// transferOfTypes lists why a transfer is not a debit of one of the types.
func transferOfTypes(types ...string) func(t *client.Transfer) []string {
	return func(t *client.Transfer) []string {
		var d []string
		if !slices.Contains(types, t.Type) {
			d = append(d, fmt.Sprintf("type: %q, not %s", shown(t.Type), strings.Join(types, " or ")))
		}
		if !strings.EqualFold(t.Direction, "DEBIT") {
			d = append(d, fmt.Sprintf("direction: %q, not DEBIT", shown(t.Direction)))
		}
		return d
	}
}

// transferFigures lists how the figures of the transfer t break the
// invariant every answer of a transfer flow keeps (the reference requires
// all three): amount, fee and total are non-negative decimals and amount
// plus fee is total.
func transferFigures(t *client.Transfer) []string {
	var d []string
	for _, f := range []struct{ name, v string }{{"amount", t.Amount}, {"fee", t.Fee}, {"total", t.Total}} {
		if !nonNegativeDecimal(f.v) {
			d = append(d, fmt.Sprintf("%s: answered %s, not a non-negative decimal of at most %d characters",
				f.name, quotedPrefix(f.v), maxDecimalLength))
		}
	}
	if len(d) > 0 {
		return d
	}
	amount, fee, total := decimal.RequireFromString(t.Amount), decimal.RequireFromString(t.Fee), decimal.RequireFromString(t.Total)
	if !amount.Add(fee).Equal(total) {
		d = append(d, fmt.Sprintf("total: answered %s, but amount %s plus fee %s is %s", t.Total, t.Amount, t.Fee,
			amount.Add(fee)))
	}
	return d
}

// transfersOf is how the core reads the transfers of a money flow: by id
// (GET /transfer/transfers/{id}), looked up by ref_id among those of the
// types (List Transfers), both with the scope transfer:read_transfer.
func transfersOf(words createWords, types ...string) moneyObjects[*client.Transfer] {
	return moneyObjects[*client.Transfer]{
		words:     words,
		id:        func(t *client.Transfer) string { return t.ID },
		createdAt: func(t *client.Transfer) time.Time { return t.CreatedAt },
		describe:  transferSummary,
		status:    func(t *client.Transfer) string { return t.Status },
		lookup:    transferLookup(types...),
		lists:     transferLists(types...),
		get:       getTransfer,
		readScope: client.ScopeReadTransfer,
		final:     transferFinal,
	}
}

// transferFinal reports a transfer the service moves no further: one
// COMPLETED or FAILED.
func transferFinal(recorded func(string) string) bool {
	s := recorded("status")
	return s == client.TransferStatusCompleted || s == client.TransferStatusFailed
}

// getTransfer reads a transfer by id.
func getTransfer(ctx context.Context, c *client.Client, id string) (*client.Transfer, error) {
	return c.GetTransfer(ctx, id)
}

// transferFigureText says the figures of the transfer t: its amount, fee
// and total, each the service stated.
func transferFigureText(t *client.Transfer) string {
	var parts []string
	for _, kv := range [][2]string{{"amount", t.Amount}, {"fee", t.Fee}, {"total", t.Total}} {
		if kv[1] != "" {
			parts = append(parts, kv[0]+" "+kv[1])
		}
	}
	return strings.Join(parts, ", ")
}

// transferSaid is what the service says of the state of the transfer t
// (its status_details), "" when nothing.
func transferSaid(t *client.Transfer) string { return string(t.StatusDetails) }

// transferFailed reports a transfer the service failed: its money did not
// move.
func transferFailed(t *client.Transfer) bool { return t.Status == client.TransferStatusFailed }

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
	if t.FiatAccountID != nil {
		what += " to fiat account " + *t.FiatAccountID
	}
	if t.Memo != nil {
		what += " (memo " + *t.Memo + ")"
	}
	return shown(what + " from profile " + t.ProfileID)
}

// transferLists reads many transfers of the types at once through List
// Transfers (scope transfer:read_transfer), each list read to its end: by
// ref_ids, only transfers of the types count, the first of each ref_id
// as the lookup of one takes it; by ids, as the read by id answers, any
// transfer with the id. The reference allows ref_ids and ids with the
// time filters only, so the types are checked here, not sent. A transfer
// is not read again on refresh once COMPLETED or FAILED: the service
// moves it no further.
func transferLists(types ...string) *objectLists[*client.Transfer] {
	return &objectLists[*client.Transfer]{
		byRefIDs: func(ctx context.Context, c *client.Client, refIDs []string) (map[string]*client.Transfer, error) {
			return transfersBy(ctx, c, client.ListTransfersQuery{RefIDs: refIDs}, refIDs, func(t *client.Transfer) string {
				if !slices.Contains(types, t.Type) {
					return ""
				}
				return deref(t.RefID)
			})
		},
		byIDs: func(ctx context.Context, c *client.Client, ids []string) (map[string]*client.Transfer, error) {
			return transfersBy(ctx, c, client.ListTransfersQuery{IDs: ids}, ids, func(t *client.Transfer) string { return t.ID })
		},
	}
}

// transfersListed is every transfer of q, the list read to its end; any
// error, on any page, is the answer.
func transfersListed(ctx context.Context, c *client.Client, q client.ListTransfersQuery) ([]*client.Transfer, error) {
	var out []*client.Transfer
	for t, err := range c.Transfers(ctx, q) {
		if err != nil {
			return nil, err
		}
		if t != nil && t.ID != "" {
			out = append(out, t)
		}
	}
	return out, nil
}

// transfersBy lists the transfers of q to the end and maps each asked key
// to the first transfer whose key it is (see firstByKey).
func transfersBy(ctx context.Context, c *client.Client, q client.ListTransfersQuery, keys []string, key func(*client.Transfer) string) (map[string]*client.Transfer, error) {
	return firstByKey(c.Transfers(ctx, q), keys, func(t *client.Transfer) string {
		if t == nil || t.ID == "" {
			return ""
		}
		return key(t)
	})
}

// newTransferListResource is the list resource of the flow f, whose
// objects are transfers of the types: `terraform query` finds them
// through List Transfers, and configuration generated from the results
// imports them by identity; nothing is sent. wrap is the object of a
// listed transfer (for an internal transfer, with its credit side read).
func newTransferListResource[A, O, R any](f *flow[A, O, R], wrap func(ctx context.Context, c *client.Client, t *client.Transfer) *O, types ...string) list.ListResource {
	w := f.objects.words
	return newListResource(&listDeclaration[client.ListTransfersQuery, O]{
		typeName: w.resourceType,
		description: fmt.Sprintf("Finds the %s of the customer (`GET /transfer/transfers` of the types %s, "+
			"scope `transfer:read_transfer`), newest first. Configuration generated from the results imports them "+
			"by identity; nothing is sent.", w.plural, codeList(types)),
		filters: transferListFilters(w.plural),
		limit:   func(q *client.ListTransfersQuery) *int { return &q.MaxItems },
		list: func(c *client.Client, ctx context.Context, filters client.ListTransfersQuery) iter.Seq2[*O, error] {
			limit := filters.MaxItems
			q, keep := transferServiceQuery(types, filters, limit)
			return func(yield func(*O, error) bool) {
				kept := 0
				for t, err := range c.Transfers(ctx, q) {
					if err != nil {
						yield(nil, err)
						return
					}
					if !keep(t) {
						continue
					}
					if !yield(wrap(ctx, c, t), nil) {
						return
					}
					if kept++; limit > 0 && kept >= limit {
						return
					}
				}
			}
		},
		describe: func(obj *O) (shapedWriter, string, string) {
			return f.listed(obj), f.objects.id(obj), fmt.Sprintf("%s (ref_id %s, %s)", f.objects.describe(obj),
				f.refIDOf(obj), f.objects.status(obj))
		},
		reject: func(obj *O) string {
			d := f.whyForeign(obj)
			if f.plan.unlisted != nil {
				if why := f.plan.unlisted(obj); why != "" {
					d = append(d, why)
				}
			}
			if len(d) > 0 {
				return fmt.Sprintf("The service listed %s among the %s, but configuration cannot declare it as one:\n%s\n\n"+
					"It is left out of the results, so that no configuration generated from them imports it.",
					shown(f.objects.id(obj)), w.plural, bulletList(d))
			}
			return ""
		},
	})
}

// transferListFilters are the filters of a transfer list resource of the
// noun's plural.
func transferListFilters(plural string) listFilters[client.ListTransfersQuery] {
	return listFilters[client.ListTransfersQuery]{
		arrayFilter("profile_ids", "Only the "+plural+" of these profiles.",
			func(q *client.ListTransfersQuery) *[]string { return &q.ProfileIDs }),
		arrayFilter("ref_ids", "Only the "+plural+" made with these ref_ids.",
			func(q *client.ListTransfersQuery) *[]string { return &q.RefIDs }),
		arrayFilter("statuses", "Only the "+plural+" with these statuses.",
			func(q *client.ListTransfersQuery) *[]string { return &q.Statuses }, client.TransferStatuses...),
	}
}

// transferServiceQuery is the list request of the filters f of a transfer
// list resource whose transfers have one of the types, and what is kept of
// its answer. List Transfers combines ref_ids, profile_ids and type with
// no other filter, and statuses not with type: the most selective filter
// set is sent (ref_ids, else profile_ids, else statuses, else the types
// with the limit), and every filter, the types included, is checked on
// each transfer answered.
func transferServiceQuery(types []string, f client.ListTransfersQuery, limit int) (client.ListTransfersQuery, func(*client.Transfer) bool) {
	var q client.ListTransfersQuery
	switch {
	case len(f.RefIDs) > 0:
		q.RefIDs = f.RefIDs
	case len(f.ProfileIDs) > 0:
		q.ProfileIDs = f.ProfileIDs
	case len(f.Statuses) > 0:
		q.Statuses = f.Statuses
	default:
		q.Types, q.MaxItems = types, limit
	}
	in := func(set []string, v string) bool { return len(set) == 0 || slices.Contains(set, v) }
	// The types sent, a transfer of another type is the service's to
	// answer for: it is listed, and refused with a warning (foreign).
	checked := types
	if len(q.Types) > 0 {
		checked = nil
	}
	return q, func(t *client.Transfer) bool {
		return t != nil && in(checked, t.Type) && in(f.RefIDs, deref(t.RefID)) &&
			in(f.ProfileIDs, t.ProfileID) && in(f.Statuses, t.Status)
	}
}
