package client

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// throttleSeen is the throttle of key the store holds.
func (m *memStore) throttleSeen(key string) time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.times[key]
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

// rateStateFolder is the name of the default state folder under the
// user's runtime or cache folder.
var rateStateFolder = filepath.Join("terraform-provider-platform", "rates")

// DefaultRateStateDir is where the provider processes of a host (of one
// user) share their rate budget when Config.RateStateDir is empty: a
// folder of the user's alone, in the runtime folder the system gives the
// user ($XDG_RUNTIME_DIR) or else in the user's cache folder
// (os.UserCacheDir: ~/.cache, ~/Library/Caches, %LocalAppData%). The
// error says why the user has none.
func DefaultRateStateDir() (string, error) {
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, rateStateFolder), nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no folder of the user's to keep the rate state in: %w", err)
	}
	return filepath.Join(base, rateStateFolder), nil
}

// lockWait bounds how long a process waits for the lock of a state file:
// the lock is held for a read and a write, so a longer wait means a
// process stopped in between, and the process goes on alone.
const lockWait = 2 * time.Second

// Limits of the state folder.
const (
	// rateStateExpiry is how long a state file may go untouched before
	// whichever process next opens the folder removes it: the service's
	// window and its throttle, after which no file holds anything a turn
	// needs (a file that still holds a time ahead is kept).
	rateStateExpiry = 5*time.Minute + maxThrottle
	// maxStateFiles bounds the folder: a folder holding more state files
	// than this once the expired ones are gone is not used (the process
	// paces alone, and says why).
	maxStateFiles = 1000
	// folderLockName is the file whose lock one process holds while it
	// removes the folder's expired files.
	folderLockName = "folder.lock"
)

// errStateNotUsable marks the errors of a state folder or file that must
// not be used (another user's, a link, a damaged or planted time).
var errStateNotUsable = errors.New("not usable")

// fileStore is the state of the rate budget shared by the processes of a
// host through one small file per endpoint and per throttle in a
// directory: eight bytes, a time in Unix nanoseconds. Each turn locks the
// file (an advisory lock: flock, or LockFileEx on Windows) for its read
// and write only: a process killed at any point holds no lock (the system
// drops it), and what it reserved is at most the turns it was waiting
// for. Once a file cannot be used the store paces the process alone
// (fallback), for good.
//
// The folder and its files are checked before they are used: the folder
// is the user's and no one else can write it (its group can, when the
// folder was configured: a team's shared folder), the files are opened
// without following links and are regular files of the user's (or of the
// shared folder's group), with one name each.
type fileStore struct {
	dir      string
	lockWait time.Duration
	fallback *memStore
	// group is the group whose files the store accepts besides the
	// user's: the group of a configured folder its group can write, or -1.
	group int

	mu     sync.Mutex
	files  map[string]*os.File
	broken error
	// throttles are the throttles the store last read, by key.
	throttles map[string]time.Time
}

// openFileStore opens the state directory dir, creating it (0700) when it
// does not exist, checks that the folder and a state file can be used and
// locked, and removes the files that expired by now. A configured folder
// may be one its group can write; the default must be the user's alone.
func openFileStore(dir string, configured bool, now time.Time) (*fileStore, error) {
	s := &fileStore{dir: dir, lockWait: lockWait, fallback: processRates, group: -1,
		files: map[string]*os.File{}, throttles: map[string]time.Time{}}
	if !configured {
		// The folder above the state's is made private too.
		if err := makePrivateDir(filepath.Dir(dir), false); err != nil {
			return s.fail(err)
		}
	}
	if err := makePrivateDir(dir, configured); err != nil {
		return s.fail(err)
	}
	if configured {
		s.group = sharedGroup(dir)
	}
	f, err := s.openFile(filepath.Join(dir, folderLockName))
	if err != nil {
		return s.fail(err)
	}
	s.files[folderLockName] = f
	if err := s.lock(f, true); err != nil {
		return s.fail(err)
	}
	kept, err := s.sweep(now)
	unlockFile(f)
	if err != nil {
		return s.fail(err)
	}
	if kept >= maxStateFiles {
		return s.fail(fmt.Errorf("rate_state_dir %s holds %d state files, at most %d are used (those untouched for %v "+
			"were removed): remove the folder's files or give each user or configuration a folder of its own",
			dir, kept, maxStateFiles, rateStateExpiry))
	}
	return s, nil
}

