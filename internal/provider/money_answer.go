package provider

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/shopspring/decimal"
)

// What the service confirms must be what was asked: the answer of a create
// (or the object a replay answer reports) is compared with the request
// before the provider records it.

// differ appends "field: requested r, answered a" to d when the two differ.
func differ(d []string, field, requested string, answered *string, equal func(a, b string) bool) []string {
	switch {
	case answered == nil:
		return append(d, fmt.Sprintf("%s: requested %q, answered none", field, requested))
	case !equal(requested, *answered):
		return append(d, fmt.Sprintf("%s: requested %q, answered %q", field, requested, shown(*answered)))
	}
	return d
}

func exactly(a, b string) bool { return a == b }

// decimalEqual compares two decimal strings by value, so that "0.50" and
// "0.5" are equal; an invalid one (or one too long) equals nothing and is
// never parsed.
func decimalEqual(a, b string) bool {
	if !plainDecimal(a) || !plainDecimal(b) {
		return false
	}
	x, err1 := decimal.NewFromString(a)
	y, err2 := decimal.NewFromString(b)
	return err1 == nil && err2 == nil && x.Equal(y)
}

// nonNegativeDecimal reports whether s is a valid decimal of at least zero,
// checked against the spec's pattern and the length cap before it is
// parsed.
func nonNegativeDecimal(s string) bool {
	if !plainDecimal(s) {
		return false
	}
	d, err := decimal.NewFromString(s)
	return err == nil && !d.IsNegative()
}

// maxIDLength bounds the ids the provider records: no id of the service is
// longer.
const maxIDLength = 256

// unusableID says why an answered id cannot be recorded (empty, too long,
// or holding control or invisible characters), or "".
func unusableID(id string) string {
	switch {
	case id == "":
		return "none"
	case len(id) > maxIDLength:
		return fmt.Sprintf("%q, longer than %d characters", shown(id), maxIDLength)
	case !utf8.ValidString(id) || strings.ContainsFunc(id, unsafeRune):
		return fmt.Sprintf("%q, which holds control or invisible characters", shown(id))
	}
	return ""
}

// metadataDifference describes how two metadata maps differ, or "".
func metadataDifference(requested, answered map[string]string) string {
	if maps.Equal(requested, answered) || (len(requested) == 0 && len(answered) == 0) {
		return ""
	}
	render := func(m map[string]string) string {
		keys := slices.Sorted(maps.Keys(m))
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%s=%q", k, m[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprintf("metadata: requested %s, answered %s", render(requested), render(answered))
}
