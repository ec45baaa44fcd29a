package emulator

import (
	"net/http"
	"time"
)

// CountersSnapshot is the body of GET /admin/counters.
type CountersSnapshot struct {
	// Requests by "METHOD /path".
	Requests map[string]int `json:"requests"`
	// APIRequests is the number of requests under /v2.
	APIRequests int `json:"api_requests"`
	// Tokens issued by requested scope string.
	Tokens map[string]int `json:"tokens"`
	// TotalTokens is the number of tokens issued.
	TotalTokens int `json:"total_tokens"`
	// Connections is the number of TCP connections accepted.
	Connections int `json:"connections"`
}

// AdminTransfers is the body of GET /admin/transfers: the transfers made
// through the API (with ?ref_id=, those made with that ref_id), oldest
// first.
type AdminTransfers struct {
	Count     int        `json:"count"`
	Transfers []Transfer `json:"transfers"`
}

// AdminLimits is the body of GET and PUT /admin/limits: the transfer limits
// (see Server.SetTransferLimits).
type AdminLimits struct {
	Limits []TransferLimit `json:"limits"`
}

// Snapshot returns every counter at once.
func (c *Counters) Snapshot() CountersSnapshot {
	return CountersSnapshot{
		Requests:    c.AllRequests(),
		APIRequests: c.APIRequests(),
		Tokens:      c.AllTokens(),
		TotalTokens: c.TotalTokens(),
		Connections: c.Connections(),
	}
}

// registerAdmin serves the admin API: an unauthenticated control surface
// for tests and demos, meant for loopback use only.
func (s *Server) registerAdmin(mux *http.ServeMux) {
	s.registerAdminRoutes(mux)
}

// AdminRoutes are the operations of the admin API, as "METHOD /admin/path"
// patterns, in the order the guide describes them. The command's startup
// banner prints them; TestAdminRoutesComplete checks that they are every
// operation served.
func AdminRoutes() []string {
	return []string{
		"GET /admin/faults", "PUT /admin/faults",
		"GET /admin/transfers", "POST /admin/transfers/{id}/status", "POST /admin/transfers/{id}/backdate",
		"GET /admin/balances", "PUT /admin/balances", "POST /admin/conversions/{id}/settle",
		"GET /admin/fees", "PUT /admin/fees", "POST /admin/fees/reset",
		"GET /admin/fee-quotes", "POST /admin/fee-quotes/expire-next",
		"GET /admin/limits", "PUT /admin/limits",
		"POST /admin/fiat-accounts/{id}/status", "POST /admin/crypto-destination-addresses/{id}/status",
		"POST /admin/instructions/{id}/deprecate", "DELETE /admin/instructions/{id}",
		"POST /admin/orchestration-rules/{id}/approve", "POST /admin/orchestration-rules/{id}/reject",
		"POST /admin/orchestration-rules/{id}/delete", "POST /admin/orchestration-rules/{id}/destination",
		"POST /admin/objects/{id}/hide", "POST /admin/objects/{id}/answer-as",
		"POST /admin/clock/advance", "POST /admin/expire-tokens",
		"GET /admin/rate-limits", "PUT /admin/rate-limits",
		"GET /admin/counters", "POST /admin/counters/reset",
	}
}

// adminRouter is what registerAdminRoutes registers the operations with.
type adminRouter interface {
	HandleFunc(pattern string, h func(http.ResponseWriter, *http.Request))
}

