package client

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func FuzzDecodeTransfer(f *testing.F) {
	for _, s := range []string{
		transferJSON, ``, `null`, `{}`, `{"id":"x"}`, `{"id":1}`, `{"id":"x","created_at":"bad"}`,
		`{"id":"x","metadata":{"a":1}}`, `[`, `<html>`, `{"id":"x","secondary_status":{"a":[1,2,{}]}}`,
		`{"id":"x"}{"id":"y"}`, "\xff\xfe", `{"id":"\ud800"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		tr, err := decodeTransfer(body)
		if (tr == nil) == (err == nil) {
			t.Fatalf("decodeTransfer(%q) = %v, %v: want exactly one of them", body, tr, err)
		}
		if tr != nil && tr.ID == "" {
			t.Fatal("transfer without id accepted")
		}
		if err != nil && err.Error() == "" {
			t.Fatal("empty error message")
		}
	})
}

func FuzzDecodePage(f *testing.F) {
	for _, s := range []string{
		`{"items":[{"id":"a"}],"next_page_cursor":"c"}`, `{"items":[null]}`, `{"items":{}}`, `{}`,
		`{"items":[{"compatible_crypto_networks":[1]}]}`, `{"next_page_cursor":null}`, `{"items":[{"metadata":{"k":"v"}}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		p, err := decodePage[DepositAddress](body, "")
		if (p == nil) == (err == nil) {
			t.Fatalf("decodePage(%q) = %v, %v", body, p, err)
		}
		checkNoNilItem(t, "item", p)
	})
}

func FuzzAPIError(f *testing.F) {
	seeds := []struct {
		status int
		ct     string
		body   string
	}{
		{404, "application/json", `{"message":"not found"}`},
		{404, "application/json", `{"type":"about:blank","title":"Not Found","status":404,"detail":"x"}`},
		{409, "application/json", `{"error":{"code":"X","message":"dup"},"request_id":"r"}`},
		{400, "application/json", `{"errors":[{"field":"a","message":"b"},"c",1,null]}`},
		{401, "application/json", `{"error":"invalid_token","error_description":"expired"}`},
		{500, "text/html", `<html><body>boom</body></html>`},
		{503, "text/plain", "service\x00 unavailable\r\n"},
		{422, "", `{"errors":{"a":["b"],"c":"d","e":{"f":1}}}`},
		{599, "", `"just a string"`},
		{403, "application/json", `{"detail":{"detail":{"detail":"deep"}}}`},
		{429, "", "\xff\xfe\xfd"},
	}
	for _, s := range seeds {
		f.Add(s.status, s.ct, []byte(s.body))
	}
	f.Fuzz(func(t *testing.T, status int, ct string, body []byte) {
		h := http.Header{}
		h.Set("Content-Type", ct)
		e := newAPIError("GET", "/x", status, h, body)
		e.Scope = "s"
		msg := e.Error()
		if !strings.HasPrefix(msg, "GET /x: ") {
			t.Fatalf("Error() = %q", msg)
		}
		if !utf8.ValidString(msg) {
			t.Fatalf("Error() is not valid UTF-8: %q", msg)
		}
		if n := utf8.RuneCountInString(e.Message); n > maxMessageLen+1 {
			t.Fatalf("message of %d runes", n)
		}
		if strings.ContainsAny(e.Message, "\n\r\x00") {
			t.Fatalf("message holds control characters: %q", e.Message)
		}
		if s := sentinelFor(status); s != nil && status != http.StatusNotFound && !errors.Is(e, s) {
			t.Fatalf("status %d does not match its sentinel", status)
		}
		if errors.Is(e, ErrNotFound) != (status == http.StatusNotFound && apiErrorBody(ct, status, body)) {
			t.Fatalf("status %d: ErrNotFound match is wrong", status)
		}
		if status == http.StatusNotFound && errors.Is(e, ErrNotFound) == errors.Is(e, ErrNoSuchOperation) {
			t.Fatalf("a 404 is exactly one of ErrNotFound and ErrNoSuchOperation")
		}
	})
}

var alnum = regexp.MustCompile(`^[A-Za-z0-9]{8,64}$`)

// FuzzRedactBody checks that the value of a sensitive key never survives
// redaction, whatever surrounds it and however the body is cut: the output
// does not depend on the secret. (Checking only that the output does not
// hold the secret would blame the redactor for text it writes itself, such
// as a control character escaped to "%00" before digits.)
func FuzzRedactBody(f *testing.F) {
	f.Add(`{"a":1}`, "access_token", "SecretValue123", 0, "application/json")
	f.Add(`[{"b":[`, "client_secret", "AnotherSecret9", 10, "")
	f.Add(`x=1`, "refresh_token", "RRRRRRRRRR", 5, "application/x-www-form-urlencoded")
	f.Add(`{"nested":{"k":"v"}}`, "Access_Token", "abcdefgh", 3, "text/plain")
	f.Fuzz(func(t *testing.T, prefix, key, secret string, cut int, ct string) {
		if !alnum.MatchString(secret) || !isSensitiveKey(key) || strings.Contains(prefix, secret) ||
			strings.Contains(strings.ToLower(redacted+" bytes"), strings.ToLower(secret)) {
			t.Skip()
		}
		other := otherSecret(secret)
		bodies, others := buildBodies(prefix, key, secret), buildBodies(prefix, key, other)
		for i, body := range bodies {
			otherBody := others[i]
			if cut > 0 && cut < len(body) {
				// A truncated body must still not leak the part of the
				// secret it holds.
				body, otherBody = body[:len(body)-cut%len(body)], otherBody[:len(body)-cut%len(body)]
			}
			if out, outOther := RedactBody(ct, []byte(body)), RedactBody(ct, []byte(otherBody)); out != outOther {
				t.Fatalf("RedactBody(%q, %q) = %q leaks the secret (with %q instead: %q)", ct, body, out, other, outOther)
			}
		}
	})
}

// otherSecret is a secret of the same length and character classes as s in
// which every character differs.
func otherSecret(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= '0' && c <= '9':
			b[i] = '0' + (c-'0'+1)%10
		case c >= 'a' && c <= 'z':
			b[i] = 'a' + (c-'a'+1)%26
		case c >= 'A' && c <= 'Z':
			b[i] = 'A' + (c-'A'+1)%26
		}
	}
	return string(b)
}

