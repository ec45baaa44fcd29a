package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// redacted replaces every secret in logs.
const redacted = "[REDACTED]"

// maxLoggedBody caps the part of a body that is logged.
const maxLoggedBody = 4 << 10

// sensitiveKeys are JSON keys, form fields, query parameters and header
// names whose values never reach a log.
var sensitiveKeys = []string{
	"access_token", "refresh_token", "id_token", "client_secret", "token",
	"password", "secret", "authorization", "proxy-authorization", "cookie",
	"set-cookie", "assertion", "client_assertion", "code_verifier",
	// Bank account and routing numbers (fiat accounts and deposit
	// instructions).
	"account_number", "routing_number",
}

func isSensitiveKey(k string) bool {
	k = strings.ToLower(strings.TrimSpace(k))
	for _, s := range sensitiveKeys {
		if k == s {
			return true
		}
	}
	return false
}

// containsSensitiveKey reports whether s mentions any sensitive key.
func containsSensitiveKey(s string) bool {
	l := strings.ToLower(s)
	for _, k := range sensitiveKeys {
		if strings.Contains(l, k) {
			return true
		}
	}
	for place := range sensitivePlaces {
		if strings.Contains(l, place) {
			return true
		}
	}
	return false
}

// RedactHeaders returns a copy of h, flattened for logging, in which the
// values of Authorization, Proxy-Authorization, Cookie and Set-Cookie (and
// any other sensitive header) are replaced by "[REDACTED]".
func RedactHeaders(h http.Header) map[string]string {
	out := make(map[string]string, len(h))
	for k, vs := range h {
		if isSensitiveKey(k) {
			out[k] = redacted
			continue
		}
		out[k] = strings.Join(vs, ", ")
	}
	return out
}

// RedactQuery returns the query string q with the values of sensitive
// parameters replaced. An unparsable query that mentions a sensitive key is
// replaced as a whole.
func RedactQuery(q string) string {
	if q == "" {
		return ""
	}
	vals, err := url.ParseQuery(q)
	if err != nil {
		if containsSensitiveKey(q) || strings.Contains(q, "%") {
			return redacted
		}
		return q
	}
	if !redactValues(vals) {
		return q
	}
	return vals.Encode()
}

// RedactBody returns a printable form of a request or response body with
// the values of sensitive keys (access_token, refresh_token, client_secret,
// …) replaced by "[REDACTED]". JSON bodies are redacted at every depth and
// form bodies field by field; a body that cannot be parsed (for instance
// because it was truncated) but mentions a sensitive key is replaced as a
// whole. The result is capped at 4 KiB. RedactBody is pure.
func RedactBody(contentType string, body []byte) string {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return ""
	}
	if trimmed[0] == '{' || trimmed[0] == '[' {
		var v any
		dec := json.NewDecoder(bytes.NewReader(trimmed))
		dec.UseNumber()
		// The value must be the whole body: dec.More is false before a
		// stray closing bracket, so anything after the value counts.
		if err := dec.Decode(&v); err == nil && len(bytes.TrimSpace(trimmed[dec.InputOffset():])) == 0 {
			if !redactJSON(v) {
				return capText(string(trimmed))
			}
			if b, err := json.Marshal(v); err == nil {
				return capText(string(b))
			}
			return wholeRedacted(body)
		}
	}
	mt, _, _ := mime.ParseMediaType(contentType)
	if mt == "application/x-www-form-urlencoded" || (mt == "" && looksLikeForm(trimmed)) {
		if vals, err := url.ParseQuery(string(trimmed)); err == nil && !hidesSensitiveKey(vals) {
			if redactValues(vals) {
				return capText(vals.Encode())
			}
			return capText(string(trimmed))
		}
	}
	// Unparsed text is withheld when it mentions a sensitive key, or holds
	// escapes (backslash or percent) that could spell one.
	if containsSensitiveKey(string(trimmed)) || bytes.ContainsAny(trimmed, "\\%") {
		return wholeRedacted(body)
	}
	return capText(string(trimmed))
}

func wholeRedacted(body []byte) string {
	return fmt.Sprintf("[REDACTED %d bytes]", len(body))
}

// looksLikeForm reports whether b could be a URL-encoded form.
func looksLikeForm(b []byte) bool {
	return bytes.IndexByte(b, '=') > 0 && !bytes.ContainsAny(b, " \t\n\r{}<>\"")
}

// hidesSensitiveKey reports whether a parsed form mentions a sensitive key
// anywhere but as a field name of its own (for instance a JSON text parsed
// as one odd field name), so that field-wise redaction cannot be trusted.
func hidesSensitiveKey(vals url.Values) bool {
	for k, vs := range vals {
		if isSensitiveKey(k) {
			continue
		}
		if containsSensitiveKey(k) {
			return true
		}
		for _, v := range vs {
			if containsSensitiveKey(v) {
				return true
			}
		}
	}
	return false
}

// redactValues replaces sensitive fields of a form or query in place.
func redactValues(vals url.Values) bool {
	changed := false
	for k := range vals {
		if isSensitiveKey(k) {
			vals[k] = []string{redacted}
			changed = true
		}
	}
	return changed
}

// redactJSON replaces, in place, the values of sensitive keys at any depth
// and reports whether it changed anything.
func redactJSON(v any) bool { return redactJSONIn(v, "") }

