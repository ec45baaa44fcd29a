package provider

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// Tests that must kill Terraform and the provider, or run several Terraform
// commands on one working directory the way a pipeline does, run the CLI
// against the provider built as a binary and installed through
// dev_overrides (for the Terraform and the OpenTofu registry address), not
// against an in-process server.

var (
	providerBinaryOnce sync.Once
	providerBinaryDir  string
	// providerBinaryBuilt says the run built providerBinaryDir, which
	// TestMain then removes.
	providerBinaryBuilt bool
	errProviderBinary   error
)

// EnvRotateTypes, set to 1, makes a matrix of money types and scenarios
// of a CLI-dependent test run as many pairs as its longer side, not every
// pair: every type and every scenario once (inMatrix). make test sets it
// for the passes of the CLIs other than the whole suite's, which runs
// every pair.
const EnvRotateTypes = "PLATFORM_ACC_ROTATE_TYPES"

// inMatrix reports whether the pair of type k of types and scenario j of
// scenarios runs: always, unless EnvRotateTypes is 1; then the pairs are
// those of 0, 1, ... up to the longer side, each taken modulo both sides.
func inMatrix(k, types, j, scenarios int) bool {
	if os.Getenv(EnvRotateTypes) != "1" {
		return true
	}
	if types >= scenarios {
		return j == k%scenarios
	}
	return k == j%types
}

// EnvTestProviderDir names a folder holding terraform-provider-platform
// built as providerBinary builds it (rateScale=1000): the make targets
// build it once for every acceptance pass (acc-build), and the runs use it
// instead of building their own.
const EnvTestProviderDir = "PLATFORM_TEST_PROVIDER_DIR"

// providerBinary builds the provider once per test run (or takes the one
// EnvTestProviderDir names) and returns the directory that holds it.
func providerBinary(t *testing.T) string {
	t.Helper()
	providerBinaryOnce.Do(func() {
		if dir := os.Getenv(EnvTestProviderDir); dir != "" {
			fi, err := os.Stat(filepath.Join(dir, "terraform-provider-platform"))
			if err != nil || fi.Mode()&0o111 == 0 {
				errProviderBinary = errors.New(EnvTestProviderDir + "=" + dir + " holds no executable terraform-provider-platform")
				return
			}
			providerBinaryDir = dir
			return
		}
		providerBinaryBuilt = true
		// Shared by every test of the run, removed by TestMain.
		dir, err := os.MkdirTemp("", "platform-provider-bin-") //nolint:usetesting // outlives the test that builds it

		if err != nil {
			errProviderBinary = err
			return
		}
		providerBinaryDir = dir
		// Paced at a thousand times the published rates (rateScale), as
		// the in-process provider of the tests is (testRates).
		cmd := exec.CommandContext(context.Background(), "go", "build",
			"-ldflags", "-X github.com/platform/terraform-provider-platform/internal/provider.rateScale=1000",
			"-o", filepath.Join(dir, "terraform-provider-platform"), ".")
		cmd.Dir = filepath.Join("..", "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			errProviderBinary = errors.New("go build: " + err.Error() + "\n" + string(out))
		}
	})
	if errProviderBinary != nil {
		t.Fatalf("building the provider: %v", errProviderBinary)
	}
	return providerBinaryDir
}

// cliWorkdir is a working directory with its CLI configuration.
type cliWorkdir struct {
	t   *testing.T
	tf  string
	dir string
	env []string
}

// newCLIWorkdir makes a working directory whose Terraform (or OpenTofu)
// commands use the built provider.
func newCLIWorkdir(t *testing.T) *cliWorkdir {
	t.Helper()
	requireTFAcc(t)
	return newCLIWorkdirFor(t, providerBinary(t))
}

// newCLIWorkdirFor is newCLIWorkdir with the provider built in bin.
func newCLIWorkdirFor(t *testing.T, bin string) *cliWorkdir {
	t.Helper()
	requireTFAcc(t)
	dir := t.TempDir()
	rc := filepath.Join(t.TempDir(), "cli.tfrc")
	cfg := "provider_installation {\n  dev_overrides {\n" +
		"    \"registry.terraform.io/platform/platform\" = \"" + bin + "\"\n" +
		"    \"registry.opentofu.org/platform/platform\" = \"" + bin + "\"\n" +
		"  }\n  direct {}\n}\n"
	if err := os.WriteFile(rc, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	// Its provider processes share a rate budget of their own, never the
	// user's, nor another test's.
	env := append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1",
		EnvRateStateDir+"="+t.TempDir())
	return &cliWorkdir{t: t, tf: terraformBinary(t), dir: dir, env: env}
}

