package client

import (
	"encoding/binary"
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
	a := openStore(t, dir, true)
	b := openStore(t, dir, true)
	alone := newMemStore()
	interval, tolerance := paceRate(20, 0.5, PublishedRates.Window)
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
	until := paceEpoch.Add(4 * time.Minute)
	if err := a.throttle(throttle, until); err != nil {
		t.Fatal(err)
	}
	at, err := b.reserve(endpointKey("h:443", "GET /transfer/transfers"), throttle, paceEpoch, interval, tolerance)
	if err != nil || !at.Equal(until) {
		t.Errorf("after the other's throttle: +%v, %v; want +4m", at.Sub(paceEpoch), err)
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
	burst, interval := burstOf(50, DefaultRateBudget)
	for range burst + 5 {
		if _, err := c.GetFiatDepositInstructions(t.Context(), "fdi-1"); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := paceClockOf(t, c).total(), 5*interval; got != want {
		t.Errorf("waited %v, want %v: paced alone at the budget", got, want)
	}
	if n := len(logs.withMsg("the rate budget is not shared with the host's other processes: this process paces alone at its rate_budget")); n != 1 {
		t.Errorf("said %d times, want once", n)
	}
}

// TestHostBudgetDamagedState: a state file holding garbage, no time, or a
// time far ahead (a turn beyond maxPaceAhead, a throttle beyond the
// service's 5 minutes) is not used: the error names the file and why, and
// the process paces alone from then on, never a wait of hours.
func TestHostBudgetDamagedState(t *testing.T) {
	key, tk := endpointKey("h:443", "GET /transfer/transfers"), throttleKey("h:443")
	stamp := func(at time.Time) []byte {
		b := make([]byte, 8)
		binary.BigEndian.PutUint64(b, uint64(at.UnixNano())) //nolint:gosec // A time after 1970.
		return b
	}
	tests := []struct {
		name, file string
		content    []byte
		why        string
	}{
		{"garbage", key, []byte("not a time at all"), "it holds 17 bytes, not a time"},
		{"no time", key, []byte{0xff, 0, 0, 0, 0, 0, 0, 0}, "it holds no time after 1970"},
		{"turn far ahead", key, stamp(paceEpoch.Add(1000 * time.Hour)), "it holds a turn at 2030-02-12T19:04:05Z, more than 15m0s ahead"},
		{"throttle far ahead", tk, stamp(paceEpoch.Add(5*time.Minute + time.Second)), "it holds a throttle until 2030-01-02T03:09:06Z, more than the service's throttle of 5m0s ahead"},
		{"throttle of a day", tk, stamp(paceEpoch.Add(24 * time.Hour)), "it holds a throttle until 2030-01-03T03:04:05Z"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, stateFileName(tc.file)), tc.content, 0o600); err != nil {
				t.Fatal(err)
			}
			_, reserve := openPacedStore(t, dir)
			at, err := reserve(key, tk)
			if !at.Equal(paceEpoch) {
				t.Errorf("reserve at +%v, want at once (paced alone)", at.Sub(paceEpoch))
			}
			name := filepath.Join(dir, stateFileName(tc.file))
			if err == nil || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), tc.why) {
				t.Errorf("error = %v, want one naming %s and %q", err, name, tc.why)
			}
			// Paced alone from then on: the next turn is the process's own.
			at, err = reserve(key, tk)
			if err != nil || !at.Equal(paceEpoch) {
				t.Errorf("next turn at +%v, %v; want at once, alone", at.Sub(paceEpoch), err)
			}
			if got, _ := os.ReadFile(name); string(got) != string(tc.content) {
				t.Errorf("the damaged file was rewritten: %x", got)
			}
		})
	}
}
