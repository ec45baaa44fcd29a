package client

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sentinel errors matched by errors.Is against an *APIError.
var (
	ErrNotFound     = errors.New("not found")
	ErrUnauthorized = errors.New("unauthorized")
	ErrForbidden    = errors.New("forbidden")
	ErrConflict     = errors.New("conflict")
	ErrValidation   = errors.New("validation failed")
	ErrRateLimited  = errors.New("rate limited")
	ErrServer       = errors.New("server error")
	// ErrNoSuchOperation is an answer saying that nothing serves the
	// request's method and URL: a 405, a 404 of a list, or a 404 whose body
	// is not an error answer of the API (see APIError.ObjectNotFound). It
	// is never "the object is gone": most often base_url (or auth_url)
	// points at the wrong address, or a gateway answered in front of the
	// service.
	ErrNoSuchOperation = errors.New("no such operation")
)

// maxMessageLen caps the server message kept in an APIError, maxCodeLen
// its code and request id.
const (
	maxMessageLen = 500
	maxCodeLen    = 100
)

// APIError is a non-2xx answer of the service (or of its token endpoint).
type APIError struct {
	Method string
	// Path is the request path relative to the base URL (the full token
	// URL for token requests).
	Path   string
	Status int
	// Code is the server's machine-readable error code, when it sent one.
	Code string
	// Message is the server's human-readable message, cleaned and capped.
	Message   string
	RequestID string
	// Scope is the OAuth scope the operation uses.
	Scope string
	// Attempts is the number of attempts made when retries ran out; zero
	// when the answer was not retried to exhaustion.
	Attempts int
	// Existing is the object a 409 answer reports as already made with the
	// request's ref_id (the problem body's meta.existing), or nil.
	Existing json.RawMessage
	// URL is the absolute address the request was sent to, without its
	// query or any user information; "" when unknown.
	URL string

	token bool
	// apiBody: the body is an error answer in the API's words (see
	// apiErrorBody), not a page of a gateway, a proxy or another server.
	apiBody bool
	// list: the request read a list (a lookup among them), whose path
	// names no object.
	list bool
	// throttled: a 429 without Retry-After.
	throttled bool
}

