package client

import (
	"testing"
)

// TestTokenEndpointPacedAcrossProcesses: the token endpoint (1/s) is paced
// host-wide like every other: six processes of one host (six clients, each
// with its own store of one rate_state_dir), each asking its first token,
// take turns in one budget, as one process asking six would. Tokens stay
// in each process's memory: the host shares the pace of asking, never a
// token.
func TestTokenEndpointPacedAcrossProcesses(t *testing.T) {
	f := newFake(t)
	f.handler = okHandler
	dir, clk := t.TempDir(), newPaceClock()
	for range 6 {
		c, _ := newTestClient(t, f, func(cfg *Config) { cfg.RateStateDir, cfg.pacingClock = dir, clk })
		if err := c.RateStateError(); err != nil {
			t.Fatal(err)
		}
		if _, err := c.GetFiatDepositInstructions(t.Context(), "fdi-1"); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(f.tokenRequests()); n != 6 {
		t.Fatalf("%d token requests, want 6 (one per process)", n)
	}
	// A burst of 4 (paceSlowBurst), then one an interval.
	interval, _ := paceRate(1, DefaultRateBudget)
	if got, want := clk.total(), 2*interval; got != want {
		t.Errorf("the six processes waited %v for their tokens, want %v: one budget for the host", got, want)
	}
}
