package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// Figure 8: a payroll at scale, against the emulator enforcing the
// published limits (the published window, the throttle scaled to 30 s,
// the budget's share of each rate left to the provider: the rest is the
// address's other traffic), with the provider at the published rates and
// that rate_budget:
//   - apply of n withdrawals (plan -out, then the saved plan) at
//     -parallelism=30: 429s, and wall time against the rate floor
//     n / (20 × budget) plus Terraform's own time for n terraform_data;
//   - the plan of n new withdrawals and of n in state: requests per object;
//   - two applies of n/2 at once on one host (one rate_state_dir): 429s
//     and wall time against the same floor.
//
// By default the emulator answers on loopback, in well under a
// millisecond: the lookups and reads gather only while a request waits for
// its turn in the budget, not for the network, so a plan gathers the least
// there; -payroll-latency makes it answer as a service across a network.

// payrollParallelism is the -parallelism of the payroll's commands.
const payrollParallelism = "-parallelism=30"

// payrollConfig is n crypto withdrawals named name, each with its own
// derived ref_id.
func payrollConfig(name string, n int) string {
	return fmt.Sprintf(`
resource "platform_crypto_withdrawal" %q {
  count               = %d
  profile_id          = "prof-1"
  destination_address = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"
  asset               = "BTC"
  crypto_network      = "BITCOIN"
  amount              = "0.0001"
  metadata            = { employee = "%s-${count.index}" }
}
`, name, n, name)
}