// Error reads like
// "POST /transfer/crypto-withdrawals: 409 Conflict: duplicate ref_id (request id abc)".
func (e *APIError) Error() string {
	var b strings.Builder
	b.WriteString(e.Method)
	b.WriteByte(' ')
	b.WriteString(e.Path)
	b.WriteString(": ")
	if e.Attempts > 1 {
		fmt.Fprintf(&b, "gave up after %d attempts: ", e.Attempts)
	}
	b.WriteString(statusLine(e.Status))
	if e.Code != "" && !strings.EqualFold(e.Code, e.Message) {
		b.WriteString(": ")
		b.WriteString(e.Code)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.RequestID != "" {
		fmt.Fprintf(&b, " (request id %s)", e.RequestID)
	}
	switch {
	case e.NoSuchOperation():
		b.WriteString("; ")
		b.WriteString(e.noSuchOperationHint())
	case e.Status == http.StatusForbidden && !e.permissionCause():
		// A 403 that names another cause (insufficient-funds, an expired
		// fee quote): what the body says is the whole story.
	case e.Status == http.StatusForbidden && e.Scope != "" && !e.token:
		fmt.Fprintf(&b, "; the operation needs a token with the OAuth scope %q granted to these client credentials", e.Scope)
	case e.ScopeRefused() && e.Scope != "":
		fmt.Fprintf(&b, "; the client credentials may not be allowed the scope %q", e.Scope)
	case e.CredentialsRejected():
		b.WriteString("; the service rejected the client credentials: check client_id and client_secret " +
			"(PLATFORM_CLIENT_ID, PLATFORM_CLIENT_SECRET)")
	case e.Status == http.StatusUnauthorized:
		b.WriteString("; the access token was rejected even after renewing it")
	case e.throttled:
		b.WriteString("; the service throttles this address for up to 5 minutes once its rate limit is " +
			"exceeded (per endpoint and IP, averaged over 5 minutes: 1 request/s to the token endpoint, 20/s " +
			"to crypto withdrawals, 50/s elsewhere), so the request was not retried; apply again after that")
	}
	return b.String()
}

// noSuchOperationHint says that nothing answers the request's method and
// URL, and which setting to check.
func (e *APIError) noSuchOperationHint() string {
	where := cmp.Or(e.URL, e.Path)
	setting := "base_url (PLATFORM_BASE_URL, the API's address ending in /v2)"
	if e.token {
		where = e.Path
		setting = "auth_url (PLATFORM_AUTH_URL)"
	}
	return fmt.Sprintf("the service has no operation %s %s at this address: check %s", e.Method, where, setting)
}

// NoSuchOperation reports whether e says that nothing serves the
// request's method and URL: a 405, or a 404 that is not ObjectNotFound (a
// 404 of a list, or one whose body is not an error answer of the API: an
// HTML page, an empty or plain-text body, a JSON shape the API never
// answers). Such an answer never means that an object is gone.
func (e *APIError) NoSuchOperation() bool {
	return e.Status == http.StatusMethodNotAllowed || (e.Status == http.StatusNotFound && !e.ObjectNotFound())
}

// ObjectNotFound reports whether e is the service's answer that what the
// request names does not exist: a 404 of a request that names an object
// (a read, change or delete of a path with its id, or a create whose
// body names other objects), whose body is an error answer of the API (an
// RFC 7807 problem or an error {code, message}, whatever its type URI or
// code: the seed's spec does not show the service's error bodies, and the
// reference's Problem allows any type). A 404 of a list, whose path names
// no object, or of the token endpoint never is. Only such an answer
// matches ErrNotFound.
func (e *APIError) ObjectNotFound() bool {
	return e.Status == http.StatusNotFound && e.apiBody && !e.list && !e.token
}

// OperationNotOffered reports whether e is the service saying, in the
// API's words, that it does not offer the operation: a 405, or a 404 of a
// list, whose body is an error answer of the API. An answer that is not
// the API's (a gateway's or a proxy's page) does not say what the service
// offers: NoSuchOperation holds, this does not.
func (e *APIError) OperationNotOffered() bool {
	return e.NoSuchOperation() && e.apiBody && !e.token
}

// IsOperationNotOffered reports whether err is the service saying that it
// does not offer the operation (see APIError.OperationNotOffered).
func IsOperationNotOffered(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.OperationNotOffered()
}

// IsNoSuchOperation reports whether err is an answer saying the service has
// no operation at the request's method and URL (see
// APIError.NoSuchOperation).
func IsNoSuchOperation(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.NoSuchOperation()
}

// IsNotFound reports whether err is the service's answer that the object
// asked for does not exist (see APIError.ObjectNotFound), or an error of
// the client matching ErrNotFound.
func IsNotFound(err error) bool { return errors.Is(err, ErrNotFound) }

// OAuthInvalidScope is the token endpoint's error code of a scope the
// client may not have (RFC 6749, section 5.2).
const OAuthInvalidScope = "invalid_scope"

// TokenEndpoint reports whether e is an answer of the token endpoint.
func (e *APIError) TokenEndpoint() bool { return e.token }

// ScopeRefused reports whether e refuses a scope and nothing else: the
// token endpoint's invalid_scope, or a 403 of the API that may be about
// permissions.
func (e *APIError) ScopeRefused() bool {
	if e.token {
		return e.Status >= 400 && e.Status < 500 && e.Code == OAuthInvalidScope
	}
	return e.Status == http.StatusForbidden && e.permissionCause()
}

// CredentialsRejected reports whether e is the token endpoint refusing the
// client credentials: any 4xx of it but invalid_scope (invalid_client, a
// bare 401, invalid_grant, unauthorized_client, a 403 without a code).
// A 404 or 405 of the token endpoint is not: nothing there issues tokens.
func (e *APIError) CredentialsRejected() bool {
	return e.token && e.Status >= 400 && e.Status < 500 && e.Code != OAuthInvalidScope && !e.NoSuchOperation()
}

// ScopeRefused reports whether err is a refused scope (see
// APIError.ScopeRefused).
func ScopeRefused(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.ScopeRefused()
}

// CredentialsRejected reports whether err is the service rejecting the
// client credentials (see APIError.CredentialsRejected).
func CredentialsRejected(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.CredentialsRejected()
}

// IsInsufficientFunds reports whether err is the refusal of a money
// operation whose balance does not cover it: a 403 whose problem type (or
// code) is insufficient-funds.
func IsInsufficientFunds(err error) bool {
	var ae *APIError
	if !errors.As(err, &ae) || ae.Status != http.StatusForbidden {
		return false
	}
	return strings.EqualFold(strings.ReplaceAll(ae.Code, "_", "-"), "insufficient-funds")
}

// permissionCause reports whether a 403 may be about permissions: it gives
// no code, a code of permission or scope, or a message that names a scope
// or permission. A 403 of the API reference can also refuse a withdrawal
// for insufficient funds or an expired fee quote, where a hint about scopes
// would mislead.
func (e *APIError) permissionCause() bool {
	code := strings.ToLower(strings.NewReplacer("_", "-", " ", "-").Replace(e.Code))
	msg := strings.ToLower(e.Message)
	switch {
	case code == "", strings.Contains(code, "permission"), strings.Contains(code, "scope"),
		strings.Contains(code, "forbidden"), strings.Contains(code, "access-denied"), strings.Contains(code, "unauthori"):
		return true
	}
	return strings.Contains(msg, "scope") || strings.Contains(msg, "permission")
}

// Unwrap returns the sentinel error of the answer, or nil.
func (e *APIError) Unwrap() error { return e.sentinel() }

// Is reports whether target is the sentinel of the answer.
func (e *APIError) Is(target error) bool {
	s := e.sentinel()
	return s != nil && target == s
}

// sentinel is the sentinel of the answer: that of its status, except that a
// 404 is ErrNotFound only when it is ObjectNotFound, and ErrNoSuchOperation
// otherwise.
func (e *APIError) sentinel() error {
	if e.NoSuchOperation() {
		return ErrNoSuchOperation
	}
	return sentinelFor(e.Status)
}

func sentinelFor(status int) error {
	switch {
	case status == http.StatusNotFound:
		return ErrNotFound
	case status == http.StatusUnauthorized:
		return ErrUnauthorized
	case status == http.StatusForbidden:
		return ErrForbidden
	case status == http.StatusConflict:
		return ErrConflict
	case status == http.StatusBadRequest, status == http.StatusUnprocessableEntity:
		return ErrValidation
	case status == http.StatusTooManyRequests:
		return ErrRateLimited
	case status >= 500 && status <= 599:
		return ErrServer
	}
	return nil
}

func statusLine(status int) string {
	if t := http.StatusText(status); t != "" {
		return strconv.Itoa(status) + " " + t
	}
	return "status " + strconv.Itoa(status)
}

// requestIDHeaders are the response headers that may carry a request id.
var requestIDHeaders = []string{"X-Request-Id", "Request-Id", "X-Correlation-Id", "X-Trace-Id", "Cf-Ray"}

func requestIDFrom(h http.Header) string {
	for _, k := range requestIDHeaders {
		if v := h.Get(k); v != "" {
			return cleanText(v, 100)
		}
	}
	return ""
}

// newAPIError builds the error of a non-2xx answer from its status, headers
// and (capped) body.
func newAPIError(method, path string, status int, h http.Header, body []byte) *APIError {
	code, msg, rid := parseErrorBody(h.Get("Content-Type"), body)
	if hid := requestIDFrom(h); hid != "" {
		rid = hid
	}
	ae := &APIError{Method: method, Path: path, Status: status, Code: cleanText(code, maxCodeLen), Message: msg,
		RequestID: cleanText(rid, maxCodeLen)}
	if status == http.StatusConflict {
		ae.Existing = existingFrom(body)
	}
	ae.apiBody = apiErrorBody(h.Get("Content-Type"), status, body)
	return ae
}

// apiErrorBody reports whether body, answered with status, is an error
// answer in the API's words: a JSON object that is an RFC 7807 problem (as
// the reference publishes every error: at least two of type, title, status
// and detail, one of them type or title, each of its type, and a status
// equal to the answer's) or an error {code, message} (a code and a
// message, both strings). Its type URI or code is not read: the seed's
// spec does not show the service's error bodies, and the reference's
// Problem allows any type. An empty body, an HTML page, plain text, a JSON
// array or string, and any other JSON object (a gateway's {"message": ...}
// or {"error": ...}, a framework's {"timestamp", "status", "error",
// "path"}) are not.
func apiErrorBody(contentType string, status int, body []byte) bool {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' || looksLikeHTML(contentType, trimmed) {
		return false
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil || dec.More() {
		return false
	}
	return isProblem(m, status) || isCodeMessage(m)
}

// isProblem reports whether m is an RFC 7807 problem answered with status
// (see apiErrorBody).
func isProblem(m map[string]any, status int) bool {
	members := 0
	for _, k := range []string{"type", "title", "detail"} {
		v, ok := m[k]
		if !ok {
			continue
		}
		if _, isString := v.(string); !isString {
			return false
		}
		members++
	}
	if members == 0 || (m["type"] == nil && m["title"] == nil) {
		return false
	}
	if v, ok := m["status"]; ok {
		n, isNumber := v.(json.Number)
		if !isNumber || n.String() != strconv.Itoa(status) {
			return false
		}
		members++
	}
	return members >= 2
}

// isCodeMessage reports whether m is an error {code, message}, a code
// (a short string without spaces) and a message.
func isCodeMessage(m map[string]any) bool {
	code, _ := m["code"].(string)
	_, hasMessage := m["message"].(string)
	return hasMessage && isCodeLike(code)
}

// Keys searched, in order, for the message, the code and the request id of
// an error body.
var (
	messageKeys   = []string{"message", "error_description", "detail", "details", "error", "title", "msg", "description", "reason"}
	codeKeys      = []string{"code", "error_code", "errorCode", "error"}
	requestIDKeys = []string{"request_id", "requestId", "requestID", "trace_id", "traceId", "correlation_id"}
)

// parseErrorBody extracts code, message and request id from an error body
// whatever its shape: a JSON object (keys message, error, error_description,
// detail, title, errors[...], nested one level), a JSON string or array, a
// plain-text body (trimmed and capped) or an HTML page (ignored: the status
// text says enough). It never panics.
func parseErrorBody(contentType string, body []byte) (code, msg, requestID string) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return "", "", ""
	}
	if looksLikeHTML(contentType, trimmed) {
		return "", "", ""
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	if err := dec.Decode(&v); err == nil && !dec.More() {
		switch t := v.(type) {
		case map[string]any:
			code, msg, requestID = fromObject(t, 0)
		case string:
			msg = t
		case []any:
			msg = joinMessages(t)
		}
		return cleanText(code, 100), cleanText(msg, maxMessageLen), cleanText(requestID, 100)
	}
	if !utf8.Valid(trimmed) {
		return "", "", ""
	}
	return "", cleanText(string(trimmed), maxMessageLen), ""
}

