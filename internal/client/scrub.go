package client

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Every spelling of a secret is scrubbed, not only the literal one: a token
// endpoint (or anything between) may echo the client secret as it was sent
// in the form body (query-escaped), path-escaped, JSON-escaped (with or
// without HTML escaping) or base64-encoded (alone, or as the Basic
// authorization of client_id:client_secret), and percent-escapes may come
// back in either case.

// secretSpellings are the spellings of secret to scrub, longest first.
func secretSpellings(secret string) []string {
	if secret == "" {
		return nil
	}
	set := map[string]bool{secret: true}
	add := func(s string) {
		if s != "" {
			set[s] = true
		}
	}
	q := url.QueryEscape(secret)
	add(q)
	add(strings.ReplaceAll(q, "+", "%20"))
	add(url.PathEscape(secret))
	if b, err := json.Marshal(secret); err == nil {
		add(string(b[1 : len(b)-1]))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(secret) == nil {
		b := bytes.TrimSpace(buf.Bytes())
		add(string(b[1 : len(b)-1]))
	}
	for _, e := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		add(e.EncodeToString([]byte(secret)))
		// Inside a longer base64 text (a form body, a query encoded
		// whole), the secret stands at one of three alignments: the
		// characters that depend on it alone.
		for _, v := range []string{secret, q} {
			for _, frag := range base64Cores(e, v) {
				add(frag)
			}
		}
	}
	// Escaped again and again (a gateway that escapes an escaped form, a
	// JSON string holding a JSON document, a query of a query), up to
	// maxEscapes times, in every mix of query and JSON escaping; as HTML
	// text, and in hexadecimal.
	for _, e := range escapings(secret) {
		add(e)
	}
	add(html.EscapeString(secret))
	add(htmlNumericEntities(secret))
	add(hex.EncodeToString([]byte(secret)))
	add(strings.ToUpper(hex.EncodeToString([]byte(secret))))
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	// Longest first, so that a spelling that contains another goes whole.
	sortByLengthDesc(out)
	return out
}

// maxEscapes is how many times over an escaped spelling of a secret is
// scrubbed: three query escapes, or a JSON escape of a JSON escape of a
// query escape, and any other mix.
const maxEscapes = 3

// escapings are the spellings of s escaped one to maxEscapes times, each
// time as a query (with + or %20 for a space) or as the content of a JSON
// string (with or without HTML escaping).
func escapings(s string) []string {
	seen := map[string]bool{s: true}
	var out []string
	layer := []string{s}
	for range maxEscapes {
		var next []string
		for _, v := range layer {
			q := url.QueryEscape(v)
			for _, e := range []string{q, strings.ReplaceAll(q, "+", "%20"), jsonContent(v, true), jsonContent(v, false)} {
				if e != "" && !seen[e] {
					seen[e] = true
					next = append(next, e)
				}
			}
		}
		out = append(out, next...)
		layer = next
	}
	return out
}

// jsonContent is s as the content of a JSON string (without its quotes),
// with or without HTML escaping.
func jsonContent(s string, escapeHTML bool) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(escapeHTML)
	if enc.Encode(s) != nil {
		return ""
	}
	b := bytes.TrimSpace(buf.Bytes())
	return string(b[1 : len(b)-1])
}

// minBase64Core is the shortest base64 fragment scrubbed on its own: a
// shorter one would match ordinary text by chance.
const minBase64Core = 12

// base64Cores are the fragments of the base64 encoding e of any text that
// contains v, one per alignment of v: the characters that depend on the
// bytes of v alone.
func base64Cores(e *base64.Encoding, v string) []string {
	var out []string
	for k := range 3 {
		b := append(make([]byte, k), v...)
		enc := e.WithPadding(base64.NoPadding).EncodeToString(b)
		// Characters 0..skip-1 mix in the k bytes before v; after the last
		// whole group of three bytes, characters mix in the bytes after it.
		skip := [3]int{0, 2, 3}[k]
		end := len(b) / 3 * 4
		if end-skip >= minBase64Core {
			out = append(out, enc[skip:end])
		}
	}
	return out
}

// htmlNumericEntities spells every character of s as a decimal HTML
// entity.
func htmlNumericEntities(s string) string {
	var b strings.Builder
	for _, r := range s {
		fmt.Fprintf(&b, "&#%d;", r)
	}
	return b.String()
}

