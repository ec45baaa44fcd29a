package provider

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// Configuration that terraform query generates for fiat accounts made
// through the API is complete but for the sensitive numbers, which the
// docs say to fill in: the list leaves the owner and addresses out, so the
// list resource reads each account in full. With the numbers filled in, the
// plan imports the account and changes nothing.
func TestAccFiatAccount_queryGeneratesValidConfig(t *testing.T) {
	t.Parallel()
	emu := emulator.StartTest(t, emulator.Options{})
	w := queryWorkdir(t)
	example, err := os.ReadFile(filepath.Join(examplesRoot, "resources", "platform_fiat_account", "resource.tf"))
	if err != nil {
		t.Fatal(err)
	}
	w.write(emulatorProviderBlock(emu, ""), string(example))
	w.mustRun(0, "apply", "-auto-approve")
	w.mustRun(0, "state", "rm", "platform_fiat_account.payroll")
	w.write(emulatorProviderBlock(emu, ""), "")
	writeQuery(t, w, listAll("platform_fiat_account"))
	w.mustRun(0, "query", "-generate-config-out=generated.tf")
	gen, err := os.ReadFile(filepath.Join(w.dir, "generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	g := string(gen)
	for _, want := range []string{`first_name = "Ada"`, `address1 = "456 Main Street"`, `bank_name = "Customers Bank"`} {
		if !strings.Contains(strings.Join(strings.Fields(g), " "), want) {
			t.Errorf("generated configuration lacks %s:\n%s", want, g)
		}
	}
	if strings.Contains(g, "123456789012") || strings.Contains(g, "031302971") {
		t.Errorf("generated configuration holds a sensitive number:\n%s", g)
	}
	// Fill in the numbers, as the docs say.
	fill := func(attr, value string) {
		re := regexp.MustCompile(`(?m)^(\s*` + attr + `\s*=\s*)null.*$`)
		if !re.MatchString(g) {
			t.Fatalf("generated configuration has no %s to fill in:\n%s", attr, g)
		}
		g = re.ReplaceAllString(g, `${1}"`+value+`"`)
	}
	fill("account_number", "123456789012")
	fill("routing_number", "031302971")
	if err := os.WriteFile(filepath.Join(w.dir, "generated.tf"), []byte(g), 0o600); err != nil {
		t.Fatal(err)
	}
	out := flatOutput(w.mustRun(0, "plan").output())
	if want := "Plan: 1 to import, 0 to add, 0 to change, 0 to destroy."; !strings.Contains(out, want) {
		t.Errorf("the plan of the generated configuration does not say %q:\n%s", want, out)
	}
}
