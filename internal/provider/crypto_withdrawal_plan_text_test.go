package provider

import (
	"strings"
	"testing"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

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
		`Applying sends a NEW crypto withdrawal: 0.2 BTC on BITCOIN to ` + floorAddress("pay") + ` from profile prof-1, ref_id `,
		`(derived from its arguments)`,
		`The crypto withdrawal already sent, ` + sent.ID + ` (0.1 BTC on BITCOIN to ` + floorAddress("pay") + ` from profile prof-1, ref_id ` + deref(sent.RefID) + `), stays sent: it is not reversed`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan does not say %q:\n%s", want, out)
		}
	}
}
