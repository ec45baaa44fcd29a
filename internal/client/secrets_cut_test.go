package client

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// leaks reports the longest run (of at least 6 characters) of secret found
// in text, or "".
func leaks(text, secret string) string {
	for n := len(secret); n >= 6; n-- {
		for i := 0; i+n <= len(secret); i++ {
			if strings.Contains(text, secret[i:i+n]) {
				return secret[i : i+n]
			}
		}
	}
	return ""
}

// A secret echoed at the place where an error message is cut is scrubbed
// whole before the cut: no part of it survives.
func TestSecretStraddlingTheCutIsScrubbedFirst(t *testing.T) {
	for _, at := range []int{maxMessageLen - 8, maxMessageLen - 3, maxMessageLen - 1} {
		f := newFake(t)
		f.handler = always(http.StatusBadRequest, fmt.Sprintf(`{"message":%q}`, strings.Repeat("x", at)+testSecret+" more"))
		c, logs := newTestClient(t, f, nil)
		err := drain(c.FiatAccounts(t.Context(), ListFiatAccountsQuery{}))
		if err == nil {
			t.Fatal("no error")
		}
		if l := leaks(err.Error(), testSecret); l != "" {
			t.Errorf("cut at %d: the error leaks %q of the secret: %s", at, l, err)
		}
		for _, e := range logs.all() {
			if l := leaks(e.String(), testSecret); l != "" {
				t.Errorf("cut at %d: a log line leaks %q of the secret: %s", at, l, e)
			}
		}
	}
}

// An access token echoed by a gateway in an error body ("invalid token
// ...") reaches neither the error nor any log line, TRACE included, in any
// spelling.
func TestEchoedAccessTokenIsScrubbedEverywhere(t *testing.T) {
	f := newFake(t)
	f.handler = func(w http.ResponseWriter, _ *http.Request, _ int, req apiRequest) {
		tok := req.Token
		body := fmt.Sprintf(`{"message":"invalid token %s (%s, %s)"}`, tok, url.QueryEscape(tok),
			base64.StdEncoding.EncodeToString([]byte(tok)))
		writeJSON(w, http.StatusBadRequest, body)
	}
	c, logs := newTestClient(t, f, nil)
	err := drain(c.FiatAccounts(t.Context(), ListFiatAccountsQuery{}))
	if err == nil {
		t.Fatal("no error")
	}
	issued := f.issuedTokens()
	if len(issued) == 0 {
		t.Fatal("no token was issued")
	}
	for _, tok := range issued {
		for _, spelling := range []string{tok, url.QueryEscape(tok), base64.StdEncoding.EncodeToString([]byte(tok))} {
			if strings.Contains(err.Error(), spelling) {
				t.Errorf("the error holds the token as %q: %s", spelling, err)
			}
			for _, e := range logs.all() {
				if strings.Contains(e.String(), spelling) {
					t.Errorf("a log line holds the token as %q: %s", spelling, e)
				}
			}
		}
	}
	if !strings.Contains(err.Error(), "invalid token [REDACTED]") {
		t.Errorf("the error does not show where the token was: %s", err)
	}
}

// The token endpoint's error description is scrubbed, cleaned of control
// characters and capped.
func TestTokenErrorDescriptionIsCleanedAndCapped(t *testing.T) {
	f := newFake(t)
	f.tokenHandler = func(w http.ResponseWriter, _ *http.Request, _ url.Values) bool {
		desc := "\x1b]8;;https://evil.example\x07click\x1b]8;;\x07 \x1b[2K" + testSecret + strings.Repeat("y", 5000)
		writeJSON(w, http.StatusBadRequest, fmt.Sprintf(`{"error":"invalid_client\u001b[31m","error_description":%q}`, desc))
		return true
	}
	c, _ := newTestClient(t, f, nil)
	err := drain(c.FiatAccounts(t.Context(), ListFiatAccountsQuery{}))
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	if strings.ContainsAny(msg, "\x1b\x07") {
		t.Errorf("the error holds control characters: %q", msg)
	}
	if l := leaks(msg, testSecret); l != "" {
		t.Errorf("the error leaks %q of the secret", l)
	}
	if len(msg) > 1000 {
		t.Errorf("the error is %d bytes long", len(msg))
	}
}

