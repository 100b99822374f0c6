// Package atomicfile writes secret files so that no reader ever sees half of one: the
// content goes to a temporary file (mode 0600) in the same directory, is synced, and
// only then takes the final name, after which the directory is synced (best effort).
//
// Create never replaces an existing file (a hard link, which fails with fs.ErrExist):
// of several processes creating one key at once, exactly one wins and the others can
// read the winner's file. Replace renames over the old file, for rewrites such as a
// key rotation.
package atomicfile
