package provider

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/platform/terraform-provider-platform/internal/client"
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
	w.write(emulatorProviderBlock(emu, ""), maxFeeWithdrawal("a", "0xaaaa000000000000000000000000000000000000", "0.0015"))
	out := strings.Join(strings.Fields(w.mustRun(1, "apply", "-auto-approve").output()), " ")
	if !strings.Contains(out, "Crypto withdrawal not sent: fee above max_fee") ||
		!strings.Contains(out, "is 0.002 ETH, above max_fee 0.0015 ETH") {
		t.Errorf("the refused apply does not name both figures:\n%s", out)
	}
	if q, p := emu.Counters.Requests(quotes), emu.Counters.Requests(cwPostKey); q != 1 || p != 0 {
		t.Fatalf("%d quotes and %d withdrawal POSTs, want 1 and 0", q, p)
	}

	// Within max_fee: one quote, one withdrawal with its fee_id.
	w.write(emulatorProviderBlock(emu, ""), maxFeeWithdrawal("a", "0xaaaa000000000000000000000000000000000000", "0.0020"))
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
	w.write(emulatorProviderBlock(emu, ""), maxFeeWithdrawal("a", "0xaaaa000000000000000000000000000000000000", "0.003"))
	plan := w.mustRun(2, "plan", "-detailed-exitcode").output()
	if !strings.Contains(plan, "1 to change, 0 to destroy") {
		t.Errorf("changing max_fee plans:\n%s", plan)
	}

	// An expired quote is quoted again once.
	emu.ExpireNextFeeQuotes(1)
	w.write(emulatorProviderBlock(emu, ""), maxFeeWithdrawal("a", "0xaaaa000000000000000000000000000000000000", "0.003")+maxFeeWithdrawal("b", "0xbbbb000000000000000000000000000000000000", "0.0020"))
	w.mustRun(0, "apply", "-auto-approve")
	if q, p := emu.Counters.Requests(quotes), emu.Counters.Requests(cwPostKey); q != 4 || p != 3 {
		t.Errorf("after an expired quote: %d quotes and %d withdrawal POSTs, want 4 and 3", q, p)
	}
	if b := stateOf(t, w, "platform_crypto_withdrawal.b"); b["fee"] != "0.002" || len(emu.Transfers()) != 2 {
		t.Errorf("withdrawal b %v, %d withdrawals at the emulator", b, len(emu.Transfers()))
	}
	w.mustRun(0, "plan", "-detailed-exitcode")
}

// The fee the answer charged is checked too: a service that ignores the
// quote's fee_id, within max_fee or above it, fails the apply loudly,
// naming the difference, and the transfer it sent is recorded; nothing is
// sent twice.
func TestAccCryptoWithdrawal_maxFeeChargedFee(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, fee, total, want string
		// again is the exit code of the next apply: the transfer is
		// recorded (its fee is within max_fee), or fails the same way.
		again int
	}{
		{"not the quote", "0.0024", "1.5024", "the service charged the fee 0.0024 ETH, not the guaranteed fee 0.002 of the quote", 0},
		{"above max_fee", "0.01", "1.51", "the service charged the fee 0.01 ETH, 0.0075 above max_fee 0.0025", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var lie atomic.Bool
			lie.Store(true)
			fe := startFrontedEmulator(t, emulator.Options{}, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
				// The overcharge shows in the create's answer and in every
				// read of the transfer, by id or in a list (the lookup of its
				// ref_id), as a service that made it would.
				post := r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, client.PathCryptoWithdrawals)
				read := r.Method == http.MethodGet && (strings.Contains(r.URL.Path, client.PathTransfers+"/") ||
					strings.HasSuffix(r.URL.Path, client.PathTransfers))
				if (!post && !read) || !lie.Load() {
					next.ServeHTTP(w, r)
					return
				}
				rewriteAnswerFields(t, w, r, next, map[string]any{"fee": c.fee, "total": c.total})
			})
			fe.emu.SetWithdrawalFee("ETH", decimal.RequireFromString("0.002"))
			w := newCLIWorkdir(t)
			w.write(fe.providerBlock(""), maxFeeWithdrawal("a", "0xaaaa000000000000000000000000000000000000", "0.0025"))
			out := strings.Join(strings.Fields(w.mustRun(1, "apply", "-auto-approve").output()), " ")
			if !strings.Contains(out, "Crypto withdrawal sent with a fee it was not allowed") || !strings.Contains(out, c.want) {
				t.Errorf("the apply does not say %q:\n%s", c.want, out)
			}
			ts := fe.emu.Transfers()
			if len(ts) != 1 {
				t.Fatalf("%d transfers at the emulator, want 1", len(ts))
			}
			if st := stateOf(t, w, "platform_crypto_withdrawal.a"); st["id"] != ts[0].ID {
				t.Errorf("the state records %v, want the transfer %s that was sent", st["id"], ts[0].ID)
			}
			// The next apply records the transfer when its fee is within
			// max_fee (the quote is not its own) and fails again
			// otherwise; it never sends another.
			w.mustRun(c.again, "apply", "-auto-approve")
			if n := len(fe.emu.Transfers()); n != 1 {
				t.Errorf("%d transfers at the emulator after the next apply, want 1", n)
			}
		})
	}
}
