package provider

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// repoRoot is the repository's root, from the package's directory.
var repoRoot = filepath.Join("..", "..")

// readDoc is a file of the repository.
func readDoc(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fencedBlock is a fenced code block of a Markdown document, as
// CommonMark renders it: info is the word after the opening fence, body
// its lines, line the line of the opening fence (from 1).
type fencedBlock struct {
	info, body string
	line       int
	closed     bool
}

// fenceLine matches an opening or closing fence: at most three spaces,
// then three or more backticks or tildes, then the info string.
var fenceLine = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})(.*)$")

// fencedBlocks are the fenced code blocks of doc, by the rules of
// CommonMark: a block closes only at a line that is a fence of the same
// character, at least as long as the opening one, with nothing after it
// but spaces. A fence glued to code ("}```") closes nothing: the block
// runs on.
func fencedBlocks(doc string) []fencedBlock {
	var out []fencedBlock
	var open *fencedBlock
	var fence string
	var body []string
	for i, line := range strings.Split(doc, "\n") {
		m := fenceLine.FindStringSubmatch(line)
		switch {
		case open == nil && m != nil && (m[1][0] != '`' || !strings.Contains(m[2], "`")):
			open = &fencedBlock{line: i + 1}
			if info := strings.Fields(m[2]); len(info) > 0 {
				open.info = info[0]
			}
			fence, body = m[1], nil
		case open == nil:
		case m != nil && m[1][0] == fence[0] && len(m[1]) >= len(fence) && strings.TrimSpace(m[2]) == "":
			open.body, open.closed = strings.Join(body, "\n")+"\n", true
			out = append(out, *open)
			open = nil
		default:
			body = append(body, line)
		}
	}
	if open != nil {
		open.body = strings.Join(body, "\n")
		out = append(out, *open)
	}
	return out
}

// showsCode reports why doc does not render code as one closed code block
// of language lang, or "". Every block of doc must be closed.
func showsCode(doc, lang, code string) string {
	found := false
	for _, b := range fencedBlocks(doc) {
		if !b.closed {
			return fmt.Sprintf("the code block opened at line %d is never closed: everything after it renders as code", b.line)
		}
		if b.info == lang && b.body == code {
			found = true
		}
	}
	if !found {
		return "no " + lang + " code block holds exactly the code"
	}
	return ""
}

// TestContributingShowsTheDeclaration checks that CONTRIBUTING.md renders
// the declaration of platform_deposit_address as the code has it, as one
// code block whose fences close, with the recipe's steps after it as text.
func TestContributingShowsTheDeclaration(t *testing.T) {
	src, err := os.ReadFile("deposit_address_resource.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := readDoc(t, "CONTRIBUTING.md")
	code := string(src)
	start := strings.Index(code, "func NewDepositAddressResource()")
	decl := strings.Index(code, "var depositAddressType")
	if start < 0 || decl < 0 {
		t.Fatal("deposit_address_resource.go has no declaration")
	}
	end := decl + strings.Index(code[decl:], "\n}\n") + 3
	if why := showsCode(doc, "go", code[start:end]); why != "" {
		t.Errorf("CONTRIBUTING.md does not show the declaration of platform_deposit_address as it is (%s):\n%s",
			why, code[start:end])
	}
	// A flow's argument is one row, shown as the code has it.
	flowSrc, err := os.ReadFile("crypto_withdrawal_resource.go")
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(flowSrc), "\t\t{name: \"memo\"")
	j := strings.Index(string(flowSrc[max(i, 0):]), "t.Memo }},\n")
	if i < 0 || j < 0 {
		t.Fatal("crypto_withdrawal_resource.go has no memo row")
	}
	row := string(flowSrc[i : i+j+len("t.Memo }},\n")])
	if why := showsCode(doc, "go", row); why != "" {
		t.Errorf("CONTRIBUTING.md does not show the crypto withdrawal's memo row as it is (%s):\n%s", why, row)
	}
	// The six steps of the recipe are text, not code.
	for _, b := range fencedBlocks(doc) {
		if strings.Contains(b.body, "1. **Words and objects**") {
			t.Errorf("the recipe's steps render as code, in the block opened at line %d", b.line)
		}
	}
	if !strings.Contains(doc, "\n1. **Words and objects**") || !strings.Contains(doc, "\n6. **Tests**") {
		t.Error("CONTRIBUTING.md has not the six steps of the recipe")
	}
}

