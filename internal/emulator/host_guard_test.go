package emulator

import (
	"net/http"
	"strings"
	"testing"
)

// A started emulator answers only its own Host, and refuses the writes a
// browser sends from another site, bodyless ones included; its own
// clients (no Origin, no Sec-Fetch-Site, or its own origin) are served.
func TestHostAndOriginGuarded(t *testing.T) {
	s := StartTest(t, Options{})
	port := s.Addr()[strings.LastIndex(s.Addr(), ":")+1:]
	do := func(method, host string, header map[string]string) int {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), method, "http://"+s.Addr()+"/admin/counters/reset", nil)
		if err != nil {
			t.Fatal(err)
		}
		if method == http.MethodGet {
			req.URL.Path = "/admin/counters"
		}
		if host != "" {
			req.Host = host
		}
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	for _, c := range []struct {
		name, method, host string
		header             map[string]string
		want               int
	}{
		{"own address", http.MethodGet, "", nil, http.StatusOK},
		{"localhost", http.MethodGet, "localhost:" + port, nil, http.StatusOK},
		{"another host (DNS rebinding)", http.MethodGet, "rebind.example:" + port, nil, http.StatusMisdirectedRequest},
		{"another port", http.MethodGet, "127.0.0.1:1", nil, http.StatusMisdirectedRequest},
		{"a tool's bodyless write", http.MethodPost, "", nil, http.StatusNoContent},
		{"a write of its own origin", http.MethodPost, "", map[string]string{"Origin": "http://" + s.Addr()}, http.StatusNoContent},
		{"a cross-site bodyless write (Origin)", http.MethodPost, "", map[string]string{"Origin": "http://evil.example"},
			http.StatusForbidden},
		{"a cross-site bodyless write (Sec-Fetch-Site)", http.MethodPost, "",
			map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
	} {
		if got := do(c.method, c.host, c.header); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}
