//go:build linux || darwin || freebsd

package client

import (
	"errors"
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
