//go:build linux || darwin || freebsd

package client

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// otherUID is a user of the host who is not the one running the tests.
const otherUID = 4242

// chownOther gives name to otherUID; the test is skipped where it may not
// (not run by root).
func chownOther(t *testing.T, name string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another user needs root")
	}
	if err := os.Lchown(name, otherUID, otherUID); err != nil {
		t.Fatal(err)
	}
}

// listing is the names in dir.
func listing(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestDefaultRateStateDirIsTheUsers: the default folder is in the user's
// runtime folder, or else cache folder, and is made 0700 (the folder above
// it too).
func TestDefaultRateStateDirIsTheUsers(t *testing.T) {
	runtime, cache := t.TempDir(), t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", runtime)
	t.Setenv("XDG_CACHE_HOME", cache)
	dir, err := DefaultRateStateDir()
	if want := filepath.Join(runtime, "terraform-provider-platform", "rates"); err != nil || dir != want {
		t.Errorf("DefaultRateStateDir() = %q, %v; want %q", dir, err, want)
	}
	t.Setenv("XDG_RUNTIME_DIR", "")
	dir, err = DefaultRateStateDir()
	if want := filepath.Join(cache, "terraform-provider-platform", "rates"); err != nil || dir != want {
		t.Errorf("without a runtime folder: %q, %v; want %q", dir, err, want)
	}

	old := syscall.Umask(0)
	defer syscall.Umask(old)
	f := newFake(t)
	f.handler = okHandler
	c, _ := newTestClient(t, f, func(cfg *Config) { cfg.RateStateDir = "" })
	if c.RateStateDir() != dir || c.RateStateError() != nil {
		t.Fatalf("the client's folder: %q, %v; want %q", c.RateStateDir(), c.RateStateError(), dir)
	}
	for _, d := range []string{dir, filepath.Dir(dir)} {
		fi, err := os.Stat(d)
		if err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v, %v; want a folder 0700", d, fi.Mode(), err)
		}
	}
	if _, err := c.GetFiatDepositInstructions(t.Context(), "fdi-1"); err != nil {
		t.Fatal(err)
	}
	for _, name := range listing(t, dir) {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v, %v; want 0600", name, fi.Mode(), err)
		}
	}
}

// TestRateStateFolderUntrusted: a folder made in advance by another user,
// one that others can write, a link in place of the default folder: each
// is refused with its reason, before any file is made in it, and the
// client paces alone and says so once. A configured folder may be one its
// group can write (a team's).
func TestRateStateFolderUntrusted(t *testing.T) {
	tests := []struct {
		name       string
		configured bool
		prepare    func(t *testing.T, dir string)
		why        string
	}{
		{"another user's default folder", false, func(t *testing.T, dir string) { chownOther(t, dir) },
			"it belongs to another user (uid 4242)"},
		{"another user's folder above the default", false, func(t *testing.T, dir string) { chownOther(t, filepath.Dir(dir)) },
			"it belongs to another user (uid 4242)"},
		{"another user's configured folder", true, func(t *testing.T, dir string) { chownOther(t, dir) },
			"it belongs to another user (uid 4242)"},
		{"a default folder every user can write", false, func(t *testing.T, dir string) { chmod(t, dir, 0o777) },
			"every user of the host can write it (mode -rwxrwxrwx)"},
		{"a configured folder every user can write", true, func(t *testing.T, dir string) { chmod(t, dir, 0o1777) },
			"every user of the host can write it (mode -rwxrwxrwx)"},
		{"a default folder its group can write", false, func(t *testing.T, dir string) { chmod(t, dir, 0o770) },
			"its group can write it (mode -rwxrwx---)"},
		{"a link in place of the default folder", false, func(t *testing.T, dir string) {
			target := t.TempDir()
			if err := os.Remove(dir); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, dir); err != nil {
				t.Fatal(err)
			}
		}, "it is a symbolic link"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "terraform-provider-platform", "rates")
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			tc.prepare(t, dir)
			f := newFake(t)
			f.handler = okHandler
			c, logs := newTestClient(t, f, func(cfg *Config) {
				if tc.configured {
					cfg.RateStateDir = dir
				} else {
					cfg.RateStateDir = ""
					t.Setenv("XDG_RUNTIME_DIR", filepath.Dir(filepath.Dir(dir)))
					if d, _ := DefaultRateStateDir(); d != dir {
						t.Fatalf("default folder %s", d)
					}
				}
			})
			err := c.RateStateError()
			if err == nil || !strings.Contains(err.Error(), tc.why) {
				t.Fatalf("RateStateError = %v, want %q", err, tc.why)
			}
			if c.RateStateDir() != dir || !strings.Contains(err.Error(), filepath.Dir(dir)) {
				t.Errorf("the error %v does not name the folder %s", err, c.RateStateDir())
			}
			for range 3 {
				if _, err := c.GetFiatDepositInstructions(t.Context(), "fdi-1"); err != nil {
					t.Fatal(err)
				}
			}
			if names := listing(t, dir); len(names) != 0 {
				t.Errorf("files made in the refused folder: %v", names)
			}
			if n := len(logs.withMsg("the rate budget is not shared with the host's other processes: this process paces alone at its rate_budget")); n != 1 {
				t.Errorf("said %d times, want once", n)
			}
		})
	}

	t.Run("a configured folder its group can write", func(t *testing.T) {
		dir := t.TempDir()
		chmod(t, dir, 0o2770)
		s, err := openFileStore(dir, true, paceEpoch)
		if err != nil {
			t.Fatalf("a team's folder: %v", err)
		}
		defer s.close()
		f, err := s.file(endpointKey("h:443", "GET /x"))
		if err != nil {
			t.Fatal(err)
		}
		if fi, _ := f.Stat(); fi.Mode().Perm() != 0o660 {
			t.Errorf("a file of the team's folder is %v, want 0660", fi.Mode().Perm())
		}
	})
}

