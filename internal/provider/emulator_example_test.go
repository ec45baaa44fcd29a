package provider

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// emulatorExample is the example module of the guide "Testing with the
// emulator", with its tests and scripts.
var emulatorExample = filepath.Join(examplesRoot, "emulator-testing")

// The guide's example as a user's CI runs it: the emulator installed as a
// command (platform-emulator), started by the example's ci.sh on a free
// loopback port, terraform init installing the provider as from a registry
// (here from a filesystem mirror of the built provider, at a version the
// example's constraint accepts: no dev_overrides), the example's `terraform
// test`, then the rehearsal (rehearse.sh): a fault armed through the admin
// API, the apply that fails, the re-apply that recovers with exactly one
// withdrawal, the settlement. Nothing is downloaded.
func TestAccEmulatorExample(t *testing.T) {
	t.Parallel()
	w := newCLIWorkdir(t)
	bin := t.TempDir()
	build := exec.CommandContext(t.Context(), "go", "build", "-o", filepath.Join(bin, "platform-emulator"), "./cmd/platform-emulator")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/platform-emulator: %v\n%s", err, out)
	}
	rc := providerMirror(t, "0.2.0")
	script, err := filepath.Abs(filepath.Join(emulatorExample, "ci.sh"))
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "emulator.log")
	cmd := exec.CommandContext(t.Context(), script)
	cmd.Dir = w.dir
	cmd.Env = append(w.env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "TF="+w.tf,
		"EMULATOR_LOG="+log, "TF_CLI_CONFIG_FILE="+rc)
	out, err := cmd.CombinedOutput()
	emuLog, _ := os.ReadFile(log)
	if err != nil {
		t.Fatalf("%s: %v\n%s\nemulator log:\n%s", script, err, out, emuLog)
	}
	got := string(out)
	for _, want := range []string{
		`run "plan_shows_ref_id"... pass`, `run "bad_amount_refused"... pass`,
		`run "sends_one_withdrawal"... pass`, `run "next_plan_sends_nothing"... pass`,
		"4 passed, 0 failed",
		"failed as expected", "sent nothing again", "one withdrawal sent: ", "the next plan changes nothing",
		"settled: COMPLETED", "rehearsal passed",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	// The emulator's log names the fault on the withdrawal it failed, and
	// holds neither the client secret nor a bearer token.
	l := string(emuLog)
	if !strings.Contains(l, "path=/v2/transfer/crypto-withdrawals status=500") || !strings.Contains(l, "ref_id=rehearsal-1 fault=accept-then-fail") {
		t.Errorf("emulator log lacks the failed withdrawal:\n%s", l)
	}
	for _, secret := range []string{"emulator-secret", "Bearer", "access_token"} {
		if strings.Contains(l, secret) {
			t.Errorf("emulator log holds %q", secret)
		}
	}
}

// providerMirror lays the built provider out as a filesystem mirror at the
// given version, under both registries' addresses, and returns a CLI
// configuration that installs platform/platform from it and nothing from
// anywhere else.
func providerMirror(t *testing.T, version string) string {
	t.Helper()
	built, err := os.ReadFile(filepath.Join(providerBinary(t), "terraform-provider-platform"))
	if err != nil {
		t.Fatal(err)
	}
	mirror := t.TempDir()
	for _, host := range []string{"registry.terraform.io", "registry.opentofu.org"} {
		dir := filepath.Join(mirror, host, "platform", "platform", version, runtime.GOOS+"_"+runtime.GOARCH)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "terraform-provider-platform_v"+version), built, 0o755); err != nil { //nolint:gosec // an executable
			t.Fatal(err)
		}
	}
	rc := filepath.Join(t.TempDir(), "mirror.tfrc")
	cfg := fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path    = %q\n    include = [\"registry.terraform.io/platform/platform\", \"registry.opentofu.org/platform/platform\"]\n  }\n}\n", mirror)
	if err := os.WriteFile(rc, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return rc
}
