package client

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// rateStore holds the state of the rate budget: the theoretical arrival
// time of each endpoint (see grant) and the throttle of each host.
type rateStore interface {
	// reserve takes the turn of a request to the endpoint key arriving at
	// now, after the throttle throttleKey if it holds, and returns when it
	// goes. On an error the turn was taken in the process alone.
	reserve(key, throttleKey string, now time.Time, interval, tolerance time.Duration) (time.Time, error)
	// throttle holds every request after the throttle key until until.
	throttle(key string, until time.Time) error
}

// memStore is the state of the process alone.
type memStore struct {
	mu    sync.Mutex
	times map[string]time.Time
}

func newMemStore() *memStore { return &memStore{times: map[string]time.Time{}} }

func (m *memStore) reserve(key, throttleKey string, now time.Time, interval, tolerance time.Duration) (time.Time, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	at, next := grant(m.times[key], now, m.times[throttleKey], interval, tolerance)
	m.times[key] = next
	return at, nil
}

func (m *memStore) throttle(key string, until time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if until.After(m.times[key]) {
		m.times[key] = until
	}
	return nil
}

// processRates is the state of every client of the process whose host
// state is unusable: the process paces alone, at its budget.
var processRates = newMemStore()

// DefaultRateStateDir is where the provider processes of a host (of one
// user) share their rate budget when Config.RateStateDir is empty.
func DefaultRateStateDir() string {
	name := "terraform-provider-platform-rates"
	if uid := os.Getuid(); uid >= 0 {
		name += "-" + strconv.Itoa(uid)
	}
	return filepath.Join(os.TempDir(), name)
}

// lockWait bounds how long a process waits for the lock of a state file:
// the lock is held for a read and a write, so a longer wait means a
// process stopped in between, and the process goes on alone.
const lockWait = 2 * time.Second

// fileStore is the state of the rate budget shared by the processes of a
// host through one small file per endpoint and per throttle in a
// directory: eight bytes, a time in Unix nanoseconds. Each turn locks the
// file (an advisory lock, flock) for its read and write only: a process
// killed at any point holds no lock (the system drops it), and what it
// reserved is at most the turns it was waiting for. Once a file cannot be
// used the store paces the process alone (fallback), for good.
type fileStore struct {
	dir      string
	lockWait time.Duration
	fallback *memStore

	mu     sync.Mutex
	files  map[string]*os.File
	broken error
}

// openFileStore opens the state directory dir, creating it (0700) when it
// does not exist, and checks that a state file can be made and locked.
func openFileStore(dir string) (*fileStore, error) {
	s := &fileStore{dir: dir, lockWait: lockWait, fallback: processRates, files: map[string]*os.File{}}
	if err := os.MkdirAll(dir, 0o700); err != nil { //nolint:gosec // The directory the user configured.
		return s.fail(fmt.Errorf("rate_state_dir %s: %w", dir, err))
	}
	f, err := s.file("probe")
	if err != nil {
		return s.fail(err)
	}
	if err := s.lock(f, true); err != nil {
		return s.fail(err)
	}
	unlockFile(f)
	return s, nil
}

func (s *fileStore) fail(err error) (*fileStore, error) {
	s.broken = err
	return s, err
}

// fileStores are the stores of the process by directory, shared by its
// clients.
var fileStores = struct {
	sync.Mutex
	byDir map[string]*fileStore
}{byDir: map[string]*fileStore{}}

// hostStore is the process's store of dir; the error says why the host's
// state is unusable (the store then paces the process alone).
func hostStore(dir string) (*fileStore, error) {
	fileStores.Lock()
	defer fileStores.Unlock()
	if s := fileStores.byDir[dir]; s != nil {
		return s, s.broken
	}
	s, err := openFileStore(dir)
	fileStores.byDir[dir] = s
	return s, err
}

// file opens (once) the state file of key.
func (s *fileStore) file(key string) (*os.File, error) {
	if f := s.files[key]; f != nil {
		return f, nil
	}
	sum := sha256.Sum256([]byte(key))
	name := filepath.Join(s.dir, hex.EncodeToString(sum[:12])+".rate")
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600) //nolint:gosec // A name made of a hash, in the configured directory.
	if err != nil {
		return nil, fmt.Errorf("rate_state_dir: %w", err)
	}
	s.files[key] = f
	return f, nil
}