// Every spelling a gateway may give the secret is scrubbed: escaped twice,
// as HTML entities, in hexadecimal, and base64 inside a longer base64 text
// (a form encoded whole) at any alignment.
func TestSecretSpellingsScrubbed(t *testing.T) {
	secret := "s3cr3t/Value+&<x>=42"
	q := url.QueryEscape(secret)
	form := func(pad string) string {
		return base64.StdEncoding.EncodeToString([]byte(pad + "grant_type=client_credentials&client_secret=" + q + "&x=1"))
	}
	var entities strings.Builder
	for _, r := range secret {
		fmt.Fprintf(&entities, "&#%d;", r)
	}
	for name, spelled := range map[string]string{
		"escaped twice":      url.QueryEscape(q),
		"escaped thrice":     url.QueryEscape(url.QueryEscape(q)),
		"json twice":         jsonTwice(secret),
		"html":               html.EscapeString(secret),
		"html entities":      entities.String(),
		"hex":                hex.EncodeToString([]byte(secret)),
		"HEX":                strings.ToUpper(hex.EncodeToString([]byte(secret))),
		"base64 form":        form(""),
		"base64 form +1":     form("a"),
		"base64 form +2":     form("ab"),
		"base64url of query": base64.URLEncoding.EncodeToString([]byte("a=" + q)),
	} {
		out := scrubSecret("before "+spelled+" after", secret)
		if !strings.Contains(out, redacted) {
			t.Errorf("%s: %q not scrubbed: %q", name, spelled, out)
			continue
		}
		// What is left must not decode back to the secret.
		for _, word := range strings.Fields(strings.ReplaceAll(out, redacted, " ")) {
			for _, dec := range []func(string) ([]byte, error){
				base64.StdEncoding.DecodeString, base64.RawStdEncoding.DecodeString, hex.DecodeString,
			} {
				if b, err := dec(word); err == nil && strings.Contains(string(b), secret[:8]) {
					t.Errorf("%s: %q still decodes to the secret", name, word)
				}
			}
			if u, err := url.QueryUnescape(word); err == nil && strings.Contains(html.UnescapeString(u), secret[:8]) {
				t.Errorf("%s: %q still spells the secret", name, word)
			}
		}
	}
}

// jsonTwice is s as the content of a JSON string that is itself the
// content of a JSON string: a JSON document quoted in another.
func jsonTwice(s string) string {
	once, _ := json.Marshal(s)
	twice, _ := json.Marshal(string(once[1 : len(once)-1]))
	return string(twice[1 : len(twice)-1])
}

// issuedTokens are the access tokens f issued.
func (f *fakeService) issuedTokens() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for tok := range f.issued {
		out = append(out, tok)
	}
	return out
}

// TestAddSensitiveKeepsEveryValue: a process that registers the numbers of
// many fiat accounts scrubs every one of them, the first as the last, in
// each spelling; and the tokens stay scrubbed beside them.
func TestAddSensitiveKeepsEveryValue(t *testing.T) {
	c, err := New(Config{BaseURL: "http://127.0.0.1:1/v2", AuthURL: "http://127.0.0.1:1", ClientID: "id", ClientSecret: "the-client-secret"})
	if err != nil {
		t.Fatal(err)
	}
	c.scrubber.addToken("an-access-token-123")
	values := make([]string, 500)
	for i := range values {
		values[i] = fmt.Sprintf("%012d", 900000000000+i)
		c.AddSensitive(values[i])
	}
	for _, v := range []string{values[0], values[250], values[499]} {
		for _, text := range []string{"account " + v + " refused", `{"account_number":"` + v + `"}`, "q=" + url.QueryEscape(v)} {
			if got := c.scrub(text); strings.Contains(got, v) || !strings.Contains(got, "[REDACTED]") {
				t.Errorf("scrub(%q) = %q", text, got)
			}
		}
	}
	if got := c.scrub("Bearer an-access-token-123 and the-client-secret"); strings.Contains(got, "an-access-token") || strings.Contains(got, "the-client-secret") {
		t.Errorf("token or secret left: %q", got)
	}
	if got := c.scrub("12345 is too short to be registered"); got != "12345 is too short to be registered" {
		t.Errorf("ordinary text changed: %q", got)
	}
}
