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

// handleSet registers an admin operation that decodes its body (checked
// by validate, unless nil), hands it to set with the path's id (empty in a
// path without one), and answers 204.
func handleSet[B any](mux adminRouter, pattern string, validate func(*B) *apiError, set func(id string, body *B)) {
	mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		body, ok := decodeValid(w, r, validate)
		if !ok {
			return
		}
		set(r.PathValue("id"), body)
		w.WriteHeader(http.StatusNoContent)
	})
}

// handleState registers the GET and PUT of one admin setting at path.
// GET answers get(). PUT decodes its body (checked by validate, unless
// nil) and hands it to put, then answers get(), or put's error.
func handleState[B any](mux adminRouter, path string, get func() any, validate func(*B) *apiError, put func(*B) *apiError) {
	mux.HandleFunc("GET "+path, func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, get())
	})
	mux.HandleFunc("PUT "+path, func(w http.ResponseWriter, r *http.Request) {
		body, ok := decodeValid(w, r, validate)
		if !ok {
			return
		}
		if e := put(body); e != nil {
			writeError(w, e)
			return
		}
		writeJSON(w, http.StatusOK, get())
	})
}

// handleStatus registers an admin operation that sets the status of the
// object of the path's id to one of allowed and answers the object, or 404
// with notFound's words when set does not find it.
func handleStatus(mux adminRouter, pattern string, allowed []string, set func(id, status string) bool,
	notFound func(id string) string, answer func(id string) any) {
	mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		body, ok := decodeValid(w, r, statusOneOf(allowed))
		if !ok {
			return
		}
		id := r.PathValue("id")
		if !set(id, body.Status) {
			writeError(w, errNotFound(notFound(id)))
			return
		}
		writeJSON(w, http.StatusOK, answer(id))
	})
}

func (s *Server) registerAdminRoutes(mux adminRouter) {
	s.registerRuleAdmin(mux)
	handleState(mux, "/admin/faults", func() any { return s.Faults.Get() },
		func(c *FaultConfig) *apiError { return validateFaultConfig(*c) },
		func(c *FaultConfig) *apiError { s.Faults.Set(*c); return nil })
	mux.HandleFunc("POST /admin/clock/advance", func(w http.ResponseWriter, r *http.Request) {
		d, ok := decodeSeconds(w, r)
		if !ok {
			return
		}
		s.Advance(d)
		writeJSON(w, http.StatusOK, map[string]string{"now": s.now().UTC().Format(time.RFC3339)})
	})
	handleState(mux, "/admin/rate-limits", func() any { return s.RateLimitsState() }, nil,
		func(body *RateLimitsState) *apiError {
			l, e := rateLimitsOf(*body)
			if e == nil {
				s.SetRateLimits(l)
			}
			return e
		})
	mux.HandleFunc("POST /admin/expire-tokens", func(w http.ResponseWriter, _ *http.Request) {
		s.ExpireTokens()
		w.WriteHeader(http.StatusNoContent)
	})
	handleSet(mux, "POST /admin/objects/{id}/hide", nil, func(id string, body *struct {
		Hidden bool `json:"hidden"`
	}) {
		s.HideObject(id, body.Hidden)
	})
	handleSet(mux, "POST /admin/objects/{id}/answer-as", nil, func(id string, body *struct {
		ID string `json:"id"`
	}) {
		s.AnswerAnotherObject(id, body.ID)
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
	handleState(mux, "/admin/balances", func() any { return AdminBalances{Balances: s.Balances()} },
		func(b *Balance) *apiError { return validateBalance(*b) },
		func(b *Balance) *apiError { s.SetBalance(b.ProfileID, b.Asset, b.Available); return nil })
	mux.HandleFunc("POST /admin/conversions/{id}/settle", func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		if _, e := s.settleConversion(id); e != nil {
			writeError(w, e)
			return
		}
		c, _ := s.data.conversion(id)
		writeJSON(w, http.StatusOK, c)
	})
	handleStatus(mux, "POST /admin/fiat-accounts/{id}/status", fiatAccountStatuses, s.SetFiatAccountStatus,
		func(id string) string {
			return "fiat account " + id + " not found among the accounts made through the API"
		},
		func(id string) any { a, _ := s.data.accountAnswer(id, false); return a })
	handleStatus(mux, "POST /admin/crypto-destination-addresses/{id}/status", DestinationAddressStatuses,
		s.SetCryptoDestinationAddressStatus,
		func(id string) string { return "crypto destination address " + id + " not found" },
		func(id string) any { a, _ := s.data.cryptoDestinationAddress(id); return a })
	mux.HandleFunc("GET /admin/counters", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, s.Counters.Snapshot())
	})
	mux.HandleFunc("POST /admin/counters/reset", func(w http.ResponseWriter, _ *http.Request) {
		s.Counters.Reset()
		w.WriteHeader(http.StatusNoContent)
	})
	handleState(mux, "/admin/fees", func() any { return s.WithdrawalFees() }, nil,
		func(t *FeesTable) *apiError { return s.setFees(*t) })
	mux.HandleFunc("POST /admin/fees/reset", func(w http.ResponseWriter, _ *http.Request) {
		s.ResetWithdrawalFees()
		writeJSON(w, http.StatusOK, s.WithdrawalFees())
	})
	handleState(mux, "/admin/limits", func() any { return AdminLimits{Limits: s.TransferLimits("")} },
		func(body *AdminLimits) *apiError {
			for i, l := range body.Limits {
				if e := validateLimit(i, l); e != nil {
					return e
				}
			}
			return nil
		},
		func(body *AdminLimits) *apiError { _ = s.SetTransferLimits(body.Limits); return nil })
	mux.HandleFunc("GET /admin/fee-quotes", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"quotes": s.FeeQuotes()})
	})
	type expireNext struct {
		Count int `json:"count"`
	}
	handleSet(mux, "POST /admin/fee-quotes/expire-next", func(body *expireNext) *apiError {
		if body.Count < 0 {
			return errInvalid("count", "must not be negative")
		}
		return nil
	}, func(_ string, body *expireNext) { s.ExpireNextFeeQuotes(body.Count) })
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