// makePrivateDir makes the folder dir (0700) unless it exists, and checks
// that it can be trusted: a folder (a link to one only when configured),
// the user's, and that no one else can write it (its group can when
// configured).
func makePrivateDir(dir string, configured bool) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) { //nolint:gosec // The folder the user configured, or the user's default.
		if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("rate_state_dir %s: %w", dir, err)
		}
		if err := os.MkdirAll(dir, 0o700); err != nil { //nolint:gosec // The folder the user configured, or the user's default.
			return fmt.Errorf("rate_state_dir %s: %w", dir, err)
		}
	}
	stat := os.Lstat
	if configured {
		stat = os.Stat
	}
	fi, err := stat(dir)
	if err != nil {
		return fmt.Errorf("rate_state_dir %s: %w", dir, err)
	}
	why := ""
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		why = "it is a symbolic link"
	case !fi.IsDir():
		why = "it is not a folder"
	default:
		why = untrustedDir(fi, configured)
	}
	if why != "" {
		return fmt.Errorf("rate_state_dir %s is %w: %s", dir, errStateNotUsable, why)
	}
	return nil
}

// untrustedDir says why the folder fi must not be trusted, or "".
func untrustedDir(fi fs.FileInfo, configured bool) string {
	o, ok := ownerOf(fi)
	if !ok {
		// The system has no owners and modes to check (Windows: the
		// default folder is under the user's own profile).
		return ""
	}
	perm := fi.Mode().Perm()
	switch {
	case perm&0o002 != 0:
		return fmt.Sprintf("every user of the host can write it (mode %v)", perm)
	case o.uid != os.Geteuid() && (!configured || perm&0o020 == 0 || !inGroup(o.gid)):
		return fmt.Sprintf("it belongs to another user (uid %d), not to this one (uid %d)", o.uid, os.Geteuid())
	case perm&0o020 != 0 && !configured:
		return fmt.Sprintf("its group can write it (mode %v): the default folder must be the user's alone "+
			"(a rate_state_dir configured on purpose may be shared by a group)", perm)
	}
	return ""
}

// sharedGroup is the group of the configured folder dir when its group
// can write it (a team's folder), or -1.
func sharedGroup(dir string) int {
	fi, err := os.Stat(dir) //nolint:gosec // The folder the user configured.
	if err != nil || fi.Mode().Perm()&0o020 == 0 {
		return -1
	}
	if o, ok := ownerOf(fi); ok {
		return o.gid
	}
	return -1
}

// inGroup reports whether the user is a member of the group gid.
func inGroup(gid int) bool {
	if gid == os.Getegid() {
		return true
	}
	groups, _ := os.Getgroups()
	return slices.Contains(groups, gid)
}

// openFile opens (creating it) the state file name without following a
// link, and checks that it can be used: a regular file with one name,
// the user's (or of the shared folder's group), no one else can write.
func (s *fileStore) openFile(name string) (*os.File, error) {
	perm := os.FileMode(0o600)
	if s.group >= 0 {
		perm = 0o660
	}
	f, err := openNoFollow(name, os.O_RDWR|os.O_CREATE, perm)
	if err != nil {
		return nil, fmt.Errorf("rate_state_dir: opening %s: %w", name, err)
	}
	if err := s.checkFile(f); err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}

