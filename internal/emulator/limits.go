package emulator

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"
)

// Transfer limits (ListTransferLimits of the published reference), the
// guaranteed fees of crypto withdrawals (CreateCryptoWithdrawalFee) and the
// ticker (GetTicker).

const (
	pathTransferLimits  = "/v2/transfer/limits/utilizations"
	pathWithdrawalFee   = "/v2/transfer/fees/crypto-withdrawal"
	pathMarketsPrefix   = "/v2/markets/"
	scopeReadLimits     = "transfer:read_transfer_limit"
	scopeWriteFeeQuote  = "fee:write_crypto_withdrawal_fee"
	defaultFeeQuoteTTL  = time.Minute
	transferTypeCryptoW = "CRYPTO_WITHDRAWAL"
)

// transferTypes are the values of ListTransferLimits' transfer_type.
var transferTypes = []string{
	"INTERNAL_TRANSFER_DEBIT", "INTERNAL_TRANSFER_CREDIT", "CRYPTO_DEPOSIT", "CRYPTO_WITHDRAWAL", "WIRE_DEPOSIT",
	"WIRE_WITHDRAWAL", "SEN_DEPOSIT", "SEN_WITHDRAWAL", "BANK_DEPOSIT", "BANK_WITHDRAWAL", "PLATFORM_TRANSFER_DEBIT",
	"PLATFORM_TRANSFER_CREDIT", "SIGNET_DEPOSIT", "SIGNET_WITHDRAWAL", "CBIT_WITHDRAWAL", "CBIT_DEPOSIT",
	"CUBIX_DEPOSIT", "CUBIX_WITHDRAWAL", "RTP_DEPOSIT",
}

// TransferLimit is one limit: a TransferLimit of the published reference
// as GET /transfer/limits/utilizations answers it, and the body of PUT
// /admin/limits (where id and remaining are ignored).
type TransferLimit struct {
	ID            string   `json:"id,omitempty"`
	RuleID        string   `json:"rule_id"`
	TransferTypes []string `json:"transfer_types"`
	PeriodSeconds string   `json:"period_seconds"`
	Limit         string   `json:"limit"`
	Remaining     string   `json:"remaining"`
	LimitAsset    string   `json:"limit_asset"`
}

// TransferLimitsPage is the answer of GET /transfer/limits/utilizations.
type TransferLimitsPage struct {
	Items          []TransferLimit `json:"items"`
	NextPageCursor string          `json:"next_page_cursor,omitempty"`
}

// limitRule is a limit and what the withdrawals made through the API
// spent of it.
type limitRule struct {
	TransferLimit
	period time.Duration
	limit  decimal.Decimal
	spent  []spend
}

// spend is the value of one withdrawal, in the limit's asset.
type spend struct {
	at    time.Time
	value decimal.Decimal
}

// feeQuote is one guaranteed fee.
type feeQuote struct {
	CryptoWithdrawalFee
	expires time.Time
	used    bool
	// usedBy is the ref_id of the withdrawal that used it.
	usedBy string
}

// CryptoWithdrawalFee is the answer of POST /transfer/fees/crypto-withdrawal.
type CryptoWithdrawalFee struct {
	ID                 string    `json:"id"`
	Fee                string    `json:"fee"`
	Asset              string    `json:"asset"`
	ExpiresAt          time.Time `json:"expires_at"`
	DestinationAddress string    `json:"destination_address"`
	CryptoNetwork      string    `json:"crypto_network"`
	Amount             string    `json:"amount,omitempty"`
	Total              string    `json:"total,omitempty"`
}

// CryptoWithdrawalFeeRequest is the body of POST /transfer/fees/crypto-withdrawal.
type CryptoWithdrawalFeeRequest struct {
	Asset              string `json:"asset"`
	DestinationAddress string `json:"destination_address"`
	CryptoNetwork      string `json:"crypto_network"`
	Amount             string `json:"amount,omitempty"`
	Total              string `json:"total,omitempty"`
}

// moneyRules holds the limits and the fee quotes of a server.
type moneyRules struct {
	mu     sync.Mutex
	limits []*limitRule
	quotes map[string]*feeQuote
	// expireNext quotes are issued already expired.
	expireNext int
	quoteTTL   time.Duration
	seq        int
}

