package provider

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// installCLIs are the CLIs a test of installation runs: the CLI of the
// acceptance tests, the terraform and tofu on PATH, and the OpenTofu of
// make test (../shared/tools beside the repository), each once.
func installCLIs(t *testing.T) []string {
	t.Helper()
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if p == "" {
			return
		}
		resolved, err := filepath.EvalSymlinks(p)
		if err != nil {
			return
		}
		if st, err := os.Stat(resolved); err != nil || st.IsDir() || seen[resolved] {
			return
		}
		seen[resolved] = true
		out = append(out, p)
	}
	add(terraformBinary(t))
	for _, name := range []string{"terraform", "tofu"} {
		if p, err := exec.LookPath(name); err == nil {
			add(p)
		}
	}
	if p, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "tools", "opentofu-1.12", "tofu")); err == nil {
		add(p)
	}
	return out
}

// `make mirror` lays a local build out as a filesystem mirror and prints
// the CLI configuration that installs it: with that configuration and
// nothing else, `init` of a configuration that asks for platform/platform
// "~> 0.2" installs the local build, under Terraform and under OpenTofu,
// without the network (a proxy that answers nothing stands in for it), and
// the provider it installed validates the configuration.
func TestAccMakeMirror(t *testing.T) {
	t.Parallel()
	requireTFAcc(t)
	bin := filepath.Join(providerBinary(t), "terraform-provider-platform")
	mirror := t.TempDir()
	mk := exec.CommandContext(t.Context(), "make", "--no-print-directory", "mirror",
		"MIRROR_DIR="+mirror, "PROVIDER_BINARY="+bin)
	mk.Dir = filepath.Join("..", "..")
	var stderr strings.Builder
	mk.Stderr = &stderr
	out, err := mk.Output()
	if err != nil {
		t.Fatalf("make mirror: %v\n%s%s", err, out, stderr.String())
	}
	cfg := string(out)
	for _, want := range []string{
		"provider_installation {", "filesystem_mirror {", `path    = "` + mirror + `"`,
		`"registry.terraform.io/platform/platform", "registry.opentofu.org/platform/platform"`,
	} {
		if !strings.Contains(cfg, want) {
			t.Errorf("make mirror printed no %q:\n%s", want, cfg)
		}
	}
	if !strings.Contains(stderr.String(), "platform/platform 0.2.0 for ") {
		t.Errorf("make mirror does not say what it laid out:\n%s", stderr.String())
	}
	rc := filepath.Join(t.TempDir(), "mirror.tfrc")
	if err := os.WriteFile(rc, out, 0o600); err != nil {
		t.Fatal(err)
	}
	clis := installCLIs(t)
	if len(clis) < 2 {
		t.Logf("only %v to run: the mirror is tested with one CLI", clis)
	}
	for _, cli := range clis {
		t.Run(filepath.Base(filepath.Dir(cli))+"/"+filepath.Base(cli), func(t *testing.T) {
			dir := t.TempDir()
			main := "terraform {\n  required_providers {\n    platform = {\n      source  = \"platform/platform\"\n" +
				"      version = \"~> 0.2\"\n    }\n  }\n}\n\nprovider \"platform\" {}\n"
			if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(main), 0o600); err != nil {
				t.Fatal(err)
			}
			env := append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1",
				"TF_PLUGIN_CACHE_DIR=", "HTTPS_PROXY=http://127.0.0.1:9", "HTTP_PROXY=http://127.0.0.1:9",
				"https_proxy=http://127.0.0.1:9", "http_proxy=http://127.0.0.1:9", "NO_PROXY=", "no_proxy=",
				EnvRateStateDir+"="+t.TempDir())
			run := func(args ...string) string {
				cmd := exec.CommandContext(t.Context(), cli, args...)
				cmd.Dir, cmd.Env = dir, env
				got, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("%s %s: %v\n%s", filepath.Base(cli), strings.Join(args, " "), err, got)
				}
				return string(got)
			}
			got := run("init", "-input=false", "-no-color")
			if !strings.Contains(got, "Installing platform/platform v0.2.0") {
				t.Errorf("init did not install platform/platform v0.2.0 from the mirror:\n%s", got)
			}
			lock, err := os.ReadFile(filepath.Join(dir, ".terraform.lock.hcl"))
			if err != nil || !strings.Contains(string(lock), `version     = "0.2.0"`) {
				t.Errorf("lock file (%v):\n%s", err, lock)
			}
			run("validate", "-no-color")
		})
	}
}
