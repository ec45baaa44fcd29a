package emulator

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Paths of the HTTP API, relative to the server root.
const (
	pathWithdrawals      = "/v2/transfer/crypto-withdrawals"
	pathInstructions     = "/v2/transfer/fiat-deposit-instructions"
	pathFiatAccounts     = "/v2/transfer/fiat-accounts"
	pathDepositAddresses = "/v2/transfer/deposit-addresses"
	pathRewardClaims     = "/v2/rewards/claims"
)

// Scopes of the HTTP operations.
const (
	scopeWriteWithdrawal   = "transfer:write_crypto_withdrawal"
	scopeWriteInstructions = "transfer:write_fiat_deposit_instructions"
	scopeReadFiatAccount   = "transfer:read_fiat_account"
	scopeWriteFiatAccount  = "transfer:write_fiat_account"
	scopeReadInstructions  = "transfer:read_fiat_deposit_instructions"
	scopeReadDepositAddr   = "transfer:read_deposit_address"
	scopeWriteDepositAddr  = "transfer:write_deposit_address"
	scopeReadClaims        = "rewards:read_claims"
	scopeReadConversion    = "conversion:read_conversion_stablecoin"
	// scopeReadProfile is the scope of the profile reads, and of the
	// sandbox deposit to a profile, as the reference publishes them.
	scopeReadProfile = "funding:read_profile"
	// scopeWriteProfile is the scope of Create, Update and Deactivate
	// Profile.
	scopeWriteProfile = "funding:write_profile"
	// scopeWriteSandboxFiatDeposit is the scope of a sandbox fiat deposit.
	scopeWriteSandboxFiatDeposit = "transfer:write_sandbox_fiat_deposit"
)

// maxBodyBytes caps request bodies.
const maxBodyBytes = 1 << 20

// apiError is an error answered with an ErrorBody.
type apiError struct {
	status int
	body   ErrorBody
	// title is the problem's title; empty: the status's text.
	title string
}

func (e *apiError) Error() string { return e.body.Message }

func errInvalid(field, format string, args ...any) *apiError {
	msg := fmt.Sprintf(format, args...)
	if field != "" {
		msg = field + ": " + msg
	}
	return &apiError{status: http.StatusBadRequest, body: ErrorBody{Code: "INVALID_ARGUMENT", Message: msg, Field: field}}
}

func errNotFound(msg string) *apiError {
	return &apiError{status: http.StatusNotFound, body: ErrorBody{Code: "NOT_FOUND", Message: msg}}
}

var requestSeq atomic.Uint64

// withRequestID sets a fresh X-Request-Id header on every response.
func withRequestID(next http.Handler) http.Handler {
	prefix := randomHex(4)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Request-Id", fmt.Sprintf("req-%s-%08d", prefix, requestSeq.Add(1)))
		next.ServeHTTP(w, r)
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		writeError(w, &apiError{status: http.StatusInternalServerError, body: ErrorBody{Code: "INTERNAL", Message: "response cannot be encoded"}})
		return
	}
	writeRawJSON(w, status, b)
}

func writeRawJSON(w http.ResponseWriter, status int, b []byte) {
	writeBody(w, status, "application/json", b)
}

// writeBody writes b, a JSON document of the given content type.
func writeBody(w http.ResponseWriter, status int, contentType string, b []byte) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Length", strconv.Itoa(len(b)+1))
	w.WriteHeader(status)
	_, _ = w.Write(b) //nolint:gosec // A JSON document with its content type, never HTML.
	_, _ = w.Write([]byte{'\n'})
}

// writeError answers e as an RFC 7807 problem, as the API reference
// publishes error bodies: {"type": ".../problems/<code>", "title": <status
// text>, "status": <status>, "detail": <message>, "meta": {"field": ...}},
// where <code> is the ErrorBody's code in lower case with dashes
// (INVALID_ARGUMENT: invalid-argument). Under Options.ErrorBodyCodeMessage
// (see codeMessageWriter) it answers the ErrorBody itself.
func writeError(w http.ResponseWriter, e *apiError) {
	if _, ok := w.(codeMessageWriter); ok {
		b, _ := json.Marshal(e.body)
		writeRawJSON(w, e.status, b)
		return
	}
	p := Problem{
		Type:   problemTypeBase + strings.ReplaceAll(strings.ToLower(e.body.Code), "_", "-"),
		Title:  cmp.Or(e.title, http.StatusText(e.status)),
		Status: e.status,
		Detail: e.body.Message,
	}
	if e.body.Field != "" {
		p.Meta = map[string]any{"field": e.body.Field}
	}
	writeProblem(w, &p)
}