// SetTransferLimits replaces the transfer limits of the server. A limit
// with period_seconds "0" is a single-transaction limit; others are spent
// by the withdrawals made through the API within the period before now.
// limit_asset is the asset of limit; a withdrawal of another asset spends
// its value at the emulator's USD prices.
func (s *Server) SetTransferLimits(limits []TransferLimit) error {
	rules := make([]*limitRule, 0, len(limits))
	for i, l := range limits {
		if e := validateLimit(i, l); e != nil {
			return fmt.Errorf("%s: %s", e.body.Field, e.body.Message)
		}
		secs, _ := strconv.ParseInt(l.PeriodSeconds, 10, 64)
		r := &limitRule{TransferLimit: l, period: time.Duration(secs) * time.Second, limit: decimal.RequireFromString(l.Limit)}
		r.LimitAsset = strings.ToUpper(l.LimitAsset)
		if len(r.TransferTypes) == 0 {
			r.TransferTypes = []string{transferTypeCryptoW}
		}
		r.TransferTypes = slices.Sorted(slices.Values(r.TransferTypes))
		if r.RuleID == "" {
			r.RuleID = fmt.Sprintf("rule-%d", i+1)
		}
		r.ID = ""
		if secs > 0 {
			r.ID = fmt.Sprintf("limit-%d", i+1)
		}
		rules = append(rules, r)
	}
	s.rules.mu.Lock()
	s.rules.limits = rules
	s.rules.mu.Unlock()
	return nil
}

// seedLimits are n limits (Options.TransferLimits): single-transaction,
// daily and weekly, in USD, BTC and ETH, of several transfer types.
func seedLimits(n int) []TransferLimit {
	assets := []string{"USD", "BTC", "ETH"}
	periods := []string{"0", "86400", "604800"}
	out := make([]TransferLimit, n)
	for i := range out {
		types := []string{transferTypeCryptoW}
		if i%4 == 3 {
			types = []string{"WIRE_WITHDRAWAL", transferTypeCryptoW}
		}
		out[i] = TransferLimit{
			RuleID: fmt.Sprintf("rule-%04d", i+1), TransferTypes: types, PeriodSeconds: periods[i%3],
			Limit: strconv.Itoa(1000000 * (i + 1)), LimitAsset: assets[(i/3)%3],
		}
	}
	return out
}

func validateLimit(i int, l TransferLimit) *apiError {
	field := fmt.Sprintf("limits[%d]", i)
	if !decimalPattern.MatchString(l.Limit) {
		return errInvalid(field+".limit", "must be a decimal string such as \"1000\"")
	}
	if strings.TrimSpace(l.LimitAsset) == "" {
		return errInvalid(field+".limit_asset", "is required")
	}
	if n, err := strconv.ParseInt(l.PeriodSeconds, 10, 64); err != nil || n < 0 {
		return errInvalid(field+".period_seconds", "must be a whole number of seconds, 0 for a single-transaction limit")
	}
	for _, t := range l.TransferTypes {
		if e := oneOf(field+".transfer_types", t, transferTypes); e != nil {
			return e
		}
	}
	return nil
}

// TransferLimits returns the limits as the service answers them now: for
// every transfer type when transferType is empty.
func (s *Server) TransferLimits(transferType string) []TransferLimit {
	now := s.now()
	s.rules.mu.Lock()
	defer s.rules.mu.Unlock()
	out := []TransferLimit{}
	for _, r := range s.rules.limits {
		if transferType != "" && !slices.Contains(r.TransferTypes, transferType) {
			continue
		}
		l := r.TransferLimit
		l.Limit = r.limit.String()
		l.Remaining = r.remaining(now).String()
		l.TransferTypes = slices.Clone(r.TransferTypes)
		out = append(out, l)
	}
	return out
}

// remaining is the limit minus what was spent within the period before
// now; a single-transaction limit always has its whole limit remaining.
func (r *limitRule) remaining(now time.Time) decimal.Decimal {
	left := r.limit
	if r.period == 0 {
		return left
	}
	for _, sp := range r.spent {
		if now.Sub(sp.at) < r.period {
			left = left.Sub(sp.value)
		}
	}
	if left.IsNegative() {
		return decimal.Zero
	}
	return left
}

// valueIn converts amount of asset into the limit's asset at the
// emulator's USD prices.
func valueIn(amount decimal.Decimal, asset, limitAsset string) decimal.Decimal {
	if strings.EqualFold(asset, limitAsset) {
		return amount
	}
	return amount.Mul(usdPrice(asset)).DivRound(usdPrice(limitAsset), 18)
}

