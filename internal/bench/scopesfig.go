package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// Figure 9: the rate budget is a budget over the service's window, not a
// fixed spacing. A plan reading six data sources on six scopes asks six
// tokens of the token endpoint (1/s, averaged over 5 minutes); run twice
// back to back at the default rate_budget, the second plan's tokens come
// from the same window as the first's. Its time is set against one plan
// at rate_budget = 1 with a fresh state folder (no turn taken yet).

// scopesRuns is how many times each side of figure 9 is measured.
const scopesRuns = 3

// sixScopes is six list data sources, each needing a scope of its own.
const sixScopes = `
data "platform_fiat_accounts" "a" {}
data "platform_deposit_addresses" "b" {}
data "platform_transfers" "c" {
  max_items = 10
}
data "platform_transfer_limits" "d" {}
data "platform_crypto_destination_addresses" "e" {}
data "platform_reward_claims" "f" {}
`

// figureScopes is figure 9.
func (b *bench) figureScopes(ctx context.Context) error {
	what := "plan of six data sources on six scopes: the second of two back to back at the default rate_budget, " +
		fmt.Sprintf("median of %d", scopesRuns)
	if b.skippedWithoutTerraform("9", what) {
		return nil
	}
	emu, ep, err := startEmulator(emulator.Options{Seed: 1})
	if err != nil {
		return err
	}
	defer emu.Close()
	// workdir is a configuration of the six at budget (0: the default),
	// pacing through a state folder of its own.
	workdir := func(name string, budget float64) (string, error) {
		setting := fmt.Sprintf("provider \"platform\" {\n  rate_state_dir = %q\n", filepath.Join(b.tmp, "rates-"+name))
		if budget > 0 {
			setting += fmt.Sprintf("  rate_budget    = %g\n", budget)
		}
		return b.tf.workdir("scopes-"+name, strings.Replace(providerBlock(ep), "provider \"platform\" {\n", setting, 1)+sixScopes)
	}
	plan := func(dir string) (time.Duration, int, error) {
		before := emu.Counters.TotalTokens()
		r, err := b.tf.run(ctx, dir, false, nil, "plan", "-input=false", "-no-color")
		if err != nil {
			return 0, 0, err
		}
		return r.elapsed, emu.Counters.TotalTokens() - before, nil
	}
	progress("figure 9: %d pairs of back-to-back plans of six scopes at the default budget, and %d fresh plans at rate_budget = 1", scopesRuns, scopesRuns)
	var seconds, fresh, firsts []time.Duration
	tokens := 0
	for i := range scopesRuns {
		dir, err := workdir(fmt.Sprintf("default-%d", i), 0)
		if err != nil {
			return err
		}
		first, n1, err := plan(dir)
		if err != nil {
			return err
		}
		second, n2, err := plan(dir)
		if err != nil {
			return err
		}
		firsts, seconds, tokens = append(firsts, first), append(seconds, second), max(tokens, n1, n2)
		dir, err = workdir(fmt.Sprintf("whole-%d", i), 1)
		if err != nil {
			return err
		}
		d, _, err := plan(dir)
		if err != nil {
			return err
		}
		fresh = append(fresh, d)
	}
	ms, mf := median(seconds), median(fresh)
	b.add(row{"9", what + fmt.Sprintf(" (the first %s; at most %d tokens a plan)", fmtDur(median(firsts)), tokens),
		fmtDur(ms), fmtDur(mf) + " (one plan at rate_budget = 1, fresh state folder)",
		ratio(ms.Seconds(), mf.Seconds()), "at most 1.5 ×: " + met(ms <= mf*3/2)})
	return nil
}
