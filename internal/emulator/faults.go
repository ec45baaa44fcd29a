package emulator

import (
	"net/http"
	"strings"
	"sync"
	"time"
)

// Faults are the emulator's fault switches. Each "next N" switch applies to
// the next N matching requests and then turns itself off. Safe for
// concurrent use; also settable through the admin API.
type Faults struct {
	mu sync.Mutex
	// Latency is added before every /v2 response.
	latency time.Duration
	// Next N /v2 requests answer 429 with Retry-After retryAfter seconds
	// (no Retry-After when negative).
	tooMany    int
	retryAfter int
	// Next N /v2 requests answer serverErrorStatus (default 503).
	serverErrors      int
	serverErrorStatus int
	// Next N writes (POST, PUT, DELETE) are answered writeErrorStatus
	// (default 502) without being processed, as a gateway that lost them.
	writeErrors      int
	writeErrorStatus int
	// Next N POSTs are processed (the object is created) and then answered 500.
	acceptThenFail int
	// Next N POSTs are processed and then held for hangFor before answering.
	acceptThenHang int
	hangFor        time.Duration
	// Next N stream connections are dropped: before the first data message.
	dropWS int
	// Next N valid withdrawals are refused with 403 and the problem of
	// type refuseType (for example insufficient-funds), as the API
	// reference answers a withdrawal the balance does not cover.
	refuse       int
	refuseType   string
	refuseDetail string
	// Path filter: when non-empty, the 429, 5xx, accept-then-fail and
	// accept-then-hang switches apply only to request paths with this prefix
	// (for example "/v2/transfer/fiat-accounts"). Latency applies everywhere.
	pathPrefix string
}

// FaultConfig is the serialisable form of every switch, as used by the admin API.
type FaultConfig struct {
	LatencyMS         int    `json:"latency_ms"`
	TooManyRequests   int    `json:"too_many_requests"`
	RetryAfterSeconds int    `json:"retry_after_seconds"`
	ServerErrors      int    `json:"server_errors"`
	ServerErrorStatus int    `json:"server_error_status"`
	WriteErrors       int    `json:"write_errors"`
	WriteErrorStatus  int    `json:"write_error_status"`
	AcceptThenFail    int    `json:"accept_then_fail"`
	AcceptThenHang    int    `json:"accept_then_hang"`
	HangMS            int    `json:"hang_ms"`
	DropWS            int    `json:"drop_ws"`
	PathPrefix        string `json:"path_prefix"`
}

// Set replaces every switch at once.
func (f *Faults) Set(c FaultConfig) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.latency = time.Duration(c.LatencyMS) * time.Millisecond
	f.tooMany, f.retryAfter = c.TooManyRequests, c.RetryAfterSeconds
	f.serverErrors, f.serverErrorStatus = c.ServerErrors, c.ServerErrorStatus
	f.writeErrors, f.writeErrorStatus = c.WriteErrors, c.WriteErrorStatus
	f.acceptThenFail = c.AcceptThenFail
	f.acceptThenHang, f.hangFor = c.AcceptThenHang, time.Duration(c.HangMS)*time.Millisecond
	f.dropWS = c.DropWS
	f.pathPrefix = c.PathPrefix
}

// Get returns the current switches.
func (f *Faults) Get() FaultConfig {
	f.mu.Lock()
	defer f.mu.Unlock()
	return FaultConfig{
		LatencyMS: int(f.latency / time.Millisecond), TooManyRequests: f.tooMany, RetryAfterSeconds: f.retryAfter,
		ServerErrors: f.serverErrors, ServerErrorStatus: f.serverErrorStatus,
		WriteErrors: f.writeErrors, WriteErrorStatus: f.writeErrorStatus, AcceptThenFail: f.acceptThenFail,
		AcceptThenHang: f.acceptThenHang, HangMS: int(f.hangFor / time.Millisecond), DropWS: f.dropWS, PathPrefix: f.pathPrefix,
	}
}

// Reset turns every switch off.
func (f *Faults) Reset() { f.Set(FaultConfig{}) }

// SetLatency adds d before every /v2 response.
func (f *Faults) SetLatency(d time.Duration) { f.mu.Lock(); f.latency = d; f.mu.Unlock() }

// TooManyRequests makes the next n /v2 requests answer 429 with Retry-After.
func (f *Faults) TooManyRequests(n, retryAfterSeconds int) {
	f.mu.Lock()
	f.tooMany, f.retryAfter = n, retryAfterSeconds
	f.mu.Unlock()
}

