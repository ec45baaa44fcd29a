package client

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// These tests play the stranger: TLS hosts with their own CA that the
// service redirects to, answers that page forever, and token endpoints that
// echo the client secret in every spelling.

// stranger is a TLS host that counts the requests it receives.
type stranger struct {
	srv  *httptest.Server
	hits atomic.Int64
}

func newStranger(t *testing.T) *stranger {
	s := &stranger{}
	s.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprint(w, `{"access_token":"stranger-token","token_type":"bearer","expires_in":3600,"id":"t-x","items":[]}`)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// trustingClient is an HTTP client that trusts the certificates of every
// server given, as a real client would trust two public hosts.
func trustingClient(servers ...*httptest.Server) *http.Client {
	pool := x509.NewCertPool()
	for _, s := range servers {
		pool.AddCert(s.Certificate())
	}
	return &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}}
}

func TestStranger_noRedirectIsFollowed(t *testing.T) {
	for _, status := range []int{http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		for _, where := range []string{"token", "get", "post"} {
			t.Run(fmt.Sprintf("%s %d", where, status), func(t *testing.T) {
				s := newStranger(t)
				origin := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					redirect := func() { http.Redirect(w, r, s.srv.URL+r.URL.Path, status) }
					switch {
					case strings.HasSuffix(r.URL.Path, "/oauth2/token"):
						if where == "token" {
							redirect()
							return
						}
						w.Header().Set("Content-Type", "application/json")
						_, _ = fmt.Fprint(w, `{"access_token":"origin-token","token_type":"bearer","expires_in":3600}`)
					default:
						redirect()
					}
				}))
				t.Cleanup(origin.Close)
				c, err := New(Config{
					ClientID: testClientID, ClientSecret: testSecret,
					BaseURL: origin.URL + "/v2", AuthURL: origin.URL + "/auth",
					HTTPClient: trustingClient(origin, s.srv), MaxRetries: 3,
					RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond,
				})
				if err != nil {
					t.Fatal(err)
				}
				if where == "post" {
					_, err = c.CreateCryptoWithdrawal(t.Context(), CryptoWithdrawalRequest{
						ProfileID: "p", DestinationAddress: "d", Asset: "BTC", CryptoNetwork: "BITCOIN", Amount: "1", RefID: "r-1",
					})
				} else {
					_, err = c.GetTransfer(t.Context(), "t-1")
				}
				var re *RedirectError
				if !errors.As(err, &re) {
					t.Fatalf("error %v (%T), want a *RedirectError", err, err)
				}
				host := strings.TrimPrefix(s.srv.URL, "https://")
				setting := "base_url"
				if where == "token" {
					setting = "auth_url"
				}
				for _, want := range []string{fmt.Sprint(status), "a redirect to host " + host, "configured " + setting + " is probably wrong"} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("error %q lacks %q", err, want)
					}
				}
				if strings.Contains(err.Error(), testSecret) {
					t.Errorf("error %q holds the secret", err)
				}
				if n := s.hits.Load(); n != 0 {
					t.Fatalf("%d requests reached the redirect target, want 0", n)
				}
			})
		}
	}
}

