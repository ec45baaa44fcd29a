package contract

import (
	"fmt"
	"sort"
	"sync"
)

// Checker holds every exchange it observes against the reference and
// keeps the violations, each once.
type Checker struct {
	ref *Reference
	// requests and responses say what is checked: a server made to answer
	// outside the reference on purpose checks only what it is sent, and
	// the tests of a server that send it what the reference does not have
	// on purpose check only its answers.
	requests, responses bool

	mu         sync.Mutex
	violations map[string]bool
}

// NewChecker returns a checker of the requests, of the answers, or of
// both.
func NewChecker(requests, responses bool) (*Checker, error) {
	ref, err := Load()
	if err != nil {
		return nil, err
	}
	return &Checker{ref: ref, requests: requests, responses: responses, violations: map[string]bool{}}, nil
}

// Observe checks one exchange.
func (c *Checker) Observe(ex Exchange) {
	where := ex.Method + " " + ex.URL.Path
	if err := c.ref.CheckRequest(ex); c.requests && err != nil {
		c.add(fmt.Sprintf("request %s?%s: %v", where, ex.URL.RawQuery, err))
	}
	if c.responses && len(ex.Faults) == 0 {
		if err := c.ref.CheckResponse(ex); err != nil {
			c.add(fmt.Sprintf("answer %d to %s: %v\n  body: %.600s", ex.Status, where, err, ex.Body))
		}
	}
}

func (c *Checker) add(v string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.violations[v] = true
}

// Violations are the violations observed so far, sorted.
func (c *Checker) Violations() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, 0, len(c.violations))
	for v := range c.violations {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}
