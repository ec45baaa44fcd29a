//go:build linux || darwin || freebsd

package client

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// errLocked is the error of a lock another process holds.
var errLocked = errors.New("locked by another process")

// lockFile takes the advisory lock of f without waiting: errLocked when
// another open file holds it.
func lockFile(f *os.File, exclusive bool) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB) //nolint:gosec // A file descriptor fits an int.
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return errLocked
		default:
			return err
		}
	}
}

func unlockFile(f *os.File) {
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) //nolint:gosec // A file descriptor fits an int.
}

// openNoFollow opens name, never through a symbolic link (O_NOFOLLOW:
// a link fails with ELOOP), and never as the controlling terminal.
func openNoFollow(name string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag|syscall.O_NOFOLLOW|syscall.O_NOCTTY, perm) //nolint:gosec // A name of the checked state folder.
}

// owner is who owns a file, and how many names it has.
type owner struct {
	uid, gid int
	links    uint64
}

// ownerOf is the owner of the file of fi.
func ownerOf(fi fs.FileInfo) (owner, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return owner{}, false
	}
	return owner{uid: int(st.Uid), gid: int(st.Gid), links: uint64(st.Nlink)}, true //nolint:unconvert // Nlink is uint16 on darwin and freebsd.
}
