package emulator

import (
	"net/http"
	"sync"
)

// Counters records what reached the emulator. Safe for concurrent use.
type Counters struct {
	mu       sync.Mutex
	requests map[string]int // "METHOD /path" -> count (path without query)
	tokens   map[string]int // requested scope string -> tokens issued
	conns    int
}

func newCounters() *Counters {
	return &Counters{requests: map[string]int{}, tokens: map[string]int{}}
}

func (c *Counters) count(key string) {
	c.mu.Lock()
	c.requests[key]++
	c.mu.Unlock()
}

func (c *Counters) tokenIssued(scope string) {
	c.mu.Lock()
	c.tokens[scope]++
	c.mu.Unlock()
}

func (c *Counters) newConn() {
	c.mu.Lock()
	c.conns++
	c.mu.Unlock()
}

// Requests returns how many requests "METHOD /path" received, for example
// Requests("POST /v2/transfer/crypto-withdrawals"). Path parameters are kept
// as sent ("GET /v2/transfer/fiat-deposit-instructions/<id>").
func (c *Counters) Requests(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.requests[key]
}

// AllRequests returns a copy of every request counter.
func (c *Counters) AllRequests() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]int, len(c.requests))
	for k, v := range c.requests {
		out[k] = v
	}
	return out
}

// APIRequests is the total number of requests under /v2 (tokens, admin and
// stream handshakes excluded).
func (c *Counters) APIRequests() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for k, v := range c.requests {
		if pathOf(k) == "/v2" || len(pathOf(k)) > 3 && pathOf(k)[:4] == "/v2/" {
			n += v
		}
	}
	return n
}

// Tokens returns how many tokens were issued for exactly this requested
// scope string (space-separated, as sent).
func (c *Counters) Tokens(scope string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tokens[scope]
}

// AllTokens returns a copy of the token counters by requested scope.
func (c *Counters) AllTokens() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]int, len(c.tokens))
	for k, v := range c.tokens {
		out[k] = v
	}
	return out
}

// TotalTokens is the number of tokens issued.
func (c *Counters) TotalTokens() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, v := range c.tokens {
		n += v
	}
	return n
}

// Connections is the number of TCP connections accepted (Start only).
func (c *Counters) Connections() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.conns
}

// Reset zeroes every counter.
func (c *Counters) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.requests = map[string]int{}
	c.tokens = map[string]int{}
	c.conns = 0
}

func pathOf(key string) string {
	for i := 0; i < len(key); i++ {
		if key[i] == ' ' {
			return key[i+1:]
		}
	}
	return key
}

func (s *Server) countRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.Counters.count(r.Method + " " + r.URL.Path)
		next.ServeHTTP(w, r)
	})
}
