//go:build !(linux || darwin || freebsd || windows)

package client

import (
	"errors"
	"io/fs"
	"os"
)

// errLocked is the error of a lock another process holds.
var errLocked = errors.New("locked by another process")

// lockFile fails: this system's build has no file locks, so each
// process paces alone at its rate_budget.
func lockFile(*os.File, bool) error {
	return errors.New("sharing the rate budget between processes is not supported on this system")
}

func unlockFile(*os.File) {}

// openNoFollow opens name unless it is a symbolic link.
func openNoFollow(name string, flag int, perm os.FileMode) (*os.File, error) {
	if fi, err := os.Lstat(name); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("a symbolic link, not followed")}
	}
	return os.OpenFile(name, flag, perm) //nolint:gosec // A name of the checked state folder.
}

// owner is who owns a file, and how many names it has.
type owner struct {
	uid, gid int
	links    uint64
}

// ownerOf has no owner to report on these systems.
func ownerOf(fs.FileInfo) (owner, bool) { return owner{}, false }
