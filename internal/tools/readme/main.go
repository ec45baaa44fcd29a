// Command readme writes the part of README.md between its markers: every
// type the provider registers, read from the provider itself
// (internal/registry), each with a link to its page under docs/ and its
// line of purposes.go, and every guide of docs/guides, with its title and
// description. make generate runs it from the root of the repository after
// the docs are written; its test fails when README.md is not what it
// writes, or names no page of a type or a guide.
package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/platform/terraform-provider-platform/internal/provider"
	"github.com/platform/terraform-provider-platform/internal/registry"
)

// The markers around the part of README.md this command writes.
const (
	beginMarker = "<!-- BEGIN written by make generate (internal/tools/readme): the types of the provider's registry and the guides of docs/guides; edit internal/tools/readme/purposes.go or the guide's template, not here -->"
	endMarker   = "<!-- END written by make generate -->"
)

// kinds are the kinds of types in the order README.md lists them, with the
// heading of each and the folder of docs/ its pages are in.
var kinds = []struct {
	kind          registry.Kind
	heading, dir  string
	column, intro string
}{
	{registry.Resource, "Resources", "resources", "Resource", ""},
	{registry.DataSource, "Data sources", "data-sources", "Data source", ""},
	{registry.EphemeralResource, "Ephemeral resources", "ephemeral-resources", "Ephemeral resource",
		"Terraform 1.10 and later, and OpenTofu."},
	{registry.Action, "Actions", "actions", "Action",
		"Terraform 1.14 and later (`terraform apply -invoke=...`, or an `action_trigger`); OpenTofu has no actions."},
	{registry.ListResource, "List resources", "list-resources", "",
		"Terraform 1.14 and later: `terraform query` finds what exists, and `-generate-config-out` writes the configuration that imports it by identity; nothing is sent."},
}

// page is the path of t's page under docs/, from the root of the
// repository.
func page(t registry.Type) string {
	for _, k := range kinds {
		if k.kind == t.Kind {
			return "docs/" + k.dir + "/" + strings.TrimPrefix(t.Name, "platform_") + ".md"
		}
	}
	return ""
}

// link is how README.md links t: its name, to its page.
func link(t registry.Type) string {
	return fmt.Sprintf("[`%s`](%s)", t.Name, page(t))
}

// A guide is one page of docs/guides.
type guide struct {
	Page        string // docs/guides/<name>.md
	Title       string // page_title of its front matter
	Description string // description of its front matter
}

func (g guide) link() string { return fmt.Sprintf("[%s](%s)", g.Title, g.Page) }