// ServerErrors makes the next n /v2 requests answer status (0 means 503).
func (f *Faults) ServerErrors(n, status int) {
	f.mu.Lock()
	f.serverErrors, f.serverErrorStatus = n, status
	f.mu.Unlock()
}

// WriteErrors makes the next n writes (POST, PUT, DELETE) to /v2 answer
// status (0 means 502) without processing them: a create whose answer is
// lost and that made nothing.
func (f *Faults) WriteErrors(n, status int) {
	f.mu.Lock()
	f.writeErrors, f.writeErrorStatus = n, status
	f.mu.Unlock()
}

// OnlyPath limits the 429, 5xx, write error and accept-then-* switches to paths with this
// prefix ("" for all).
func (f *Faults) OnlyPath(prefix string) { f.mu.Lock(); f.pathPrefix = prefix; f.mu.Unlock() }

// AcceptThenFail makes the next n POSTs create their object, then answer 500.
func (f *Faults) AcceptThenFail(n int) { f.mu.Lock(); f.acceptThenFail = n; f.mu.Unlock() }

// AcceptThenHang makes the next n POSTs create their object, then wait d
// (or until the client goes away) before answering.
func (f *Faults) AcceptThenHang(n int, d time.Duration) {
	f.mu.Lock()
	f.acceptThenHang, f.hangFor = n, d
	f.mu.Unlock()
}

// RefuseWithdrawals makes the next n valid withdrawals answer 403 with the
// problem of the given type (for example insufficient-funds) and detail.
func (f *Faults) RefuseWithdrawals(n int, problemType, detail string) {
	f.mu.Lock()
	f.refuse, f.refuseType, f.refuseDetail = n, problemType, detail
	f.mu.Unlock()
}

// takeRefusal reports whether a withdrawal is to be refused, and how.
func (f *Faults) takeRefusal() (problemType, detail string, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.refuse <= 0 {
		return "", "", false
	}
	f.refuse--
	return f.refuseType, f.refuseDetail, true
}

// DropWS makes the next n stream connections drop before their first data message.
func (f *Faults) DropWS(n int) { f.mu.Lock(); f.dropWS = n; f.mu.Unlock() }

// takeDropWS reports whether this stream connection should be dropped, consuming one.
func (f *Faults) takeDropWS() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.dropWS > 0 {
		f.dropWS--
		return true
	}
	return false
}

// latencyFor returns the latency to add before a /v2 response.
func (f *Faults) latencyFor() time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.latency
}

// failure is a 429 or 5xx answer chosen by the switches.
type failure struct {
	status     int
	retryAfter int
}

// takeFailure reports whether the /v2 request to path is answered 429 or
// 5xx instead of being served, consuming one from the matching switch.
// 429 goes first when both are set.
func (f *Faults) takeFailure(method, path string) (failure, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !strings.HasPrefix(path, f.pathPrefix) {
		return failure{}, false
	}
	if f.tooMany > 0 {
		f.tooMany--
		return failure{status: http.StatusTooManyRequests, retryAfter: f.retryAfter}, true
	}
	if f.writeErrors > 0 && method != http.MethodGet {
		f.writeErrors--
		st := f.writeErrorStatus
		if st < 500 || st > 599 {
			st = http.StatusBadGateway
		}
		return failure{status: st}, true
	}
	if f.serverErrors > 0 {
		f.serverErrors--
		st := f.serverErrorStatus
		if st < 500 || st > 599 {
			st = http.StatusServiceUnavailable
		}
		return failure{status: st}, true
	}
	return failure{}, false
}

// acceptMode says how a processed POST is answered.
type acceptMode int

const (
	acceptNormal acceptMode = iota
	acceptFail
	acceptHang
)

// takeAccept reports how the processed POST to path is answered, consuming
// one from the matching switch; for acceptHang it also returns how long.
// accept-then-fail goes first when both are set.
func (f *Faults) takeAccept(path string) (acceptMode, time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !strings.HasPrefix(path, f.pathPrefix) {
		return acceptNormal, 0
	}
	if f.acceptThenFail > 0 {
		f.acceptThenFail--
		return acceptFail, 0
	}
	if f.acceptThenHang > 0 {
		f.acceptThenHang--
		return acceptHang, f.hangFor
	}
	return acceptNormal, 0
}
