package provider

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/platform/terraform-provider-platform/internal/emulator"
	"github.com/platform/terraform-provider-platform/internal/emulatorcli"
)

// The guides (docs/guides/*.md, generated from templates/guides) are tested
// as a reader copies them: the HCL snippets of a guide (```terraform, ```tf
// and ```hcl) together make one configuration, which must open with its
// terraform { required_providers } block naming platform/platform and
// declare every variable it uses; a snippet of Terraform's own test
// language (run blocks) is its test file, and a CLI configuration
// (provider_installation) must parse. `terraform validate` checks the
// configuration and its tests with the provider built as a binary; the
// guides of guideRuns are also applied against the emulator, as the guide
// walks through them. The examples under examples/ are tested as written by
// TestAccExamples and TestAccEmulatorExample.

// guidesRoot is the directory of the generated guides.
var guidesRoot = filepath.Join("..", "..", "docs", "guides")

// snippetKind is what a snippet of a guide is.
type snippetKind int

const (
	snippetConfig    snippetKind = iota // part of the guide's configuration
	snippetTest                         // a test file of `terraform test`
	snippetCLIConfig                    // a CLI configuration file
	snippetShell                        // a shell recipe (```sh, ```shell, ```bash)
)

// guideSnippet is one HCL snippet or shell recipe of a page.
type guideSnippet struct {
	line int // of its opening fence, from 1
	kind snippetKind
	text string
	// notRun is the reason of the marker <!-- snippet: not run: reason -->
	// on the line before the block: a snippet that cannot run here.
	notRun string
}

// snippetMarker is a marker the tests understand, on the last non-blank
// line before a block.
var snippetMarker = regexp.MustCompile(`^\s*<!--\s*snippet:\s*(.*?)\s*-->\s*$`)

// fencePattern matches the opening or closing fence of a code block, list
// items' indented ones included, and its info string.
var fencePattern = regexp.MustCompile("^\\s*```\\s*([A-Za-z0-9_-]*)\\s*$")

// guideSnippets extracts the HCL snippets of a guide's markdown.
func guideSnippets(markdown string) ([]guideSnippet, error) {
	var out []guideSnippet
	var cur *guideSnippet
	var body []string
	var indent, marker string
	markerLine := 0
	inBlock := false
	for i, line := range strings.Split(markdown, "\n") {
		m := fencePattern.FindStringSubmatch(line)
		switch {
		case m == nil && inBlock && cur != nil:
			body = append(body, strings.TrimPrefix(line, indent))
		case m == nil && inBlock:
		case m == nil:
			if mm := snippetMarker.FindStringSubmatch(line); mm != nil {
				marker, markerLine = mm[1], i+1
			} else if strings.TrimSpace(line) != "" {
				if marker != "" {
					return out, fmt.Errorf("line %d: the marker <!-- snippet: %s --> is not just before a block", markerLine, marker)
				}
			}
		case !inBlock:
			inBlock = true
			indent = line[:len(line)-len(strings.TrimLeft(line, " \t"))]
			switch m[1] {
			case "terraform", "tf", "hcl":
				cur, body = &guideSnippet{line: i + 1}, nil
			case "sh", "shell", "bash":
				cur, body = &guideSnippet{line: i + 1, kind: snippetShell}, nil
			}
			if marker != "" {
				reason, ok := strings.CutPrefix(marker, "not run:")
				switch {
				case !ok:
					return out, fmt.Errorf("line %d: unknown marker <!-- snippet: %s -->: want <!-- snippet: not run: reason -->", markerLine, marker)
				case strings.TrimSpace(reason) == "":
					return out, fmt.Errorf("line %d: a snippet not run must say why", markerLine)
				case cur == nil:
					return out, fmt.Errorf("line %d: the marker is before a block of %q, which is never run", markerLine, m[1])
				}
				cur.notRun = strings.TrimSpace(reason)
				marker = ""
			}
		default:
			inBlock = false
			if cur != nil {
				cur.text = strings.Join(body, "\n") + "\n"
				if cur.kind != snippetShell {
					cur.kind = classifySnippet(cur.text)
				}
				out = append(out, *cur)
				cur = nil
			}
		}
	}
	if inBlock {
		return out, errors.New("a code block is never closed")
	}
	if marker != "" {
		return out, fmt.Errorf("line %d: the marker <!-- snippet: %s --> is before no block", markerLine, marker)
	}
	return out, nil
}

