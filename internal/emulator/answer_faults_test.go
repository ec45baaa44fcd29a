package emulator

import (
	"net/http"
	"strings"
	"testing"
)

// TestProblemTypeBase: a service whose problem types live at another URI
// answers a missing object with a problem of that type, and nothing else
// of the answer changes.
func TestProblemTypeBase(t *testing.T) {
	e := newEnv(t, Options{})
	e.s.SetProblemTypeBase("https://errors.platform.example/")
	r := e.get("/v2/transfer/fiat-deposit-instructions/no-such-id")
	e.wantStatus(r, http.StatusNotFound)
	var p Problem
	r.decode(t, &p)
	if p.Type != "https://errors.platform.example/not-found" || p.Status != http.StatusNotFound || p.Title != "Not Found" || p.Detail == "" {
		t.Errorf("problem %s", r.body)
	}
	e.s.SetProblemTypeBase("")
	r = e.get("/v2/transfer/fiat-deposit-instructions/no-such-id")
	r.decode(t, &p)
	if p.Type != problemTypeBase+"not-found" {
		t.Errorf("restored: problem %s", r.body)
	}
}

// TestGatewayPage: a gateway's page answers the requests of its method and
// path, whatever their query, and the service never sees them; removed,
// the service answers again.
func TestGatewayPage(t *testing.T) {
	e := newEnv(t, Options{})
	const page = "<html><body><h1>404 Not Found</h1></body></html>"
	e.s.GatewayPage(http.MethodGet, "/v2/transfer/fiat-accounts", http.StatusNotFound, "text/html", page)
	r := e.get("/v2/transfer/fiat-accounts?ref_ids=r-1")
	e.wantStatus(r, http.StatusNotFound)
	if string(r.body) != page || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
		t.Errorf("answer %q (%s)", r.body, r.header.Get("Content-Type"))
	}
	if r := e.post("/v2/transfer/fiat-accounts", map[string]any{}); r.status == http.StatusNotFound && string(r.body) == page {
		t.Error("the page answers another method")
	}
	e.s.GatewayPage(http.MethodGet, "/v2/transfer/fiat-accounts", 0, "", "")
	e.wantStatus(e.get("/v2/transfer/fiat-accounts"), http.StatusOK)
}
