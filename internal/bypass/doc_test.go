package bypass

import (
	"go/ast"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The labels of an entry of the table of bypasses (doc.go), in order.
var tableLabels = []string{"Replaces:", "Why:", "Tests:", "Checked with:"}

// libraries are the modules whose behaviour the bypasses replace: the
// table says with which version of each it was last checked.
var libraries = []string{"terraform-plugin-framework", "terraform-plugin-go", "google.golang.org/grpc", "google.golang.org/protobuf", "go-plugin"}

// equivalenceDirs are the packages whose TestEquivalence* tests the table
// names (make bypass-check runs them).
var equivalenceDirs = []string{".", "../provider", "../tfmsgpack"}

// tableEntry is an entry of the table of bypasses in the package
// documentation: its heading "N. Name", and as plain text what follows it
// up to the next heading.
type tableEntry struct {
	title, text string
}

// tableEntries are the entries of the table of bypasses.
func tableEntries(t *testing.T) []tableEntry {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	if f.Doc == nil {
		t.Fatal("doc.go has no package documentation")
	}
	var entries []tableEntry
	text := func(content ...comment.Block) string {
		return strings.Join(strings.Fields(string(new(comment.Printer).Text(&comment.Doc{Content: content}))), " ")
	}
	numbered := regexp.MustCompile(`^\d+\. `)
	for _, block := range new(comment.Parser).Parse(f.Doc.Text()).Content {
		switch b := block.(type) {
		case *comment.Heading:
			if h := strings.TrimPrefix(text(b), "# "); numbered.MatchString(h) {
				entries = append(entries, tableEntry{title: h})
			}
		case *comment.Paragraph:
			if len(entries) > 0 {
				entries[len(entries)-1].text += " " + text(b)
			}
		case *comment.List:
			if len(entries) > 0 {
				for _, item := range b.Items {
					entries[len(entries)-1].text += " " + text(item.Content...)
				}
			}
		}
	}
	return entries
}

// field is the text of an entry after label, up to the next label.
func field(entry, label string) string {
	_, after, ok := strings.Cut(entry, label)
	if !ok {
		return ""
	}
	for _, l := range tableLabels {
		if i := strings.Index(after, l); i >= 0 {
			after = after[:i]
		}
	}
	return strings.TrimSpace(after)
}

// equivalenceTests are the TestEquivalence* functions of the _test.go
// files of dir.
func equivalenceTests(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, file := range files {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "TestEquivalence") {
				names = append(names, fn.Name.Name)
			}
		}
	}
	return names
}

// requiredVersions are the versions go.mod requires, by module path.
func requiredVersions(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	versions := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^(?:require\s+)?\s*([^\s()]+)\s+(v\S+)`).FindAllStringSubmatch(string(b), -1) {
		versions[m[1]] = m[2]
	}
	return versions
}

// TestBypassTable checks the table of bypasses in the package
// documentation (doc.go): each entry says what it replaces, why, its
// equivalence tests and the versions it was last checked with; every
// TestEquivalence* test of internal/bypass, internal/provider and
// internal/tfmsgpack is named in it, and every test it names exists; the
// versions are those go.mod requires; every file of the package is named.
func TestBypassTable(t *testing.T) {
	entries := tableEntries(t)
	if len(entries) == 0 {
		t.Fatal("doc.go has no table of bypasses (a heading \"N. Name\" and a list per bypass)")
	}
	named := map[string]bool{}
	checked := map[string]bool{}
	versions := requiredVersions(t)
	testName := regexp.MustCompile(`\bTestEquivalence\w+`)
	version := regexp.MustCompile(`([\w./-]+) (v\d+\.\d+\.\d+(?:[-+][\w.]*\w)?)`)
	var all []string
	for _, entry := range entries {
		title, e := entry.title, entry.text
		all = append(all, e)
		at := 0
		for _, label := range tableLabels {
			i := strings.Index(e, label)
			if i < at || field(e, label) == "" {
				t.Errorf("entry %q: no %s after the previous label (each entry says %s)", title, label, strings.Join(tableLabels, ", "))
			}
			at = max(i, at)
		}
		tests := testName.FindAllString(field(e, "Tests:"), -1)
		if len(tests) == 0 {
			t.Errorf("entry %q names no TestEquivalence test", title)
		}
		for _, n := range tests {
			named[n] = true
		}
		libs := version.FindAllStringSubmatch(field(e, "Checked with:"), -1)
		if len(libs) == 0 {
			t.Errorf("entry %q names no library version", title)
		}
		for _, m := range libs {
			lib, v := m[1], m[2]
			var paths []string
			for path := range versions {
				if path == lib || strings.HasSuffix(path, "/"+lib) {
					paths = append(paths, path)
				}
			}
			switch {
			case len(paths) != 1:
				t.Errorf("entry %q: %s is not one module of go.mod (%v)", title, lib, paths)
			case versions[paths[0]] != v:
				t.Errorf("entry %q was last checked with %s %s, and go.mod requires %s: run make bypass-check, then update the table",
					title, lib, v, versions[paths[0]])
			}
			checked[lib] = true
		}
	}
	for _, lib := range libraries {
		if !checked[lib] {
			t.Errorf("no entry says with which version of %s it was last checked", lib)
		}
	}
	exist := map[string]bool{}
	for _, dir := range equivalenceDirs {
		for _, n := range equivalenceTests(t, dir) {
			exist[n] = true
			if !named[n] {
				t.Errorf("%s (%s) is not named in the table of doc.go: add it to the Tests of its bypass", n, filepath.Clean(filepath.Join("internal/bypass", dir)))
			}
		}
	}
	for n := range named {
		if !exist[n] {
			t.Errorf("the table of doc.go names %s, which is no test of %v", n, equivalenceDirs)
		}
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(all, "\n")
	for _, f := range files {
		if f != "doc.go" && !strings.HasSuffix(f, "_test.go") && !strings.Contains(text, f) {
			t.Errorf("%s is named in no entry of the table of doc.go", f)
		}
	}
	if len(exist) < 10 || !exist["TestEquivalenceUnchangedPlan"] {
		t.Errorf("found %d equivalence tests: not the packages this test expects", len(exist))
	}
}