var (
	runBlockPattern     = regexp.MustCompile(`(?m)^run\s+"`)
	cliConfigPattern    = regexp.MustCompile(`(?m)^(provider_installation|credentials|host|plugin_cache_dir)\b`)
	terraformBlockStart = regexp.MustCompile(`^(\s*(#|//)[^\n]*\n|\s*\n)*terraform\s*\{`)
)

func classifySnippet(text string) snippetKind {
	switch {
	case cliConfigPattern.MatchString(text):
		return snippetCLIConfig
	case runBlockPattern.MatchString(text):
		return snippetTest
	}
	return snippetConfig
}

// guideProblems are what a guide's snippets show wrong without running a
// CLI: a snippet that does not parse as HCL, a configuration whose first
// snippet is not its terraform block with required_providers naming
// platform/platform, or snippets of a test file without a configuration.
func guideProblems(name string, snippets []guideSnippet) []string {
	var problems []string
	configs := 0
	for _, s := range snippets {
		if s.kind == snippetShell || s.notRun != "" {
			continue
		}
		file := fmt.Sprintf("%s line %d", name, s.line)
		f, diags := hclsyntax.ParseConfig([]byte(s.text), file, hcl.InitialPos)
		if diags.HasErrors() {
			problems = append(problems, fmt.Sprintf("the snippet at %s does not parse: %s", file, diags.Error()))
			continue
		}
		if s.kind != snippetConfig {
			continue
		}
		configs++
		if configs == 1 && (!terraformBlockStart.MatchString(s.text) || !requiresPlatform(f.Body)) {
			problems = append(problems, fmt.Sprintf("the configuration of %s does not open with its terraform block: "+
				"its first snippet (line %d) must start with terraform { required_providers { platform = { source = "+
				"\"platform/platform\" } } }, or init looks for hashicorp/platform", name, s.line))
		}
	}
	for _, s := range snippets {
		if s.kind == snippetTest && configs == 0 {
			problems = append(problems, fmt.Sprintf("%s has a test file (line %d) and no configuration to test", name, s.line))
		}
	}
	return problems
}

// requiresPlatform reports whether a body holds a terraform block whose
// required_providers names platform with the source platform/platform.
func requiresPlatform(body hcl.Body) bool {
	b, ok := body.(*hclsyntax.Body)
	if !ok {
		return false
	}
	for _, tf := range b.Blocks {
		if tf.Type != "terraform" {
			continue
		}
		for _, rp := range tf.Body.Blocks {
			if rp.Type != "required_providers" {
				continue
			}
			attr, ok := rp.Body.Attributes["platform"]
			if !ok {
				continue
			}
			v, diags := attr.Expr.Value(nil)
			if diags.HasErrors() || !v.Type().IsObjectType() || !v.Type().HasAttribute("source") {
				continue
			}
			if src := v.GetAttr("source"); src.IsKnown() && !src.IsNull() && src.AsString() == "platform/platform" {
				return true
			}
		}
	}
	return false
}

