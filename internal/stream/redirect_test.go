package stream

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestDialRedirectNotFollowed: a redirect of the handshake (which carries
// the access token) is an error naming the target host, and nothing
// reaches that host.
func TestDialRedirectNotFollowed(t *testing.T) {
	var hits atomic.Int64
	stranger := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	defer stranger.Close()
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, stranger.URL+"/ws", http.StatusFound)
	}))
	defer origin.Close()
	_, err := Dial(t.Context(), "ws"+strings.TrimPrefix(origin.URL, "http")+"/ws", "token-1", Options{})
	if err == nil {
		t.Fatal("dial succeeded")
	}
	host := strings.TrimPrefix(stranger.URL, "http://")
	for _, want := range []string{"302", "a redirect to host " + host, "ws_url is probably wrong"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "token-1") {
		t.Errorf("error %q holds the token", err)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("%d requests reached the redirect target, want 0", n)
	}
}