// secrets scrubs the client secret, every access token the client has
// obtained and every value registered with AddSensitive; safe for
// concurrent use.
type secrets struct {
	static *scrubber
	mu     sync.RWMutex
	tokens []string
	// values are the sensitive values (AddSensitive), every one of them:
	// a plan of many fiat accounts registers each account's numbers.
	values map[string]bool
	// dyn scrubs the tokens and the values; nil when one was added since
	// it was built. It is built when text is scrubbed, not at each
	// registration: a plan registers values for every resource and
	// scrubs nothing unless it logs or fails.
	dyn *scrubber
}

// maxScrubbedTokens bounds the tokens remembered for scrubbing (a run
// renews a handful at most).
const maxScrubbedTokens = 64

// addToken registers tok, so that it is scrubbed from every log line and
// error from then on.
func (s *secrets) addToken(tok string) {
	if s == nil || tok == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if slices.Contains(s.tokens, tok) {
		return
	}
	s.tokens = append(s.tokens, tok)
	if len(s.tokens) > maxScrubbedTokens {
		s.tokens = s.tokens[len(s.tokens)-maxScrubbedTokens:]
	}
	s.dyn = nil
}

// addValue registers the sensitive value v, so that it is scrubbed from
// every log line and error from then on.
func (s *secrets) addValue(v string) {
	if s == nil || v == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.values[v] {
		return
	}
	if s.values == nil {
		s.values = map[string]bool{}
	}
	s.values[v] = true
	s.dyn = nil
}

// dynamic is the scrubber of the tokens and values, built when stale.
func (s *secrets) dynamic() *scrubber {
	s.mu.RLock()
	d := s.dyn
	s.mu.RUnlock()
	if d != nil {
		return d
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dyn == nil {
		var spellings []string
		for _, t := range s.tokens {
			spellings = append(spellings, secretSpellings(t)...)
		}
		for v := range s.values {
			spellings = append(spellings, secretSpellings(v)...)
		}
		sortByLengthDesc(spellings)
		s.dyn = newScrubber(spellings...)
	}
	return s.dyn
}

// scrub removes the secret, the tokens and the values from text.
func (s *secrets) scrub(text string) string {
	if s == nil {
		return text
	}
	return s.dynamic().scrub(s.static.scrub(text))
}

// basicAuthSpellings are the base64 spellings of the Basic authorization
// of id and secret, raw and query-escaped (as the oauth2 package sends it).
func basicAuthSpellings(id, secret string) []string {
	if id == "" || secret == "" {
		return nil
	}
	var out []string
	for _, pair := range []string{id + ":" + secret, url.QueryEscape(id) + ":" + url.QueryEscape(secret)} {
		for _, e := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding} {
			out = append(out, e.EncodeToString([]byte(pair)))
		}
	}
	return out
}

func sortByLengthDesc(s []string) {
	slices.SortFunc(s, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
}

// scrubber replaces every spelling of some secrets by "[REDACTED]".
type scrubber struct {
	re *regexp.Regexp // nil: nothing to scrub
}

// newScrubber builds the scrubber of the given spellings. Percent-escapes
// match in either case.
func newScrubber(spellings ...string) *scrubber {
	var parts []string
	seen := map[string]bool{}
	for _, s := range spellings {
		if s == "" || seen[s] {
			continue
		}
		seen[s] = true
		parts = append(parts, spellingPattern(s))
	}
	if len(parts) == 0 {
		return &scrubber{}
	}
	return &scrubber{re: regexp.MustCompile(strings.Join(parts, "|"))}
}

// spellingPattern is the pattern of s, with the hex digits of its
// percent-escapes in either case.
func spellingPattern(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			fmt.Fprintf(&b, "%%%s%s", hexClass(s[i+1]), hexClass(s[i+2]))
			i += 2
			continue
		}
		b.WriteString(regexp.QuoteMeta(s[i : i+1]))
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexClass(c byte) string {
	if c >= '0' && c <= '9' {
		return string(c)
	}
	lower := c | 0x20
	return "[" + string(lower) + string(lower-0x20) + "]"
}

func (s *scrubber) scrub(text string) string {
	if s == nil || s.re == nil || text == "" {
		return text
	}
	return s.re.ReplaceAllLiteralString(text, redacted)
}

// scrubbers caches the scrubber of each secret for scrubSecret.
var scrubbers sync.Map

// scrubSecret removes every spelling of secret from s.
func scrubSecret(s, secret string) string {
	if secret == "" || s == "" {
		return s
	}
	v, ok := scrubbers.Load(secret)
	if !ok {
		v, _ = scrubbers.LoadOrStore(secret, newScrubber(secretSpellings(secret)...))
	}
	sc, _ := v.(*scrubber)
	return sc.scrub(s)
}
