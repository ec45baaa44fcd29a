// Command policybundle writes the one-file policies of the engines that
// attach a policy as one file (Scalr, Spacelift): the money policy of
// policies/platform/money.rego under the package the engine reads, with its
// settings at its top, since these engines give a policy no data document.
// make generate runs it from the root of the repository; its test fails
// when a bundle is not what it writes.
package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

// core is the policy every bundle is made of.
const core = "policies/platform/money.rego"

// engines are the bundles: the file written and the package its engine
// reads the rule deny of.
var engines = []struct {
	name, file, pkg string
}{
	{"Scalr", "policies/scalr/platform_money.rego", "terraform"},
	{"Spacelift", "policies/spacelift/platform_money.rego", "spacelift"},
}

const (
	corePackage  = "package platform.money\n"
	coreSettings = "settings := data.platform_policy\n"
)

// bundle is the core under package pkg, for the engine name, with its
// settings in the rule platform_policy at its top.
func bundle(src []byte, name, pkg string) ([]byte, error) {
	if bytes.Count(src, []byte(corePackage)) != 1 || bytes.Count(src, []byte(coreSettings)) != 1 {
		return nil, fmt.Errorf("%s: want one %q and one %q", core, corePackage, coreSettings)
	}
	head := fmt.Sprintf(`# Written by make generate from %s: the platform provider's money
# policy for %s in one file, under the package %s whose rule deny %s
# reads. Edit only the settings below, in your copy.

`, core, name, pkg, name)
	settings := fmt.Sprintf(`package %s

# The settings (docs/guides/policy-on-plans.md): %s gives a policy no data
# document, so they are here. For example:
#
#   platform_policy := {
#   	"max_plan_total": {"BTC": "1"},
#   	"max_per_transfer": {"BTC": "1"},
#   }
platform_policy := {}
`, pkg, name)
	out := bytes.Replace(src, []byte(corePackage), []byte(settings), 1)
	out = bytes.Replace(out, []byte(coreSettings), []byte("settings := platform_policy\n"), 1)
	return append([]byte(head), out...), nil
}

func run() error {
	src, err := os.ReadFile(core)
	if err != nil {
		return err
	}
	for _, e := range engines {
		b, err := bundle(src, e.name, e.pkg)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(e.file), 0o750); err != nil {
			return err
		}
		if err := os.WriteFile(e.file, b, 0o600); err != nil { //nolint:gosec // a path of the table above
			return err
		}
	}
	return nil
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "policybundle:", err)
		os.Exit(1)
	}
}
