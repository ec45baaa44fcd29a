package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// examplesRoot is the examples directory, relative to this package.
var examplesRoot = filepath.Join("..", "..", "examples")

// exampleKinds are the example layouts tfplugindocs reads: the folder under
// examples/, the schema group its types come from, and the file name
// pattern of its examples (a glob inside examples/<folder>/<type>/).
var exampleKinds = []struct {
	folder, file string
}{
	{"resources", "resource*.tf"},
	{"data-sources", "data-source*.tf"},
	{"ephemeral-resources", "ephemeral-resource*.tf"},
	{"actions", "action*.tf"},
}

// moduleExamples are the examples made of several files applied together,
// each a folder under examples/.
var moduleExamples = []string{"demo", "withdraw-to-approved-addresses"}

// example is one example configuration: a single file, or every file of a
// directory applied together (the demo).
type example struct {
	// name is the path relative to examples/, with forward slashes.
	name  string
	files []string
}

// findExamples lists every example configuration under examples/, and fails
// the test if a .tf file belongs to none of them (so that no example goes
// untested).
func findExamples(t *testing.T) []example {
	t.Helper()
	var out []example
	covered := map[string]bool{}
	add := func(name string, files ...string) {
		out = append(out, example{name: name, files: files})
		for _, f := range files {
			covered[filepath.Clean(f)] = true
		}
	}
	glob := func(pattern string) []string {
		m, err := filepath.Glob(filepath.Join(examplesRoot, pattern))
		if err != nil {
			t.Fatalf("glob %s: %v", pattern, err)
		}
		sort.Strings(m)
		return m
	}
	rel := func(p string) string {
		r, err := filepath.Rel(examplesRoot, p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		return filepath.ToSlash(r)
	}
	for _, f := range glob("provider/provider*.tf") {
		add(rel(f), f)
	}
	// The import blocks of a resource's docs (import-by-string-id.tf,
	// import-by-identity.tf) are checked by TestExamplesCoverEveryType.
	for _, f := range glob(filepath.Join("resources", "*", "import-by-*.tf")) {
		covered[filepath.Clean(f)] = true
	}
	for _, k := range exampleKinds {
		for _, f := range glob(filepath.Join(k.folder, "*", k.file)) {
			add(rel(f), f)
		}
	}
	for _, module := range moduleExamples {
		if files := glob(module + "/*.tf"); len(files) > 0 {
			add(module, files...)
		}
	}
	err := filepath.WalkDir(examplesRoot, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".terraform") {
			return filepath.SkipDir
		}
		// A module with its own tests, run by TestAccEmulatorExample.
		if d.IsDir() && filepath.Clean(p) == filepath.Clean(emulatorExample) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".tf") && !covered[filepath.Clean(p)] {
			t.Errorf("%s is not in a layout the docs and TestAccExamples know (provider/provider*.tf, "+
				"resources/<type>/resource*.tf, data-sources/<type>/data-source*.tf, "+
				"ephemeral-resources/<type>/ephemeral-resource*.tf, actions/<type>/action*.tf, or a module of "+
				"moduleExamples: %v)", rel(p), moduleExamples)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walking %s: %v", examplesRoot, err)
	}
	return out
}

// exampleInfo is what the test needs to know about an example's
// configuration.
type exampleInfo struct {
	// variables maps every declared variable to whether it has a default.
	variables map[string]bool
	// providerBlock: the configuration has a default provider "platform" block.
	providerBlock bool
	// requiredProvider: terraform.required_providers names platform.
	requiredProvider bool
	// actions: the configuration declares actions (Terraform 1.14+).
	actions bool
	// addresses of the managed resources, such as platform_x.y.
	addresses map[string]bool
}

// sendsWithdrawals reports whether applying the example sends crypto
// withdrawals: it has a platform_crypto_withdrawal resource, or actions.
func (i exampleInfo) sendsWithdrawals() bool {
	for addr := range i.addresses {
		for _, typ := range []string{"platform_crypto_withdrawal.", "platform_fiat_withdrawal.",
			"platform_internal_transfer.", "platform_stablecoin_conversion."} {
			if strings.HasPrefix(addr, typ) {
				return true
			}
		}
	}
	return i.actions
}

