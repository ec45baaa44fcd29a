package provider

import (
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/go-version"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// haltedPlan is a plan of every kind of money movement: fiat withdrawals
// and an internal transfer (payroll), a crypto withdrawal, a stablecoin
// conversion and an orchestration rule.
var haltedPlan = payroll + engineWithdrawal("0.5") + usdConversion("convert", "25", "") + orConfig("")

// haltedAction is an action invocation, triggered by a terraform_data
// (Terraform 1.14+).
var haltedAction = engineRecords("0.1", "payday")

// moneyPosts counts the requests of the emulator that move money.
func moneyPosts(emu *emulator.Server) int {
	n := 0
	for _, key := range []string{cwPostKey, fwPostKey, itPostKey, scPostKey, orPostKey} {
		n += emu.Counters.Requests(key)
	}
	return n
}

// TestAccMoneyHalt: with PLATFORM_MONEY_HALT=incident-42, the plan of
// every kind of money movement (and of an action invocation, under
// Terraform 1.14+) is refused, naming the variable and its value; the
// apply of a plan saved before the switch is refused at send; no request
// that moves money reaches the service; a plan of data sources only goes
// on. Under Terraform 1.11, 1.15 and OpenTofu (registry.CLITests).
func TestAccMoneyHalt(t *testing.T) {
	t.Parallel()
	emu := startCore(t, emulator.Options{})
	w := newCLIWorkdir(t)
	config := haltedPlan
	actions := !terraformVersion(t, w.tf).LessThan(version.Must(version.NewVersion("1.14.0"))) &&
		!strings.Contains(w.tf, "tofu")
	if actions {
		config += haltedAction
	}
	w.write(emulatorProviderBlock(emu, ""), config)
	w.mustRun(0, "plan", "-out=before.tfplan")

	halted := *w
	halted.env = append(slices.Clone(w.env), EnvMoneyHalt+"=incident-42")
	emu.Counters.Reset()
	out := flatOutput(halted.mustRun(1, "plan").output())
	for _, want := range []string{`Money movements are halted`, `PLATFORM_MONEY_HALT is set ("incident-42")`,
		"unset PLATFORM_MONEY_HALT"} {
		if !strings.Contains(out, want) {
			t.Errorf("the halted plan does not say %q:\n%s", want, out)
		}
	}
	out = flatOutput(halted.mustRun(1, "apply", "before.tfplan").output())
	wantRefused := []string{"platform_crypto_withdrawal was refused", "platform_fiat_withdrawal was refused",
		"platform_internal_transfer was refused", "platform_stablecoin_conversion was refused",
		"platform_orchestration_rule was refused"}
	if actions {
		wantRefused = append(wantRefused, "platform_crypto_withdrawal action was refused")
	}
	for _, want := range append(wantRefused, "Money movements are halted at send") {
		if !strings.Contains(out, want) {
			t.Errorf("the apply of the plan saved before the switch does not say %q:\n%s", want, out)
		}
	}
	if n := moneyPosts(emu); n != 0 {
		t.Errorf("%d requests that move money reached the service while halted, want 0", n)
	}

	w.write(emulatorProviderBlock(emu, ""), `data "platform_transfers" "recent" {}`+"\n")
	halted.mustRun(0, "plan")
}