// The check of the fences fails on a glued closing fence, and on a block
// that is not the code, and passes on the code rendered as it is.
func TestContributingFenceCheckFails(t *testing.T) {
	code := "var x = 1\n\nfunc f() {\n}\n"
	for _, c := range []struct {
		name, doc string
		ok        bool
	}{
		{"closed", "Text.\n\n```go\n" + code + "```\n\n1. **Step** text.\n", true},
		{"closed by a longer fence", "````go\n" + code + "`````\n", true},
		{"glued", "Text.\n\n```go\n" + strings.TrimSuffix(code, "\n") + "```\n\n1. **Step** text.\n", false},
		{"glued, then another block", "```go\n" + strings.TrimSuffix(code, "\n") + "```\n\n1. Step.\n\n```\nmore\n```\n", false},
		{"another language", "```hcl\n" + code + "```\n", false},
		{"indented four spaces", "    ```go\n" + code + "    ```\n", false},
		{"a fence with an info string does not close", "```go\n" + code + "```go\n", false},
	} {
		if why := showsCode(c.doc, "go", code); (why == "") != c.ok {
			t.Errorf("%s: showsCode says %q, want ok %v", c.name, why, c.ok)
		}
	}
	if b := fencedBlocks("```go\nx}```\n\n1. Step\n"); len(b) != 1 || b[0].closed || !strings.Contains(b[0].body, "1. Step") {
		t.Errorf("a glued fence: blocks %+v, want one block running to the end", b)
	}
}

// layoutRows are the rows of the file table of CONTRIBUTING.md: the names
// and patterns of its first column.
func layoutRows(t *testing.T, doc string) [][]string {
	t.Helper()
	i := strings.Index(doc, "\n| File | Holds |")
	if i < 0 {
		t.Fatal("CONTRIBUTING.md has no file table (| File | Holds |)")
	}
	var rows [][]string
	for _, line := range strings.Split(doc[i+1:], "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		cell := strings.Split(line, "|")[1]
		var names []string
		for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(cell, -1) {
			names = append(names, m[1])
		}
		rows = append(rows, names)
	}
	return rows
}

// TestLayoutIsContributing holds the files of internal/provider to the
// table of CONTRIBUTING.md: every file matches a row, every file a row
// names exists, and every pattern matches a file.
func TestLayoutIsContributing(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") {
			files = append(files, e.Name())
		}
	}
	for _, why := range layoutProblems(layoutRows(t, readDoc(t, "CONTRIBUTING.md")), files) {
		t.Error(why)
	}
}

// layoutProblems says where files and the table's rows disagree.
func layoutProblems(rows [][]string, files []string) []string {
	var out []string
	matches := func(pattern, file string) bool {
		ok, _ := path.Match(pattern, file)
		return ok
	}
	for _, f := range files {
		if !slices.ContainsFunc(rows, func(row []string) bool {
			return slices.ContainsFunc(row, func(p string) bool { return matches(p, f) })
		}) {
			out = append(out, f+" is in no row of the file table of CONTRIBUTING.md: give it a row, or name it for what it holds")
		}
	}
	for _, row := range rows {
		for _, p := range row {
			if !strings.HasSuffix(p, ".go") {
				continue
			}
			if slices.ContainsFunc(files, func(f string) bool { return matches(p, f) }) {
				continue
			}
			out = append(out, "the file table of CONTRIBUTING.md names "+p+", which matches no file of internal/provider")
		}
	}
	return out
}