// spendLimits checks a crypto withdrawal of amount of asset against every
// limit of crypto withdrawals and, when none is exceeded, spends it.
func (s *Server) spendLimits(asset string, amount decimal.Decimal) *Problem {
	now := s.now()
	s.rules.mu.Lock()
	defer s.rules.mu.Unlock()
	var hit []*limitRule
	for _, r := range s.rules.limits {
		if !slices.Contains(r.TransferTypes, transferTypeCryptoW) {
			continue
		}
		v := valueIn(amount, asset, r.LimitAsset)
		if v.GreaterThan(r.remaining(now)) {
			what := "the single-transaction limit"
			if r.period > 0 {
				what = fmt.Sprintf("the remaining %s %s of the %s-second limit", r.remaining(now), r.LimitAsset, r.PeriodSeconds)
			}
			return &Problem{
				Type: problemTypeBase + "limit-exceeded", Title: "Limit Exceeded", Status: http.StatusForbidden,
				Detail: fmt.Sprintf("withdrawal of %s %s (%s %s) exceeds %s of rule %s: %s %s", amount, asset, v.Round(8),
					r.LimitAsset, what, r.RuleID, r.limit, r.LimitAsset),
				Meta: map[string]any{"rule_id": r.RuleID, "limit": r.limit.String(), "remaining": r.remaining(now).String(),
					"limit_asset": r.LimitAsset},
			}
		}
		hit = append(hit, r)
	}
	for _, r := range hit {
		if r.period > 0 {
			r.spent = append(r.spent, spend{at: now, value: valueIn(amount, asset, r.LimitAsset)})
		}
	}
	return nil
}

func (s *Server) handleListTransferLimits(w http.ResponseWriter, r *http.Request, _ string) {
	q := r.URL.Query()
	t := q.Get("transfer_type")
	if e := required("transfer_type", t); e != nil {
		writeError(w, e)
		return
	}
	if e := oneOf("transfer_type", t, transferTypes); e != nil {
		writeError(w, e)
		return
	}
	writeJSON(w, http.StatusOK, TransferLimitsPage{Items: s.TransferLimits(t)})
}

// ExpireNextFeeQuotes makes the next n guaranteed fees be issued already
// expired, so that the withdrawal using one is refused with 403 Expired.
func (s *Server) ExpireNextFeeQuotes(n int) {
	s.rules.mu.Lock()
	s.rules.expireNext = max(n, 0)
	s.rules.mu.Unlock()
}

// SetFeeQuoteTTL sets how long a guaranteed fee is valid (default one
// minute).
func (s *Server) SetFeeQuoteTTL(d time.Duration) {
	s.rules.mu.Lock()
	s.rules.quoteTTL = d
	s.rules.mu.Unlock()
}

// FeeQuotes returns every guaranteed fee issued, oldest first.
func (s *Server) FeeQuotes() []CryptoWithdrawalFee {
	s.rules.mu.Lock()
	defer s.rules.mu.Unlock()
	out := make([]CryptoWithdrawalFee, 0, len(s.rules.quotes))
	for _, q := range s.rules.quotes {
		out = append(out, q.CryptoWithdrawalFee)
	}
	slices.SortFunc(out, func(a, b CryptoWithdrawalFee) int { return strings.Compare(a.ID, b.ID) })
	return out
}

func (s *Server) handleCreateWithdrawalFee(w http.ResponseWriter, r *http.Request, _ string) {
	var req CryptoWithdrawalFeeRequest
	if e := decodeBody(r, &req); e != nil {
		writeError(w, e)
		return
	}
	if e := required("asset", req.Asset, "destination_address", req.DestinationAddress,
		"crypto_network", req.CryptoNetwork); e != nil {
		writeError(w, e)
		return
	}
	if e := oneOf("crypto_network", req.CryptoNetwork, cryptoNetworks); e != nil {
		writeError(w, e)
		return
	}
	fee := s.withdrawalFee(req.Asset)
	switch {
	case (req.Amount == "") == (req.Total == ""):
		writeError(w, errInvalid("amount", "exactly one of amount or total must be given"))
		return
	case req.Amount != "" && (!decimalPattern.MatchString(req.Amount) || !decimal.RequireFromString(req.Amount).IsPositive()):
		writeError(w, errInvalid("amount", "must be a decimal string greater than 0"))
		return
	case req.Total != "" && (!decimalPattern.MatchString(req.Total) || !decimal.RequireFromString(req.Total).GreaterThan(fee)):
		writeError(w, errInvalid("total", "must be a decimal string greater than the fee of %s %s", fee, req.Asset))
		return
	}
	now := s.now().UTC().Truncate(time.Microsecond)
	s.rules.mu.Lock()
	s.rules.seq++
	ttl := s.rules.quoteTTL
	if ttl <= 0 {
		ttl = defaultFeeQuoteTTL
	}
	expires := now.Add(ttl)
	if s.rules.expireNext > 0 {
		s.rules.expireNext--
		expires = now.Add(-time.Second)
	}
	q := &feeQuote{CryptoWithdrawalFee: CryptoWithdrawalFee{
		ID: fmt.Sprintf("00000000-fee0-4000-8000-%012d", s.rules.seq), Fee: fee.String(), Asset: req.Asset,
		ExpiresAt: expires, DestinationAddress: req.DestinationAddress, CryptoNetwork: req.CryptoNetwork,
		Amount: req.Amount, Total: req.Total,
	}, expires: expires}
	if s.rules.quotes == nil {
		s.rules.quotes = map[string]*feeQuote{}
	}
	s.rules.quotes[q.ID] = q
	s.rules.mu.Unlock()
	writeJSON(w, http.StatusOK, q.CryptoWithdrawalFee)
}