// checkFile says why the open state file f must not be used, or nil.
func (s *fileStore) checkFile(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("rate_state_dir: %s: %w", f.Name(), err)
	}
	why := ""
	if !fi.Mode().IsRegular() {
		why = "it is not a regular file"
	} else if o, ok := ownerOf(fi); ok {
		perm := fi.Mode().Perm()
		switch {
		case o.links > 1:
			why = fmt.Sprintf("it has %d names (hard links)", o.links)
		case o.uid != os.Geteuid() && (s.group < 0 || o.gid != s.group):
			why = fmt.Sprintf("it belongs to another user (uid %d), not to this one (uid %d)", o.uid, os.Geteuid())
		case perm&0o002 != 0:
			why = fmt.Sprintf("every user of the host can write it (mode %v)", perm)
		case s.group >= 0 && o.uid == os.Geteuid() && perm&0o060 != 0o060:
			// The team's processes read and write it too, whatever the
			// umask made of 0660.
			if err := f.Chmod(0o660); err != nil {
				return fmt.Errorf("rate_state_dir: %s: %w", f.Name(), err)
			}
		}
	}
	if why != "" {
		return fmt.Errorf("rate_state_dir: %s is %w: %s", f.Name(), errStateNotUsable, why)
	}
	return nil
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

// hostStore is the process's store of dir (configured, or the default
// folder); the error says why the host's state is unusable (the store
// then paces the process alone). The first use of dir in the process
// removes the folder's expired files (as of now).
func hostStore(dir string, configured bool, now time.Time) (*fileStore, error) {
	fileStores.Lock()
	defer fileStores.Unlock()
	if s := fileStores.byDir[dir]; s != nil {
		return s, s.broken
	}
	s, err := openFileStore(dir, configured, now)
	fileStores.byDir[dir] = s
	return s, err
}

// stateFileName is the name of the state file of key.
func stateFileName(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:12]) + stateFileExt
}

// stateFileExt ends the name of every state file.
const stateFileExt = ".rate"

// isStateFileName reports whether name is the name of a state file.
func isStateFileName(name string) bool {
	h, ok := strings.CutSuffix(name, stateFileExt)
	if !ok || len(h) != 24 {
		return false
	}
	_, err := hex.DecodeString(h)
	return err == nil
}

// stateOf names the file of the state of key (for the messages of long
// waits).
func (s *fileStore) stateOf(key string) string {
	return filepath.Join(s.dir, stateFileName(key))
}

// file opens (once) the state file of key.
func (s *fileStore) file(key string) (*os.File, error) {
	if f := s.files[key]; f != nil {
		return f, nil
	}
	f, err := s.openFile(s.stateOf(key))
	if err != nil {
		return nil, err
	}
	s.files[key] = f
	return f, nil
}

// lockedFile opens the state file of key and takes its lock; a file
// another process removed (it expired) meanwhile is opened anew.
func (s *fileStore) lockedFile(key string, exclusive bool) (*os.File, error) {
	for range 3 {
		f, err := s.file(key)
		if err != nil {
			return nil, err
		}
		if err := s.lock(f, exclusive); err != nil {
			return nil, err
		}
		if current(f) {
			return f, nil
		}
		unlockFile(f)
		_ = f.Close()
		delete(s.files, key)
	}
	return nil, fmt.Errorf("rate_state_dir: %s keeps being removed", s.stateOf(key))
}

// current reports whether the open file f still has its name.
func current(f *os.File) bool {
	open, err := f.Stat()
	if err != nil {
		return false
	}
	named, err := os.Lstat(f.Name()) //nolint:gosec // A file of the checked state folder.
	return err == nil && os.SameFile(open, named)
}

// sweep removes the state files of the folder untouched for longer than
// rateStateExpiry that hold no time after now, and returns how many state
// files the folder keeps. The folder's lock is held.
func (s *fileStore) sweep(now time.Time) (int, error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return 0, fmt.Errorf("rate_state_dir %s: %w", s.dir, err)
	}
	kept := 0
	for _, e := range entries {
		if !isStateFileName(e.Name()) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		if !info.Mode().IsRegular() || now.Sub(info.ModTime()) <= rateStateExpiry || !s.expire(filepath.Join(s.dir, e.Name()), now) {
			kept++
		}
	}
	return kept, nil
}

