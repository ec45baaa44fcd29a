package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
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

// TestEscapedText: a transaction hash the service answers with an escape
// sequence, a bell or a bidirectional override reaches the state escaped;
// an ordinary one is kept as it is.
func TestEscapedText(t *testing.T) {
	for in, want := range map[string]string{
		"0xabc":                   "0xabc",
		"0xabc\x1b[2K\x07":        `0xabc\x1b[2K\a`,
		"\u202e0xabc":             `\u202e0xabc`,
		"line\nbreak\u200bhidden": `line\nbreak\u200bhidden`,
	} {
		if got := escapedText(&in); got == nil || *got != want {
			t.Errorf("escapedText(%q) = %v, want %q", in, got, want)
		}
	}
	if escapedText(nil) != nil {
		t.Error("escapedText(nil) is not nil")
	}
}

// TestANoun: the article goes with the sound of the noun.
func TestANoun(t *testing.T) {
	for noun, want := range map[string]string{
		"internal transfer":     "an internal transfer",
		"orchestration rule":    "an orchestration rule",
		"crypto withdrawal":     "a crypto withdrawal",
		"stablecoin conversion": "a stablecoin conversion",
	} {
		if got := aNoun(noun); got != want {
			t.Errorf("aNoun(%q) = %q, want %q", noun, got, want)
		}
	}
}

// TestRuleSummaryAtPlan: a rule whose profile is known only at apply is
// said so in messages, as Terraform shows such a value, not left blank.
func TestRuleSummaryAtPlan(t *testing.T) {
	a := orchestrationRuleArgs{ProfileID: types.StringUnknown(), SourceAsset: types.StringValue("USDC"),
		DestinationAsset: types.StringValue("USDG")}
	got := a.summary()
	if !strings.Contains(got, "for profile (known after apply)") || !strings.HasPrefix(got, "USDC deposits") {
		t.Errorf("summary = %q, want the profile known after apply", got)
	}
}