// lock takes the advisory lock of f, polling for at most s.lockWait.
func (s *fileStore) lock(f *os.File, exclusive bool) error {
	deadline := time.Now().Add(s.lockWait)
	pause := time.Millisecond
	for {
		err := lockFile(f, exclusive)
		if err == nil {
			return nil
		}
		if !errors.Is(err, errLocked) {
			return fmt.Errorf("rate_state_dir: locking %s: %w", f.Name(), err)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("rate_state_dir: %s stayed locked for %v", f.Name(), s.lockWait)
		}
		time.Sleep(pause)
		pause = min(2*pause, 50*time.Millisecond)
	}
}

// readTime reads the time stored in f: zero for an empty file.
func readTime(f *os.File) (time.Time, error) {
	var b [8]byte
	n, err := f.ReadAt(b[:], 0)
	if n < len(b) {
		if err == nil || errors.Is(err, io.EOF) {
			return time.Time{}, nil
		}
		return time.Time{}, err
	}
	ns := int64(binary.BigEndian.Uint64(b[:])) //nolint:gosec // Written from an int64.
	if ns <= 0 {
		return time.Time{}, nil
	}
	return time.Unix(0, ns), nil
}

func writeTime(f *os.File, t time.Time) error {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(t.UnixNano())) //nolint:gosec // A time after 1970.
	_, err := f.WriteAt(b[:], 0)
	return err
}

func (s *fileStore) reserve(key, throttleKey string, now time.Time, interval, tolerance time.Duration) (time.Time, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.broken != nil {
		return s.fallback.reserve(key, throttleKey, now, interval, tolerance)
	}
	at, err := s.reserveShared(key, throttleKey, now, interval, tolerance)
	if err != nil {
		s.broken = err
		at, _ = s.fallback.reserve(key, throttleKey, now, interval, tolerance)
		return at, err
	}
	return at, nil
}

// reserveShared takes the turn in the files; s.mu is held.
func (s *fileStore) reserveShared(key, throttleKey string, now time.Time, interval, tolerance time.Duration) (time.Time, error) {
	until, err := s.read(throttleKey)
	if err != nil {
		return time.Time{}, err
	}
	f, err := s.file(key)
	if err != nil {
		return time.Time{}, err
	}
	if err := s.lock(f, true); err != nil {
		return time.Time{}, err
	}
	defer unlockFile(f)
	tat, err := readTime(f)
	if err != nil {
		return time.Time{}, fmt.Errorf("rate_state_dir: reading %s: %w", f.Name(), err)
	}
	at, next := grant(tat, now, until, interval, tolerance)
	if err := writeTime(f, next); err != nil {
		return time.Time{}, fmt.Errorf("rate_state_dir: writing %s: %w", f.Name(), err)
	}
	return at, nil
}

// read reads the time of key under a shared lock; s.mu is held.
func (s *fileStore) read(key string) (time.Time, error) {
	f, err := s.file(key)
	if err != nil {
		return time.Time{}, err
	}
	if err := s.lock(f, false); err != nil {
		return time.Time{}, err
	}
	defer unlockFile(f)
	t, err := readTime(f)
	if err != nil {
		return time.Time{}, fmt.Errorf("rate_state_dir: reading %s: %w", f.Name(), err)
	}
	return t, nil
}

func (s *fileStore) throttle(key string, until time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_ = s.fallback.throttle(key, until)
	if s.broken != nil {
		return nil
	}
	err := s.throttleShared(key, until)
	if err != nil {
		s.broken = err
	}
	return err
}

func (s *fileStore) throttleShared(key string, until time.Time) error {
	f, err := s.file(key)
	if err != nil {
		return err
	}
	if err := s.lock(f, true); err != nil {
		return err
	}
	defer unlockFile(f)
	prev, err := readTime(f)
	if err != nil {
		return fmt.Errorf("rate_state_dir: reading %s: %w", f.Name(), err)
	}
	if !until.After(prev) {
		return nil
	}
	if err := writeTime(f, until); err != nil {
		return fmt.Errorf("rate_state_dir: writing %s: %w", f.Name(), err)
	}
	return nil
}

// close closes the files of s (tests).
func (s *fileStore) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, f := range s.files {
		_ = f.Close()
		delete(s.files, k)
	}
	s.broken = errors.New("rate state closed")
}