// writeGuideConfig writes a guide's configuration snippets into dir, each
// a file of its own (snippet_NN.tf), and its test snippets under tests/.
func writeGuideConfig(t *testing.T, dir string, snippets []guideSnippet) {
	t.Helper()
	for i, s := range snippets {
		if s.notRun != "" {
			continue
		}
		var file string
		switch s.kind {
		case snippetConfig:
			file = filepath.Join(dir, fmt.Sprintf("snippet_%02d.tf", i+1))
		case snippetTest:
			file = filepath.Join(dir, "tests", fmt.Sprintf("snippet_%02d.tftest.hcl", i+1))
		default:
			continue
		}
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(s.text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// guideRun applies a guide's configuration against the emulator as the
// guide walks a reader through it, in w, whose files are the guide's.
type guideRun func(t *testing.T, w *cliWorkdir, emu *emulator.Server)

// guideRuns are the guides whose configuration is applied, by file name.
var guideRuns = map[string]guideRun{
	// Link the account, let the review approve it, pay it under the
	// guard; the next plan sends nothing.
	"paying-out-to-a-bank-account.md": func(t *testing.T, w *cliWorkdir, emu *emulator.Server) {
		w.env = append(w.env, "TF_VAR_payroll_account_number=12345678")
		w.mustRun(0, "apply", "-auto-approve", "-input=false", "-target=platform_fiat_account.payroll")
		made := emu.MadeFiatAccounts()
		if len(made) != 1 {
			t.Fatalf("the first apply made %d fiat accounts, want 1", len(made))
		}
		if !emu.SetFiatAccountStatus(made[0].ID, "APPROVED") {
			t.Fatalf("the emulator does not know account %s", made[0].ID)
		}
		w.mustRun(0, "apply", "-auto-approve", "-input=false")
		var sent []string
		for _, tr := range emu.Transfers() {
			sent = append(sent, tr.Amount+" "+tr.Asset)
		}
		if len(sent) != 1 || sent[0] != "18500.00 USD" {
			t.Errorf("the emulator holds transfers %v, want the payout of 18500.00 USD", sent)
		}
		w.mustRun(0, "plan", "-detailed-exitcode", "-input=false")
	},
	// The first plan stops at the rule, its address not approved; the
	// profile and the address first, the review, then the rule: one
	// rule, routing to the treasury; the next plan writes nothing.
	"standing-instructions-as-code.md": func(t *testing.T, w *cliWorkdir, emu *emulator.Server) {
		mustContain(t, "plan", flatOutput(w.mustRun(1, "plan", "-input=false").output()),
			"approved_destinations_only refuses this platform_orchestration_rule")
		w.mustRun(0, "apply", "-auto-approve", "-input=false", "-target=platform_profile.inbound",
			"-target=platform_crypto_destination_address.treasury")
		book := emu.CryptoDestinationAddresses()
		if len(book) != 1 || !emu.SetCryptoDestinationAddressStatus(book[0].ID, "APPROVED") {
			t.Fatalf("the first apply made address-book entries %v, want the treasury's", book)
		}
		w.mustRun(0, "apply", "-auto-approve", "-input=false")
		rules := emu.OrchestrationRules()
		if len(rules) != 1 || rules[0].Destination == nil || rules[0].SourceAsset != "USDC" || rules[0].DestinationAsset != "USDG" {
			t.Fatalf("the emulator holds rules %+v, want the one sweep of USDC as USDG", rules)
		}
		if !emu.SetOrchestrationRuleStatus(rules[0].ID, "ACTIVE") {
			t.Fatalf("the emulator does not know rule %s", rules[0].ID)
		}
		w.mustRun(0, "plan", "-detailed-exitcode", "-input=false")
	},
}

// guideFiles lists the guides.
func guideFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(guidesRoot, "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no guides in %s (%v)", guidesRoot, err)
	}
	sort.Strings(files)
	return files
}

// providerPage is the provider's page (docs/index.md, generated from
// templates/index.md.tmpl): its HCL snippets are examples each of its own,
// and its recipes run in a clone of the repository.
var providerPage = filepath.Join("..", "..", "docs", "index.md")

// snippetPages are the pages whose snippets and recipes are tested: the
// provider page and the guides.
func snippetPages(t *testing.T) []string {
	t.Helper()
	return append([]string{providerPage}, guideFiles(t)...)
}

// pageSnippets reads the snippets of a page.
func pageSnippets(t *testing.T, file string) []guideSnippet {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	snippets, err := guideSnippets(string(b))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return snippets
}

// maxNotRun is how many snippets of all the pages may be marked not run:
// the exceptions stay few.
const maxNotRun = 6

// Every page's snippets parse, each guide with a configuration opens with
// its terraform block, the provider page's examples each parse, and every
// shell recipe is run or says why not.
func TestGuideSnippets_parse(t *testing.T) {
	notRun, recipes := 0, 0
	for _, file := range snippetPages(t) {
		snippets := pageSnippets(t, file)
		for _, p := range guideProblems(filepath.Base(file), snippets) {
			t.Error(p)
		}
		for _, s := range snippets {
			switch {
			case s.notRun != "":
				notRun++
			case s.kind == snippetShell:
				recipes++
			}
		}
	}
	if notRun > maxNotRun {
		t.Errorf("%d snippets are marked not run, more than %d: run them", notRun, maxNotRun)
	}
	if recipes < 8 {
		t.Errorf("%d shell recipes found, want those of every page", recipes)
	}
	for name := range guideRuns {
		if _, err := os.Stat(filepath.Join(guidesRoot, name)); err != nil {
			t.Errorf("guideRuns names %s, which is not a guide: %v", name, err)
		}
	}
	for name := range recipeEnvironment {
		if _, err := os.Stat(filepath.Join(guidesRoot, name)); err != nil {
			t.Errorf("recipeEnvironment names %s, which is not a guide: %v", name, err)
		}
	}
}

// The static checks catch a guide without its terraform block (init would
// look for hashicorp/platform) and a snippet that does not parse; the
// extraction reads list items' indented blocks and shell recipes, leaves
// plain output blocks out, and reads the marker of a snippet not run, which
// must be just before a block that runs and say why.
func TestGuideSnippets_brokenGuideFails(t *testing.T) {
	guide := "# A guide\n\n```terraform\nresource \"platform_fiat_account\" \"a\" {\n}\n```\n\n" +
		"```\nPlan: 1 to add\n```\n\n- item\n\n  ```hcl\n  output \"x\" {\n    value = \n  }\n  ```\n\n" +
		"```sh\nfalse\n```\n\n<!-- snippet: not run: needs the internet -->\n\n```bash\ncurl https://example.com\n```\n"
	snippets, err := guideSnippets(guide)
	if err != nil {
		t.Fatal(err)
	}
	if len(snippets) != 4 || snippets[0].line != 3 || snippets[1].line != 14 ||
		!strings.HasPrefix(snippets[1].text, "output") || snippets[2].kind != snippetShell || snippets[2].text != "false\n" ||
		snippets[2].notRun != "" || snippets[3].kind != snippetShell || snippets[3].notRun != "needs the internet" {
		t.Fatalf("snippets %+v, want the terraform block at line 3, the hcl block at line 14, unindented, and two recipes, the second not run", snippets)
	}
	problems := strings.Join(guideProblems("broken.md", snippets), "\n")
	for _, want := range []string{
		"the configuration of broken.md does not open with its terraform block: its first snippet (line 3)",
		"the snippet at broken.md line 14 does not parse",
	} {
		if !strings.Contains(problems, want) {
			t.Errorf("problems lack %q:\n%s", want, problems)
		}
	}
	good := "```terraform\n# The configuration.\nterraform {\n  required_providers {\n    platform = {\n      source  = \"platform/platform\"\n" +
		"      version = \"~> 0.2\"\n    }\n  }\n}\n```\n\n```hcl\nprovider_installation {\n  direct {}\n}\n```\n"
	snippets, err = guideSnippets(good)
	if err != nil {
		t.Fatal(err)
	}
	if p := guideProblems("good.md", snippets); len(p) != 0 || len(snippets) != 2 || snippets[1].kind != snippetCLIConfig {
		t.Errorf("a good guide: problems %q, snippets %+v", p, snippets)
	}
	for md, want := range map[string]string{
		"```terraform\nterraform {}\n":                                     "a code block is never closed",
		"<!-- snippet: not run: why -->\nSome text.\n\n```sh\ntrue\n```\n": "line 1: the marker <!-- snippet: not run: why --> is not just before a block",
		"<!-- snippet: skip -->\n```sh\ntrue\n```\n":                       "line 1: unknown marker",
		"<!-- snippet: not run: -->\n```sh\ntrue\n```\n":                   "line 1: a snippet not run must say why",
		"<!-- snippet: not run: output -->\n```json\n{}\n```\n":            "line 1: the marker is before a block of \"json\", which is never run",
		"text\n\n<!-- snippet: not run: nothing after -->\n":               "line 3: the marker <!-- snippet: not run: nothing after --> is before no block",
	} {
		if _, err := guideSnippets(md); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", md, err, want)
		}
	}
}