// figurePayroll is figure 8 with p.n withdrawals at rate_budget p.budget.
func (b *bench) figurePayroll(ctx context.Context, p payrollOptions) error {
	n, budget := p.n, p.budget
	at := "on loopback"
	if p.latency > 0 {
		at = "answering in " + p.latency.String()
	}
	floor := time.Duration(float64(n) / (20 * budget) * float64(time.Second))
	whats := []string{
		fmt.Sprintf("payroll: apply of %d withdrawals at -parallelism=30, rate_budget %g, emulator %s (floor %s + terraform_data)", n, budget, at, fmtDur(floor)),
		fmt.Sprintf("payroll: plan of %d new withdrawals, requests per withdrawal", n),
		fmt.Sprintf("payroll: plan of %d withdrawals in state (PENDING), requests per withdrawal", n),
		fmt.Sprintf("payroll: two applies of %d at once on one host", n/2),
	}
	if b.skippedWithoutTerraform("8", whats...) {
		return nil
	}
	limits := &emulator.RateLimits{Throttle: 30 * time.Second, Share: budget}
	emu, ep, err := startEmulator(emulator.Options{RateLimits: limits})
	if err != nil {
		return err
	}
	defer emu.Close()
	emu.Faults.SetLatency(p.latency)
	provider := strings.Replace(providerBlock(ep), "provider \"platform\" {\n", fmt.Sprintf(
		"provider \"platform\" {\n  rate_budget    = %g\n  rate_state_dir = %q\n", budget, filepath.Join(b.tmp, "rate-state")), 1)
	breaches := func(step string) error {
		if n := emu.RateLimitsState().Breaches; n != 0 {
			return fmt.Errorf("%s: %d breaches of the limits (429s)", step, n)
		}
		return nil
	}

	// Terraform's own time for n objects.
	dataDir, err := b.tf.workdir("payroll-data", fmt.Sprintf(
		"resource \"terraform_data\" \"pay\" {\n  count = %d\n  input = \"e-${count.index}\"\n}\n", n))
	if err != nil {
		return err
	}
	progress("figure 8: terraform apply of %d terraform_data", n)
	data, err := b.tf.run(ctx, dataDir, false, nil, "apply", "-input=false", "-no-color", "-auto-approve", payrollParallelism)
	if err != nil {
		return err
	}

	dir, err := b.tf.workdir("payroll", provider+payrollConfig("pay", n))
	if err != nil {
		return err
	}
	// step runs one terraform command in dir on counters reset, and fails
	// on any breach of the limits during it.
	step := func(what, command string, args ...string) (*tfRun, error) {
		emu.Counters.Reset()
		run, err := b.tf.run(ctx, dir, false, nil, append([]string{command, "-input=false", "-no-color", payrollParallelism}, args...)...)
		if err != nil {
			return nil, err
		}
		return run, breaches(what)
	}
	progress("figure 8: terraform plan of %d new withdrawals", n)
	if _, err := step("plan", "plan", "-out=payroll.tfplan"); err != nil {
		return err
	}
	planNew := emu.Counters.Snapshot()

	progress("figure 8: terraform apply of the saved plan (floor %s)", fmtDur(floor))
	apply, err := step("apply", "apply", "payroll.tfplan")
	if err != nil {
		return err
	}
	posts := emu.Counters.Requests("POST /v2/transfer/crypto-withdrawals")
	if posts != n || len(emu.Transfers()) != n {
		return fmt.Errorf("apply: %d withdrawal POSTs and %d transfers, want %d", posts, len(emu.Transfers()), n)
	}
	sent := sentOver(emu.Transfers())

	progress("figure 8: terraform plan of %d withdrawals in state", n)
	if _, err := step("plan in state", "plan", "-detailed-exitcode"); err != nil {
		return err
	}
	planState := emu.Counters.Snapshot()

	progress("figure 8: two applies of %d at once (floor %s)", n/2, fmtDur(floor))
	var dirs []string
	for _, name := range []string{"left", "right"} {
		d, err := b.tf.workdir("payroll-"+name, provider+payrollConfig(name, n/2))
		if err != nil {
			return err
		}
		dirs = append(dirs, d)
	}
	emu.Counters.Reset()
	var (
		wg   sync.WaitGroup
		errs = make([]error, len(dirs))
	)
	start := time.Now()
	for i, d := range dirs {
		wg.Go(func() {
			_, errs[i] = b.tf.run(ctx, d, false, nil, "apply", "-input=false", "-no-color", "-auto-approve", payrollParallelism)
		})
	}
	wg.Wait()
	both := time.Since(start)
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if err := breaches("two applies"); err != nil {
		return err
	}
	if got := emu.Counters.Requests("POST /v2/transfer/crypto-withdrawals"); got != n/2*2 {
		return fmt.Errorf("two applies: %d withdrawal POSTs, want %d", got, n/2*2)
	}

	bound := floor*115/100 + data.elapsed
	b.add(row{"8", whats[0], fmt.Sprintf("%s (the withdrawals sent over %s), no 429", fmtDur(apply.elapsed), fmtDur(sent)),
		fmt.Sprintf("%s floor + %s terraform_data", fmtDur(floor), fmtDur(data.elapsed)),
		ratio(apply.elapsed.Seconds(), (floor + data.elapsed).Seconds()),
		"at most 1.15 × floor + terraform_data: " + met(apply.elapsed <= bound)})
	perObject := func(s emulator.CountersSnapshot) (string, float64) {
		lists := s.Requests["GET /v2/transfer/transfers"]
		byID := 0
		for k, v := range s.Requests {
			if strings.HasPrefix(k, "GET /v2/transfer/transfers/") {
				byID += v
			}
		}
		reads := lists + byID
		return fmt.Sprintf("%.3f (%d lists, %d reads by id; %d API requests in all), no 429",
			float64(reads)/float64(n), lists, byID, s.APIRequests), float64(reads)
	}
	v, reads := perObject(planNew)
	b.add(row{"8", whats[1], v, "1 (one lookup each)", ratio(reads, float64(n)), "at most 0.1: " + met(reads <= float64(n)/10)})
	v, reads = perObject(planState)
	b.add(row{"8", whats[2], v, "1 (one read each)", ratio(reads, float64(n)), "at most 0.1: " + met(reads <= float64(n)/10)})
	b.add(row{"8", whats[3], fmt.Sprintf("%s, no 429", fmtDur(both)),
		fmt.Sprintf("%s floor + %s terraform_data", fmtDur(floor), fmtDur(data.elapsed)),
		ratio(both.Seconds(), (floor + data.elapsed).Seconds()),
		"at most 1.15 × floor + terraform_data: " + met(both <= bound)})
	return nil
}

// sentOver is the time from the first transfer's creation to the last's at
// the emulator: the part of an apply the rate budget rules, the rest being
// Terraform's and the provider's own.
func sentOver(ts []emulator.Transfer) time.Duration {
	var first, last time.Time
	for _, t := range ts {
		if first.IsZero() || t.CreatedAt.Before(first) {
			first = t.CreatedAt
		}
		if t.CreatedAt.After(last) {
			last = t.CreatedAt
		}
	}
	return last.Sub(first)
}
