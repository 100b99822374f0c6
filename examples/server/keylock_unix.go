//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// keysLockFile is the lock that replicas sharing a keys directory take while they
// load or create the keys, so that the first one creates them and the others wait.
const keysLockFile = ".keys.lock"

// lockKeysDir takes an exclusive flock(2) on dir/.keys.lock, blocking while another
// process holds it, and returns the function that releases it. The kernel releases
// the lock when its holder dies, so a replica killed while creating keys never
// blocks the others for good; its half-written temporary files are never read.
func lockKeysDir(dir string) (func(), error) {
	f, err := os.OpenFile(filepath.Join(dir, keysLockFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("keys lock: %w", err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("keys lock: flock %s: %w", f.Name(), err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