// problemType is the code of an RFC 7807 problem, as the API reference
// publishes error bodies ({type, title, status, detail, meta}): the last
// segment of its type, for example insufficient-funds for
// ".../problems/insufficient-funds"; "" for other bodies.
func problemType(m map[string]any) string {
	t, ok := m["type"].(string)
	if !ok || t == "" || t == "about:blank" {
		return ""
	}
	if _, hasStatus := m["status"]; !hasStatus {
		if _, hasTitle := m["title"]; !hasTitle {
			return ""
		}
	}
	t = strings.TrimRight(t, "/")
	if i := strings.LastIndexAny(t, "/#"); i >= 0 {
		t = t[i+1:]
	}
	if !isCodeLike(t) {
		return ""
	}
	return t
}

func fromObject(m map[string]any, depth int) (code, msg, requestID string) {
	for _, k := range messageKeys {
		v, ok := lookup(m, k)
		if !ok {
			continue
		}
		switch t := v.(type) {
		case string:
			if t == "" {
				continue
			}
			// {"error":"invalid_client","error_description":"..."}: the
			// short "error" is a code when a description exists.
			if k == "error" && isCodeLike(t) {
				if _, hasDesc := lookup(m, "error_description"); hasDesc {
					continue
				}
			}
			msg = t
		case map[string]any:
			if depth == 0 {
				c2, m2, r2 := fromObject(t, depth+1)
				if code == "" {
					code = c2
				}
				if requestID == "" {
					requestID = r2
				}
				msg = m2
			}
		case []any:
			msg = joinMessages(t)
		}
		if msg != "" {
			break
		}
	}
	if msg == "" {
		if errs, ok := lookup(m, "errors"); ok {
			switch t := errs.(type) {
			case []any:
				msg = joinMessages(t)
			case map[string]any:
				msg = joinFieldErrors(t)
			case string:
				msg = t
			}
		}
	} else if errs, ok := lookup(m, "errors"); ok {
		if list, ok := errs.([]any); ok {
			if more := joinMessages(list); more != "" && more != msg {
				msg += " (" + more + ")"
			}
		}
	}
	if code == "" {
		for _, k := range codeKeys {
			v, ok := lookup(m, k)
			if !ok {
				continue
			}
			var s string
			switch t := v.(type) {
			case string:
				s = t
			case json.Number:
				s = t.String()
			}
			if s != "" && s != msg && isCodeLike(s) {
				code = s
				break
			}
		}
	}
	if code == "" {
		code = problemType(m)
	}
	if requestID == "" {
		for _, k := range requestIDKeys {
			if v, ok := lookup(m, k); ok {
				if s, ok := v.(string); ok && s != "" {
					requestID = s
					break
				}
			}
		}
	}
	return code, msg, requestID
}

