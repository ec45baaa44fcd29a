package provider

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// maxFeeWithdrawal is a withdrawal of 1.5 ETH with max_fee.
func maxFeeWithdrawal(name, destination, maxFee string) string {
	return `
resource "platform_crypto_withdrawal" "` + name + `" {
  profile_id          = "prof-1"
  destination_address = "` + destination + `"
  asset               = "ETH"
  crypto_network      = "ETHEREUM"
  amount              = "1.5"
  max_fee             = "` + maxFee + `"
}
`
}

// max_fee: a quote above it fails the apply with both figures and sends
// nothing; one within it sends one withdrawal with the quote's fee_id,
// paying exactly the quote; an expired quote is quoted again once.
func TestAccCryptoWithdrawal_maxFee(t *testing.T) {
	t.Parallel()
	emu := emulator.StartTest(t, emulator.Options{})
	emu.SetWithdrawalFee("ETH", decimal.RequireFromString("0.002"))
	const quotes = "POST /v2/transfer/fees/crypto-withdrawal"
	w := newCLIWorkdir(t)
	w.write(emulatorProviderBlock(emu, ""), maxFeeWithdrawal("a", "0xaaaa", "0.0015"))
	out := strings.Join(strings.Fields(w.mustRun(1, "apply", "-auto-approve").output()), " ")
	if !strings.Contains(out, "Crypto withdrawal not sent: fee above max_fee") ||
		!strings.Contains(out, "is 0.002 ETH, above max_fee 0.0015 ETH") {
		t.Errorf("the refused apply does not name both figures:\n%s", out)
	}
	if q, p := emu.Counters.Requests(quotes), emu.Counters.Requests(cwPostKey); q != 1 || p != 0 {
		t.Fatalf("%d quotes and %d withdrawal POSTs, want 1 and 0", q, p)
	}

	// Within max_fee: one quote, one withdrawal with its fee_id.
	w.write(emulatorProviderBlock(emu, ""), maxFeeWithdrawal("a", "0xaaaa", "0.0020"))
	w.mustRun(0, "apply", "-auto-approve")
	if q, p := emu.Counters.Requests(quotes), emu.Counters.Requests(cwPostKey); q != 2 || p != 1 {
		t.Errorf("%d quotes and %d withdrawal POSTs, want 2 and 1", q, p)
	}
	st := stateOf(t, w, "platform_crypto_withdrawal.a")
	fq := emu.FeeQuotes()
	if len(fq) != 2 || emu.FeeQuoteUsedBy(fq[1].ID) != st["ref_id"] || st["fee"] != fq[1].Fee || st["max_fee"] != "0.0020" ||
		st["fee_id"] != nil {
		t.Errorf("state %v; quotes %+v used by %q", st, fq, emu.FeeQuoteUsedBy(fq[len(fq)-1].ID))
	}
	// Changing max_fee of a sent withdrawal only records it.
	w.write(emulatorProviderBlock(emu, ""), maxFeeWithdrawal("a", "0xaaaa", "0.003"))
	plan := w.mustRun(2, "plan", "-detailed-exitcode").output()
	if !strings.Contains(plan, "1 to change, 0 to destroy") {
		t.Errorf("changing max_fee plans:\n%s", plan)
	}

	// An expired quote is quoted again once.
	emu.ExpireNextFeeQuotes(1)
	w.write(emulatorProviderBlock(emu, ""), maxFeeWithdrawal("a", "0xaaaa", "0.003")+maxFeeWithdrawal("b", "0xbbbb", "0.0020"))
	w.mustRun(0, "apply", "-auto-approve")
	if q, p := emu.Counters.Requests(quotes), emu.Counters.Requests(cwPostKey); q != 4 || p != 3 {
		t.Errorf("after an expired quote: %d quotes and %d withdrawal POSTs, want 4 and 3", q, p)
	}
	if b := stateOf(t, w, "platform_crypto_withdrawal.b"); b["fee"] != "0.002" || len(emu.Transfers()) != 2 {
		t.Errorf("withdrawal b %v, %d withdrawals at the emulator", b, len(emu.Transfers()))
	}
	w.mustRun(0, "plan", "-detailed-exitcode")
}