// TestAccGuideSnippets validates the configuration of every guide, as
// written, with `terraform validate` (its tests included), and each example
// of the provider page on its own; applies the guides of guideRuns against
// the emulator; and runs every shell recipe of every page as a reader
// copies it (runPageRecipes).
func TestAccGuideSnippets(t *testing.T) {
	t.Parallel()
	before := cloneStatus(t)
	t.Cleanup(func() {
		if after := cloneStatus(t); after != before {
			t.Errorf("the recipes changed the clone: git status --porcelain was\n%s\nand is\n%s", before, after)
		}
	})
	for _, file := range snippetPages(t) {
		name := filepath.Base(file)
		t.Run(strings.TrimSuffix(name, ".md"), func(t *testing.T) {
			t.Parallel()
			snippets := pageSnippets(t, file)
			if file == providerPage {
				validateEachExample(t, snippets)
			} else {
				validateGuide(t, name, snippets)
			}
			if out, err := runPageRecipes(t, name, file == providerPage, snippets); err != nil {
				t.Errorf("%v\n%s", err, out)
			}
		})
	}
}

// validateGuide validates a guide's configuration and applies it as
// guideRuns says.
func validateGuide(t *testing.T, name string, snippets []guideSnippet) {
	t.Helper()
	configs := 0
	for _, s := range snippets {
		if s.kind == snippetConfig && s.notRun == "" {
			configs++
		}
	}
	if configs == 0 {
		return
	}
	w := newCLIWorkdir(t)
	writeGuideConfig(t, w.dir, snippets)
	w.mustRun(0, "validate")
	run := guideRuns[name]
	if run == nil {
		return
	}
	emu := emulator.StartTest(t, emulator.Options{})
	w.env = append(w.env, emulatorSettings(emu)...)
	run(t, w, emu)
}

