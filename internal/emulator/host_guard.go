package emulator

import (
	"net"
	"net/http"
	"strconv"
	"strings"
)

// A started emulator answers only requests meant for it. On loopback it
// answers only its own Host (127.0.0.1, localhost or [::1] with its port):
// a page of another site whose name resolves to 127.0.0.1 (DNS rebinding)
// reaches nothing. And it refuses the writes a browser sends across sites
// (http.CrossOriginProtection: a form or fetch of another origin that POSTs,
// even without a body, such as the admin settle of a conversion); tools
// and the provider, which send no Origin nor Sec-Fetch-Site, are not
// concerned. Handler, served behind a test's own server, is not guarded.

// guardHostAndOrigin guards next for a listener on addr.
func guardHostAndOrigin(next http.Handler, addr net.Addr) http.Handler {
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		writeError(w, &apiError{status: http.StatusForbidden, body: ErrorBody{Code: "CROSS_ORIGIN",
			Message: "a cross-origin write from a browser is refused: the emulator's API is for its own clients"}})
	}))
	guarded := cop.Handler(next)
	hosts := ownHosts(addr)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hosts != nil && !hosts[strings.ToLower(r.Host)] {
			writeError(w, &apiError{status: http.StatusMisdirectedRequest, body: ErrorBody{Code: "MISDIRECTED",
				Message: "this emulator answers only its own address (" + addr.String() + "), not the host " +
					strconv.Quote(r.Host)}})
			return
		}
		guarded.ServeHTTP(w, r)
	})
}

// ownHosts are the Host values a loopback listener on addr answers; nil
// (any) beyond loopback, where the names it is reached by are not known.
func ownHosts(addr net.Addr) map[string]bool {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || !tcp.IP.IsLoopback() {
		return nil
	}
	port := strconv.Itoa(tcp.Port)
	return map[string]bool{
		strings.ToLower(addr.String()): true,
		"127.0.0.1:" + port:            true,
		"localhost:" + port:            true,
		"[::1]:" + port:                true,
	}
}
