package client

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/platform/terraform-provider-platform/internal/emulator"
)

// TestPayrollWithinTheEnforcedLimits: against the emulator enforcing the
// published limits (window and throttle scaled to 30 s, a quarter of each
// rate left to the client), a client at rate_budget 0.25 sends a payroll
// of 300 crypto withdrawals with no 429, in the time the budget allows
// (both on one fake clock). At half the budget the emulator throttles it.
func TestPayrollWithinTheEnforcedLimits(t *testing.T) {
	limits := &emulator.RateLimits{Window: 30 * time.Second, Throttle: 30 * time.Second, Share: 0.25}
	// The client paces to the emulator's window.
	window := PublishedRates
	window.Window = limits.Window
	payroll := func(budget float64) (*paceClock, *emulator.Server, error) {
		clk := newPaceClock()
		emu := emulator.StartTest(t, emulator.Options{Now: clk.Now, RateLimits: limits})
		c, err := New(Config{
			ClientID: emulator.DefaultClientID, ClientSecret: emulator.DefaultClientSecret,
			BaseURL: emu.BaseURL(), AuthURL: emu.AuthURL(),
			RateBudget: budget, RateStateDir: t.TempDir(), pacingClock: clk, Rates: &window,
		})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 300 {
			if _, err := c.CreateCryptoWithdrawal(t.Context(), CryptoWithdrawalRequest{
				ProfileID: "p", DestinationAddress: "d", Asset: "BTC", CryptoNetwork: "BITCOIN", Amount: "1",
				RefID: fmt.Sprintf("payroll-%d", i),
			}); err != nil {
				return clk, emu, err
			}
		}
		return clk, emu, nil
	}

	clk, emu, err := payroll(0.25)
	if err != nil {
		t.Fatal(err)
	}
	if st := emu.RateLimitsState(); st.Breaches != 0 {
		t.Errorf("breaches = %d, want none", st.Breaches)
	}
	if n := len(emu.Transfers()); n != 300 {
		t.Errorf("%d transfers, want 300", n)
	}
	// A burst, then one every 30 s / (20 × 0.25 × 30 × 0.95 − burst).
	interval, tolerance := paceRate(20, 0.25, limits.Window)
	burst := int(tolerance/interval) + 1
	if got, want := clk.total(), time.Duration(300-burst)*interval; got != want {
		t.Errorf("the payroll took %v, want %v", got, want)
	}
	if floor := 300 * time.Second / 5; clk.total() > floor*115/100 {
		t.Errorf("the payroll took %v, more than 1.15 × the floor of %v", clk.total(), floor)
	}

	_, emu, err = payroll(0.5)
	if !errors.Is(err, ErrRateLimited) {
		t.Fatalf("at twice the share: %v, want a 429", err)
	}
	if st := emu.RateLimitsState(); st.Breaches != 1 {
		t.Errorf("breaches = %d, want 1", st.Breaches)
	}
}