// expire removes the state file name, under its lock, unless another
// process holds it or it holds a time after now; it reports whether the
// file is gone.
func (s *fileStore) expire(name string, now time.Time) bool {
	f, err := openNoFollow(name, os.O_RDWR, 0)
	if err != nil {
		return errors.Is(err, fs.ErrNotExist)
	}
	defer func() { _ = f.Close() }()
	if s.checkFile(f) != nil || lockFile(f, true) != nil {
		return false
	}
	defer unlockFile(f)
	if !current(f) {
		return true
	}
	if t, err := readTime(f); err != nil || t.After(now) {
		return false
	}
	return os.Remove(name) == nil
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

// readTime reads the time stored in f: zero for an empty file. Anything
// but nothing or eight bytes of a time after 1970 is a damaged file.
func readTime(f *os.File) (time.Time, error) {
	var b [9]byte
	n, err := f.ReadAt(b[:], 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return time.Time{}, fmt.Errorf("rate_state_dir: reading %s: %w", f.Name(), err)
	}
	switch n {
	case 0:
		return time.Time{}, nil
	case 8:
	default:
		return time.Time{}, fmt.Errorf("rate_state_dir: %s is %w: it holds %s, not a time", f.Name(), errStateNotUsable, sizeOf(f, n))
	}
	ns := int64(binary.BigEndian.Uint64(b[:8])) //nolint:gosec // Written from an int64.
	if ns <= 0 {
		return time.Time{}, fmt.Errorf("rate_state_dir: %s is %w: it holds no time after 1970", f.Name(), errStateNotUsable)
	}
	return time.Unix(0, ns), nil
}

// sizeOf says how much f holds, n bytes read of it.
func sizeOf(f *os.File, n int) string {
	if fi, err := f.Stat(); err == nil {
		return fmt.Sprintf("%d bytes", fi.Size())
	}
	return fmt.Sprintf("%d bytes or more", n)
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

// reserveShared takes the turn in the files; s.mu is held. A throttle
// further ahead than the service's throttle, or a turn further ahead than
// maxPaceAhead, was not written by a process pacing to the budget: the
// file is damaged or planted, and the process paces alone.
func (s *fileStore) reserveShared(key, throttleKey string, now time.Time, interval, tolerance time.Duration) (time.Time, error) {
	until, err := s.read(throttleKey)
	if err != nil {
		return time.Time{}, err
	}
	if until.After(now.Add(maxThrottle)) {
		return time.Time{}, fmt.Errorf("rate_state_dir: %s is %w: it holds a throttle until %s, more than the "+
			"service's throttle of %v ahead (damaged, or written by someone else)",
			s.stateOf(throttleKey), errStateNotUsable, until.UTC().Format(time.RFC3339), maxThrottle)
	}
	s.throttles[throttleKey] = until
	f, err := s.lockedFile(key, true)
	if err != nil {
		return time.Time{}, err
	}
	defer unlockFile(f)
	tat, err := readTime(f)
	if err != nil {
		return time.Time{}, err
	}
	if tat.After(now.Add(maxPaceAhead)) {
		return time.Time{}, fmt.Errorf("rate_state_dir: %s is %w: it holds a turn at %s, more than %v ahead "+
			"(damaged, or written by someone else)", f.Name(), errStateNotUsable, tat.UTC().Format(time.RFC3339), maxPaceAhead)
	}
	at, next := grant(tat, now, until, interval, tolerance)
	if err := writeTime(f, next); err != nil {
		return time.Time{}, fmt.Errorf("rate_state_dir: writing %s: %w", f.Name(), err)
	}
	return at, nil
}

// throttleSeen is the throttle of key the store last read (for the
// messages of long waits).
func (s *fileStore) throttleSeen(key string) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.broken != nil {
		return s.fallback.throttleSeen(key)
	}
	return s.throttles[key]
}

// read reads the time of key under a shared lock; s.mu is held.
func (s *fileStore) read(key string) (time.Time, error) {
	f, err := s.lockedFile(key, false)
	if err != nil {
		return time.Time{}, err
	}
	defer unlockFile(f)
	return readTime(f)
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
	f, err := s.lockedFile(key, true)
	if err != nil {
		return err
	}
	defer unlockFile(f)
	prev, err := readTime(f)
	if err != nil {
		return err
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