// validateEachExample validates each HCL example of the provider page as a
// configuration of its own: the first opens with its terraform block, the
// others are given one naming platform/platform.
func validateEachExample(t *testing.T, snippets []guideSnippet) {
	t.Helper()
	n := 0
	for _, s := range snippets {
		if s.kind != snippetConfig || s.notRun != "" {
			continue
		}
		n++
		w := newCLIWorkdir(t)
		if n > 1 {
			w.write("", "")
		}
		if err := os.WriteFile(filepath.Join(w.dir, "example.tf"), []byte(s.text), 0o600); err != nil {
			t.Fatal(err)
		}
		if r := w.run("validate"); r.code != 0 {
			t.Errorf("the example at line %d of the provider page does not validate:\n%s", s.line, r.output())
		}
	}
	if n < 3 {
		t.Errorf("the provider page has %d examples, want its own", n)
	}
}

// emulatorSettings are the PLATFORM_* variables that point the provider
// at emu.
func emulatorSettings(emu *emulator.Server) []string {
	return []string{"PLATFORM_BASE_URL=" + emu.BaseURL(), "PLATFORM_AUTH_URL=" + emu.AuthURL(),
		"PLATFORM_WS_URL=" + emu.WSURL(), "PLATFORM_CLIENT_ID=" + emulator.DefaultClientID,
		"PLATFORM_CLIENT_SECRET=" + emulator.DefaultClientSecret}
}

// recipeEnvironment says, by guide, what a reader has in the environment
// when following a guide's recipes: the PLATFORM_* settings of the emulator
// (loaded as the guide "Testing with the emulator" shows), and whether the
// recipes run in the guide's configuration folder. A guide not listed, and
// the provider page, start from nothing, and the provider page's recipes
// run in a clone of the repository.
var recipeEnvironment = map[string]struct{ settingsLoaded bool }{
	"paying-out-to-a-bank-account.md":  {settingsLoaded: true},
	"standing-instructions-as-code.md": {settingsLoaded: true},
	"policy-on-plans.md":               {settingsLoaded: true},
	// The guide itself starts the emulator and loads its settings.
	"testing-with-the-emulator.md": {settingsLoaded: false},
}

