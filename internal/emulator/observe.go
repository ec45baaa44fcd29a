package emulator

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sort"
	"strings"

	"github.com/platform/terraform-provider-platform/internal/exchange"
)

// Exchange is one request under /v2 and the emulator's answer to it
// (Options.Observe): Faults are the faults applied to the answer (see the
// request log), Scopes those of the request's bearer token.
type Exchange = exchange.Exchange

// recorder keeps a copy of an answer, and its status (statusWriter).
type recorder struct {
	*statusWriter
	body bytes.Buffer
}

func (w *recorder) Write(b []byte) (int, error) {
	w.body.Write(b)
	return w.statusWriter.Write(b)
}

// observe records the request r and its answer through w; done hands
// them to Options.Observe. A request whose connection is dropped before
// an answer is not observed.
func (s *Server) observe(w http.ResponseWriter, r *http.Request) (http.ResponseWriter, *http.Request, func()) {
	var body []byte
	if r.Body != nil {
		body, _ = io.ReadAll(io.LimitReader(r.Body, maxBodyBytes+1))
		_ = r.Body.Close()
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	note, ok := r.Context().Value(noteKey{}).(*requestNote)
	if !ok {
		note = &requestNote{}
		r = r.WithContext(context.WithValue(r.Context(), noteKey{}, note))
	}
	rec := &recorder{statusWriter: &statusWriter{ResponseWriter: w}}
	method, u, header := r.Method, *r.URL, r.Header.Clone()
	return rec, r, func() {
		if rec.status == 0 {
			return
		}
		var faults []string
		if f := note.fault(); f != "" {
			faults = strings.Split(f, ",")
		}
		s.opts.Observe(Exchange{
			Method: method, URL: &u, RequestHeader: header, RequestBody: body,
			Status: rec.status, Header: rec.Header().Clone(), Body: rec.body.Bytes(),
			Faults: faults, Scopes: s.tokenScopes(header.Get("Authorization")),
		})
	}
}

// tokenScopes are the scopes of the bearer token of an Authorization
// header, sorted; nil when the emulator does not know it.
func (s *Server) tokenScopes(authorization string) []string {
	tok, ok := strings.CutPrefix(authorization, "Bearer ")
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	info := s.tokens[tok]
	if info == nil {
		return nil
	}
	out := make([]string, 0, len(info.scopes))
	for sc := range info.scopes {
		out = append(out, sc)
	}
	sort.Strings(out)
	return out
}