// takeFeeQuote checks the fee_id of a new withdrawal and uses it up: the
// fee the withdrawal pays, or the refusal.
func (s *Server) takeFeeQuote(req *CryptoWithdrawalRequest) (decimal.Decimal, *Problem, *apiError) {
	now := s.now()
	s.rules.mu.Lock()
	defer s.rules.mu.Unlock()
	q := s.rules.quotes[req.FeeID]
	if q == nil || q.used {
		return decimal.Zero, &Problem{Type: "about:blank", Title: "Not Found", Status: http.StatusNotFound,
			Detail: "fee not found with id " + req.FeeID}, nil
	}
	if !now.Before(q.expires) {
		return decimal.Zero, &Problem{Type: problemTypeBase + "expired", Title: "Expired", Status: http.StatusForbidden,
			Detail: fmt.Sprintf("fee %s expired at %s", q.ID, q.expires.UTC().Format(time.RFC3339Nano)),
			Meta:   map[string]any{"expired_at": q.expires.UTC().Format(time.RFC3339Nano)}}, nil
	}
	switch {
	case !strings.EqualFold(q.Asset, req.Asset) || q.DestinationAddress != req.DestinationAddress || q.CryptoNetwork != req.CryptoNetwork:
		return decimal.Zero, nil, errInvalid("fee_id", "fee %s was quoted for another asset, network or destination", q.ID)
	case q.Amount != "" && (req.Amount == "" || decimal.RequireFromString(req.Amount).GreaterThan(decimal.RequireFromString(q.Amount))):
		return decimal.Zero, nil, errInvalid("amount", "must be at most the amount %s fee %s was quoted for", q.Amount, q.ID)
	case q.Total != "" && (req.Total == "" || decimal.RequireFromString(req.Total).GreaterThan(decimal.RequireFromString(q.Total))):
		return decimal.Zero, nil, errInvalid("total", "must be at most the total %s fee %s was quoted for", q.Total, q.ID)
	}
	q.used, q.usedBy = true, req.RefID
	return decimal.RequireFromString(q.Fee), nil, nil
}

// FeeQuoteUsedBy is the ref_id of the withdrawal that used the guaranteed
// fee id, or "" while it is unused.
func (s *Server) FeeQuoteUsedBy(id string) string {
	s.rules.mu.Lock()
	defer s.rules.mu.Unlock()
	if q := s.rules.quotes[id]; q != nil && q.used {
		return q.usedBy
	}
	return ""
}

// releaseFeeQuote makes the guaranteed fee id usable again, after the
// withdrawal that used it was refused.
func (s *Server) releaseFeeQuote(id string) {
	s.rules.mu.Lock()
	defer s.rules.mu.Unlock()
	if q := s.rules.quotes[id]; q != nil {
		q.used = false
	}
}

// Ticker is the answer of GET /markets/{market}/ticker (the fields the
// emulator fills).
type Ticker struct {
	Market        string    `json:"market"`
	BestBid       BookLevel `json:"best_bid"`
	BestAsk       BookLevel `json:"best_ask"`
	LastExecution BookLevel `json:"last_execution"`
	SnapshotAt    time.Time `json:"snapshot_at"`
}

// BookLevel is a price and an amount.
type BookLevel struct {
	Price  string `json:"price"`
	Amount string `json:"amount"`
}

// tickerQuotes are the quote assets of the emulator's tickers.
var tickerQuotes = []string{"USD"}

func (s *Server) handleGetTicker(w http.ResponseWriter, _ *http.Request, market string) {
	for _, quote := range tickerQuotes {
		base, ok := strings.CutSuffix(market, quote)
		if !ok {
			continue
		}
		if p, priced := usdPrices[base]; priced {
			last := p.String()
			writeJSON(w, http.StatusOK, Ticker{
				Market:        market,
				BestBid:       BookLevel{Price: p.Mul(decimal.RequireFromString("0.999")).String(), Amount: "1"},
				BestAsk:       BookLevel{Price: p.Mul(decimal.RequireFromString("1.001")).String(), Amount: "1"},
				LastExecution: BookLevel{Price: last, Amount: "0.5"},
				SnapshotAt:    s.now().UTC().Truncate(time.Millisecond),
			})
			return
		}
	}
	writeError(w, errNotFound("market "+market+" not found"))
}
