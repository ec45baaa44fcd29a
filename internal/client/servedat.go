package client

import (
	"context"
	"net/http"
	"sync"
	"time"
)

// The service's clock: an answer's Date header says when the service
// answered, by its own clock. Callers that judge the age of an object the
// service reports (its created_at against the service's now) ask for it
// with WithServedAt, so that the judgement never rests on the machine's
// clock alone.

type servedAtKey struct{}

// ServedAt records the Date of the answers to the requests made with a
// context from WithServedAt; safe for concurrent use.
type ServedAt struct {
	mu   sync.Mutex
	last time.Time
}

// WithServedAt returns a context whose requests record the Date of their
// answers (2xx or error) in the returned ServedAt.
func WithServedAt(ctx context.Context) (context.Context, *ServedAt) {
	s := &ServedAt{}
	return context.WithValue(ctx, servedAtKey{}, s), s
}

// Last is the Date of the latest answer, or the zero time when no answer
// carried a valid one.
func (s *ServedAt) Last() time.Time {
	if s == nil {
		return time.Time{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

// noteServedAt records the Date of resp in ctx's ServedAt, if any.
func noteServedAt(ctx context.Context, resp *http.Response) {
	s, _ := ctx.Value(servedAtKey{}).(*ServedAt)
	if s == nil || resp == nil {
		return
	}
	d, err := http.ParseTime(resp.Header.Get("Date"))
	if err != nil {
		return
	}
	s.mu.Lock()
	s.last = d.UTC()
	s.mu.Unlock()
}
