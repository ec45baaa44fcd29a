package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// TestFiatAccountInPlaceTable checks that fiatAccountInPlace is the one
// statement of what changes in place: every path it names is an argument
// (or, with "*", an object of arguments) of the schema, and every
// argument's description says what the table says of it.
func TestFiatAccountInPlaceTable(t *testing.T) {
	s := fiatAccountSchema()
	leaves := map[string]string{}
	var walk func(attrs map[string]schema.Attribute, prefix string)
	walk = func(attrs map[string]schema.Attribute, prefix string) {
		for name, a := range attrs {
			p := joinName(prefix, name)
			if n, ok := a.(schema.SingleNestedAttribute); ok {
				walk(n.Attributes, p)
				continue
			}
			if !a.IsComputed() || a.IsOptional() {
				leaves[p] = a.GetMarkdownDescription()
			}
		}
	}
	walk(s.Attributes, "")
	for _, u := range fiatAccountInPlace {
		prefix, wildcard := strings.CutSuffix(u, "*")
		found := false
		for p := range leaves {
			if p == u || (wildcard && strings.HasPrefix(p, prefix)) {
				found = true
			}
		}
		if !found {
			t.Errorf("fiatAccountInPlace names %s, which is no argument of platform_fiat_account", u)
		}
	}
	inPlace := 0
	for p, desc := range leaves {
		update, replace := strings.HasSuffix(desc, faUpdateNote), strings.HasSuffix(desc, faReplaceNote)
		switch {
		case updatable(p) && !update:
			t.Errorf("%s changes in place, but its description does not say so: %q", p, desc)
		case !updatable(p) && !replace:
			t.Errorf("%s is replaced when it changes, but its description does not say so: %q", p, desc)
		}
		if update {
			inPlace++
		}
	}
	if inPlace < len(fiatAccountInPlace) {
		t.Errorf("%d arguments change in place, fewer than the table's %d entries", inPlace, len(fiatAccountInPlace))
	}
}
