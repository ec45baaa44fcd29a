// Package exchange holds Exchange: one request of the HTTP API and the
// answer to it, as a server saw them. The emulator reports exchanges
// (emulator.Options.Observe) and the contract tests hold them against the
// published reference (internal/contract); this package lets the two
// share the type without the emulator depending on the checker.
package exchange

import (
	"net/http"
	"net/url"
)

// Exchange is one request and its answer, as a server saw them.
type Exchange struct {
	Method string
	// URL is the request's URL; its path starts with /v2.
	URL           *url.URL
	RequestHeader http.Header
	RequestBody   []byte
	Status        int
	Header        http.Header
	Body          []byte
	// Faults are the faults a test made the server apply to the answer;
	// an answer with a fault is not the server's own, and is not checked.
	Faults []string
	// Scopes are the scopes of the request's bearer token, as the server
	// granted them; nil when it had none it knew.
	Scopes []string
}