// The layout check fails on a file no row names and on a row that names
// no file.
func TestLayoutCheckFails(t *testing.T) {
	rows := [][]string{{"provider.go"}, {"*_resource.go"}, {"money_answer.go"}}
	for _, c := range []struct {
		name  string
		files []string
		want  string
	}{
		{"as described", []string{"provider.go", "a_resource.go", "money_answer.go"}, ""},
		{"unnamed file", []string{"provider.go", "a_resource.go", "money_answer.go", "helpers.go"}, "helpers.go is in no row"},
		{"named file missing", []string{"a_resource.go", "money_answer.go"}, "names provider.go, which matches no file"},
		{"pattern matches nothing", []string{"provider.go", "money_answer.go"}, "names *_resource.go"},
	} {
		got := strings.Join(layoutProblems(rows, c.files), "\n")
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// anchor is the GitHub anchor of a Markdown heading.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || ('a' <= r && r <= 'z') || ('0' <= r && r <= '9'):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestContributingLinks: every link to CONTRIBUTING.md and the pages of
// docs/contributing, from the documents of the repository, names a file
// that exists and a heading it has.
func TestContributingLinks(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join(repoRoot, "docs", "contributing", "*.md"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no pages in docs/contributing: %v", err)
	}
	docs := []string{"CONTRIBUTING.md", "README.md", "CHANGELOG.md", filepath.Join("docs", "index.md")}
	for _, p := range pages {
		rel, _ := filepath.Rel(repoRoot, p)
		docs = append(docs, rel)
	}
	tmpls, _ := filepath.Glob(filepath.Join(repoRoot, "templates", "*", "*.tmpl"))
	for _, p := range tmpls {
		rel, _ := filepath.Rel(repoRoot, p)
		docs = append(docs, rel)
	}
	link := regexp.MustCompile(`\]\(([^)#\s]*(?:CONTRIBUTING\.md|contributing/[a-z-]*\.md|contributing/?))(#[^)\s]*)?\)`)
	heading := regexp.MustCompile(`(?m)^#{1,6} (.+)$`)
	for _, name := range docs {
		for _, m := range link.FindAllStringSubmatch(readDoc(t, name), -1) {
			target := filepath.Join(filepath.Dir(name), m[1])
			b, err := os.ReadFile(filepath.Join(repoRoot, target))
			if st, serr := os.Stat(filepath.Join(repoRoot, target)); serr == nil && st.IsDir() {
				continue
			}
			if err != nil {
				t.Errorf("%s links to %s, which does not exist", name, m[1])
				continue
			}
			if m[2] == "" {
				continue
			}
			found := false
			for _, h := range heading.FindAllStringSubmatch(string(b), -1) {
				found = found || "#"+anchor(h[1]) == m[2]
			}
			if !found {
				t.Errorf("%s links to %s%s, which has no such heading", name, m[1], m[2])
			}
		}
	}
}

// contributingLimits are the bounds of CONTRIBUTING.md: a page read in one
// sitting, in sentences short enough to hold.
const (
	contributingMaxLines         = 250
	contributingMaxSentenceWords = 40
)

// TestContributingIsShort: CONTRIBUTING.md stays under its line count, and
// none of its sentences (code blocks and table rows aside) runs over its
// word count.
func TestContributingIsShort(t *testing.T) {
	doc := readDoc(t, "CONTRIBUTING.md")
	for _, why := range contributingTooLong(doc) {
		t.Error(why)
	}
}

// contributingTooLong says where doc is longer than its limits.
func contributingTooLong(doc string) []string {
	var out []string
	if n := strings.Count(doc, "\n"); n > contributingMaxLines {
		out = append(out, fmt.Sprintf("CONTRIBUTING.md has %d lines, more than %d: move detail to docs/contributing",
			n, contributingMaxLines))
	}
	for _, s := range proseSentences(doc) {
		if n := len(strings.Fields(s)); n > contributingMaxSentenceWords {
			out = append(out, fmt.Sprintf("a sentence of %d words (at most %d): %q", n, contributingMaxSentenceWords, s))
		}
	}
	return out
}

// sentenceEnd ends a sentence: a full stop, a question or exclamation
// mark, or a colon or semicolon, before white space.
var sentenceEnd = regexp.MustCompile(`[.!?:;]\s+`)

// proseSentences are the sentences of doc's prose: fenced code and table
// rows are left out, and each paragraph or list item ends its sentence.
func proseSentences(doc string) []string {
	var paragraphs []string
	var cur []string
	inFence := false
	flush := func() {
		if len(cur) > 0 {
			paragraphs = append(paragraphs, strings.Join(cur, " "))
			cur = nil
		}
	}
	for _, line := range strings.Split(doc, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			inFence = !inFence
			flush()
			continue
		}
		switch {
		case inFence:
		case trimmed == "", strings.HasPrefix(trimmed, "|"), strings.HasPrefix(trimmed, "#"):
			flush()
		case strings.HasPrefix(trimmed, "- "), len(trimmed) > 2 && trimmed[0] >= '0' && trimmed[0] <= '9' && strings.HasPrefix(trimmed[1:], ". "):
			flush()
			cur = append(cur, trimmed)
		default:
			cur = append(cur, trimmed)
		}
	}
	flush()
	var out []string
	for _, p := range paragraphs {
		for _, s := range sentenceEnd.Split(p+" ", -1) {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// The length check fails on a long page and on a long sentence, and not on
// long code or a long table row.
func TestContributingIsShortFails(t *testing.T) {
	long := strings.Repeat("word ", contributingMaxSentenceWords+1)
	for _, c := range []struct {
		name, doc string
		want      string
	}{
		{"short", "# Title\n\nA short sentence. Another one.\n", ""},
		{"long sentence", "Text.\n\n" + long + "end.\n", "a sentence of 42 words"},
		{"long sentence over two lines", "Some " + long + "\nend.\n", "a sentence of 43 words"},
		{"long code", "```go\n" + long + "\n```\n", ""},
		{"long table row", "| a | " + long + " |\n", ""},
		{"many lines", strings.Repeat("Line.\n", contributingMaxLines+1), "lines, more than"},
	} {
		got := strings.Join(contributingTooLong(c.doc), "\n")
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
