package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestMain(m *testing.M) {
	code := runTests(m)
	// The provider binary of the CLI tests (cli_harness_test.go).
	if providerBinaryBuilt && providerBinaryDir != "" {
		_ = os.RemoveAll(providerBinaryDir)
	}
	os.Exit(code)
}

// runTests runs the tests away from the user's rate budget: the default
// rate state folder of every provider of the run (in this process, and
// under Terraform, which inherits the environment) lies in a folder of
// the run's, and a provider given no folder shares the run's
// (PLATFORM_RATE_STATE_DIR), never the user's; each CLI test gives its
// processes a folder of their own (newCLIWorkdir). The run fails if
// anything was written into the default folder.
func runTests(m *testing.M) int {
	sandbox, err := os.MkdirTemp("", "platform-provider-test-env-") //nolint:usetesting // Outlives every test.
	if err != nil {
		fmt.Fprintln(os.Stderr, "TestMain:", err)
		return 1
	}
	defer func() { _ = os.RemoveAll(sandbox) }()
	if err := isolateRateState(sandbox); err != nil {
		fmt.Fprintln(os.Stderr, "TestMain:", err)
		return 1
	}
	code := m.Run()
	if err := defaultRateStateUntouched(sandbox); err != nil {
		fmt.Fprintln(os.Stderr, "FAIL:", err)
		return 1
	}
	return code
}

// testRateDefaults are the folders of the sandbox where the default rate
// state folder of the run's providers lies (the runtime folder, and the
// cache folder should a test clear the runtime one).
var testRateDefaults = []string{"run", "cache"}

// isolateRateState points the environment of the run at the sandbox: the
// runtime and cache folders the default rate state folder is made in, and
// PLATFORM_RATE_STATE_DIR. Go's build cache stays where it was.
func isolateRateState(sandbox string) error {
	if os.Getenv("GOCACHE") == "" {
		if base, err := os.UserCacheDir(); err == nil {
			if err := os.Setenv("GOCACHE", filepath.Join(base, "go-build")); err != nil {
				return err
			}
		}
	}
	env := map[string]string{
		"XDG_RUNTIME_DIR": filepath.Join(sandbox, "run"),
		"XDG_CACHE_HOME":  filepath.Join(sandbox, "cache"),
		EnvRateStateDir:   filepath.Join(sandbox, "rates"),
	}
	for k, v := range env {
		if err := os.MkdirAll(v, 0o700); err != nil {
			return err
		}
		if err := os.Setenv(k, v); err != nil {
			return err
		}
	}
	return nil
}

// defaultRateStateUntouched fails when a provider of the run used the
// default rate state folder: a test that would share the user's budget.
func defaultRateStateUntouched(sandbox string) error {
	for _, d := range testRateDefaults {
		dir := filepath.Join(sandbox, d, "terraform-provider-platform")
		if _, err := os.Lstat(dir); err == nil {
			return fmt.Errorf("a test wrote into the default rate state folder (%s): every provider "+
				"a test starts must be given a folder of its own (rate_state_dir or %s)", dir, EnvRateStateDir)
		}
	}
	return nil
}
