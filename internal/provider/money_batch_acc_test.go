package provider

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/platform/terraform-provider-platform/internal/client"
	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// payrollOf is a configuration of n crypto withdrawals, each with a
// ref_id derived from its arguments.
func payrollOf(n int) string {
	return fmt.Sprintf(`
resource "platform_crypto_withdrawal" "pay" {
  count               = %d
  profile_id          = "prof-1"
  destination_address = %q
  asset               = "BTC"
  crypto_network      = "BITCOIN"
  amount              = "0.0001"
  metadata            = { employee = "e-${count.index}" }
}
`, n, payoutAddress)
}

// requestsSince is the requests of each "METHOD /path" counter since
// before, the reads of single transfers summed under getTransferByID.
func requestsSince(emu *emulator.Server, before map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range emu.Counters.AllRequests() {
		if d := v - before[k]; d > 0 {
			if strings.HasPrefix(k, "GET /v2"+client.PathTransfers+"/") {
				k = getTransferByID
			}
			out[k] += d
		}
	}
	return out
}

const getTransferByID = "GET /v2/transfer/transfers/{id}"

// TestAccCryptoWithdrawal_payrollInFewRequests: against the emulator
// enforcing the published limits (window and throttle scaled to 30 s, a
// quarter of each rate left to the provider) at rate_budget 0.25, a
// payroll's plan looks its ref_ids up in list requests of many, its saved
// plan applies at -parallelism=30 sending each withdrawal exactly once,
// and the plans with the payroll in state read it in list requests too
// (the emulator answering in 100 ms, as a service across a network does),
// the withdrawals in a final state not at all; nothing draws a 429.
func TestAccCryptoWithdrawal_payrollInFewRequests(t *testing.T) {
	t.Parallel()
	const n = 120
	opts := emulator.Options{RateLimits: &emulator.RateLimits{Window: 30 * time.Second, Throttle: 30 * time.Second, Share: 0.25}}
	checkContract(t, &opts)
	emu := emulator.StartTest(t, opts)
	// The service answers across a network: a tenth of a second, while
	// which the lookups and reads of other objects gather. (On this
	// host's loopback a request is gone in a fraction of a millisecond,
	// and few would gather.) How many gather depends on how fast
	// Terraform plans on a busy machine too, so the bounds leave room:
	// at least three objects a request on average.
	emu.Faults.SetLatency(100 * time.Millisecond)
	w := newCLIWorkdir(t)
	w.write(emulatorProviderBlock(emu, fmt.Sprintf("  rate_budget    = 0.25\n  rate_state_dir = %q\n", t.TempDir())), payrollOf(n))
	check := func(step string, got map[string]int, want map[string]func(int) bool) {
		t.Helper()
		if b := emu.RateLimitsState().Breaches; b != 0 {
			t.Fatalf("%s: %d breaches of the limits, want none", step, b)
		}
		for k, ok := range want {
			if !ok(got[k]) {
				t.Errorf("%s: %d %s", step, got[k], k)
			}
		}
		keys := make([]string, 0, len(got))
		for k := range got {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			t.Logf("%s: %d %s", step, got[k], k)
		}
	}
	atMost := func(m int) func(int) bool { return func(v int) bool { return v <= m } }
	exactly := func(m int) func(int) bool { return func(v int) bool { return v == m } }
	const lists = "GET /v2" + client.PathTransfers

	before := emu.Counters.AllRequests()
	w.mustRun(0, "plan", "-parallelism=30", "-out=payroll.tfplan")
	check("plan", requestsSince(emu, before), map[string]func(int) bool{
		lists: atMost(n / 3), cwPostKey: exactly(0), getTransferByID: exactly(0),
	})

	before = emu.Counters.AllRequests()
	w.mustRun(0, "apply", "-parallelism=30", "payroll.tfplan")
	check("apply", requestsSince(emu, before), map[string]func(int) bool{cwPostKey: exactly(n)})
	if got := len(emu.Transfers()); got != n {
		t.Fatalf("%d transfers at the emulator, want %d", got, n)
	}

	// A third of the payroll completes; the next refresh reads it once
	// more (the state says PENDING), and then no more.
	for i, tr := range emu.Transfers() {
		if i%3 == 0 {
			emu.SetTransferStatus(tr.ID, client.TransferStatusCompleted, "")
		}
	}
	for i := range 2 {
		before = emu.Counters.AllRequests()
		w.mustRun(0, "apply", "-auto-approve", "-parallelism=30")
		check(fmt.Sprintf("refresh %d", i+1), requestsSince(emu, before), map[string]func(int) bool{
			lists: atMost(n / 4), cwPostKey: exactly(0), getTransferByID: atMost(n / 4),
		})
	}
	completed := 0
	for i := range n {
		if stateOf(t, w, fmt.Sprintf("platform_crypto_withdrawal.pay[%d]", i))["status"] == client.TransferStatusCompleted {
			completed++
		}
	}
	if want := (n + 2) / 3; completed != want {
		t.Errorf("%d withdrawals COMPLETED in state, want %d", completed, want)
	}

	// Two plans in a row read only the PENDING ones, in lists of many.
	for i := range 2 {
		before = emu.Counters.AllRequests()
		w.mustRun(0, "plan", "-detailed-exitcode", "-parallelism=30")
		check(fmt.Sprintf("plan in state %d", i+1), requestsSince(emu, before), map[string]func(int) bool{
			lists: atMost(n / 4), cwPostKey: exactly(0), getTransferByID: atMost(n / 4),
		})
	}
	if got := len(emu.Transfers()); got != n {
		t.Errorf("%d transfers at the emulator, want %d", got, n)
	}
}
