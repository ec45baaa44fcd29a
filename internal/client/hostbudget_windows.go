//go:build windows

package client

import (
	"errors"
	"io/fs"
	"os"

	"golang.org/x/sys/windows"
)

// errLocked is the error of a lock another process holds.
var errLocked = errors.New("locked by another process")

// lockOffset is where the locked byte lies: far past the eight bytes of
// a state file, so that the lock (mandatory on Windows) never stands in
// the way of a read or write of them.
const lockOffset = 1 << 32

// lockOverlapped is the range of the lock: one byte at lockOffset.
func lockOverlapped() *windows.Overlapped {
	return &windows.Overlapped{Offset: lockOffset & 0xffffffff, OffsetHigh: lockOffset >> 32}
}

// lockFile takes the lock of f without waiting (LockFileEx): errLocked
// when another open file holds it. The system drops it when the process
// ends, however it ends.
func lockFile(f *os.File, exclusive bool) error {
	flags := uint32(windows.LOCKFILE_FAIL_IMMEDIATELY)
	if exclusive {
		flags |= windows.LOCKFILE_EXCLUSIVE_LOCK
	}
	err := windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, 1, 0, lockOverlapped())
	switch {
	case err == nil:
		return nil
	case errors.Is(err, windows.ERROR_LOCK_VIOLATION), errors.Is(err, windows.ERROR_IO_PENDING):
		return errLocked
	default:
		return err
	}
}

func unlockFile(f *os.File) {
	_ = windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, lockOverlapped())
}

// openNoFollow opens name unless it is a link (a symbolic link or another
// reparse point).
func openNoFollow(name string, flag int, perm os.FileMode) (*os.File, error) {
	if fi, err := os.Lstat(name); err == nil && fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0 {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("a link, not followed")}
	}
	return os.OpenFile(name, flag, perm) //nolint:gosec // A name of the checked state folder.
}

// owner is who owns a file, and how many names it has.
type owner struct {
	uid, gid int
	links    uint64
}

// ownerOf has no owner to report on Windows: the default folder lies in
// the user's own profile (%LocalAppData%), which only the user can reach.
func ownerOf(fs.FileInfo) (owner, bool) { return owner{}, false }