// readGuides reads the front matter of every guide under root/docs/guides.
func readGuides(root string) ([]guide, error) {
	files, err := filepath.Glob(filepath.Join(root, "docs", "guides", "*.md"))
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	var out []guide
	for _, f := range files {
		b, err := os.ReadFile(f) //nolint:gosec // a guide of the repository's docs/guides
		if err != nil {
			return nil, err
		}
		g := guide{Page: "docs/guides/" + filepath.Base(f)}
		g.Title, g.Description, err = frontMatter(string(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", g.Page, err)
		}
		out = append(out, g)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no guide under %s", filepath.Join(root, "docs", "guides"))
	}
	return out, nil
}

// frontMatter returns the page_title and the description of a page's
// front matter, as tfplugindocs writes it: page_title: "..." and
// description: |- followed by indented lines.
func frontMatter(page string) (title, description string, err error) {
	lines := strings.Split(page, "\n")
	if len(lines) == 0 || lines[0] != "---" {
		return "", "", errors.New("no front matter")
	}
	var desc []string
	inDesc := false
	for _, line := range lines[1:] {
		if line == "---" {
			break
		}
		if inDesc {
			if strings.HasPrefix(line, "  ") {
				desc = append(desc, strings.TrimSpace(line))
				continue
			}
			inDesc = false
		}
		switch {
		case strings.HasPrefix(line, "page_title:"):
			title = strings.Trim(strings.TrimSpace(strings.TrimPrefix(line, "page_title:")), `"`)
		case strings.TrimSpace(line) == "description: |-":
			inDesc = true
		}
	}
	description = strings.Join(desc, " ")
	if title == "" || description == "" {
		return "", "", errors.New("front matter without page_title or description")
	}
	return title, description, nil
}

// section is what README.md has between its markers.
func section(types []registry.Type, guides []guide) (string, error) {
	var b strings.Builder
	var errs []error
	used := map[string]bool{}
	for _, k := range kinds {
		var of []registry.Type
		for _, t := range types {
			if t.Kind == k.kind {
				of = append(of, t)
			}
		}
		if len(of) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n### %s\n\n", k.heading)
		if k.intro != "" {
			fmt.Fprintf(&b, "%s\n\n", k.intro)
		}
		if k.column == "" {
			// One line for them all: they do one thing.
			names := make([]string, len(of))
			for i, t := range of {
				names[i] = link(t)
			}
			fmt.Fprintf(&b, "%s.\n", strings.Join(names, ", "))
			continue
		}
		fmt.Fprintf(&b, "| %s | What it does |\n|---|---|\n", k.column)
		for _, t := range of {
			purpose, ok := purposes[t.String()]
			if !ok {
				errs = append(errs, fmt.Errorf("%s is registered but has no line in internal/tools/readme/purposes.go: write what it does there, in one line", t))
			}
			used[t.String()] = true
			fmt.Fprintf(&b, "| %s | %s |\n", link(t), purpose)
		}
	}
	for _, key := range slices.Sorted(func(yield func(string) bool) {
		for k := range purposes {
			if !yield(k) {
				return
			}
		}
	}) {
		if !used[key] {
			errs = append(errs, fmt.Errorf("internal/tools/readme/purposes.go has a line for %s, which the provider does not register", key))
		}
	}
	fmt.Fprintf(&b, "\n### Guides\n\n")
	for _, g := range guides {
		fmt.Fprintf(&b, "- %s: %s\n", g.link(), g.Description)
	}
	return b.String(), errors.Join(errs...)
}

// splice returns readme with sec between its markers.
func splice(readme, sec string) (string, error) {
	i := strings.Index(readme, beginMarker)
	j := strings.Index(readme, endMarker)
	if i < 0 || j < i || strings.Count(readme, beginMarker) != 1 || strings.Count(readme, endMarker) != 1 {
		return "", fmt.Errorf("README.md needs one line %q and, after it, one line %q", beginMarker, endMarker)
	}
	return readme[:i+len(beginMarker)] + "\n" + sec + "\n" + readme[j:], nil
}

// missing returns one line per registered type whose page README.md does
// not link, and one per guide it does not link: nothing when it names them
// all.
func missing(readme string, types []registry.Type, guides []guide) []string {
	var out []string
	for _, t := range types {
		if !strings.Contains(readme, link(t)) {
			out = append(out, fmt.Sprintf("README.md does not name %s with a link to its page (%s)", t, link(t)))
		}
	}
	for _, g := range guides {
		if !strings.Contains(readme, "]("+g.Page+")") {
			out = append(out, fmt.Sprintf("README.md does not link the guide %q (%s)", g.Title, g.Page))
		}
	}
	return out
}

// pagesMissing returns one line per type whose page does not exist under
// root: the docs are written first (make generate).
func pagesMissing(root string, types []registry.Type) []string {
	var out []string
	for _, t := range types {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(page(t)))); err != nil {
			out = append(out, fmt.Sprintf("%s has no page %s: run make generate", t, page(t)))
		}
	}
	return out
}

// generate returns README.md under root as this command writes it.
func generate(root string) (got, want []byte, err error) {
	types := registry.Types(context.Background(), provider.New("docs")())
	if m := pagesMissing(root, types); len(m) > 0 {
		return nil, nil, errors.New(strings.Join(m, "\n"))
	}
	guides, err := readGuides(root)
	if err != nil {
		return nil, nil, err
	}
	sec, err := section(types, guides)
	if err != nil {
		return nil, nil, err
	}
	got, err = os.ReadFile(filepath.Join(root, "README.md")) //nolint:gosec // the repository's README.md
	if err != nil {
		return nil, nil, err
	}
	out, err := splice(string(got), sec)
	if err != nil {
		return nil, nil, err
	}
	return got, []byte(out), nil
}

func main() {
	got, want, err := generate(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "readme:", err)
		os.Exit(1)
	}
	if bytes.Equal(got, want) {
		return
	}
	// README.md exists: its mode is kept.
	if err := os.WriteFile("README.md", want, 0o600); err != nil {
		fmt.Fprintln(os.Stderr, "readme:", err)
		os.Exit(1)
	}
}
