package provider

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	code := m.Run()
	// The provider binary of the CLI tests (cli_harness_test.go).
	if providerBinaryDir != "" {
		_ = os.RemoveAll(providerBinaryDir)
	}
	os.Exit(code)
}
