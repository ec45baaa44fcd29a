//go:build linux || darwin || freebsd

package client

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// helperEnv makes the test binary the process of
// TestHostBudgetHelperProcess.
const helperEnv = "PLATFORM_RATE_HELPER_DIR"

// TestHostBudgetHelperProcess is not a test: run by
// TestHostBudgetKilledProcessHoldsNothing, it takes a turn, then holds
// the lock of the endpoint's state until it is killed.
func TestHostBudgetHelperProcess(t *testing.T) {
	dir := os.Getenv(helperEnv)
	if dir == "" {
		t.Skip("run by TestHostBudgetKilledProcessHoldsNothing")
	}
	s, err := openFileStore(dir, true, paceEpoch)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	interval, tolerance := paceRate(20, 0.5, PublishedRates.Window)
	if _, err := s.reserve(killKey, throttleKey("h:443"), paceEpoch, interval, tolerance); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	f, _ := s.file(killKey)
	if err := lockFile(f, true); err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("locked")
	select {}
}

var killKey = endpointKey("h:443", "POST /transfer/crypto-withdrawals")

// TestHostBudgetKilledProcessHoldsNothing: a process killed (SIGKILL)
// while it holds the lock of a state file holds nothing once it is dead;
// while it lives, another process waits at most lockWait and goes on
// alone. The turn the killed process took stays counted.
func TestHostBudgetKilledProcessHoldsNothing(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestHostBudgetHelperProcess$") //nolint:gosec // The test binary itself.
	cmd.Env = append(os.Environ(), helperEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || strings.TrimSpace(line) != "locked" {
		t.Fatalf("helper: %q, %v", line, err)
	}

	interval, tolerance := paceRate(20, 0.5, PublishedRates.Window)
	held, err := openFileStore(dir, true, paceEpoch)
	if err != nil {
		t.Fatal(err)
	}
	defer held.close()
	held.lockWait = 50 * time.Millisecond
	if _, err := held.reserve(killKey, throttleKey("h:443"), paceEpoch, interval, tolerance); err == nil || !strings.Contains(err.Error(), "stayed locked") {
		t.Errorf("reserve while a live process holds the lock: %v, want it to go on alone", err)
	}

	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	s, err := openFileStore(dir, true, paceEpoch)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	s.lockWait = 0
	at, err := s.reserve(killKey, throttleKey("h:443"), paceEpoch, interval, tolerance)
	if err != nil {
		t.Fatalf("reserve after the holder was killed: %v", err)
	}
	// The killed process's turn is counted: a burst of 10 less one.
	if !at.Equal(paceEpoch) {
		t.Errorf("turn at +%v, want at once", at.Sub(paceEpoch))
	}
	tat, _ := readTime(s.files[killKey])
	if want := paceEpoch.Add(2 * interval); !tat.Equal(want) {
		t.Errorf("state +%v, want +%v (the killed process's turn and this one)", tat.Sub(paceEpoch), want.Sub(paceEpoch))
	}
}
