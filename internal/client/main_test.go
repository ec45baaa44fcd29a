package client

import (
	"fmt"
	"os"
	"testing"
)

// TestMain runs the tests away from the user's rate budget: the default
// rate state folder of a client a test makes without RateStateDir lies in
// a runtime folder of the run's, removed at its end, never in the user's.
func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	run, err := os.MkdirTemp("", "platform-client-test-run-") //nolint:usetesting // Outlives every test.
	if err != nil {
		fmt.Fprintln(os.Stderr, "TestMain:", err)
		return 1
	}
	defer func() { _ = os.RemoveAll(run) }()
	if err := os.Setenv("XDG_RUNTIME_DIR", run); err != nil {
		fmt.Fprintln(os.Stderr, "TestMain:", err)
		return 1
	}
	return m.Run()
}
