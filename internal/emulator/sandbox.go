package emulator

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"

	"github.com/shopspring/decimal"
)

// The reference's sandbox operations: a test funds a profile the same way
// against the service's sandbox and against the emulator.

// SandboxDepositRequest is the body of POST
// /sandbox/profiles/{profile_id}/deposit.
type SandboxDepositRequest struct {
	Asset         string `json:"asset"`
	Amount        string `json:"amount"`
	CryptoNetwork string `json:"crypto_network,omitempty"`
	CryptoAddress string `json:"crypto_address,omitempty"`
}

// SandboxDepositResponse is its answer.
type SandboxDepositResponse struct {
	ActivityID string `json:"activity_id"`
}

// SandboxFiatDepositRequest is the body of POST /sandbox/fiat-deposits:
// a deposit quoting the memo_id of fiat deposit instructions credits the
// profile of those instructions.
type SandboxFiatDepositRequest struct {
	Amount                  string          `json:"amount"`
	Asset                   string          `json:"asset"`
	MemoID                  string          `json:"memo_id"`
	FiatNetworkInstructions json.RawMessage `json:"fiat_network_instructions"`
	FiatAccountOwner        json.RawMessage `json:"fiat_account_owner,omitempty"`
}

// sandboxFiatAmount is the pattern of a sandbox fiat deposit's amount (two
// decimals at most), as published.
const sandboxFiatAmount = `^[0-9]*\.?[0-9]{1,2}$`

// handleSandboxDeposit credits the profile id with the amount of the asset:
// the profile's balance of it, unset until then, becomes what it held plus
// the deposit, and the operations that debit it are refused beyond it.
func (s *Server) handleSandboxDeposit(w http.ResponseWriter, r *http.Request, id string) {
	req, ok := decodeValid(w, r, func(req *SandboxDepositRequest) *apiError {
		return required("asset", req.Asset, "amount", req.Amount)
	})
	if !ok {
		return
	}
	if !decimalPattern.MatchString(req.Amount) {
		writeError(w, errInvalid("amount", "must match ^[0-9]*\\.?[0-9]+$"))
		return
	}
	if e := withinPrecision("amount", req.Asset, req.Amount); e != nil {
		writeError(w, e)
		return
	}
	if req.CryptoNetwork != "" {
		if e := oneOf("crypto_network", req.CryptoNetwork, cryptoNetworks); e != nil {
			writeError(w, e)
			return
		}
	}
	s.credit(id, strings.ToUpper(req.Asset), decimal.RequireFromString(req.Amount))
	st := s.data
	st.mu.Lock()
	activity := st.created.uuid()
	st.mu.Unlock()
	writeJSON(w, http.StatusOK, SandboxDepositResponse{ActivityID: activity})
}

// handleSandboxFiatDeposit credits the profile of the fiat deposit
// instructions whose memo_id the deposit quotes. A memo_id no instructions
// of the emulator carry is a 400.
func (s *Server) handleSandboxFiatDeposit(w http.ResponseWriter, r *http.Request, _ string) {
	req, ok := decodeValid(w, r, func(req *SandboxFiatDepositRequest) *apiError {
		return required("amount", req.Amount, "asset", req.Asset, "memo_id", req.MemoID)
	})
	if !ok {
		return
	}
	if len(req.FiatNetworkInstructions) == 0 || string(req.FiatNetworkInstructions) == "null" {
		writeError(w, errInvalid("fiat_network_instructions", "fiat network instructions required"))
		return
	}
	if !sandboxFiatAmountRe.MatchString(req.Amount) {
		writeError(w, errInvalid("amount", "must match %s", sandboxFiatAmount))
		return
	}
	if !strings.EqualFold(req.Asset, "USD") {
		writeError(w, errInvalid("asset", "must be USD"))
		return
	}
	st := s.data
	st.mu.Lock()
	profile := ""
	for _, rec := range st.instructions {
		if rec.fdi.MemoID == req.MemoID && !rec.deleted {
			profile = rec.fdi.ProfileID
			break
		}
	}
	st.mu.Unlock()
	if profile == "" {
		writeError(w, errInvalid("memo_id", "no fiat deposit instructions carry this memo_id"))
		return
	}
	s.credit(profile, "USD", decimal.RequireFromString(req.Amount))
	writeJSON(w, http.StatusOK, struct{}{})
}

// credit adds amount to the balance of profile in asset, setting it when
// none was set.
func (s *Server) credit(profile, asset string, amount decimal.Decimal) {
	st := s.data
	st.mu.Lock()
	defer st.mu.Unlock()
	k := keyOf(profile, asset)
	st.balances[k] = st.balances[k].Add(amount)
	st.reactivateIfFunded(profile)
}

var sandboxFiatAmountRe = regexp.MustCompile(sandboxFiatAmount)