// parseExample reads the blocks of an example's files.
func parseExample(t *testing.T, files []string) exampleInfo {
	t.Helper()
	info := exampleInfo{variables: map[string]bool{}, addresses: map[string]bool{}}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		file, diags := hclsyntax.ParseConfig(src, f, hcl.Pos{Line: 1, Column: 1})
		if diags.HasErrors() {
			t.Fatalf("%s does not parse: %s", f, diags.Error())
		}
		body, ok := file.Body.(*hclsyntax.Body)
		if !ok {
			t.Fatalf("%s: unexpected body type %T", f, file.Body)
		}
		for _, b := range body.Blocks {
			switch {
			case b.Type == "variable" && len(b.Labels) == 1:
				_, hasDefault := b.Body.Attributes["default"]
				info.variables[b.Labels[0]] = hasDefault
			case b.Type == "provider" && len(b.Labels) == 1 && b.Labels[0] == "platform":
				if _, aliased := b.Body.Attributes["alias"]; !aliased {
					info.providerBlock = true
				}
			case b.Type == "terraform":
				for _, rp := range b.Body.Blocks {
					if _, ok := rp.Body.Attributes["platform"]; rp.Type == "required_providers" && ok {
						info.requiredProvider = true
					}
				}
			case b.Type == "action":
				info.actions = true
			case b.Type == "resource" && len(b.Labels) == 2:
				info.addresses[b.Labels[0]+"."+b.Labels[1]] = true
			}
		}
	}
	return info
}

// exampleVariables are the values the test gives to the variables that
// examples may declare (with or without a default): ids of objects that
// exist on the emulator, and the emulator's client secret.
//
// export_script is the script the provisioner of the platform_access_token
// example runs: a stand-in that writes the token it receives to tokenFile.
func exampleVariables(t *testing.T, emu *emulator.Server, tokenFile string) map[string]string {
	t.Helper()
	stub, err := filepath.Abs(filepath.Join("testdata", "examples", "export-fiat-accounts.sh"))
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{
		"platform_client_secret": emulator.DefaultClientSecret,
		"profile_id":             "5d7c3b0e-8f1a-4c2d-9e6b-0a4f2d8c1b37",
		"treasury_profile_id":    "5d7c3b0e-8f1a-4c2d-9e6b-0a4f2d8c1b37",
		"export_script":          stub + " " + tokenFile,
	}
	emu.SetBalance(vars["treasury_profile_id"], "USD", "250000")
	if c := emu.StablecoinConversions(); len(c) > 0 {
		vars["conversion_id"] = c[0].ID
	}
	if d := emu.DepositAddresses(); len(d) > 0 {
		vars["deposit_profile_id"] = d[0].ProfileID
	}
	if c := emu.RewardClaims(); len(c) > 0 {
		vars["payout_group_id"] = c[0].PayoutGroupID
	}
	for _, a := range emu.FiatAccounts() {
		if !a.Deleted {
			vars["fiat_account_id"] = a.ID
			break
		}
	}
	// Deposit instructions created outside the configuration, for the
	// examples that read them by id.
	c := emulatorClient(t, emu)
	fdi, err := c.CreateFiatDepositInstructions(t.Context(), client.FiatDepositInstructionsRequest{
		ProfileID: vars["profile_id"], FiatNetwork: "WIRE", RefID: "examples-test-instructions",
	})
	if err != nil {
		t.Fatalf("creating deposit instructions on the emulator: %v", err)
	}
	vars["instructions_id"] = fdi.ID
	return vars
}

// importBlockTo matches the `to` of an import block.
var importBlockTo = regexp.MustCompile(`(?m)^\s*to\s*=\s*(\S+)\s*$`)

// importCommand matches the lines of an import.sh example.
var importCommand = regexp.MustCompile(`(?m)^terraform import ('[^']+'|\S+) (\S+)\s*$`)

// importAddresses returns the resource addresses an import.sh imports to.
func importAddresses(t *testing.T, path string) []string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range importCommand.FindAllStringSubmatch(string(src), -1) {
		out = append(out, strings.Trim(m[1], "'"))
	}
	if len(out) == 0 {
		t.Fatalf("%s has no `terraform import <address> <id>` line", path)
	}
	return out
}

// baseAddress strips the instance key of an address: a.b["k"] is a.b.
func baseAddress(addr string) string {
	if i := strings.IndexByte(addr, '['); i >= 0 {
		return addr[:i]
	}
	return addr
}