func (s *Server) registerAdminRoutes(mux adminRouter) {
	s.registerRuleAdmin(mux)
	mux.HandleFunc("GET /admin/faults", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, s.Faults.Get())
	})
	mux.HandleFunc("PUT /admin/faults", func(w http.ResponseWriter, r *http.Request) {
		c, ok := decodeValid(w, r, func(c *FaultConfig) *apiError { return validateFaultConfig(*c) })
		if !ok {
			return
		}
		s.Faults.Set(*c)
		writeJSON(w, http.StatusOK, s.Faults.Get())
	})
	mux.HandleFunc("POST /admin/clock/advance", func(w http.ResponseWriter, r *http.Request) {
		d, ok := decodeSeconds(w, r)
		if !ok {
			return
		}
		s.Advance(d)
		writeJSON(w, http.StatusOK, map[string]string{"now": s.now().UTC().Format(time.RFC3339)})
	})
	mux.HandleFunc("GET /admin/rate-limits", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, s.RateLimitsState())
	})
	mux.HandleFunc("PUT /admin/rate-limits", func(w http.ResponseWriter, r *http.Request) {
		body, ok := decodeValid[RateLimitsState](w, r, nil)
		if !ok {
			return
		}
		l, e := rateLimitsOf(*body)
		if e != nil {
			writeError(w, e)
			return
		}
		s.SetRateLimits(l)
		writeJSON(w, http.StatusOK, s.RateLimitsState())
	})
	mux.HandleFunc("POST /admin/expire-tokens", func(w http.ResponseWriter, _ *http.Request) {
		s.ExpireTokens()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /admin/objects/{id}/hide", func(w http.ResponseWriter, r *http.Request) {
		body, ok := decodeValid[struct {
			Hidden bool `json:"hidden"`
		}](w, r, nil)
		if !ok {
			return
		}
		s.HideObject(r.PathValue("id"), body.Hidden)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /admin/objects/{id}/answer-as", func(w http.ResponseWriter, r *http.Request) {
		body, ok := decodeValid[struct {
			ID string `json:"id"`
		}](w, r, nil)
		if !ok {
			return
		}
		s.AnswerAnotherObject(r.PathValue("id"), body.ID)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /admin/instructions/{id}/deprecate", func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		if !s.DeprecateInstructions(id) {
			writeError(w, errNotFound("fiat deposit instructions "+id+" not found"))
			return
		}
		fdi, _ := s.data.instructionsByID(id)
		writeJSON(w, http.StatusOK, fdi)
	})
	mux.HandleFunc("DELETE /admin/instructions/{id}", func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		if !s.DeleteInstructions(id) {
			writeError(w, errNotFound("fiat deposit instructions "+id+" not found"))
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /admin/transfers", func(w http.ResponseWriter, r *http.Request) {
		refID := r.URL.Query().Get("ref_id")
		out := AdminTransfers{Transfers: []Transfer{}}
		for _, t := range s.Transfers() {
			if refID == "" || t.RefID != nil && *t.RefID == refID {
				out.Transfers = append(out.Transfers, t)
			}
		}
		out.Count = len(out.Transfers)
		writeJSON(w, http.StatusOK, out)
	})
	mux.HandleFunc("POST /admin/transfers/{id}/status", func(w http.ResponseWriter, r *http.Request) {
		body, ok := decodeValid(w, r, func(body *struct {
			Status       string `json:"status"`
			CryptoTxHash string `json:"crypto_tx_hash"`
		}) *apiError {
			return oneOf("status", body.Status, transferStatuses)
		})
		if !ok {
			return
		}
		id := r.PathValue("id")
		if !s.SetTransferStatus(id, body.Status, body.CryptoTxHash) {
			writeError(w, errNotFound("transfer "+id+" not found among the transfers made through the API"))
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /admin/transfers/{id}/backdate", func(w http.ResponseWriter, r *http.Request) {
		d, ok := decodeSeconds(w, r)
		if !ok {
			return
		}
		id := r.PathValue("id")
		if !s.BackdateTransfer(id, d) {
			writeError(w, errNotFound("transfer "+id+" not found among the transfers made through the API"))
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /admin/balances", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, AdminBalances{Balances: s.Balances()})
	})
	mux.HandleFunc("PUT /admin/balances", func(w http.ResponseWriter, r *http.Request) {
		b, ok := decodeValid(w, r, func(b *Balance) *apiError { return validateBalance(*b) })
		if !ok {
			return
		}
		s.SetBalance(b.ProfileID, b.Asset, b.Available)
		writeJSON(w, http.StatusOK, AdminBalances{Balances: s.Balances()})
	})
	mux.HandleFunc("POST /admin/conversions/{id}/settle", func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		if _, e := s.settleConversion(id); e != nil {
			writeError(w, e)
			return
		}
		c, _ := s.data.conversion(id)
		writeJSON(w, http.StatusOK, c)
	})
	mux.HandleFunc("POST /admin/fiat-accounts/{id}/status", func(w http.ResponseWriter, r *http.Request) {
		body, ok := decodeValid(w, r, statusOneOf(fiatAccountStatuses))
		if !ok {
			return
		}
		id := r.PathValue("id")
		if !s.SetFiatAccountStatus(id, body.Status) {
			writeError(w, errNotFound("fiat account "+id+" not found among the accounts made through the API"))
			return
		}
		a, _ := s.data.accountAnswer(id, false)
		writeJSON(w, http.StatusOK, a)
	})
	mux.HandleFunc("POST /admin/crypto-destination-addresses/{id}/status", func(w http.ResponseWriter, r *http.Request) {
		body, ok := decodeValid(w, r, statusOneOf(DestinationAddressStatuses))
		if !ok {
			return
		}
		id := r.PathValue("id")
		if !s.SetCryptoDestinationAddressStatus(id, body.Status) {
			writeError(w, errNotFound("crypto destination address "+id+" not found"))
			return
		}
		a, _ := s.data.cryptoDestinationAddress(id)
		writeJSON(w, http.StatusOK, a)
	})
	mux.HandleFunc("GET /admin/counters", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, s.Counters.Snapshot())
	})
	mux.HandleFunc("POST /admin/counters/reset", func(w http.ResponseWriter, _ *http.Request) {
		s.Counters.Reset()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /admin/fees", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, s.WithdrawalFees())
	})
	mux.HandleFunc("PUT /admin/fees", func(w http.ResponseWriter, r *http.Request) {
		t, ok := decodeValid[FeesTable](w, r, nil)
		if !ok {
			return
		}
		if e := s.setFees(*t); e != nil {
			writeError(w, e)
			return
		}
		writeJSON(w, http.StatusOK, s.WithdrawalFees())
	})
	mux.HandleFunc("POST /admin/fees/reset", func(w http.ResponseWriter, _ *http.Request) {
		s.ResetWithdrawalFees()
		writeJSON(w, http.StatusOK, s.WithdrawalFees())
	})
	mux.HandleFunc("GET /admin/limits", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, AdminLimits{Limits: s.TransferLimits("")})
	})
	mux.HandleFunc("PUT /admin/limits", func(w http.ResponseWriter, r *http.Request) {
		body, ok := decodeValid(w, r, func(body *AdminLimits) *apiError {
			for i, l := range body.Limits {
				if e := validateLimit(i, l); e != nil {
					return e
				}
			}
			return nil
		})
		if !ok {
			return
		}
		_ = s.SetTransferLimits(body.Limits)
		writeJSON(w, http.StatusOK, AdminLimits{Limits: s.TransferLimits("")})
	})
	mux.HandleFunc("GET /admin/fee-quotes", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"quotes": s.FeeQuotes()})
	})
	mux.HandleFunc("POST /admin/fee-quotes/expire-next", func(w http.ResponseWriter, r *http.Request) {
		body, ok := decodeValid(w, r, func(body *struct {
			Count int `json:"count"`
		}) *apiError {
			if body.Count < 0 {
				return errInvalid("count", "must not be negative")
			}
			return nil
		})
		if !ok {
			return
		}
		s.ExpireNextFeeQuotes(body.Count)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("/admin/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, errNotFound("no such admin operation: "+r.Method+" "+r.URL.Path))
	})
}

