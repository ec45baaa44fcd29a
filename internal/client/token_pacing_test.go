package client

import (
	"testing"
	"time"
)

// TestTokenEndpointPacedAcrossProcesses: the token endpoint (1/s) is paced
// host-wide like every other: the burst's processes and two more of one host (six clients, each
// with its own store of one rate_state_dir), each asking its first token,
// take turns in one budget, as one process asking as many would. Tokens stay
// in each process's memory: the host shares the pace of asking, never a
// token.
func TestTokenEndpointPacedAcrossProcesses(t *testing.T) {
	f := newFake(t)
	f.handler = okHandler
	dir, clk := t.TempDir(), newPaceClock()
	burst, interval := burstOf(1, DefaultRateBudget)
	for range burst + 2 {
		c, _ := newTestClient(t, f, func(cfg *Config) { cfg.RateStateDir, cfg.pacingClock = dir, clk })
		if err := c.RateStateError(); err != nil {
			t.Fatal(err)
		}
		if _, err := c.GetFiatDepositInstructions(t.Context(), "fdi-1"); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(f.tokenRequests()); n != burst+2 {
		t.Fatalf("%d token requests, want %d (one per process)", n, burst+2)
	}
	// A burst, then one an interval.
	if got, want := clk.total(), 2*interval; got != want {
		t.Errorf("the %d processes waited %v for their tokens, want %v: one budget for the host", burst+2, got, want)
	}
}

// TestBackToBackCommandsWaitForNothing: the budget is one over the
// window, not a fixed spacing. Two commands of one host (two processes,
// one state folder), each asking the tokens of six scopes, wait for
// nothing at the default budget; a run of them that would take the window
// past its allowance is spread over the window, never more than the budget
// in any of it.
func TestBackToBackCommandsWaitForNothing(t *testing.T) {
	f := newFake(t)
	f.handler = okHandler
	dir, clk := t.TempDir(), newPaceClock()
	scopes := []string{ScopeReadFiatAccount, ScopeReadDepositAddress, ScopeReadTransfer,
		ScopeReadTransferLimit, ScopeReadCryptoDestinationAddress, ScopeReadRewardClaims}
	command := func() {
		t.Helper()
		c, _ := newTestClient(t, f, func(cfg *Config) { cfg.RateStateDir, cfg.pacingClock = dir, clk })
		for _, s := range scopes {
			if _, err := c.Token(t.Context(), s); err != nil {
				t.Fatal(err)
			}
		}
	}
	command()
	command()
	if got := clk.total(); got != 0 {
		t.Errorf("two commands of six scopes waited %v, want nothing", got)
	}
	// Twenty-three more at once: 150 tokens in all, more than the 142.5
	// of the window's allowance at the budget, are spread over more than
	// the window: a burst, then one an interval.
	for range 23 {
		command()
	}
	if n := len(f.tokenRequests()); n != 150 {
		t.Fatalf("%d token requests, want 150", n)
	}
	burst, interval := burstOf(1, DefaultRateBudget)
	if got, want := clk.total(), time.Duration(150-burst)*interval; got != want || got < PublishedRates.Window {
		t.Errorf("150 tokens waited %v, want %v (more than the window)", got, want)
	}
}