// TestExamplesCoverEveryType checks that every type the provider registers
// has an example in the layout the docs read, and that every importable
// resource has an import.sh naming a resource of its example.
func TestExamplesCoverEveryType(t *testing.T) {
	ctx := t.Context()
	srv, err := providerserver.NewProtocol6WithError(New("test")())()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	groups := map[string][]string{}
	for name := range resp.ResourceSchemas {
		groups["resources"] = append(groups["resources"], name)
	}
	for name := range resp.DataSourceSchemas {
		groups["data-sources"] = append(groups["data-sources"], name)
	}
	for name := range resp.EphemeralResourceSchemas {
		groups["ephemeral-resources"] = append(groups["ephemeral-resources"], name)
	}
	for name := range resp.ActionSchemas {
		groups["actions"] = append(groups["actions"], name)
	}
	if len(groups["resources"]) == 0 || len(groups["data-sources"]) == 0 {
		t.Fatalf("the provider registers no resources or data sources: %v", groups)
	}
	for _, k := range exampleKinds {
		for _, name := range groups[k.folder] {
			m, _ := filepath.Glob(filepath.Join(examplesRoot, k.folder, name, k.file))
			if len(m) == 0 {
				t.Errorf("%s %s has no example: add examples/%s/%s/%s", k.folder, name, k.folder, name,
					strings.Replace(k.file, "*", "", 1))
			}
		}
	}
	if _, err := os.Stat(filepath.Join(examplesRoot, "provider", "provider.tf")); err != nil {
		t.Errorf("the provider has no example: %v", err)
	}

	p := New("test")()
	for _, newResource := range p.Resources(ctx) {
		r := newResource()
		var md resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "platform"}, &md)
		dir := filepath.Join(examplesRoot, "resources", md.TypeName)
		importSh := filepath.Join(dir, "import.sh")
		_, importable := r.(resource.ResourceWithImportState)
		_, statErr := os.Stat(importSh)
		switch {
		case importable && statErr != nil:
			t.Errorf("%s can be imported but has no example %s", md.TypeName, importSh)
		case !importable && statErr == nil:
			t.Errorf("%s cannot be imported, yet %s exists", md.TypeName, importSh)
		case importable:
			files, _ := filepath.Glob(filepath.Join(dir, "resource*.tf"))
			info := parseExample(t, files)
			for _, addr := range importAddresses(t, importSh) {
				if !info.addresses[baseAddress(addr)] {
					t.Errorf("%s imports to %s, which %v does not declare", importSh, addr, files)
				}
			}
			// The import blocks the docs show, by id and, for a resource
			// with an identity, by identity.
			blocks := []string{"import-by-string-id.tf"}
			if _, ok := r.(resource.ResourceWithIdentity); ok {
				blocks = append(blocks, "import-by-identity.tf")
			}
			for _, name := range blocks {
				src, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Errorf("%s can be imported but has no import block example: %v", md.TypeName, err)
					continue
				}
				m := importBlockTo.FindAllStringSubmatch(string(src), -1)
				if len(m) == 0 {
					t.Errorf("%s/%s has no import block", dir, name)
				}
				for _, to := range m {
					if !info.addresses[baseAddress(to[1])] {
						t.Errorf("%s/%s imports to %s, which %v does not declare", dir, name, to[1], files)
					}
				}
			}
		}
	}
}

