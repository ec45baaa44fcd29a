package provider

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/platform/terraform-provider-platform/internal/client"
)

// Values: conversions between the client's Go values and framework values,
// shared by resources and data sources. Absent or empty API values are
// null, never "".

// stringValue is p as a string, or null when p is nil or empty.
func stringValue(p *string) types.String {
	if p == nil || *p == "" {
		return types.StringNull()
	}
	return types.StringValue(*p)
}

// optionalString is s, or null when it is empty.
func optionalString(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// timeValue is t in RFC 3339 (with its fractional seconds, if any), or null
// when t is nil.
func timeValue(t *time.Time) types.String {
	if t == nil {
		return types.StringNull()
	}
	return types.StringValue(stateTime(*t))
}

// stateTime renders t for the state: RFC 3339 with as many fractional
// digits as it carries, keeping its offset.
func stateTime(t time.Time) string { return t.Format(time.RFC3339Nano) }

// stringListValue is s as a list of strings, or null when s is nil. An empty,
// non-nil slice (the API sent []) is an empty list.
func stringListValue(s []string) types.List {
	if s == nil {
		return types.ListNull(types.StringType)
	}
	elems := make([]attr.Value, len(s))
	for i, v := range s {
		elems[i] = types.StringValue(v)
	}
	return types.ListValueMust(types.StringType, elems)
}

// stringMapValue is m as a map of strings, or null when m is empty.
func stringMapValue(m map[string]string) types.Map {
	if len(m) == 0 {
		return types.MapNull(types.StringType)
	}
	elems := make(map[string]attr.Value, len(m))
	for k, v := range m {
		elems[k] = types.StringValue(v)
	}
	return types.MapValueMust(types.StringType, elems)
}

// codeList lists values as Markdown code: `A`, `B`.
func codeList(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = "`" + v + "`"
	}
	return strings.Join(q, ", ")
}

// truncate caps s at n runes, for text from the server or the
// configuration quoted in a diagnostic.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// jsonValue is raw as a normalized JSON value, null when it is absent.
func jsonValue(raw json.RawMessage) jsontypes.Normalized {
	if len(raw) == 0 || string(raw) == "null" {
		return jsontypes.NewNormalizedNull()
	}
	return jsontypes.NewNormalizedValue(string(raw))
}

// keepOr is v when it is known and not null, otherwise answered.
func keepOr(v, answered types.String) types.String {
	if v.IsNull() || v.IsUnknown() {
		return answered
	}
	return v
}

// knownString is the value of s, or "" when it is null or unknown.
func knownString(s types.String) string {
	if s.IsNull() || s.IsUnknown() {
		return ""
	}
	return s.ValueString()
}

// maxShown caps a server-supplied string shown in a diagnostic, a progress
// message or a log line.
const maxShown = 200

// shown is a server-supplied string as it may be shown to a person: every
// control character (escape sequences that erase lines or plant links in a
// terminal), line break and bidirectional override escaped as Go does in
// %q, and at most maxShown characters.
func shown(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == maxShown {
			b.WriteString("…")
			break
		}
		n++
		switch {
		case r == utf8.RuneError:
			b.WriteString(`\ufffd`)
		case unsafeRune(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// escapedText is a server-supplied string that the provider only records
// and shows (a transaction hash the service follows from the chain), with
// every rune that must not reach a terminal escaped as shown does, whole:
// a plan or an output never carries an escape sequence from the service.
func escapedText(s *string) *string {
	if s == nil || !strings.ContainsFunc(*s, unsafeRune) {
		return s
	}
	var b strings.Builder
	for _, r := range *s {
		if unsafeRune(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	out := b.String()
	return &out
}

// unsafeRune reports whether r must not reach a terminal as it is: a
// control character, a line or paragraph separator, a bidirectional
// override, or a format character such as a zero-width space or joiner.
func unsafeRune(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || unicode.Is(unicode.Cf, r) ||
		r == '\u2028' || r == '\u2029'
}

// deref is *p, or the zero value ("", a zero time) for nil.
func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

// metadataDescription is the description of a metadata argument.
func metadataDescription(what string) string {
	return fmt.Sprintf("Client-specified key/value pairs attached to %s: at most %d pairs, each key and "+
		"value at most %d characters.", what, client.MaxMetadataPairs, client.MaxMetadataLength)
}

// aNoun is noun with its indefinite article: "a crypto withdrawal", "an
// internal transfer".
func aNoun(noun string) string {
	if noun != "" && strings.ContainsRune("aeiouAEIOU", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}

// atApply is v as messages show it: "(known after apply)" while the plan
// does not know it, as Terraform shows such a value.
func atApply(v types.String) string {
	if v.IsUnknown() {
		return "(known after apply)"
	}
	return v.ValueString()
}
