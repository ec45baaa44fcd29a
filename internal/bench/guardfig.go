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
// every withdrawal guard, each to an approved address of a book of 300,
// with a service limit in another asset (so that the ticker is read): the
// reads of the address book, limits and prices the guards cost at the
// emulator, against one of each.
func (b *bench) figureGuards(ctx context.Context) error {
	const what = "terraform plan, 100 guarded withdrawals: reads of the address book, limits and tickers"
	if b.skippedWithoutTerraform("6", what) {
		return nil
	}
	// A book of 300: 200 seeded, and the 100 approved first-party
	// addresses the withdrawals go to, put through the API, each a valid
	// segwit address (the plan checks the checksum of every address on
	// BITCOIN).
	emu, ep, err := startEmulator(emulator.Options{Seed: 1, CryptoDestinationAddresses: 2 * guardedWithdrawals})
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
	pc, err := newPlainClient(ctx, ep, "transfer:write_crypto_destination_address")
	if err != nil {
		return err
	}
	defer pc.close()
	var book []string
	for i := range guardedWithdrawals {
		a, err := pc.putDestinationAddress(ctx, "BITCOIN", emulator.SegwitAddress(fmt.Sprintf("bench-guard-%d", i)))
		if err != nil {
			return err
		}
		if !emu.SetCryptoDestinationAddressStatus(a.ID, "APPROVED") {
			return fmt.Errorf("no address %s in the emulator's book", a.ID)
		}
		book = append(book, fmt.Sprintf("{ address = %q, network = %q }", a.Address, a.CryptoNetwork))
	}
	guard := `provider "platform" {
  withdrawal_guard {
    max_amount                 = { BTC = "1" }
    max_run_total              = { BTC = "100" }
    check_service_limits       = true
    approved_destinations_only = true
  }
`
	dir, err := b.tf.workdir("guards", strings.Replace(providerBlock(ep), "provider \"platform\" {\n", guard, 1)+fmt.Sprintf(`
locals {
  book = [
    %s,
  ]
}

resource "platform_crypto_withdrawal" "bench" {
  count               = %d
  profile_id          = "bench-profile"
  destination_address = local.book[count.index].address
  asset               = "BTC"
  crypto_network      = local.book[count.index].network
  amount              = "0.01"
}
`, strings.Join(book, ",\n    "), guardedWithdrawals))
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
	books := c.Requests["GET /v2/transfer/crypto-destination-addresses"]
	guardReads := books + limits + tickers
	b.add(row{"6", what, fmt.Sprintf("%d (%d address book, %d limits, %d tickers; %d API requests in all)", guardReads,
		books, limits, tickers, c.APIRequests), "3 (one of each)", ratio(float64(guardReads), 3),
		"at most 5: " + met(guardReads <= 5)})
	return nil
}