// buildBodies places key=secret in a JSON body and in a form body.
func buildBodies(prefix, key, secret string) []string {
	k, _ := json.Marshal(key)
	v, _ := json.Marshal(secret)
	return []string{
		`{"p":` + prefix + `,` + string(k) + `:` + string(v) + `}`,
		`{` + string(k) + `:` + string(v) + `,"p":` + prefix + `}`,
		prefix + "&" + key + "=" + secret,
		key + "=" + secret + "&" + prefix,
	}
}

// spellers are the ways a gateway may echo a secret.
var spellers = []func(string) string{
	func(s string) string { return s },
	url.QueryEscape,
	func(s string) string { return url.QueryEscape(url.QueryEscape(s)) },
	url.PathEscape,
	html.EscapeString,
	htmlNumericEntities,
	func(s string) string { return hex.EncodeToString([]byte(s)) },
	func(s string) string { return strings.ToUpper(hex.EncodeToString([]byte(s))) },
	func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) },
	func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) },
	func(s string) string { b, _ := json.Marshal(s); return string(b) },
}

// FuzzScrubSecret checks that no spelling of the secret survives
// scrubbing, whatever text surrounds it: the output does not depend on the
// secret. Base64 of a longer text that holds the secret (a form encoded
// whole) must keep none of the characters that depend on the secret alone.
func FuzzScrubSecret(f *testing.F) {
	f.Add("before ", " after", "s3cr3t-Value-XYZ", uint8(0), uint8(0))
	f.Add("", "", "p@ss w/rd&more+1", uint8(5), uint8(1))
	f.Add("x=", "&y=1", "AnotherSecret99", uint8(8), uint8(2))
	f.Fuzz(func(t *testing.T, prefix, suffix, secret string, speller, pad uint8) {
		if len(secret) < 8 || len(secret) > 64 || !utf8.ValidString(secret) || strings.ContainsFunc(secret, unicode.IsSpace) ||
			strings.ContainsRune(secret, 0) {
			t.Skip()
		}
		spell := spellers[int(speller)%len(spellers)]
		other := otherSecret(secret)
		if other == secret || strings.Contains(prefix+suffix, secret) || strings.Contains(prefix+suffix, other) {
			t.Skip()
		}
		// The spelling stands apart from the text around it (a space
		// never occurs in a spelling), as in any message.
		text := func(s string) string { return prefix + " " + spell(s) + " " + suffix }
		if out, outOther := scrubSecret(text(secret), secret), scrubSecret(text(other), other); out != outOther {
			t.Fatalf("scrubSecret(%q) = %q depends on the secret (with %q: %q)", text(secret), out, other, outOther)
		}
		// Inside a form encoded whole, at any alignment.
		form := strings.Repeat("a", int(pad)%3) + "client_secret=" + url.QueryEscape(secret) + "&x=1"
		enc := base64.StdEncoding.EncodeToString([]byte(form))
		out := scrubSecret(enc, secret)
		for _, core := range base64Cores(base64.StdEncoding, url.QueryEscape(secret)) {
			if strings.Contains(out, core) {
				t.Fatalf("the base64 of %q keeps %q of the secret: %q", form, core, out)
			}
		}
	})
}