// recipeMapping is the whole of what stands in for a command of a recipe
// that cannot run here as such, as shell functions defined before the
// recipes run (the recipes' text is run as written):
//
//   - make emulator runs the emulator in the foreground until stopped: the
//     emulator the test started stands in for it, its settings printed and
//     written where make emulator writes them (ENV_FILE, else
//     $TMPDIR/platform-emulator.env); any other target is make's own;
//   - platform-emulator (installed by go install, and run in the
//     foreground or in the background): the emulator the test started,
//     its settings written to -env-file; -rate-limits is set through
//     PUT /admin/rate-limits, as the flag does at start; -addr is where it
//     listens (loopback, a free port); any other flag fails the recipe;
//   - go install …/cmd/platform-emulator@<version> needs the internet and a
//     release: the platform-emulator above stands in for what it installs.
//
// RECIPE_EMULATOR_ENV names the file of the started emulator's settings.
const recipeMapping = `
make() {
	if [ "$#" -eq 1 ] && [ "$1" = emulator ]; then
		local f="${ENV_FILE:-${TMPDIR:-/tmp}/platform-emulator.env}"
		cp "$RECIPE_EMULATOR_ENV" "$f"
		cat "$f"
		return 0
	fi
	command make "$@"
}
platform-emulator() {
	local env_file="" rate="" body
	while [ "$#" -gt 0 ]; do
		case "$1" in
		-addr) shift 2 ;;
		-env-file) env_file="$2"; shift 2 ;;
		-rate-limits) rate="$2"; shift 2 ;;
		*) echo "recipe mapping: platform-emulator $1 is not mapped" >&2; return 2 ;;
		esac
	done
	if [ -n "$rate" ]; then
		case "$rate" in
		published) body='{"enabled": true}' ;;
		window=*s,throttle=*s,share=*)
			local w="${rate#window=}" th="${rate#*,throttle=}" sh="${rate##*,share=}"
			body="{\"enabled\": true, \"window_seconds\": ${w%%s,*}, \"throttle_seconds\": ${th%%s,*}, \"share\": $sh}" ;;
		*) echo "recipe mapping: -rate-limits $rate is not mapped" >&2; return 2 ;;
		esac
		curl -fsS -X PUT -H 'Content-Type: application/json' -d "$body" "$RECIPE_EMULATOR_ADMIN/rate-limits" >/dev/null
	fi
	cat "$RECIPE_EMULATOR_ENV"
	if [ -n "$env_file" ]; then cp "$RECIPE_EMULATOR_ENV" "$env_file"; fi
}
go() {
	case "$1 ${2:-}" in
	"install github.com/platform/terraform-provider-platform/cmd/platform-emulator@"*) return 0 ;;
	esac
	command go "$@"
}
`

// yesReader answers "yes" to every question, as the reader who approves
// each apply of a recipe.
type yesReader struct{ off int }

func (y *yesReader) Read(p []byte) (int, error) {
	const yes = "yes\n"
	for i := range p {
		p[i] = yes[y.off%len(yes)]
		y.off++
	}
	return len(p), nil
}