// sensitivePlaces are the keys whose values are sensitive only in the
// object of a given key: CUBIX's account_id (in "cubix") is the bank
// account, while the account_id of a transfer or a deposit address is not.
var sensitivePlaces = map[string][]string{
	"cubix": {"account_id"},
}

// sensitiveAt reports whether the key k of an object that is the value of
// parent is sensitive: by its name, or by its place.
func sensitiveAt(parent, k string) bool {
	if isSensitiveKey(k) {
		return true
	}
	for _, s := range sensitivePlaces[strings.ToLower(parent)] {
		if strings.EqualFold(strings.TrimSpace(k), s) {
			return true
		}
	}
	return false
}

// redactJSONIn redacts v, the value of the key parent ("" at the top, and
// for the items of an array, their array's key).
func redactJSONIn(v any, parent string) bool {
	changed := false
	switch t := v.(type) {
	case map[string]any:
		for k, val := range t {
			if sensitiveAt(parent, k) {
				t[k] = redacted
				changed = true
				continue
			}
			if redactJSONIn(val, k) {
				changed = true
			}
		}
	case []any:
		for _, it := range t {
			if redactJSONIn(it, parent) {
				changed = true
			}
		}
	}
	return changed
}

func capText(s string) string {
	if len(s) <= maxLoggedBody {
		return s
	}
	return s[:maxLoggedBody] + fmt.Sprintf("… (%d bytes)", len(s))
}

// pathAndQuery renders the path and the redacted query of u.
func pathAndQuery(u *url.URL) string {
	p := u.EscapedPath()
	if q := RedactQuery(u.RawQuery); q != "" {
		p += "?" + q
	}
	return p
}

// loggingTransport logs every HTTP exchange (token requests included):
// method, path and query, status and duration at debug level; redacted
// headers and bodies at trace level.
type loggingTransport struct {
	base      http.RoundTripper
	log       Logger
	userAgent string
	// scrub removes the secret and the tokens from a body before it is
	// cut and logged.
	scrub func(string) string
}

// scrubMargin is read beyond maxLoggedBody, so that a secret (or token)
// that straddles the cut is scrubbed whole before the body is cut.
const scrubMargin = 1 << 10

// scrubbed is b with the secret and tokens removed, before any cut.
func (t *loggingTransport) scrubbed(b []byte) []byte {
	if t.scrub == nil {
		return b
	}
	return []byte(t.scrub(string(b)))
}

func (t *loggingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("User-Agent") == "" && t.userAgent != "" {
		req = req.Clone(req.Context())
		req.Header.Set("User-Agent", t.userAgent)
	}
	if t.log == nil {
		return t.base.RoundTrip(req)
	}
	ctx := req.Context()
	target := pathAndQuery(req.URL)
	trace := map[string]any{
		"method":  req.Method,
		"url":     target,
		"host":    req.URL.Host,
		"headers": RedactHeaders(req.Header),
	}
	if req.GetBody != nil && req.Body != nil && req.Body != http.NoBody {
		if rc, err := req.GetBody(); err == nil {
			b, _ := io.ReadAll(io.LimitReader(rc, maxLoggedBody+scrubMargin))
			_ = rc.Close()
			trace["body"] = RedactBody(req.Header.Get("Content-Type"), t.scrubbed(b))
		}
	}
	t.log.Log(ctx, LevelTrace, "HTTP request", trace)

	start := time.Now()
	resp, err := t.base.RoundTrip(req)
	elapsed := time.Since(start)
	if err != nil {
		t.log.Log(ctx, LevelDebug, "HTTP request failed", map[string]any{
			"method":      req.Method,
			"url":         target,
			"duration_ms": elapsed.Milliseconds(),
			"error":       err.Error(),
		})
		return nil, err
	}
	fields := map[string]any{
		"method":      req.Method,
		"url":         target,
		"status":      resp.StatusCode,
		"duration_ms": elapsed.Milliseconds(),
	}
	if rid := requestIDFrom(resp.Header); rid != "" {
		fields["request_id"] = rid
	}
	t.log.Log(ctx, LevelDebug, "HTTP response", fields)
	if resp.Body != nil && resp.Body != http.NoBody {
		resp.Body = &loggedBody{
			ReadCloser: resp.Body,
			done: func(b []byte, total int64) {
				t.log.Log(ctx, LevelTrace, "HTTP response body", map[string]any{
					"method":  req.Method,
					"url":     target,
					"status":  resp.StatusCode,
					"headers": RedactHeaders(resp.Header),
					"bytes":   total,
					"body":    RedactBody(resp.Header.Get("Content-Type"), t.scrubbed(b)),
				})
			},
		}
	}
	return resp, nil
}

// loggedBody keeps the first bytes read from a response body and hands them
// to done when the body is closed.
type loggedBody struct {
	io.ReadCloser
	buf   bytes.Buffer
	total int64
	once  sync.Once
	done  func(b []byte, total int64)
}

func (b *loggedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.total += int64(n)
		if room := maxLoggedBody + scrubMargin - b.buf.Len(); room > 0 {
			b.buf.Write(p[:min(n, room)])
		}
	}
	return n, err
}

func (b *loggedBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(func() { b.done(b.buf.Bytes(), b.total) })
	return err
}
