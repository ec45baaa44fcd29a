package provider

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/platform/terraform-provider-platform/internal/emulator"
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
)

// guideSnippet is one HCL snippet of a guide.
type guideSnippet struct {
	line int // of its opening fence, from 1
	kind snippetKind
	text string
}

// fencePattern matches the opening or closing fence of a code block, list
// items' indented ones included, and its info string.
var fencePattern = regexp.MustCompile("^\\s*```\\s*([A-Za-z0-9_-]*)\\s*$")

// guideSnippets extracts the HCL snippets of a guide's markdown.
func guideSnippets(markdown string) ([]guideSnippet, error) {
	var out []guideSnippet
	var cur *guideSnippet
	var body []string
	var indent string
	inBlock := false
	for i, line := range strings.Split(markdown, "\n") {
		m := fencePattern.FindStringSubmatch(line)
		switch {
		case m == nil && inBlock && cur != nil:
			body = append(body, strings.TrimPrefix(line, indent))
		case m == nil:
		case !inBlock:
			inBlock = true
			indent = line[:len(line)-len(strings.TrimLeft(line, " \t"))]
			switch m[1] {
			case "terraform", "tf", "hcl":
				cur, body = &guideSnippet{line: i + 1}, nil
			}
		default:
			inBlock = false
			if cur != nil {
				cur.text = strings.Join(body, "\n") + "\n"
				cur.kind = classifySnippet(cur.text)
				out = append(out, *cur)
				cur = nil
			}
		}
	}
	if inBlock {
		return out, errors.New("a code block is never closed")
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

// Every guide's snippets parse, and each guide with a configuration opens
// with its terraform block.
func TestGuideSnippets_parse(t *testing.T) {
	for _, file := range guideFiles(t) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		snippets, err := guideSnippets(string(b))
		if err != nil {
			t.Errorf("%s: %v", file, err)
		}
		for _, p := range guideProblems(filepath.Base(file), snippets) {
			t.Error(p)
		}
	}
	for name := range guideRuns {
		if _, err := os.Stat(filepath.Join(guidesRoot, name)); err != nil {
			t.Errorf("guideRuns names %s, which is not a guide: %v", name, err)
		}
	}
}

// The static checks catch a guide without its terraform block (init would
// look for hashicorp/platform) and a snippet that does not parse; the
// extraction reads list items' indented blocks and leaves plain output
// blocks out.
func TestGuideSnippets_brokenGuideFails(t *testing.T) {
	guide := "# A guide\n\n```terraform\nresource \"platform_fiat_account\" \"a\" {\n}\n```\n\n" +
		"```\nPlan: 1 to add\n```\n\n- item\n\n  ```hcl\n  output \"x\" {\n    value = \n  }\n  ```\n"
	snippets, err := guideSnippets(guide)
	if err != nil {
		t.Fatal(err)
	}
	if len(snippets) != 2 || snippets[0].line != 3 || snippets[1].line != 14 ||
		!strings.HasPrefix(snippets[1].text, "output") {
		t.Fatalf("snippets %+v, want the terraform block at line 3 and the hcl block at line 14, unindented", snippets)
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
	if _, err := guideSnippets("```terraform\nterraform {}\n"); err == nil {
		t.Error("a block never closed is not reported")
	}
}

// TestAccGuideSnippets validates the configuration of every guide, as
// written, with `terraform validate` (its tests included), and applies the
// guides of guideRuns against the emulator.
func TestAccGuideSnippets(t *testing.T) {
	t.Parallel()
	for _, file := range guideFiles(t) {
		name := filepath.Base(file)
		t.Run(strings.TrimSuffix(name, ".md"), func(t *testing.T) {
			t.Parallel()
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			snippets, err := guideSnippets(string(b))
			if err != nil {
				t.Fatal(err)
			}
			configs := 0
			for _, s := range snippets {
				if s.kind == snippetConfig {
					configs++
				}
			}
			if configs == 0 {
				t.Skipf("%s has no configuration", name)
			}
			w := newCLIWorkdir(t)
			writeGuideConfig(t, w.dir, snippets)
			w.mustRun(0, "validate")
			run := guideRuns[name]
			if run == nil {
				return
			}
			emu := emulator.StartTest(t, emulator.Options{})
			w.env = append(w.env, "PLATFORM_BASE_URL="+emu.BaseURL(), "PLATFORM_AUTH_URL="+emu.AuthURL(),
				"PLATFORM_WS_URL="+emu.WSURL(), "PLATFORM_CLIENT_ID="+emulator.DefaultClientID,
				"PLATFORM_CLIENT_SECRET="+emulator.DefaultClientSecret)
			run(t, w, emu)
		})
	}
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