func chmod(t *testing.T, name string, mode os.FileMode) {
	t.Helper()
	if mode&0o1000 != 0 {
		mode = mode&^0o1000 | os.ModeSticky
	}
	if mode&0o2000 != 0 {
		mode = mode&^0o2000 | os.ModeSetgid
	}
	if err := os.Chmod(name, mode); err != nil {
		t.Fatal(err)
	}
}

// TestRateStateFileUntrusted: a link planted in the state folder, a file
// of another user's, a file with a second name: the store refuses it (the
// link is not followed: the file it names is neither written nor made),
// and the process paces alone.
// mustFS fails the test on the error of a file system call.
func mustFS(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// writeUsersFile writes name as a file of the user's own, outside the
// state folder.
func writeUsersFile(t *testing.T, name string) {
	t.Helper()
	mustFS(t, os.WriteFile(name, []byte("the user's own file"), 0o600))
}

func TestRateStateFileUntrusted(t *testing.T) {
	key, tk := endpointKey("h:443", "GET /transfer/transfers"), throttleKey("h:443")
	tests := []struct {
		name    string
		prepare func(t *testing.T, file, outside string)
		why     string
	}{
		{"a link to a file of the user's", func(t *testing.T, file, outside string) {
			writeUsersFile(t, outside)
			mustFS(t, os.Symlink(outside, file))
		}, "too many levels of symbolic links"},
		{"a link to a file to be made", func(t *testing.T, file, outside string) {
			mustFS(t, os.Symlink(outside, file))
		}, "too many levels of symbolic links"},
		{"a file of another user's", func(t *testing.T, file, _ string) {
			mustFS(t, os.WriteFile(file, nil, 0o600))
			chownOther(t, file)
		}, "it belongs to another user (uid 4242)"},
		{"a file with a second name", func(t *testing.T, file, outside string) {
			writeUsersFile(t, outside)
			mustFS(t, os.Link(outside, file))
		}, "it has 2 names (hard links)"},
		{"a folder in place of the file", func(t *testing.T, file, _ string) {
			mustFS(t, os.Mkdir(file, 0o700))
		}, "is a directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, outsideDir := t.TempDir(), t.TempDir()
			outside := filepath.Join(outsideDir, "bashrc")
			file := filepath.Join(dir, stateFileName(key))
			tc.prepare(t, file, outside)
			before, _ := os.ReadFile(outside)
			s, reserve := openPacedStore(t, dir)
			at, err := reserve(key, tk)
			if err == nil || !strings.Contains(err.Error(), tc.why) || !strings.Contains(err.Error(), file) {
				t.Errorf("reserve: %v; want an error naming %s and %q", err, file, tc.why)
			}
			if !at.Equal(paceEpoch) {
				t.Errorf("turn at +%v, want at once (alone)", at.Sub(paceEpoch))
			}
			if s.broken == nil {
				t.Error("the store goes on sharing")
			}
			after, _ := os.ReadFile(outside)
			if string(after) != string(before) || len(listing(t, outsideDir)) > 1 {
				t.Errorf("the file outside the folder was written or made: %q, %v", after, listing(t, outsideDir))
			}
		})
	}
}

// openStore opens the file store of dir, closed when the test ends.
func openStore(t *testing.T, dir string, configured bool) *fileStore {
	t.Helper()
	s, err := openFileStore(dir, configured, paceEpoch)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.close)
	return s
}

// openPacedStore opens the file store of dir, falling back on memory and
// closed when the test ends; reserve takes a turn of key at 50 requests a
// window, at paceEpoch.
func openPacedStore(t *testing.T, dir string) (s *fileStore, reserve func(key, tk string) (time.Time, error)) {
	t.Helper()
	s = openStore(t, dir, false)
	s.fallback = newMemStore()
	interval, tolerance := paceRate(50, 0.5, PublishedRates.Window)
	return s, func(key, tk string) (time.Time, error) { return s.reserve(key, tk, paceEpoch, interval, tolerance) }
}

// writeState makes the state file name of dir holding at, last touched
// at touched.
func writeState(t *testing.T, dir, name string, at, touched time.Time) {
	t.Helper()
	path := filepath.Join(dir, name)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeTime(f, at); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	if err := os.Chtimes(path, touched, touched); err != nil {
		t.Fatal(err)
	}
}

