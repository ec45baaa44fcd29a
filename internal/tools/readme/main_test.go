package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/platform/terraform-provider-platform/internal/provider"
	"github.com/platform/terraform-provider-platform/internal/registry"
)

var root = filepath.Join("..", "..", "..")

// TestReadmeCurrent: README.md is what make generate writes, so that it
// lists every type of the provider's registry and every guide.
func TestReadmeCurrent(t *testing.T) {
	got, want, err := generate(root)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("README.md between its markers is not what make generate writes: run make generate and commit")
	}
}

// TestReadmeNamesEveryType: README.md links the page of every type the
// provider registers (resources, data sources, ephemeral resources,
// actions, list resources) and every guide under docs/guides.
func TestReadmeNamesEveryType(t *testing.T) {
	types := registry.Types(t.Context(), provider.New("test")())
	counts := map[registry.Kind]int{}
	for _, ty := range types {
		counts[ty.Kind]++
	}
	for _, k := range []registry.Kind{registry.Resource, registry.DataSource, registry.EphemeralResource, registry.Action, registry.ListResource} {
		if counts[k] == 0 {
			t.Errorf("the provider registers no %s: the registry is not read", k)
		}
	}
	guides, err := readGuides(root)
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range missing(string(readme), types, guides) {
		t.Error(m)
	}
	for _, m := range pagesMissing(root, types) {
		t.Error(m)
	}
}

// TestReadmeCheckFails: the checks find a type or a guide README.md leaves
// out, a type without its line in purposes.go, and a line for a type the
// provider does not register.
func TestReadmeCheckFails(t *testing.T) {
	profile := registry.Type{Kind: registry.Resource, Name: "platform_profile"}
	rule := registry.Type{Kind: registry.Resource, Name: "platform_orchestration_rule"}
	list := registry.Type{Kind: registry.ListResource, Name: "platform_profile"}
	g := guide{Page: "docs/guides/standing-instructions-as-code.md", Title: "Standing instructions as code", Description: "d"}
	readme := "[`platform_profile`](docs/resources/profile.md) and [`platform_profile`](docs/list-resources/profile.md)"
	m := missing(readme, []registry.Type{profile, rule, list}, []guide{g})
	if len(m) != 2 || !strings.Contains(m[0], "resource platform_orchestration_rule") || !strings.Contains(m[1], g.Page) {
		t.Errorf("missing = %q, want the orchestration rule and the guide", m)
	}
	if m := missing(readme+" [x]("+g.Page+")", []registry.Type{profile, list}, []guide{g}); len(m) != 0 {
		t.Errorf("missing = %q, want nothing", m)
	}

	unknown := registry.Type{Kind: registry.Resource, Name: "platform_new_thing"}
	sec, err := section([]registry.Type{profile, unknown, list}, []guide{g})
	if err == nil || !strings.Contains(err.Error(), "resource platform_new_thing is registered but has no line") {
		t.Errorf("section of a type without a purpose: err = %v", err)
	}
	if err == nil || !strings.Contains(err.Error(), "has a line for resource platform_crypto_withdrawal, which the provider does not register") {
		t.Errorf("section without a registered type of purposes.go: err = %v", err)
	}
	for _, want := range []string{
		"| [`platform_profile`](docs/resources/profile.md) | " + purposes["resource platform_profile"] + " |",
		"[`platform_profile`](docs/list-resources/profile.md).",
		"- [Standing instructions as code](docs/guides/standing-instructions-as-code.md): d",
	} {
		if !strings.Contains(sec, want) {
			t.Errorf("section lacks %q:\n%s", want, sec)
		}
	}

	if _, err := splice("no markers", sec); err == nil {
		t.Error("splice into a README without markers: no error")
	}
	out, err := splice("a\n"+beginMarker+"\nold\n"+endMarker+"\nb\n", "new\n")
	if err != nil || out != "a\n"+beginMarker+"\nnew\n\n"+endMarker+"\nb\n" {
		t.Errorf("splice = %q, %v", out, err)
	}
}

// TestFrontMatter reads the title and description of a guide as
// tfplugindocs writes them.
func TestFrontMatter(t *testing.T) {
	title, desc, err := frontMatter("---\npage_title: \"A guide\"\nsubcategory: \"\"\ndescription: |-\n  One line,\n  and two.\n---\n\n# A guide\n")
	if err != nil || title != "A guide" || desc != "One line, and two." {
		t.Errorf("frontMatter = %q, %q, %v", title, desc, err)
	}
	if _, _, err := frontMatter("# no front matter\n"); err == nil {
		t.Error("a page without front matter: no error")
	}
}
