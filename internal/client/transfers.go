package client

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"time"
)

// The reads of transfers and of fiat deposit instructions that the service's
// API reference publishes beside the spec's operations.

const (
	// PathTransfers is List Transfers; PathTransfers/{id} is Get Transfer.
	PathTransfers = "/transfer/transfers"
	// ScopeReadTransfer is the scope of both.
	ScopeReadTransfer = "transfer:read_transfer"
)

// Transfer statuses, and the types of the transfers the client makes.
const (
	TransferStatusCompleted  = "COMPLETED"
	TransferStatusFailed     = "FAILED"
	TransferTypeCryptoWithdr = "CRYPTO_WITHDRAWAL"
	// The two sides of an internal transfer.
	TransferTypeInternalDebit  = "INTERNAL_TRANSFER_DEBIT"
	TransferTypeInternalCredit = "INTERNAL_TRANSFER_CREDIT"
	// The types of fiat withdrawals.
	TransferTypeWireWithdrawal   = "WIRE_WITHDRAWAL"
	TransferTypeSENWithdrawal    = "SEN_WITHDRAWAL"
	TransferTypeBankWithdrawal   = "BANK_WITHDRAWAL"
	TransferTypeSignetWithdrawal = "SIGNET_WITHDRAWAL"
	TransferTypeCBITWithdrawal   = "CBIT_WITHDRAWAL"
	TransferTypeCubixWithdrawal  = "CUBIX_WITHDRAWAL"
)

// FiatWithdrawalTransferTypes are the types a fiat withdrawal may have,
// depending on the network of its fiat account.
var FiatWithdrawalTransferTypes = []string{
	TransferTypeWireWithdrawal, TransferTypeSENWithdrawal, TransferTypeBankWithdrawal,
	TransferTypeSignetWithdrawal, TransferTypeCBITWithdrawal, TransferTypeCubixWithdrawal,
}

// TransferStatuses are the values of the statuses filter.
var TransferStatuses = []string{TransferStatusPending, TransferStatusCompleted, TransferStatusFailed}

// TransferOrderBys are the values of order_by of List Transfers.
var TransferOrderBys = []string{"CREATED_AT", "UPDATED_AT"}

// GetTransfer reads one transfer. A missing one is an error matching
// ErrNotFound.
func (c *Client) GetTransfer(ctx context.Context, id string) (*Transfer, error) {
	return onID(ctx, c, http.MethodGet, PathTransfers, id, ScopeReadTransfer, nil, decodeTransfer)
}

// TimeFilter holds the {lt,lte,eq,gte,gt} bounds of one time field; zero
// values are left out.
type TimeFilter = CreatedAtFilter

// ListTransfersQuery holds the filters of List Transfers.
type ListTransfersQuery struct {
	IDs, RefIDs, ProfileIDs, IdentityIDs, AccountIDs, GroupIDs, CryptoTxHashes []string
	// Types are transfer types such as CRYPTO_WITHDRAWAL; the service adds
	// types over time, so they are sent as given.
	Types     []string
	Statuses  []string
	CreatedAt TimeFilter
	UpdatedAt TimeFilter
	Order     string // "" (server default), "ASC" or "DESC"
	OrderBy   string // "" (server default), "CREATED_AT" or "UPDATED_AT"
	MaxItems  int    // 0: no cap
}

// combinable checks q against the reference's rules for List Transfers:
// ids, ref_ids, type, profile_ids, identity_ids and account_ids can each
// be combined with the created_at and updated_at filters only, and an
// order_by given with a time filter must name that filter's time.
func (q ListTransfersQuery) combinable() error {
	filters := []struct {
		name string
		set  bool
	}{
		{"ids", len(q.IDs) > 0}, {"ref_ids", len(q.RefIDs) > 0}, {"type", len(q.Types) > 0},
		{"profile_ids", len(q.ProfileIDs) > 0}, {"identity_ids", len(q.IdentityIDs) > 0},
		{"account_ids", len(q.AccountIDs) > 0}, {"group_ids", len(q.GroupIDs) > 0},
		{"crypto_tx_hashes", len(q.CryptoTxHashes) > 0}, {"statuses", len(q.Statuses) > 0},
	}
	for _, alone := range filters[:6] {
		if !alone.set {
			continue
		}
		for _, f := range filters {
			if f.name != alone.name && f.set {
				return fmt.Errorf("%s can be combined with the created_at and updated_at filters only, not with %s (List Transfers)", alone.name, f.name)
			}
		}
	}
	created, updated := q.CreatedAt != (TimeFilter{}), q.UpdatedAt != (TimeFilter{})
	switch {
	case q.OrderBy == "CREATED_AT" && updated, q.OrderBy == "UPDATED_AT" && created:
		return fmt.Errorf("order_by %s cannot go with a filter on the other time: order_by must name the time filter's field (List Transfers)", q.OrderBy)
	}
	return nil
}

// Transfers lists the transfers matching q, following the cursors to the
// end with the largest page the service allows.
func (c *Client) Transfers(ctx context.Context, q ListTransfersQuery) iter.Seq2[*Transfer, error] {
	v := url.Values{}
	err := addArrays(v, map[string][]string{
		"ids": q.IDs, "ref_ids": q.RefIDs, "profile_ids": q.ProfileIDs, "identity_ids": q.IdentityIDs,
		"account_ids": q.AccountIDs, "group_ids": q.GroupIDs, "crypto_tx_hashes": q.CryptoTxHashes,
		"type": q.Types, "statuses": q.Statuses,
	})
	if err == nil {
		err = q.combinable()
	}
	if err == nil {
		err = checkOrder(q.Order)
	}
	if e := setOrderBy(v, q.OrderBy, TransferOrderBys...); err == nil {
		err = e
	}
	addTimeFilter(v, "created_at", q.CreatedAt)
	addTimeFilter(v, "updated_at", q.UpdatedAt)
	if q.Order != "" {
		v.Set("order", q.Order)
	}
	return list[Transfer](ctx, c, listCall{
		path: PathTransfers, scope: ScopeReadTransfer, query: v,
		maxItems: q.MaxItems, pageSize: maxPageSize, err: err,
	})
}

// ListFiatDepositInstructionsQuery holds the filters of List Fiat Deposit
// Instructions.
type ListFiatDepositInstructionsQuery struct {
	IDs, RefIDs []string
	CreatedAt   CreatedAtFilter
	Order       string
	MaxItems    int
}

// FiatDepositInstructionsList lists the fiat deposit instructions matching
// q, following the cursors to the end.
func (c *Client) FiatDepositInstructionsList(ctx context.Context, q ListFiatDepositInstructionsQuery) iter.Seq2[*FiatDepositInstructions, error] {
	v, err := listQuery(map[string][]string{"ids": q.IDs, "ref_ids": q.RefIDs}, q.CreatedAt, q.Order)
	return list[FiatDepositInstructions](ctx, c, listCall{
		path: PathFiatDepositInstructions, scope: ScopeReadFiatDepositInstr, query: v,
		maxItems: q.MaxItems, pageSize: maxPageSize, err: err,
	})
}

// addTimeFilter adds the bounds of f on field (created_at, updated_at).
func addTimeFilter(v url.Values, field string, f TimeFilter) {
	for _, p := range []struct {
		op string
		t  time.Time
	}{{"lt", f.LT}, {"lte", f.LTE}, {"eq", f.EQ}, {"gte", f.GTE}, {"gt", f.GT}} {
		if !p.t.IsZero() {
			v.Set(field+"."+p.op, formatTime(p.t))
		}
	}
}
