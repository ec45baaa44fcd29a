package emulator

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// Answer faults change what the reads of one object answer, the same way
// for every kind of object, as a service whose records changed behind the
// client's back would: the object gone (HideObject), or another object in
// its place (AnswerAnotherObject). They apply to the reads of /v2 (GET),
// never to creates, and are set per object id.
type answerFaults struct {
	mu sync.Mutex
	// hidden are the ids whose reads answer as if the object did not
	// exist: 404 by id, absent from lists.
	hidden map[string]bool
	// another maps an id to the id that reads answer in its place.
	another map[string]string
	// problemBase, when set, replaces problemTypeBase in the type of every
	// problem answered (SetProblemTypeBase).
	problemBase string
	// pages are the answers of a gateway in front of the service, by
	// "METHOD /v2/path" (GatewayPage).
	pages map[string]gatewayPage
}

// gatewayPage is what a gateway answers in place of the service.
type gatewayPage struct {
	status      int
	contentType string
	body        string
}

// SetProblemTypeBase makes every problem the service answers name its type
// under base ("https://errors.example/" answers a missing object with the
// type "https://errors.example/not-found") instead of the emulator's own
// base, as a service whose problem types live at another URI would; ""
// restores it. The seed's spec does not show the service's error bodies,
// and the reference's Problem allows any type URI.
func (s *Server) SetProblemTypeBase(base string) {
	a := &s.answers
	a.mu.Lock()
	defer a.mu.Unlock()
	a.problemBase = base
}

// GatewayPage makes requests of method to path (under /v2, for example
// "/v2/transfer/fiat-accounts", whatever their query) answered with
// status and body, as a gateway or proxy in front of the service answers
// with a page of its own (a 404 HTML page); status 0 removes it. The
// service never sees such a request.
func (s *Server) GatewayPage(method, path string, status int, contentType, body string) {
	a := &s.answers
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.pages == nil {
		a.pages = map[string]gatewayPage{}
	}
	if status == 0 {
		delete(a.pages, method+" "+path)
		return
	}
	a.pages[method+" "+path] = gatewayPage{status: status, contentType: contentType, body: body}
}

// front reports what a gateway answers for r, and the problem base.
func (a *answerFaults) front(r *http.Request) (page gatewayPage, paged bool, problemBase string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	page, paged = a.pages[r.Method+" "+r.URL.Path]
	return page, paged, a.problemBase
}

// HideObject makes the reads of the object id answer as if it did not
// exist (on), or as they should (off): a read by id answers 404, and a
// list leaves it out. Nothing is deleted.
func (s *Server) HideObject(id string, on bool) {
	a := &s.answers
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.hidden == nil {
		a.hidden = map[string]bool{}
	}
	if on {
		a.hidden[id] = true
	} else {
		delete(a.hidden, id)
	}
}

// AnswerAnotherObject makes every read that answers the object id answer
// the id other in its place ("" restores it): the service answers another
// object than the one asked.
func (s *Server) AnswerAnotherObject(id, other string) {
	a := &s.answers
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.another == nil {
		a.another = map[string]string{}
	}
	if other == "" {
		delete(a.another, id)
	} else {
		a.another[id] = other
	}
}

// active copies the faults, or reports that none is set.
func (a *answerFaults) active() (hidden map[string]bool, another map[string]string, ok bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.hidden) == 0 && len(a.another) == 0 {
		return nil, nil, false
	}
	hidden, another = map[string]bool{}, map[string]string{}
	for k, v := range a.hidden {
		hidden[k] = v
	}
	for k, v := range a.another {
		another[k] = v
	}
	return hidden, another, true
}

// withAnswerFaults applies the answer faults to the reads of /v2.
func (s *Server) withAnswerFaults(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if page, paged, _ := s.answers.front(r); paged {
			if page.contentType != "" {
				w.Header().Set("Content-Type", page.contentType)
			}
			w.Header().Set("Content-Length", strconv.Itoa(len(page.body)))
			w.WriteHeader(page.status)
			_, _ = io.WriteString(w, page.body)
			return
		}
		if _, _, base := s.answers.front(r); base != "" && strings.HasPrefix(r.URL.Path, "/v2/") {
			rec := &bufferedAnswer{header: http.Header{}, status: http.StatusOK}
			s.withHiddenAndAnother(next).ServeHTTP(rec, r)
			body := rec.body.Bytes()
			if rec.status >= 400 {
				body = bytes.Replace(body, []byte(`"type":"`+problemTypeBase), []byte(`"type":"`+base), 1)
			}
			for k, v := range rec.header {
				w.Header()[k] = v
			}
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.WriteHeader(rec.status)
			_, _ = w.Write(body)
			return
		}
		s.withHiddenAndAnother(next).ServeHTTP(w, r)
	})
}

// withHiddenAndAnother applies HideObject and AnswerAnotherObject to the
// reads of /v2.
func (s *Server) withHiddenAndAnother(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hidden, another, ok := s.answers.active()
		if !ok || r.Method != http.MethodGet || !strings.HasPrefix(r.URL.Path, "/v2/") {
			next.ServeHTTP(w, r)
			return
		}
		last := r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]
		if hidden[last] {
			writeError(w, errNotFound("object "+last+" not found"))
			return
		}
		rec := &bufferedAnswer{header: http.Header{}, status: http.StatusOK}
		next.ServeHTTP(rec, r)
		body := rec.body.Bytes()
		if len(hidden) > 0 {
			body = withoutHiddenItems(body, hidden)
		}
		for id, other := range another {
			body = bytes.ReplaceAll(body, []byte(strconv.Quote(id)), []byte(strconv.Quote(other)))
		}
		for k, v := range rec.header {
			w.Header()[k] = v
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(rec.status)
		_, _ = w.Write(body)
	})
}

// withoutHiddenItems removes from a list answer ({"items": [...]}) the
// items whose id is hidden; any other body is returned as it is.
func withoutHiddenItems(body []byte, hidden map[string]bool) []byte {
	var page map[string]json.RawMessage
	if json.Unmarshal(body, &page) != nil || page["items"] == nil {
		return body
	}
	var items []json.RawMessage
	if json.Unmarshal(page["items"], &items) != nil {
		return body
	}
	kept := items[:0]
	for _, it := range items {
		var item struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(it, &item) == nil && hidden[item.ID] {
			continue
		}
		kept = append(kept, it)
	}
	b, err := json.Marshal(kept)
	if err != nil {
		return body
	}
	page["items"] = b
	out, err := json.Marshal(page)
	if err != nil {
		return body
	}
	return out
}

// bufferedAnswer holds an answer so that it can be changed before it is
// sent.
type bufferedAnswer struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedAnswer) Header() http.Header         { return b.header }
func (b *bufferedAnswer) WriteHeader(status int)      { b.status = status }
func (b *bufferedAnswer) Write(p []byte) (int, error) { return b.body.Write(p) }
