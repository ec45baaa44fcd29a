package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// An amount more precise than its well-known asset's smallest unit is a
// warning at validation, on the resource and the action alike; within it,
// or for an asset the provider does not know, nothing is said.
func TestCryptoWithdrawal_precisionWarned(t *testing.T) {
	emu := emulator.StartTest(t, emulator.Options{})
	h := newActionHarness(t, emu, NewProtocol6Server, emulator.DefaultClientID, emulator.DefaultClientSecret, nil)
	for _, c := range []struct {
		asset, amount, want string
	}{
		{"BTC", "0.123456789", "has 9 decimals, and the smallest unit of BTC has 8"},
		{"eth", "1." + strings.Repeat("1", 30), "has 30 decimals, and the smallest unit of ETH has 18"},
		{"USD", "10.005", "has 3 decimals, and the smallest unit of USD has 2"},
		{"BTC", "0.12345678", ""},
		{"BTC", "0.123456780000", ""},
		{"XYZ", "0.123456789123456789123", ""},
	} {
		var warned []string
		for _, d := range h.validate(t, baseArgs(cwaArgs{"asset": c.asset, "amount": c.amount})) {
			if d.Severity == tfprotov6.DiagnosticSeverityError {
				t.Errorf("%s %s: error %s: %s", c.amount, c.asset, d.Summary, d.Detail)
			}
			if d.Severity == tfprotov6.DiagnosticSeverityWarning && d.Summary == "Amount more precise than its asset" {
				warned = append(warned, d.Detail)
			}
		}
		switch {
		case c.want == "" && len(warned) > 0:
			t.Errorf("%s %s: warned %q", c.amount, c.asset, warned)
		case c.want != "" && (len(warned) != 1 || !strings.Contains(warned[0], c.want)):
			t.Errorf("%s %s: warned %q, want one warning saying %q", c.amount, c.asset, warned, c.want)
		}
	}
}

// The plan of a resource shows the warning.
func TestAccCryptoWithdrawal_precisionWarnedAtPlan(t *testing.T) {
	t.Parallel()
	emu := emulator.StartTest(t, emulator.Options{})
	w := newCLIWorkdir(t)
	w.write(emulatorProviderBlock(emu, ""), btcWithdrawal("precise", "0.123456789", ""))
	out := flatOutput(w.mustRun(0, "plan").output())
	if want := `amount "0.123456789" has 9 decimals, and the smallest unit of BTC has 8`; !strings.Contains(out, want) {
		t.Errorf("the plan does not say %q:\n%s", want, out)
	}
}

// A replacement's plan says where the new money goes: what changed, the new
// withdrawal's amount, asset, network, destination, profile and ref_id,
// and that the withdrawal already sent stays sent.
func TestAccCryptoWithdrawal_replacementSaysWhereMoneyGoes(t *testing.T) {
	t.Parallel()
	emu := emulator.StartTest(t, emulator.Options{})
	w := newCLIWorkdir(t)
	w.write(emulatorProviderBlock(emu, ""), btcWithdrawal("pay", "0.1", ""))
	w.mustRun(0, "apply", "-auto-approve")
	sent := emu.Transfers()[0]
	w.write(emulatorProviderBlock(emu, ""), btcWithdrawal("pay", "0.2", ""))
	raw := w.mustRun(0, "plan").output()
	// The one argument that changed is the one reason given.
	if n := strings.Count(raw, "# forces replacement"); n != 1 || !strings.Contains(flatOutput(raw), `~ amount = "0.1" -> "0.2" # forces replacement`) {
		t.Errorf("%d attributes force the replacement, want amount alone:\n%s", n, raw)
	}
	out := flatOutput(raw)
	for _, want := range []string{
		`Changed: amount "0.1" → "0.2".`,
		`Applying sends a NEW crypto withdrawal: 0.2 BTC on BITCOIN to bc1qfloorpay from profile prof-1, ref_id `,
		`(derived from its arguments)`,
		`The crypto withdrawal already sent, ` + sent.ID + ` (0.1 BTC on BITCOIN to bc1qfloorpay from profile prof-1, ref_id ` + deref(sent.RefID) + `), stays sent: it is not reversed`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan does not say %q:\n%s", want, out)
		}
	}
}
