package emulator

import (
	"sort"
	"strings"

	"github.com/shopspring/decimal"
)

// FeesTable is the body of GET and PUT /admin/fees: the fee of a crypto
// withdrawal by asset (upper case), and the fee of any other asset.
// Amounts are decimal strings.
type FeesTable struct {
	WithdrawalFees       map[string]string `json:"withdrawal_fees"`
	DefaultWithdrawalFee string            `json:"default_withdrawal_fee"`
}

// SetWithdrawalFee makes withdrawals of asset made from now on pay fee
// (WithdrawalFee's table until then). An empty asset sets the fee of every
// asset the table does not name.
func (s *Server) SetWithdrawalFee(asset string, fee decimal.Decimal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if asset == "" {
		s.defaultFee = &fee
		return
	}
	s.fees[strings.ToUpper(asset)] = fee
}

// ResetWithdrawalFees restores WithdrawalFee's table.
func (s *Server) ResetWithdrawalFees() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fees = map[string]decimal.Decimal{}
	s.defaultFee = nil
}

// withdrawalFee is the fee of a withdrawal of asset at this server.
func (s *Server) withdrawalFee(asset string) decimal.Decimal {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f, ok := s.fees[strings.ToUpper(asset)]; ok {
		return f
	}
	if _, ok := withdrawalFees[strings.ToUpper(asset)]; !ok && s.defaultFee != nil {
		return *s.defaultFee
	}
	return WithdrawalFee(asset)
}

// WithdrawalFees returns the table of fees this server charges now.
func (s *Server) WithdrawalFees() FeesTable {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := FeesTable{WithdrawalFees: map[string]string{}, DefaultWithdrawalFee: defaultWithdrawalFee.String()}
	for a, f := range withdrawalFees {
		t.WithdrawalFees[a] = f.String()
	}
	for a, f := range s.fees {
		t.WithdrawalFees[a] = f.String()
	}
	if s.defaultFee != nil {
		t.DefaultWithdrawalFee = s.defaultFee.String()
	}
	return t
}

// setFees applies a PUT /admin/fees body: each asset named gets its fee,
// and default_withdrawal_fee, when given, the fee of the others. Nothing
// is changed when a value is not a decimal.
func (s *Server) setFees(t FeesTable) *apiError {
	assets := make([]string, 0, len(t.WithdrawalFees))
	for a := range t.WithdrawalFees {
		assets = append(assets, a)
	}
	sort.Strings(assets)
	parsed := map[string]decimal.Decimal{}
	for _, a := range assets {
		if strings.TrimSpace(a) == "" {
			return errInvalid("withdrawal_fees", "asset names must not be empty")
		}
		v := t.WithdrawalFees[a]
		if !decimalPattern.MatchString(v) {
			return errInvalid("withdrawal_fees."+a, "must be a decimal string such as \"0.0001\"")
		}
		parsed[a] = decimal.RequireFromString(v)
	}
	if t.DefaultWithdrawalFee != "" && !decimalPattern.MatchString(t.DefaultWithdrawalFee) {
		return errInvalid("default_withdrawal_fee", "must be a decimal string such as \"0.01\"")
	}
	for _, a := range assets {
		s.SetWithdrawalFee(a, parsed[a])
	}
	if t.DefaultWithdrawalFee != "" {
		s.SetWithdrawalFee("", decimal.RequireFromString(t.DefaultWithdrawalFee))
	}
	return nil
}
