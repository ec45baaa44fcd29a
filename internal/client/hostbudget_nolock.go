//go:build !(linux || darwin || freebsd)

package client

import (
	"errors"
	"os"
)

// errLocked is the error of a lock another process holds.
var errLocked = errors.New("locked by another process")

// lockFile fails: this system's build has no advisory file locks, so each
// process paces alone at its rate_budget.
func lockFile(*os.File, bool) error {
	return errors.New("sharing the rate budget between processes is not supported on this system")
}

func unlockFile(*os.File) {}
