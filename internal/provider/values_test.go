package provider

import (
	"strings"
	"testing"
)

// TestShownEscapesInvisibleCharacters: service text in a diagnostic shows
// control, bidirectional and zero-width characters escaped, never as they
// are, and an id holding one is not recorded.
func TestShownEscapesInvisibleCharacters(t *testing.T) {
	for _, r := range []rune{'\x1b', '\a', '\u202e', '\u2066', '\u200b', '\u200d', '\u2060', '\ufeff'} {
		got := shown("tx" + string(r) + "hash")
		if strings.ContainsRune(got, r) || !strings.HasPrefix(got, `tx\`) {
			t.Errorf("shown(%q) = %q, want the character escaped", "tx"+string(r)+"hash", got)
		}
		if unusableID("id"+string(r)) == "" {
			t.Errorf("the id %q is usable", "id"+string(r))
		}
	}
}