// lookup finds key in m, ignoring case.
func lookup(m map[string]any, key string) (any, bool) {
	if v, ok := m[key]; ok {
		return v, true
	}
	for k, v := range m {
		if strings.EqualFold(k, key) {
			return v, true
		}
	}
	return nil, false
}

// isCodeLike reports whether s looks like a machine code (no spaces, short).
func isCodeLike(s string) bool {
	return s != "" && len(s) <= 64 && !strings.ContainsAny(s, " \t\n")
}

// joinMessages joins the messages of an errors array: strings, or objects
// with a message-like key and an optional field name.
func joinMessages(list []any) string {
	var parts []string
	for _, it := range list {
		if len(parts) >= 10 {
			parts = append(parts, "…")
			break
		}
		switch t := it.(type) {
		case string:
			if t != "" {
				parts = append(parts, t)
			}
		case map[string]any:
			var m string
			for _, k := range messageKeys {
				if v, ok := lookup(t, k); ok {
					if s, ok := v.(string); ok && s != "" {
						m = s
						break
					}
				}
			}
			if m == "" {
				continue
			}
			for _, k := range []string{"field", "path", "param", "parameter", "pointer", "loc"} {
				if v, ok := lookup(t, k); ok {
					if s, ok := v.(string); ok && s != "" {
						m = s + ": " + m
						break
					}
				}
			}
			parts = append(parts, m)
		}
	}
	return strings.Join(parts, "; ")
}