// TestRateStateExpires: the first use of a folder seeded with 5,000 state
// files untouched for longer than the window and the throttle removes
// them; it keeps the recent ones, those that hold a time still ahead, one
// another process holds, and what is not a state file.
func TestRateStateExpires(t *testing.T) {
	dir := t.TempDir()
	stale := paceEpoch.Add(-rateStateExpiry - time.Second)
	for i := range 5000 {
		writeState(t, dir, stateFileName("stale "+strconv.Itoa(i)), stale.Add(-time.Minute), stale)
	}
	var keep []string
	for i := range 10 {
		name := stateFileName("recent " + strconv.Itoa(i))
		writeState(t, dir, name, paceEpoch.Add(-time.Minute), paceEpoch.Add(-rateStateExpiry+time.Second))
		keep = append(keep, name)
	}
	for i := range 5 {
		name := stateFileName("ahead " + strconv.Itoa(i))
		writeState(t, dir, name, paceEpoch.Add(time.Minute), stale)
		keep = append(keep, name)
	}
	held := stateFileName("held")
	writeState(t, dir, held, stale, stale)
	keep = append(keep, held)
	hf, err := os.OpenFile(filepath.Join(dir, held), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = hf.Close() }()
	if err := lockFile(hf, true); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	keep = append(keep, "notes.txt")

	f := newFake(t)
	f.handler = okHandler
	c, _ := newTestClient(t, f, func(cfg *Config) { cfg.RateStateDir = dir })
	if err := c.RateStateError(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetFiatDepositInstructions(t.Context(), "fdi-1"); err != nil {
		t.Fatal(err)
	}
	names := listing(t, dir)
	if len(names) >= 100 {
		t.Fatalf("%d files after one use, want fewer than 100", len(names))
	}
	have := map[string]bool{}
	for _, n := range names {
		have[n] = true
	}
	for _, n := range keep {
		if !have[n] {
			t.Errorf("%s was removed", n)
		}
	}
	// What is left: the kept files, the folder's lock, and the files of
	// this use (the token endpoint's, the endpoint's, the throttle's).
	if want := len(keep) + 1 + 3; len(names) != want {
		t.Errorf("%d files left, want %d: %v", len(names), want, names)
	}
}

// TestRateStateFolderBound: a folder that still holds more than 1,000
// state files once the expired ones are gone is not used: the process
// paces alone and says why.
func TestRateStateFolderBound(t *testing.T) {
	dir := t.TempDir()
	for i := range maxStateFiles + 1 {
		writeState(t, dir, stateFileName("recent "+strconv.Itoa(i)), paceEpoch, paceEpoch)
	}
	f := newFake(t)
	f.handler = okHandler
	c, _ := newTestClient(t, f, func(cfg *Config) { cfg.RateStateDir = dir })
	err := c.RateStateError()
	if err == nil || !strings.Contains(err.Error(), dir+" holds 1001 state files, at most 1000") {
		t.Fatalf("RateStateError = %v, want the bound of 1000 files", err)
	}
	if _, err := c.GetFiatDepositInstructions(t.Context(), "fdi-1"); err != nil {
		t.Fatal(err)
	}
	if n := len(listing(t, dir)); n != maxStateFiles+2 {
		t.Errorf("%d files, want the %d there and the folder's lock", n, maxStateFiles+1)
	}
}

// TestRateStateFileRemovedWhileOpen: a file another process removed (it
// expired) while this one held it open is opened anew, never written
// unlinked, so both go on sharing one budget.
func TestRateStateFileRemovedWhileOpen(t *testing.T) {
	dir := t.TempDir()
	a := openStore(t, dir, true)
	interval, tolerance := paceRate(20, 0.5, PublishedRates.Window)
	key, tk := endpointKey("h:443", "POST /transfer/crypto-withdrawals"), throttleKey("h:443")
	if _, err := a.reserve(key, tk, paceEpoch.Add(-time.Hour), interval, tolerance); err != nil {
		t.Fatal(err)
	}
	stale := paceEpoch.Add(-time.Hour)
	for _, k := range []string{key, tk} {
		if err := os.Chtimes(a.stateOf(k), stale, stale); err != nil {
			t.Fatal(err)
		}
	}
	b := openStore(t, dir, true) // removes the expired files
	if _, err := os.Lstat(a.stateOf(key)); err == nil {
		t.Fatal("the expired file was kept")
	}
	if _, err := b.reserve(key, tk, paceEpoch, interval, tolerance); err != nil {
		t.Fatal(err)
	}
	if _, err := a.reserve(key, tk, paceEpoch, interval, tolerance); err != nil {
		t.Fatal(err)
	}
	tat, err := b.read(key)
	if err != nil || !tat.Equal(paceEpoch.Add(2*interval)) {
		t.Errorf("state +%v, %v; want both turns in one file (+%v)", tat.Sub(paceEpoch), err, 2*interval)
	}
}
