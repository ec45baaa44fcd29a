package emulator

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"
)

// LogLevel is how much the emulator logs (Options.LogLevel).
type LogLevel int

const (
	// LogOff logs nothing: the default of an emulator started in process.
	LogOff LogLevel = iota
	// LogError logs the requests answered with a 5xx status or with no
	// answer (a dropped connection), and the faults that caused them.
	LogError
	// LogInfo logs one line per request: method, path, status, duration,
	// the ref_id of a POST body that carries one, and the fault applied.
	LogInfo
	// LogDebug adds the query string (values of keys that name a secret or
	// a token redacted), the remote address and the X-Request-Id.
	LogDebug
)

// String is the level's name, as -log-level takes it.
func (l LogLevel) String() string {
	switch l {
	case LogError:
		return "error"
	case LogInfo:
		return "info"
	case LogDebug:
		return "debug"
	}
	return "off"
}

// ParseLogLevel parses off, error, info or debug.
func ParseLogLevel(s string) (LogLevel, error) {
	for _, l := range []LogLevel{LogOff, LogError, LogInfo, LogDebug} {
		if strings.EqualFold(s, l.String()) {
			return l, nil
		}
	}
	return 0, fmt.Errorf("unknown log level %q: want off, error, info or debug", s)
}

// requestNote is what the handlers of one request tell the request log:
// the faults they applied.
type requestNote struct {
	mu     sync.Mutex
	faults []string
}

type noteKey struct{}

// noteFault records that fault (for example "429", "accept-then-fail")
// was applied to r; the request's log line names it.
func noteFault(r *http.Request, fault string) {
	if n, ok := r.Context().Value(noteKey{}).(*requestNote); ok {
		n.mu.Lock()
		n.faults = append(n.faults, fault)
		n.mu.Unlock()
	}
}

func (n *requestNote) fault() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return strings.Join(n.faults, ",")
}

// statusWriter records the status of an answer. It lets the stream's
// upgrader take the connection over (Hijack).
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("connection cannot be taken over")
	}
	c, rw, err := h.Hijack()
	if err == nil && w.status == 0 {
		w.status = http.StatusSwitchingProtocols
	}
	return c, rw, err
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// newLogger is the request logger of opts, nil when it logs nothing.
func newLogger(opts Options) *slog.Logger {
	if opts.LogLevel <= LogOff || opts.Log == nil {
		return nil
	}
	level := slog.LevelInfo
	switch opts.LogLevel {
	case LogError:
		level = slog.LevelError
	case LogDebug:
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(opts.Log, &slog.HandlerOptions{Level: level}))
}

// logRequests writes one line per request. It logs what identifies the
// request and its outcome, never a header, a form or a body: a token or a
// client secret cannot appear. A request whose connection is dropped
// (a held answer whose client went away) is logged with status 0.
func (s *Server) logRequests(next http.Handler) http.Handler {
	if s.log == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		note := &requestNote{}
		r = r.WithContext(context.WithValue(r.Context(), noteKey{}, note))
		refID := peekRefID(r)
		sw := &statusWriter{ResponseWriter: w}
		defer func() {
			s.logRequest(r, sw.status, time.Since(start), refID, note.fault(), w.Header().Get("X-Request-Id"))
		}()
		next.ServeHTTP(sw, r)
	})
}

func (s *Server) logRequest(r *http.Request, status int, d time.Duration, refID, fault, requestID string) {
	level := slog.LevelInfo
	if status == 0 || status >= 500 {
		level = slog.LevelError
	}
	ctx := context.Background()
	if !s.log.Enabled(ctx, level) {
		return
	}
	attrs := []slog.Attr{
		slog.String("method", r.Method),
		slog.String("path", r.URL.Path),
		slog.Int("status", status),
		slog.Int64("ms", d.Milliseconds()),
	}
	if refID != "" {
		attrs = append(attrs, slog.String("ref_id", refID))
	}
	if fault != "" {
		attrs = append(attrs, slog.String("fault", fault))
	}
	if s.log.Enabled(ctx, slog.LevelDebug) {
		if q := redactedQuery(r.URL.RawQuery); q != "" {
			attrs = append(attrs, slog.String("query", q))
		}
		attrs = append(attrs, slog.String("remote", r.RemoteAddr), slog.String("request_id", requestID))
	}
	s.log.LogAttrs(ctx, level, "request", attrs...)
}

// peekRefID reads the ref_id of a JSON POST under /v2 and puts the body
// back for the handler.
func peekRefID(r *http.Request) string {
	if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/v2/") || r.Body == nil {
		return ""
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes+1))
	_ = r.Body.Close()
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return ""
	}
	var v struct {
		RefID any `json:"ref_id"`
	}
	if json.Unmarshal(body, &v) != nil {
		return ""
	}
	if id, ok := v.RefID.(string); ok {
		return id
	}
	return ""
}

// redactedQuery is the query with the values of keys that may carry a
// credential (secret, token, password, key, assertion) replaced by
// "REDACTED".
func redactedQuery(raw string) string {
	if raw == "" {
		return ""
	}
	q, err := url.ParseQuery(raw)
	if err != nil {
		return "(unparsable query)"
	}
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		lk := strings.ToLower(k)
		secret := false
		for _, word := range []string{"secret", "token", "password", "key", "assertion", "code"} {
			if strings.Contains(lk, word) {
				secret = true
			}
		}
		for _, v := range q[k] {
			if b.Len() > 0 {
				b.WriteByte('&')
			}
			if secret {
				v = "REDACTED"
			}
			b.WriteString(url.QueryEscape(k) + "=" + url.QueryEscape(v))
		}
	}
	return b.String()
}
