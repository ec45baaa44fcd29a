package client

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"slices"
	"time"
)

// Transfer limits, guaranteed fees and the ticker (published reference:
// ListTransferLimits, CreateCryptoWithdrawalFee, GetTicker).

// Paths and scopes of these operations.
const (
	PathTransferLimits      = "/transfer/limits/utilizations"
	PathCryptoWithdrawalFee = "/transfer/fees/crypto-withdrawal"
	ScopeReadTransferLimit  = "transfer:read_transfer_limit"
	ScopeWriteWithdrawalFee = "fee:write_crypto_withdrawal_fee"
)

// TransferTypes are the values of ListTransferLimits' transfer_type.
var TransferTypes = []string{
	"INTERNAL_TRANSFER_DEBIT", "INTERNAL_TRANSFER_CREDIT", "CRYPTO_DEPOSIT", "CRYPTO_WITHDRAWAL", "WIRE_DEPOSIT",
	"WIRE_WITHDRAWAL", "SEN_DEPOSIT", "SEN_WITHDRAWAL", "BANK_DEPOSIT", "BANK_WITHDRAWAL", "PLATFORM_TRANSFER_DEBIT",
	"PLATFORM_TRANSFER_CREDIT", "SIGNET_DEPOSIT", "SIGNET_WITHDRAWAL", "CBIT_WITHDRAWAL", "CBIT_DEPOSIT",
	"CUBIX_DEPOSIT", "CUBIX_WITHDRAWAL", "RTP_DEPOSIT",
}

// TransferLimit is one limit of ListTransferLimits. A single-transaction
// limit has period_seconds "0" and no id.
type TransferLimit struct {
	ID            *string  `json:"id,omitempty"`
	RuleID        string   `json:"rule_id"`
	TransferTypes []string `json:"transfer_types"`
	PeriodSeconds string   `json:"period_seconds"`
	Limit         string   `json:"limit"`
	Remaining     string   `json:"remaining"`
	LimitAsset    string   `json:"limit_asset"`
}

// TransferLimits lists the limits that apply to transferType, following
// the cursors to the end. Iteration stops at the first error.
func (c *Client) TransferLimits(ctx context.Context, transferType string) iter.Seq2[*TransferLimit, error] {
	var err error
	if !slices.Contains(TransferTypes, transferType) {
		err = fmt.Errorf("transfer_type must be one of the published transfer types, got %q", transferType)
	}
	return list[TransferLimit](ctx, c, listCall{
		path: PathTransferLimits, scope: ScopeReadTransferLimit, query: url.Values{"transfer_type": {transferType}},
		pageSize: func(int) int { return 0 }, err: err,
	})
}

// CryptoWithdrawalFeeRequest is the body of Create Crypto Withdrawal Fee:
// exactly one of Amount and Total.
type CryptoWithdrawalFeeRequest struct {
	Asset              string `json:"asset"`
	DestinationAddress string `json:"destination_address"`
	CryptoNetwork      string `json:"crypto_network"`
	Amount             string `json:"amount,omitempty"`
	Total              string `json:"total,omitempty"`
}

// CryptoWithdrawalFee is a guaranteed fee.
type CryptoWithdrawalFee struct {
	ID                 string    `json:"id"`
	Fee                string    `json:"fee"`
	Asset              string    `json:"asset"`
	ExpiresAt          time.Time `json:"expires_at"`
	DestinationAddress string    `json:"destination_address"`
	CryptoNetwork      string    `json:"crypto_network"`
	Amount             *string   `json:"amount,omitempty"`
	Total              *string   `json:"total,omitempty"`
}

// CreateCryptoWithdrawalFee asks for a guaranteed fee. It carries no
// ref_id, so a failed attempt is not repeated (a quote moves no money, and
// the caller may ask again).
func (c *Client) CreateCryptoWithdrawalFee(ctx context.Context, req CryptoWithdrawalFeeRequest) (*CryptoWithdrawalFee, error) {
	body, err := c.post(ctx, PathCryptoWithdrawalFee, ScopeWriteWithdrawalFee, req)
	if err != nil {
		return nil, err
	}
	var f CryptoWithdrawalFee
	if err := decodeJSON(body, &f); err != nil {
		return nil, fmt.Errorf("POST %s: decoding response: %w", PathCryptoWithdrawalFee, err)
	}
	if f.ID == "" || f.Fee == "" {
		return nil, fmt.Errorf("POST %s: the guaranteed fee in the response has no id or no fee", PathCryptoWithdrawalFee)
	}
	return &f, nil
}

// IsExpiredFee reports whether err is the refusal of a withdrawal whose
// guaranteed fee expired (403, problem type or code "expired").
func IsExpiredFee(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.Status == http.StatusForbidden && (ae.Code == "expired" || ae.Code == "EXPIRED")
}

// BookLevel is a price and an amount.
type BookLevel struct {
	Price  string `json:"price"`
	Amount string `json:"amount"`
}

// Ticker is the answer of GetTicker (the fields the provider reads).
type Ticker struct {
	Market        string     `json:"market"`
	BestBid       *BookLevel `json:"best_bid,omitempty"`
	BestAsk       *BookLevel `json:"best_ask,omitempty"`
	LastExecution *BookLevel `json:"last_execution,omitempty"`
}

// GetTicker reads the ticker of market, a public operation (no token). A
// market the service does not know is an error matching ErrNotFound.
func (c *Client) GetTicker(ctx context.Context, market string) (*Ticker, error) {
	p := "/markets/" + url.PathEscape(market) + "/ticker"
	body, err := c.do(ctx, call{method: http.MethodGet, path: p, replaySafe: true, public: true})
	if err != nil {
		return nil, err
	}
	var t Ticker
	if err := decodeJSON(body, &t); err != nil {
		return nil, fmt.Errorf("GET %s: decoding response: %w", p, err)
	}
	if t.Market != "" && t.Market != market {
		return nil, fmt.Errorf("GET %s: the answer is the ticker of %q", p, t.Market)
	}
	return &t, nil
}
