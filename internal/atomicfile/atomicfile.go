package atomicfile

import (
	"os"
	"path/filepath"
)

// Create writes content to path with mode 0600, atomically, and fails with an error
// wrapping fs.ErrExist when path exists: an existing file is never overwritten.
func Create(path string, content []byte) error { return write(path, content, false) }

// Replace writes content to path with mode 0600, atomically, replacing the file if
// it exists: a reader sees either the old content or the new, never a mix.
func Replace(path string, content []byte) error { return write(path, content, true) }

func write(path string, content []byte, replace bool) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed; the spare link after Create
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(content); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if replace {
		err = os.Rename(tmp.Name(), path)
	} else {
		err = os.Link(tmp.Name(), path)
	}
	if err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync() // best effort: not every platform syncs directories
		d.Close()
	}
	return nil
}
