//go:build !unix

package main

// lockKeysDir is a no-op where flock(2) does not exist: each key file is still
// published atomically (a synced temporary file hard-linked into place, never
// overwritten), but two replicas creating a fresh keys directory at the same moment
// may each fail once on the other's file; start one replica first there.
func lockKeysDir(string) (func(), error) { return func() {}, nil }