// write writes the configuration main.tf: a required_providers block
// naming platform/platform, the provider block and body.
func (w *cliWorkdir) write(providerBlock, body string) {
	w.t.Helper()
	cfg := "terraform {\n  required_providers {\n    platform = { source = \"platform/platform\" }\n  }\n}\n" +
		providerBlock + body
	if err := os.WriteFile(filepath.Join(w.dir, "main.tf"), []byte(cfg), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// cliResult is the outcome of one command.
type cliResult struct {
	stdout, stderr string
	code           int
}

func (r cliResult) output() string { return r.stdout + r.stderr }

// command prepares a command in the working directory, in its own process
// group so that a test can kill Terraform and its provider together.
func (w *cliWorkdir) command(args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	// -no-color goes after the (sub)command and before its arguments.
	n := 1
	if args[0] == "state" {
		n = 2
	}
	cmd := exec.CommandContext(w.t.Context(), w.tf, append(args[:n:n], append([]string{"-no-color"}, args[n:]...)...)...)
	cmd.Dir = w.dir
	cmd.Env = w.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	return cmd, &stdout, &stderr
}

// run runs a command to its end.
func (w *cliWorkdir) run(args ...string) cliResult {
	w.t.Helper()
	cmd, stdout, stderr := w.command(args...)
	err := cmd.Run()
	code := 0
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		code = exitErr.ExitCode()
	case err != nil:
		w.t.Fatalf("%s %s: %v", w.tf, strings.Join(args, " "), err)
	}
	return cliResult{stdout: stdout.String(), stderr: stderr.String(), code: code}
}

// mustRun runs a command and fails the test unless it exits with want.
func (w *cliWorkdir) mustRun(want int, args ...string) cliResult {
	w.t.Helper()
	r := w.run(args...)
	if r.code != want {
		w.t.Fatalf("%s %s: exit %d, want %d\n%s", filepath.Base(w.tf), strings.Join(args, " "), r.code, want, r.output())
	}
	return r
}

// replayAnswers are the emulator's answers to a reused withdrawal ref_id,
// for tests that run under each.
var replayAnswers = []emulator.ReplayAnswer{emulator.ReplayConflict, emulator.ReplayOriginal}

// forEachReplayAnswer runs f as a subtest under each replay answer.
func forEachReplayAnswer(t *testing.T, f func(t *testing.T, replay emulator.ReplayAnswer)) {
	for _, replay := range replayAnswers {
		t.Run(replay.String(), func(t *testing.T) {
			t.Parallel()
			f(t, replay)
		})
	}
}

// TestInMatrixCoversEverySide checks that, rotated, a matrix runs as many
// pairs as its longer side and meets every type and every scenario, and
// that otherwise it runs every pair.
func TestInMatrixCoversEverySide(t *testing.T) {
	for _, rotate := range []string{"", "1"} {
		t.Setenv(EnvRotateTypes, rotate)
		for _, size := range [][2]int{{8, 9}, {8, 3}, {3, 8}, {5, 5}, {1, 4}, {4, 1}} {
			types, scenarios := size[0], size[1]
			pairs := 0
			seenType, seenScenario := map[int]bool{}, map[int]bool{}
			for k := range types {
				for j := range scenarios {
					if inMatrix(k, types, j, scenarios) {
						pairs++
						seenType[k], seenScenario[j] = true, true
					}
				}
			}
			want := types * scenarios
			if rotate == "1" {
				want = max(types, scenarios)
			}
			if pairs != want || len(seenType) != types || len(seenScenario) != scenarios {
				t.Errorf("rotate %q, %d types and %d scenarios: %d pairs meeting %d types and %d scenarios, want %d pairs meeting all",
					rotate, types, scenarios, pairs, len(seenType), len(seenScenario), want)
			}
		}
	}
}
