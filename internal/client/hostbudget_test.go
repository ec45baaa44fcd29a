package client

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHostBudgetSharedByTwoProcesses: two stores of one directory (as two
// processes hold it: separate open files) take turns in one budget, the
// turns one store alone would give.
func TestHostBudgetSharedByTwoProcesses(t *testing.T) {
	dir := t.TempDir()
	a, err := openFileStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer a.close()
	b, err := openFileStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer b.close()
	alone := newMemStore()
	interval, tolerance := paceRate(20, 0.5)
	key, throttle := endpointKey("h:443", "POST /transfer/crypto-withdrawals"), throttleKey("h:443")
	for i := range 40 {
		s := a
		if i%3 == 0 {
			s = b
		}
		now := paceEpoch.Add(time.Duration(i) * 10 * time.Millisecond)
		got, err := s.reserve(key, throttle, now, interval, tolerance)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := alone.reserve(key, throttle, now, interval, tolerance)
		if !got.Equal(want) {
			t.Fatalf("turn %d: +%v, want +%v (one budget for both)", i, got.Sub(paceEpoch), want.Sub(paceEpoch))
		}
	}
	// A throttle one process records holds the other's requests.
	until := paceEpoch.Add(time.Hour / 6)
	if err := a.throttle(throttle, until); err != nil {
		t.Fatal(err)
	}
	at, err := b.reserve(endpointKey("h:443", "GET /transfer/transfers"), throttle, paceEpoch, interval, tolerance)
	if err != nil || !at.Equal(until) {
		t.Errorf("after the other's throttle: +%v, %v; want +10m", at.Sub(paceEpoch), err)
	}
}

// TestHostBudgetUnusableDirectory: a state directory that cannot be made
// leaves the process pacing alone, said once; the client still works.
func TestHostBudgetUnusableDirectory(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	f := newFake(t)
	f.handler = okHandler
	c, logs := newTestClient(t, f, func(cfg *Config) { cfg.RateStateDir = filepath.Join(blocker, "rates") })
	if err := c.RateStateError(); err == nil || !strings.Contains(err.Error(), "rate_state_dir") {
		t.Errorf("RateStateError = %v, want one naming rate_state_dir", err)
	}
	for range 30 {
		if _, err := c.GetFiatDepositInstructions(t.Context(), "fdi-1"); err != nil {
			t.Fatal(err)
		}
	}
	interval, _ := paceRate(50, DefaultRateBudget)
	if got, want := paceClockOf(t, c).total(), 5*interval; got != want {
		t.Errorf("waited %v, want %v: paced alone at the budget", got, want)
	}
	if n := len(logs.withMsg("the rate budget is not shared with the host's other processes: this process paces alone at its rate_budget")); n != 1 {
		t.Errorf("said %d times, want once", n)
	}
}

// TestHostBudgetDamagedState: a state file holding a time far ahead is
// started afresh, never a wait of hours.
func TestHostBudgetDamagedState(t *testing.T) {
	s, err := openFileStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	key := endpointKey("h:443", "GET /transfer/transfers")
	f, err := s.file(key)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeTime(f, paceEpoch.Add(1000*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte{0xff}, 0); err != nil {
		t.Fatal(err)
	}
	interval, tolerance := paceRate(50, 0.5)
	at, err := s.reserve(key, throttleKey("h:443"), paceEpoch, interval, tolerance)
	if err != nil || !at.Equal(paceEpoch) {
		t.Errorf("reserve = +%v, %v; want at once", at.Sub(paceEpoch), err)
	}
}
