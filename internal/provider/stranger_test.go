package provider

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// The reliability suite plays the stranger through Terraform: a service
// that redirects, pages forever or echoes the client secret in every
// spelling, in front of the emulator.

// strangerHost counts the requests that reach it.
type strangerHost struct {
	srv  *httptest.Server
	hits atomic.Int64
}

func newStrangerHost(t *testing.T) *strangerHost {
	s := &strangerHost{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		s.hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprint(w, `{"access_token":"stranger","token_type":"bearer","expires_in":3600,"id":"t-x","items":[]}`)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func TestAccStranger_redirectsAreNotFollowed(t *testing.T) {
	t.Parallel()
	requireTFAcc(t)
	cases := []struct {
		name, match, body, setting string
	}{
		{"token 307", "/oauth2/token", payoutWithdrawal, "auth_url"},
		{"withdrawal POST 307", "/transfer/crypto-withdrawals", payoutWithdrawal, "base_url"},
		{"list GET 302", "/transfer/fiat-accounts", `data "platform_fiat_accounts" "all" {}`, "base_url"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newStrangerHost(t)
			status := http.StatusTemporaryRedirect
			if strings.Contains(tc.name, "302") {
				status = http.StatusFound
			}
			fe := startFrontedEmulator(t, emulator.Options{FiatAccounts: 5}, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
				if strings.HasSuffix(r.URL.Path, tc.match) {
					http.Redirect(w, r, s.srv.URL+r.URL.Path, status)
					return
				}
				next.ServeHTTP(w, r)
			})
			w := newCLIWorkdir(t)
			w.write(fe.providerBlock(""), tc.body)
			r := w.mustRun(1, "apply", "-auto-approve")
			out := strings.Join(strings.Fields(r.output()), " ")
			host := strings.TrimPrefix(s.srv.URL, "http://")
			for _, want := range []string{fmt.Sprint(status), "a redirect to host " + host, "configured " + tc.setting + " is probably wrong"} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, r.output())
				}
			}
			if n := s.hits.Load(); n != 0 {
				t.Fatalf("%d requests reached the redirect target, want 0", n)
			}
			if n := len(fe.emu.Transfers()); n != 0 {
				t.Errorf("the emulator holds %d transfers, want 0", n)
			}
			if r := w.run("state", "list"); strings.Contains(r.stdout, "platform_crypto_withdrawal") {
				t.Errorf("the state records a withdrawal:\n%s", r.stdout)
			}
		})
	}
}

func TestAccStranger_endlessEmptyPages(t *testing.T) {
	t.Parallel()
	requireTFAcc(t)
	var pages atomic.Int64
	fe := startFrontedEmulator(t, emulator.Options{}, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		if strings.HasSuffix(r.URL.Path, "/transfer/deposit-addresses") {
			n := pages.Add(1)
			w.Header().Set("Content-Type", "application/json")
			_, _ = fmt.Fprintf(w, `{"items":[],"next_page_cursor":"cursor-%d"}`, n)
			return
		}
		next.ServeHTTP(w, r)
	})
	w := newCLIWorkdir(t)
	w.write(fe.providerBlock(""), `data "platform_deposit_addresses" "all" {}`)
	r := w.mustRun(1, "plan")
	out := strings.Join(strings.Fields(r.output()), " ")
	if !strings.Contains(out, "20 pages in a row without items") {
		t.Errorf("plan output lacks the ceiling:\n%s", r.output())
	}
	if n := pages.Load(); n != 20 {
		t.Errorf("%d pages requested, want 20", n)
	}
}

func TestAccStranger_echoedSecretNeverShown(t *testing.T) {
	t.Parallel()
	requireTFAcc(t)
	const secret = "pa<ss+w/rd&1% x"
	q := url.QueryEscape(secret)
	spellings := []string{secret, q, strings.ToLower(q), strings.ReplaceAll(q, "+", "%20"), url.PathEscape(secret)}
	js, _ := json.Marshal(secret)
	spellings = append(spellings, string(js[1:len(js)-1]))
	fe := startFrontedEmulator(t, emulator.Options{Clients: map[string]emulator.ClientCredentials{
		emulator.DefaultClientID: {Secret: secret},
	}}, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		if strings.HasSuffix(r.URL.Path, "/oauth2/token") {
			// A token endpoint that echoes what it was sent, in every spelling.
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			echo, _ := json.Marshal(map[string]any{
				"error":             "invalid_client",
				"error_description": "unknown secret " + strings.Join(spellings, " "),
				"received":          spellings,
			})
			_, _ = w.Write(echo)
			return
		}
		next.ServeHTTP(w, r)
	})
	w := newCLIWorkdir(t)
	logPath := filepath.Join(w.dir, "trace.log")
	w.env = append(w.env, "TF_LOG=TRACE", "TF_LOG_PATH="+logPath)
	block := strings.Replace(fe.providerBlock(""), fmt.Sprintf("client_secret = %q", emulator.DefaultClientSecret),
		"client_secret = var.secret", 1)
	w.write(block, `
variable "secret" {
  type      = string
  sensitive = true
}
data "platform_fiat_accounts" "all" {}
`)
	w.env = append(w.env, "TF_VAR_secret="+secret)
	r := w.mustRun(1, "apply", "-auto-approve")
	if !strings.Contains(r.output(), "invalid_client") {
		t.Errorf("the error does not give the OAuth error code:\n%s", r.output())
	}
	log, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), "oauth2/token") {
		t.Fatalf("the TRACE log does not hold the provider's token request")
	}
	for _, text := range []struct{ what, s string }{{"output", r.output()}, {"TRACE log", string(log)}} {
		for _, sp := range spellings {
			if strings.Contains(text.s, sp) {
				t.Errorf("the %s holds the secret as %q", text.what, sp)
			}
		}
	}
}