// pointAtEmulator writes into dir, beside an example's own files, what
// points it at emu: an override file for its provider block (Terraform
// merges *_override.tf into the blocks they name, so the example's other
// provider arguments still apply), or a provider block when it has none;
// and the values of its variables.
func pointAtEmulator(t *testing.T, dir string, info exampleInfo, emu *emulator.Server, vars map[string]string) {
	t.Helper()
	name := "zz_examples_test_provider.tf"
	if info.providerBlock {
		name = "zz_examples_test_override.tf"
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(emulatorProviderBlock(emu, "")), 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(vars)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "terraform.tfvars.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// copyFiles copies files into a new temporary directory.
func copyFiles(t *testing.T, files []string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestAccExamples runs every example configuration with Terraform and this
// provider, each against its own emulator:
//
//   - `terraform validate` of the example as written (its provider block and
//     required_providers included, no variable values);
//   - `terraform apply`, then a plan that must show no change;
//   - for each address its import.sh names: `terraform state rm`,
//     `terraform import` with the id the apply gave it, and again a plan
//     that must show no change;
//   - `terraform destroy`.
//
// and `terraform fmt -check -recursive` of examples/.
//
// Terraform runs as a separate process attached to a provider served by the
// test (TF_REATTACH_PROVIDERS), as in the acceptance framework, which
// cannot read the state of for_each resources. The emulator's clock and
// order books stand still during the test, so that examples that output
// market data or times plan no change after the apply.
func TestAccExamples(t *testing.T) {
	t.Parallel()
	requireTFAcc(t)
	if realService() {
		t.Skip("examples use placeholder ids and create objects; they are applied against the emulator only")
	}
	tf := terraformBinary(t)
	tfVersion := terraformVersion(t, tf)
	if tfVersion.LessThan(tfversion.Version1_11_0) {
		t.Skipf("examples need Terraform 1.11 or later (running %s)", tfVersion)
	}

	out, err := exec.CommandContext(t.Context(), tf, "fmt", "-check", "-recursive", "-diff", "-no-color", examplesRoot).CombinedOutput()
	if err != nil {
		t.Errorf("terraform fmt -check -recursive examples: %v\n%s", err, out)
	}

	examples := findExamples(t)
	if len(examples) == 0 {
		t.Fatal("no examples found")
	}
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			t.Parallel()
			info := parseExample(t, ex.files)
			if info.actions && strings.Contains(filepath.Base(tf), "tofu") {
				t.Skipf("uses actions, which OpenTofu does not have (running OpenTofu %s); they need Terraform 1.14 or later", tfVersion)
			}
			if info.actions && tfVersion.LessThan(tfversion.Version1_14_0) {
				t.Skipf("uses actions, which need Terraform 1.14 or later (running %s)", tfVersion)
			}
			dir := copyFiles(t, ex.files)
			run := terraformIn(t, tf, dir)
			run("init", "-backend=false", "-input=false")
			run("validate")

			frozen := time.Date(2025, time.March, 3, 14, 30, 0, 0, time.UTC)
			emu := emulator.StartTest(t, emulator.Options{
				FiatAccounts: 25, DepositAddresses: 40, RewardClaims: 30, StablecoinConversions: 5,
				// The review approves new destination addresses at once, so
				// that a withdrawal gated on an approved address is sent.
				CryptoDestinationAddressStatus: "APPROVED",
				Now:                            func() time.Time { return frozen },
				BookInterval:                   time.Hour,
			})
			tokenFile := filepath.Join(t.TempDir(), "token")
			known := exampleVariables(t, emu, tokenFile)
			vars := map[string]string{}
			for name, hasDefault := range info.variables {
				v, ok := known[name]
				switch {
				case ok:
					vars[name] = v
				case !hasDefault:
					t.Fatalf("variable %q has no default and TestAccExamples has no value for it: give it a "+
						"default, or use one of %v", name, slices.Sorted(maps.Keys(known)))
				}
			}
			pointAtEmulator(t, dir, info, emu, vars)

			if out := run("apply", "-auto-approve", "-input=false"); strings.Contains(out, "Check block assertion failed") {
				t.Fatalf("a check of the example failed:\n%s", out)
			}
			// An example that sends withdrawals sends them in the apply, and
			// nothing after it (plans, import and destroy send nothing).
			moved := func() int { return len(emu.Transfers()) + len(emu.MadeStablecoinConversions()) }
			sent := moved()
			if info.sendsWithdrawals() && sent == 0 {
				t.Fatal("the apply moved no money")
			}
			defer func() {
				if n := moved(); n != sent {
					t.Errorf("%d money movements after the apply, %d at the end", sent, n)
				}
			}()
			expectNoChanges(t, run, "after apply")
			if _, ok := info.variables["export_script"]; ok {
				checkExportedToken(t, emu, tokenFile)
			}
			if ex.name == "demo" {
				checkDemoOutputs(t, run("output", "-json"))
			}

			if strings.HasPrefix(ex.name, "resources/") {
				importSh := filepath.Join(filepath.Dir(ex.files[0]), "import.sh")
				if _, err := os.Stat(importSh); err == nil {
					ids := resourceIDs(t, run("show", "-json"))
					for _, addr := range importAddresses(t, importSh) {
						id, ok := ids[addr]
						if !ok {
							t.Fatalf("%s imports %s, which the apply did not create (it created %v)", importSh, addr, slices.Sorted(maps.Keys(ids)))
						}
						run("state", "rm", addr)
						run("import", "-input=false", addr, id)
						expectNoChanges(t, run, "after importing "+addr)
					}
				}
			}
			run("destroy", "-auto-approve", "-input=false")
		})
	}
}