// runPageRecipes runs the shell recipes of a page, in order, in one bash
// session (bash -euo pipefail, each recipe sourced as written), as a reader
// who copies them into one terminal: with an emulator started for the page
// and recipeMapping, in a folder of the page's (a copy of the clone for the
// provider page, the guide's configuration for a guide), with TMPDIR a
// folder of the test's. The provider page's recipes must leave no file in
// the copy of the clone that git status shows. It returns the session's
// output and why it failed.
func runPageRecipes(t *testing.T, name string, inClone bool, snippets []guideSnippet) (string, error) {
	t.Helper()
	var recipes []guideSnippet
	for _, s := range snippets {
		if s.kind == snippetShell && s.notRun == "" {
			recipes = append(recipes, s)
		}
	}
	if len(recipes) == 0 {
		return "", nil
	}
	w := newCLIWorkdir(t)
	emu := emulator.StartTest(t, emulatorcli.DefaultOptions()) // as platform-emulator and make emulator start it
	dir := w.dir
	if inClone {
		dir = cloneCopy(t)
	} else {
		// The reader's configuration, initialized: the provider installed
		// as from the registry (a mirror of the build, at a version its
		// constraint accepts), so that the recipes' own init works too.
		writeGuideConfig(t, dir, snippets)
		w.env = append(w.env, "TF_CLI_CONFIG_FILE="+providerMirror(t, "0.2.0"))
		w.mustRun(0, "init", "-input=false")
		if recipeEnvironment[name].settingsLoaded {
			w.env = append(w.env, emulatorSettings(emu)...)
		}
	}
	side := t.TempDir()
	envFile := filepath.Join(side, "emulator.env")
	if err := os.WriteFile(envFile, []byte(emulatorcli.EnvFile(emu, emulator.DefaultClientID, emulator.DefaultClientSecret)), 0o600); err != nil {
		t.Fatal(err)
	}
	driver := recipeMapping
	for i, r := range recipes {
		f := filepath.Join(side, fmt.Sprintf("recipe_%02d.sh", i+1))
		if err := os.WriteFile(f, []byte(r.text), 0o600); err != nil {
			t.Fatal(err)
		}
		driver += fmt.Sprintf("echo '== recipe at %s line %d' >&2\n. %q\n", name, r.line, f)
	}
	driver += "echo '== recipes done' >&2\n"
	script := filepath.Join(side, "session.sh")
	if err := os.WriteFile(script, []byte(driver), 0o600); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	cmd := exec.CommandContext(t.Context(), "bash", "-euo", "pipefail", script)
	cmd.Dir = dir
	cmd.Env = append(w.env, "TMPDIR="+tmp, "RECIPE_EMULATOR_ENV="+envFile, "RECIPE_EMULATOR_ADMIN="+emu.AuthURL()+"/admin")
	cmd.Stdin = &yesReader{}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out emulator.LogBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Start()
	if err == nil {
		err = cmd.Wait()
		// What the session left running in the background ends with it.
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	output := out.String()
	if err != nil {
		last := "the first recipe"
		if i := strings.LastIndex(output, "== recipe at "); i >= 0 {
			last, _, _ = strings.Cut(output[i+len("== recipe at "):], "\n")
		}
		return output, fmt.Errorf("the recipe at %s fails as copied: %w", last, err)
	}
	if !strings.Contains(output, "== recipes done") {
		return output, fmt.Errorf("the recipes of %s ended before their end", name)
	}
	if inClone {
		if st := gitStatus(t, dir); st != "" {
			return output, fmt.Errorf("the recipes of %s leave files in the clone:\n%s", name, st)
		}
	}
	return output, nil
}

// cloneCopy copies the files of the clone that git tracks into a folder of
// the test's, made a git repository that commits them all, so that git
// status names what a recipe adds or changes.
func cloneCopy(t *testing.T) string {
	t.Helper()
	root := filepath.Join("..", "..")
	files, err := exec.CommandContext(t.Context(), "git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	dir := t.TempDir()
	for _, f := range strings.Split(strings.TrimRight(string(files), "\x00"), "\x00") {
		src := filepath.Join(root, f)
		info, err := os.Lstat(src)
		if err != nil {
			if os.IsNotExist(err) {
				continue // deleted in the working tree
			}
			t.Fatal(err)
		}
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"},
		{"-c", "user.name=recipes", "-c", "user.email=recipes@localhost", "-c", "commit.gpgsign=false", "commit", "-qm", "the clone"}} {
		if out, err := exec.CommandContext(t.Context(), "git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// gitStatus is git status --porcelain of dir (also from a cleanup, after
// the test's context ended).
func gitStatus(t *testing.T, dir string) string {
	t.Helper()
	out, err := exec.CommandContext(context.Background(), "git", "-C", dir, "status", "--porcelain").CombinedOutput()
	if err != nil {
		t.Fatalf("git status: %v\n%s", err, out)
	}
	return string(out)
}

// cloneStatus is git status --porcelain of the clone the tests run in.
func cloneStatus(t *testing.T) string {
	t.Helper()
	return gitStatus(t, filepath.Join("..", ".."))
}

// A guide whose snippets use a variable they do not declare fails
// `terraform validate`, as TestAccGuideSnippets runs it.
func TestAccGuideSnippets_brokenGuideFails(t *testing.T) {
	t.Parallel()
	snippets, err := guideSnippets("```terraform\nterraform {\n  required_providers {\n    platform = { source = \"platform/platform\" }\n  }\n}\n```\n\n" +
		"```terraform\nresource \"platform_internal_transfer\" \"t\" {\n  from_profile_id = var.profile_id\n  to_profile_id   = \"p2\"\n" +
		"  asset           = \"USD\"\n  amount          = \"1\"\n}\n```\n")
	if err != nil {
		t.Fatal(err)
	}
	if p := guideProblems("undeclared.md", snippets); len(p) != 0 {
		t.Fatalf("static problems %q: the case must reach validate", p)
	}
	w := newCLIWorkdir(t)
	writeGuideConfig(t, w.dir, snippets)
	r := w.mustRun(1, "validate")
	if out := flatOutput(r.output()); !strings.Contains(out, "Reference to undeclared input variable") {
		t.Errorf("validate fails without naming the undeclared variable:\n%s", r.output())
	}
}

// The recipes' run can fail: a guide's recipe that fails, one that uses a
// variable nothing set, and a provider page whose recipe leaves a file in
// the clone (the dev.tfrc of an earlier recipe) or forgets to load the
// settings make emulator wrote (the conversion id of an earlier recipe)
// each fail, naming the recipe; a recipe marked not run is not run; the
// mapping of make emulator writes the emulator's settings where the page
// says.
func TestAccGuideSnippets_brokenRecipeFails(t *testing.T) {
	t.Parallel()
	cases := []struct {
		page           string
		inClone        bool
		markdown, want string
		output         string
	}{
		{"broken-guide.md", false, "# A guide\n\n```sh\necho first\n```\n\nThen:\n\n```bash\ntest 1 = 2\necho never\n```\n",
			"the recipe at broken-guide.md line 9 fails as copied", "first"},
		{"unset-guide.md", false, "<!-- snippet: not run: a service of its own -->\n```sh\nexport TOKEN=x\n```\n\n```shell\necho \"Authorization: Bearer $TOKEN\"\n```\n",
			"the recipe at unset-guide.md line 6 fails as copied", "TOKEN: unbound variable"},
		{"broken-provider-page-dev-tfrc.md", true, "```sh\nmake emulator\n```\n\n```sh\nset -a; . \"${TMPDIR:-/tmp}/platform-emulator.env\"; set +a\n" +
			"test -n \"$PLATFORM_DEMO_CONVERSION_ID\"\ncat > \"$PWD/dev.tfrc\" <<EOF\nprovider_installation {\n  direct {}\n}\nEOF\n```\n",
			"the recipes of broken-provider-page-dev-tfrc.md leave files in the clone:\n?? dev.tfrc", "PLATFORM_BASE_URL=http://127.0.0.1:"},
		{"broken-provider-page-export.md", true, "```sh\nmake emulator\n```\n\n```sh\nexport PLATFORM_BASE_URL=http://127.0.0.1:8080/v2\n" +
			"mkdir -p \"$TMPDIR/demo\" && cp examples/demo/*.tf \"$TMPDIR/demo/\"\necho \"conversion_id=$PLATFORM_DEMO_CONVERSION_ID\"\n```\n",
			"the recipe at broken-provider-page-export.md line 5 fails as copied", "PLATFORM_DEMO_CONVERSION_ID: unbound variable"},
	}
	for _, c := range cases {
		t.Run(c.page, func(t *testing.T) {
			t.Parallel()
			snippets, err := guideSnippets(c.markdown)
			if err != nil {
				t.Fatal(err)
			}
			out, err := runPageRecipes(t, c.page, c.inClone, snippets)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q\n%s", err, c.want, out)
			}
			if !strings.Contains(out, c.output) {
				t.Errorf("output lacks %q:\n%s", c.output, out)
			}
		})
	}
}