// problemWriter carries the statuses whose problem the operation answers
// as application/json (apiRoute.jsonProblems).
type problemWriter struct {
	http.ResponseWriter
	json []int
}

// writeProblem answers p, as application/problem+json or, where the
// reference publishes the operation's problem of that status so,
// application/json.
func writeProblem(w http.ResponseWriter, p *Problem) {
	ct := "application/problem+json"
	if pw, ok := w.(problemWriter); ok && slices.Contains(pw.json, p.Status) {
		ct = "application/json"
	}
	b, _ := json.Marshal(p)
	writeBody(w, p.Status, ct, b)
}

// codeMessageWriter marks the responses of a server whose errors are
// {code, message, field} bodies (Options.ErrorBodyCodeMessage).
type codeMessageWriter struct {
	http.ResponseWriter
}

// fail answers err, which is an *apiError or an authorization error.
func (s *Server) fail(w http.ResponseWriter, err error, scope string) {
	var ae *apiError
	switch {
	case errors.As(err, &ae):
		writeError(w, ae)
	case errors.Is(err, errUnauthenticated):
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
		writeError(w, &apiError{status: http.StatusUnauthorized, body: ErrorBody{Code: "UNAUTHENTICATED", Message: "missing, unknown or expired bearer token"}})
	case errors.Is(err, errForbidden):
		w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="`+scope+`"`)
		writeError(w, &apiError{status: http.StatusForbidden, body: ErrorBody{Code: "PERMISSION_DENIED", Message: "token lacks the required scope " + scope}})
	default:
		writeError(w, &apiError{status: http.StatusInternalServerError, body: ErrorBody{Code: "INTERNAL", Message: "internal error"}})
	}
}

func (s *Server) registerHTTP(mux *http.ServeMux) {
	mux.HandleFunc("/v2/", s.serveV2)
	mux.HandleFunc("/", writeNoRoute)
}

// writeNoRoute answers a request for a path the service does not have: 404
// with {"message": "no route matches GET /v2/x"}, Content-Type
// application/json, under every error body option. It is not the
// not-found problem the service answers for an object that does not exist,
// so a client can tell a wrong address from a missing object.
func writeNoRoute(w http.ResponseWriter, r *http.Request) {
	b, _ := json.Marshal(map[string]string{"message": "no route matches " + r.Method + " " + r.URL.Path})
	writeRawJSON(w, http.StatusNotFound, b)
}

// serveV2 serves every path under /v2: faults, routing, authorization.
func (s *Server) serveV2(w http.ResponseWriter, r *http.Request) {
	if s.opts.Observe != nil {
		var done func()
		w, r, done = s.observe(w, r)
		defer done()
	}
	if s.opts.ErrorBodyCodeMessage {
		w = codeMessageWriter{w}
	}
	if d := s.Faults.latencyFor(); d > 0 {
		noteFault(r, "latency")
		s.holdOrAbort(r, d)
	}
	if f, ok := s.Faults.takeFailure(r.Method, r.URL.Path); ok {
		noteFault(r, strconv.Itoa(f.status))
		if f.status == http.StatusTooManyRequests {
			// A negative wait sends no Retry-After, as the service does when
			// it throttles the address for up to five minutes.
			if f.retryAfter >= 0 {
				w.Header().Set("Retry-After", strconv.Itoa(f.retryAfter))
			}
			writeError(w, &apiError{status: f.status, body: ErrorBody{Code: "RESOURCE_EXHAUSTED", Message: "rate limit exceeded; retry later"}})
			return
		}
		code := "UNAVAILABLE"
		if f.status == http.StatusInternalServerError {
			code = "INTERNAL"
		}
		writeError(w, &apiError{status: f.status, body: ErrorBody{Code: code, Message: "the service is temporarily unable to answer"}})
		return
	}
	rt, id, allow, found := s.routeFor(r.Method, r.URL.Path)
	if !found {
		writeNoRoute(w, r)
		return
	}
	if allow != nil {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeError(w, &apiError{status: http.StatusMethodNotAllowed, body: ErrorBody{Code: "METHOD_NOT_ALLOWED", Message: r.Method + " is not allowed on " + r.URL.Path + "; use " + strings.Join(allow, " or ")}})
		return
	}
	if _, codeMessage := w.(codeMessageWriter); !codeMessage && len(rt.jsonProblems) > 0 {
		w = problemWriter{w, rt.jsonProblems}
	}
	if err := s.authorize(r, rt.Scope); rt.Scope != "" && err != nil {
		s.fail(w, err, rt.Scope)
		return
	}
	rt.handler(s, w, r, id)
}

// decodeBody decodes the JSON body of r into v, strictly.
// decodeValid decodes the request's body into a new R and checks it with
// validate (none when nil). On a problem it answers the error and reports
// false.
func decodeValid[R any](w http.ResponseWriter, r *http.Request, validate func(*R) *apiError) (*R, bool) {
	req := new(R)
	e := decodeBody(r, req)
	if e == nil && validate != nil {
		e = validate(req)
	}
	if e != nil {
		writeError(w, e)
		return nil, false
	}
	return req, true
}

func decodeBody(r *http.Request, v any) *apiError {
	ct := r.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
		return &apiError{status: http.StatusUnsupportedMediaType, body: ErrorBody{Code: "UNSUPPORTED_MEDIA_TYPE", Message: "Content-Type must be application/json"}}
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes+1))
	if err != nil {
		return errInvalid("", "request body cannot be read")
	}
	if len(body) > maxBodyBytes {
		return errInvalid("", "request body is larger than %d bytes", maxBodyBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errInvalid("", "malformed JSON: unexpected data after the request object")
	}
	return nil
}

func jsonError(err error) *apiError {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		if te.Field == "" {
			return errInvalid("", "malformed JSON: the body must be a JSON object")
		}
		return errInvalid(te.Field, "must be a JSON %s, not %s", jsonKind(te.Type.Kind().String()), te.Value)
	case errors.As(err, &se):
		return errInvalid("", "malformed JSON at byte %d", se.Offset)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return errInvalid("", "malformed JSON: the body is empty or truncated")
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		name = strings.Trim(name, `"`)
		return errInvalid(name, "unknown field")
	}
	return errInvalid("", "malformed JSON")
}