// expectNoChanges fails the test unless a plan shows no change.
func expectNoChanges(t *testing.T, run func(...string) string, when string) {
	t.Helper()
	out := run("plan", "-input=false", "-detailed-exitcode")
	if !strings.Contains(out, "No changes.") {
		t.Fatalf("the plan %s is not empty:\n%s", when, out)
	}
}

// resourceIDs maps the address of every managed resource instance in the
// output of `terraform show -json` to its id.
func resourceIDs(t *testing.T, showJSON string) map[string]string {
	t.Helper()
	var state struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address string         `json:"address"`
					Mode    string         `json:"mode"`
					Values  map[string]any `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(showJSON), &state); err != nil {
		t.Fatalf("terraform show -json: %v", err)
	}
	ids := map[string]string{}
	for _, r := range state.Values.RootModule.Resources {
		if id, ok := r.Values["id"].(string); ok && r.Mode == "managed" {
			ids[r.Address] = id
		}
	}
	return ids
}

// checkExportedToken checks that the export script of the
// platform_access_token example received a token the emulator issued for
// the example's scope.
func checkExportedToken(t *testing.T, emu *emulator.Server, tokenFile string) {
	t.Helper()
	tok, err := os.ReadFile(tokenFile)
	if err != nil {
		t.Fatalf("the export script did not run: %v", err)
	}
	if len(tok) == 0 || !slices.Contains(emu.IssuedTokens(), string(tok)) {
		t.Fatalf("the export script received %d bytes that are not a token the emulator issued", len(tok))
	}
	if n := emu.Counters.Tokens(client.ScopeReadFiatAccount); n == 0 {
		t.Fatalf("no token was issued for %s; tokens by scope: %v", client.ScopeReadFiatAccount, emu.Counters.AllTokens())
	}
}

// checkDemoOutputs checks the outputs `make demo` prints: the best bid
// and ask of the stream, and the withdrawal and instructions created.
func checkDemoOutputs(t *testing.T, outputJSON string) {
	t.Helper()
	var outputs map[string]struct {
		Value any `json:"value"`
	}
	if err := json.Unmarshal([]byte(outputJSON), &outputs); err != nil {
		t.Fatalf("terraform output -json: %v", err)
	}
	price := regexp.MustCompile(`^[0-9]+\.[0-9]+ \([0-9.]+\)$`)
	for _, name := range []string{"best_bid", "best_ask"} {
		v, _ := outputs[name].Value.(string)
		if !price.MatchString(v) {
			t.Errorf("output %s = %q, want a price and an amount", name, v)
		}
	}
	// The depths are sums of amounts, shown as decimals of 8 places (a sum
	// of Terraform numbers printed raw reads 86.2651000…0005).
	book, _ := outputs["order_book"].Value.(map[string]any)
	depth := regexp.MustCompile(`^[0-9]+\.[0-9]{8}$`)
	for _, name := range []string{"bid_depth", "ask_depth"} {
		if v, _ := book[name].(string); !depth.MatchString(v) {
			t.Errorf("output order_book.%s = %v, want a decimal of 8 places", name, book[name])
		}
	}
	w, _ := outputs["treasury_withdrawal"].Value.(map[string]any)
	if w["status"] != "PENDING" || w["id"] == "" || w["id"] == nil {
		t.Errorf("output treasury_withdrawal = %v, want a PENDING transfer", w)
	}
	wire, _ := outputs["wire_instructions"].Value.(map[string]any)
	if len(wire) == 0 {
		t.Errorf("output wire_instructions = %v, want instructions per profile", outputs["wire_instructions"].Value)
	}
	for team, v := range wire {
		fdi, _ := v.(map[string]any)
		if fdi["status"] != "VALID" || fdi["memo"] == "" || fdi["memo"] == nil {
			t.Errorf("wire instructions of %s = %v, want VALID with a memo", team, fdi)
		}
	}
}

// terraformBinary is the Terraform the acceptance tests run:
// TF_ACC_TERRAFORM_PATH, or terraform on PATH.
func terraformBinary(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("TF_ACC_TERRAFORM_PATH"); p != "" {
		return p
	}
	p, err := exec.LookPath("terraform")
	if err != nil {
		t.Fatalf("no terraform on PATH: %v", err)
	}
	return p
}

func terraformVersion(t *testing.T, tf string) *version.Version {
	t.Helper()
	out, err := exec.CommandContext(t.Context(), tf, "version", "-json").Output()
	if err != nil {
		t.Fatalf("%s version: %v", tf, err)
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%s version -json: %v", tf, err)
	}
	ver, err := version.NewVersion(v.Version)
	if err != nil {
		t.Fatal(err)
	}
	return ver.Core()
}

// terraformIn returns a function that runs a Terraform command in dir and
// returns its output, failing the test when it fails (a plan with
// -detailed-exitcode that finds changes fails too). Each command gets its
// own in-process provider server, which Terraform attaches to as
// registry.terraform.io/platform/platform (the examples' source) and as
// registry.terraform.io/hashicorp/platform (the address of configurations
// that do not say), so nothing is downloaded.
func terraformIn(t *testing.T, tf, dir string) func(args ...string) string {
	t.Helper()
	cliConfig := filepath.Join(t.TempDir(), "terraformrc")
	if err := os.WriteFile(cliConfig, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	return func(args ...string) string {
		t.Helper()
		reattach := serveProvider(t)
		// -no-color goes after the (sub)command and before its arguments.
		n := 1
		if args[0] == "state" {
			n = 2
		}
		cmdArgs := append(append(slices.Clone(args[:n]), "-no-color"), args[n:]...)
		cmd := exec.CommandContext(t.Context(), tf, cmdArgs...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(),
			"TF_REATTACH_PROVIDERS="+reattach.env,
			"TF_CLI_CONFIG_FILE="+cliConfig,
			"CHECKPOINT_DISABLE=1",
			"TF_IN_AUTOMATION=1",
		)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		reattach.stop()
		var exitErr *exec.ExitError
		switch {
		case errors.As(err, &exitErr) && exitErr.ExitCode() == 2 && slices.Contains(args, "-detailed-exitcode"):
			t.Fatalf("terraform %s: the plan shows changes where none were expected:\n%s%s",
				strings.Join(args, " "), stdout.String(), stderr.String())
		case err != nil:
			t.Fatalf("terraform %s: %v\n%s%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
		}
		return stdout.String()
	}
}

// servedProvider is a provider server Terraform can attach to.
type servedProvider struct {
	env  string
	stop func()
}

// serveProvider serves the provider in-process for one Terraform command.
func serveProvider(t *testing.T) servedProvider {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	reattachCh := make(chan *plugin.ReattachConfig, 1)
	closeCh := make(chan struct{})
	serveErr := make(chan error, 1)
	server, err := NewProtocol6Server(newTestProvider())()
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	go func() {
		serveErr <- tf6server.Serve("registry.terraform.io/platform/platform",
			func() tfprotov6.ProviderServer { return server },
			tf6server.WithDebug(ctx, reattachCh, closeCh),
			tf6server.WithGoPluginLogger(hclog.NewNullLogger()),
			tf6server.WithLoggingSink(t),
			tf6server.WithoutLogStderrOverride(),
		)
	}()
	stop := func() {
		cancel()
		select {
		case <-closeCh:
		case <-time.After(10 * time.Second):
			t.Error("the provider server did not stop")
		}
	}
	var rc *plugin.ReattachConfig
	select {
	case rc = <-reattachCh:
	case err := <-serveErr:
		cancel()
		t.Fatalf("serving the provider: %v", err)
	case <-time.After(10 * time.Second):
		cancel()
		t.Fatal("the provider server did not start")
	}
	type addr struct{ Network, String string }
	type reattach struct {
		Protocol        string
		ProtocolVersion int
		Pid             int
		Test            bool
		Addr            addr
	}
	ra := reattach{
		Protocol: string(rc.Protocol), ProtocolVersion: rc.ProtocolVersion, Pid: rc.Pid, Test: true,
		Addr: addr{Network: rc.Addr.Network(), String: rc.Addr.String()},
	}
	// The same server under both registries' addresses: Terraform reads
	// registry.terraform.io, OpenTofu registry.opentofu.org.
	env, err := json.Marshal(map[string]reattach{
		"registry.terraform.io/platform/platform":  ra,
		"registry.terraform.io/hashicorp/platform": ra,
		"registry.opentofu.org/platform/platform":  ra,
		"registry.opentofu.org/hashicorp/platform": ra,
	})
	if err != nil {
		stop()
		t.Fatal(err)
	}
	return servedProvider{env: string(env), stop: stop}
}
