package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// guardedWithdrawals is the number of withdrawals of figure 6.
const guardedWithdrawals = 100

// figureGuards is figure 6: terraform plan of 100 crypto withdrawals under
// every withdrawal guard, with a service limit in another asset (so that
// the ticker is read): the reads of limits and prices the guards cost at
// the emulator, against one of each.
func (b *bench) figureGuards(ctx context.Context) error {
	const what = "terraform plan, 100 guarded withdrawals: reads of limits and tickers"
	if b.tf == nil {
		b.add(row{"6", what, "skipped: " + b.tfMissing, "", "", ""})
		return nil
	}
	emu, ep, err := startEmulator(emulator.Options{Seed: 1})
	if err != nil {
		return err
	}
	defer emu.Close()
	if err := emu.SetTransferLimits([]emulator.TransferLimit{
		{RuleID: "daily-usd", PeriodSeconds: "86400", Limit: "100000000", LimitAsset: "USD"},
		{RuleID: "single-btc", PeriodSeconds: "0", Limit: "10", LimitAsset: "BTC"},
	}); err != nil {
		return err
	}
	guard := `provider "platform" {
  withdrawal_guard {
    max_amount           = { BTC = "1" }
    max_run_total        = { BTC = "100" }
    check_service_limits = true
  }
`
	dir, err := b.tf.workdir("guards", strings.Replace(providerBlock(ep), "provider \"platform\" {\n", guard, 1)+fmt.Sprintf(`
resource "platform_crypto_withdrawal" "bench" {
  count               = %d
  profile_id          = "bench-profile"
  destination_address = "bc1qbench${count.index}"
  asset               = "BTC"
  crypto_network      = "BITCOIN"
  amount              = "0.01"
}
`, guardedWithdrawals))
	if err != nil {
		return err
	}
	progress("figure 6: terraform plan of %d guarded withdrawals", guardedWithdrawals)
	emu.Counters.Reset()
	if _, err := b.tf.run(ctx, dir, true, []int{2}, "plan", "-input=false", "-no-color", "-parallelism=10", "-detailed-exitcode"); err != nil {
		return err
	}
	if _, err := b.tf.takeProviderUsage(); err != nil {
		return err
	}
	c := emu.Counters.Snapshot()
	limits := c.Requests["GET /v2/transfer/limits/utilizations"]
	tickers := 0
	for k, v := range c.Requests {
		if strings.HasPrefix(k, "GET /v2/markets/") {
			tickers += v
		}
	}
	if posts := c.Requests["POST /v2/transfer/crypto-withdrawals"]; posts != 0 {
		return fmt.Errorf("the plan sent %d withdrawals", posts)
	}
	guardReads := limits + tickers
	b.add(row{"6", what, fmt.Sprintf("%d (%d limits, %d tickers; %d API requests in all)", guardReads, limits, tickers, c.APIRequests),
		"2 (one of each)", ratio(float64(guardReads), 2), "at most 5: " + met(guardReads <= 5)})
	return nil
}