func jsonKind(k string) string {
	switch k {
	case "map", "struct":
		return "object"
	case "slice", "array":
		return "array"
	case "int", "int32", "int64", "float64":
		return "number"
	case "bool":
		return "boolean"
	}
	return k
}

// answerPost writes the answer of a processed POST, applying the
// accept-then-fail and accept-then-hang faults: 200, as the reference
// publishes it, or 201 under the seed profile (whose spec does not show the
// status of a create), so that the provider is seen to take either.
func (s *Server) answerPost(w http.ResponseWriter, r *http.Request, v any) {
	if s.acceptFaults(w, r) {
		status := http.StatusOK
		if s.opts.Profile == ProfileSeed {
			status = http.StatusCreated
		}
		writeJSON(w, status, v)
	}
}

// acceptFaults applies the accept-then-fail and accept-then-hang faults to
// the answer of a processed POST. It reports whether the answer is still
// to be written.
func (s *Server) acceptFaults(w http.ResponseWriter, r *http.Request) bool {
	switch mode, hang := s.Faults.takeAccept(r.URL.Path); mode {
	case acceptFail:
		noteFault(r, "accept-then-fail")
		writeError(w, &apiError{status: http.StatusInternalServerError, body: ErrorBody{Code: "INTERNAL", Message: "internal error"}})
		return false
	case acceptHang:
		noteFault(r, "accept-then-hang")
		s.holdOrAbort(r, hang)
	}
	return true
}

// holdOrAbort waits d. When the client goes away or the server closes
// first, it aborts the handler so that the connection is dropped without
// an answer.
func (s *Server) holdOrAbort(r *http.Request, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-r.Context().Done():
		panic(http.ErrAbortHandler)
	case <-s.data.closing:
		panic(http.ErrAbortHandler)
	}
}

func (s *Server) handleGetInstructions(w http.ResponseWriter, _ *http.Request, id string) {
	fdi, ok := s.data.instructionsByID(id)
	if !ok {
		writeError(w, errNotFound("fiat deposit instructions "+id+" not found"))
		return
	}
	writeJSON(w, http.StatusOK, fdi)
}

func (s *Server) handleGetConversion(w http.ResponseWriter, _ *http.Request, id string) {
	if !isUUID(id) {
		writeError(w, errInvalid("id", "must be a UUID"))
		return
	}
	c, ok := s.data.conversion(id)
	if !ok {
		writeError(w, conversionNotFound(id))
		return
	}
	writeJSON(w, http.StatusOK, c)
}

func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			isHex := '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
			if !isHex {
				return false
			}
		}
	}
	return true
}