// statusBody is the body of an admin operation that sets the status of a
// fiat account or of a destination address.
type statusBody struct {
	Status string `json:"status"`
}

// statusOneOf checks that the status of a statusBody is one of allowed.
func statusOneOf(allowed []string) func(*statusBody) *apiError {
	return func(b *statusBody) *apiError { return oneOf("status", b.Status, allowed) }
}

func validateFaultConfig(c FaultConfig) *apiError {
	// -1 is the one negative wait: a 429 without Retry-After.
	if c.RetryAfterSeconds == -1 {
		c.RetryAfterSeconds = 0
	}
	for _, f := range []struct {
		name string
		v    int
	}{
		{"latency_ms", c.LatencyMS}, {"too_many_requests", c.TooManyRequests},
		{"retry_after_seconds", c.RetryAfterSeconds}, {"server_errors", c.ServerErrors}, {"write_errors", c.WriteErrors},
		{"accept_then_fail", c.AcceptThenFail}, {"accept_then_hang", c.AcceptThenHang},
		{"hang_ms", c.HangMS}, {"drop_ws", c.DropWS},
	} {
		if f.v < 0 {
			return errInvalid(f.name, "must not be negative")
		}
	}
	if c.LatencyMS > int(time.Minute/time.Millisecond) || c.HangMS > int(10*time.Minute/time.Millisecond) {
		return errInvalid("latency_ms", "latency_ms is at most 60000 and hang_ms at most 600000")
	}
	if c.ServerErrorStatus != 0 && (c.ServerErrorStatus < 500 || c.ServerErrorStatus > 599) {
		return errInvalid("server_error_status", "must be 0 (503) or from 500 to 599")
	}
	if c.WriteErrorStatus != 0 && (c.WriteErrorStatus < 500 || c.WriteErrorStatus > 599) {
		return errInvalid("write_error_status", "must be 0 (502) or from 500 to 599")
	}
	return nil
}

// decodeSeconds reads the body {"seconds": n} of an admin request, n a
// positive number of seconds, or answers the error and reports false.
func decodeSeconds(w http.ResponseWriter, r *http.Request) (time.Duration, bool) {
	body, ok := decodeValid(w, r, func(body *struct {
		Seconds int64 `json:"seconds"`
	}) *apiError {
		if body.Seconds <= 0 {
			return errInvalid("seconds", "seconds must be a positive number of seconds")
		}
		return nil
	})
	if !ok {
		return 0, false
	}
	return time.Duration(body.Seconds) * time.Second, true
}