func TestStranger_endlessPagingStops(t *testing.T) {
	for _, full := range []bool{false, true} {
		t.Run(fmt.Sprintf("full pages %v", full), func(t *testing.T) {
			f := newFake(t)
			item := `{"id":"t","customer_id":"c","profile_id":"p","amount":"1","total":"1","fee":"0","asset":"BTC","direction":"DEBIT","type":"CRYPTO_DEPOSIT","status":"PENDING","created_at":"2024-01-02T03:04:05Z","updated_at":"2024-01-02T03:04:05Z"}`
			page := `{"items":[],"next_page_cursor":"c-%d"}`
			if full {
				page = `{"items":[` + strings.Repeat(item+",", 999) + item + `],"next_page_cursor":"c-%d"}`
			}
			f.handler = func(w http.ResponseWriter, _ *http.Request, n int, _ apiRequest) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = fmt.Fprintf(w, page, n)
			}
			limits := ListLimits{MaxItems: 50_000}
			c, _ := newTestClient(t, f, func(cfg *Config) { cfg.ListLimits = limits })
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			n := 0
			var err error
			for _, e := range c.Transfers(t.Context(), ListTransfersQuery{}) {
				if e != nil {
					err = e
					break
				}
				n++
			}
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrListTooLong) {
				t.Fatalf("error %v after %d items, want ErrListTooLong", err, n)
			}
			want := "50000 items read"
			if !full {
				want = fmt.Sprintf("%d pages in a row without items", DefaultMaxEmptyPages)
			}
			if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "Narrow the filters") && full {
				t.Errorf("error %q lacks %q", err, want)
			}
			if full && n != limits.MaxItems {
				t.Errorf("%d items yielded, want %d", n, limits.MaxItems)
			}
			t.Logf("stopped after %d items; heap in use %d MiB before, %d MiB after", n, before.HeapInuse>>20, after.HeapInuse>>20)
			// The pager holds one page at a time, whatever the length.
			if after.HeapInuse > before.HeapInuse+64<<20 {
				t.Errorf("heap in use grew from %d to %d MiB", before.HeapInuse>>20, after.HeapInuse>>20)
			}
		})
	}
}

func TestScrubSpellings(t *testing.T) {
	const secret = "pa<ss+w/rd&1% x"
	const id = "client-1"
	sc := newScrubber(append(secretSpellings(secret), basicAuthSpellings(id, secret)...)...)
	q := url.QueryEscape(secret)
	spellings := map[string]string{
		"literal":           secret,
		"query":             q,
		"query, %20":        strings.ReplaceAll(q, "+", "%20"),
		"query, lower hex":  strings.ToLower(q),
		"path":              url.PathEscape(secret),
		"json":              `pa\u003css+w/rd\u00261% x`,
		"json without html": `pa<ss+w/rd&1% x`,
		"base64":            base64.StdEncoding.EncodeToString([]byte(secret)),
		"base64 url":        base64.RawURLEncoding.EncodeToString([]byte(secret)),
		"basic auth":        base64.StdEncoding.EncodeToString([]byte(url.QueryEscape(id) + ":" + url.QueryEscape(secret))),
		"basic auth raw":    base64.StdEncoding.EncodeToString([]byte(id + ":" + secret)),
	}
	for name, s := range spellings {
		got := sc.scrub(`{"error":"invalid_client","echo":"` + s + `"}`)
		if strings.Contains(got, s) || !strings.Contains(got, redacted) {
			t.Errorf("%s: %q not scrubbed: %s", name, s, got)
		}
	}
	if got := sc.scrub("nothing secret"); got != "nothing secret" {
		t.Errorf("scrubbed %q", got)
	}
}

func TestStranger_echoedSecretNeverShown(t *testing.T) {
	const secret = "pa<ss+w/rd&1% x"
	f := newFake(t)
	q := url.QueryEscape(secret)
	f.tokenHandler = func(w http.ResponseWriter, _ *http.Request, _ url.Values) bool {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = fmt.Fprintf(w, `{"error":"invalid_client","error_description":"bad secret %s (%s)","sent":"client_secret=%s"}`,
			q, strings.ToLower(q), q)
		return true
	}
	c, logs := newTestClient(t, f, func(cfg *Config) { cfg.ClientSecret = secret })
	_, err := c.GetTransfer(t.Context(), "t-1")
	if err == nil {
		t.Fatal("no error")
	}
	var texts []string
	texts = append(texts, err.Error())
	for _, e := range logs.all() {
		texts = append(texts, fmt.Sprint(e.Msg, e.Fields))
	}
	for _, text := range texts {
		for _, s := range []string{secret, q, strings.ToLower(q), url.PathEscape(secret)} {
			if strings.Contains(text, s) {
				t.Errorf("%q holds the secret as %q", text, s)
			}
		}
	}
	if !strings.Contains(err.Error(), "invalid_client") || strings.Contains(err.Error(), `"sent"`) {
		t.Errorf("error %q: want the OAuth error code and description only", err)
	}
}