// joinFieldErrors renders {"errors": {"field": "msg" | ["msg", ...]}}.
func joinFieldErrors(m map[string]any) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		switch t := m[k].(type) {
		case string:
			parts = append(parts, k+": "+t)
		case []any:
			if s := joinMessages(t); s != "" {
				parts = append(parts, k+": "+s)
			}
		}
		if len(parts) >= 10 {
			break
		}
	}
	return strings.Join(parts, "; ")
}

// looksLikeHTML reports whether a body is an HTML page.
func looksLikeHTML(contentType string, trimmed []byte) bool {
	if mt, _, err := mime.ParseMediaType(contentType); err == nil && (mt == "text/html" || mt == "application/xhtml+xml") {
		return true
	}
	if len(trimmed) == 0 || trimmed[0] != '<' {
		return false
	}
	head := strings.ToLower(string(trimmed[:min(len(trimmed), 512)]))
	return strings.HasPrefix(head, "<!doctype html") || strings.HasPrefix(head, "<html") ||
		strings.Contains(head, "<head") || strings.Contains(head, "<body")
}

// cleanText collapses whitespace, drops control, bidirectional, format
// (zero-width) and invalid characters, and caps s at n runes.
func cleanText(s string, n int) string {
	if s == "" {
		return ""
	}
	var b strings.Builder
	space := false
	count := 0
	for _, r := range s {
		if r == utf8.RuneError {
			continue
		}
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if invisible(r) {
			continue
		}
		if space && count+1 >= n || count >= n {
			b.WriteString("…")
			return b.String()
		}
		if space {
			b.WriteByte(' ')
			count++
			space = false
		}
		b.WriteRune(r)
		count++
	}
	return b.String()
}

// invisible reports whether r must not reach a terminal from the service's
// text: a control character (ESC, BEL, ...), a bidirectional control that
// reorders what follows, or a format character such as a zero-width space
// or joiner that hides what is shown.
func invisible(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || unicode.Is(unicode.Cf, r)
}
