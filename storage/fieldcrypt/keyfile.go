package fieldcrypt

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/veriland/veriland/internal/atomicfile"
)

// KeyFileName is the key file LoadOrCreate keeps in the data directory.
const KeyFileName = "field.keys"

const keyFileHeader = `# veriland field-encryption keys (storage/fieldcrypt), AES-256, hex.
# Secret: mode 0600, back it up apart from the database. The first key seals, every
# key opens; a key removed from this file crypto-erases what it sealed.
`

// LoadOrCreate returns the keyring kept in dir/field.keys, creating dir (0700) and the
// file (0600, one new key) when they do not exist. It refuses a key file that group
// or others may read or write, and a malformed one. rand supplies nonces and new keys:
// pass crypto/rand.Reader outside tests. Rotate and Erase on the keyring rewrite the
// file atomically (a temporary file renamed over it). One process at a time may hold
// a data directory's keyring for Rotate and Erase; any number may load it, and of
// several processes creating it at once one wins and the others load its file.
func LoadOrCreate(dir string, rand io.Reader) (*Keyring, error) {
	if rand == nil {
		return nil, errors.New("fieldcrypt: nil rand")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, KeyFileName)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		k, err := create(path, rand)
		if errors.Is(err, fs.ErrExist) {
			// Another process created the file first (replicas starting together on
			// one data directory): use its keys.
			return LoadOrCreate(dir, rand)
		}
		return k, err
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("fieldcrypt: %s is accessible to others (mode %v); chmod 600 it", path, perm)
	}
	order, keys, err := parseKeyFile(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	k, err := NewKeyring(order[0], keys, rand)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	k.order, k.path = order, path
	return k, nil
}

func create(path string, rand io.Reader) (*Keyring, error) {
	k := &Keyring{rand: rand, keys: map[string][]byte{}}
	id, key, err := k.newKey()
	if err != nil {
		return nil, err
	}
	if err := writeKeyFile(path, []string{id}, map[string][]byte{id: key}, false); err != nil {
		return nil, err
	}
	k, err = NewKeyring(id, map[string][]byte{id: key}, rand)
	if err != nil {
		return nil, err
	}
	k.path = path
	return k, nil
}

// parseKeyFile reads lines "<key id> <64 hex>", the current key first; blank lines
// and lines starting with # are comments.
func parseKeyFile(r io.Reader) ([]string, map[string][]byte, error) {
	var order []string
	keys := map[string][]byte{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 2 {
			return nil, nil, fmt.Errorf("%w: line %d: want \"<key id> <hex key>\"", ErrMalformed, n)
		}
		id := fields[0]
		if err := validKeyID(id); err != nil {
			return nil, nil, fmt.Errorf("line %d: %w", n, err)
		}
		key, err := hex.DecodeString(fields[1])
		if err != nil || len(key) != KeySize {
			return nil, nil, fmt.Errorf("%w: line %d: key %s is not %d hex-encoded bytes", ErrMalformed, n, id, KeySize)
		}
		if _, dup := keys[id]; dup {
			return nil, nil, fmt.Errorf("%w: line %d: key id %s repeated", ErrMalformed, n, id)
		}
		keys[id] = key
		order = append(order, id)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, err
	}
	if len(order) == 0 {
		return nil, nil, fmt.Errorf("%w: no key", ErrMalformed)
	}
	return order, keys, nil
}

// writeKeyFile replaces path with the keys in order, atomically: a 0600 temporary
// file in the same directory, synced, renamed over path, and the directory synced.
// Unless replace, it fails when path exists (two first starts at once keep one key
// file, never overwrite each other's).
func writeKeyFile(path string, order []string, keys map[string][]byte, replace bool) error {
	var b bytes.Buffer
	b.WriteString(keyFileHeader)
	for _, id := range order {
		fmt.Fprintf(&b, "%s %s\n", id, hex.EncodeToString(keys[id]))
	}
	if replace {
		return atomicfile.Replace(path, b.Bytes())
	}
	return atomicfile.Create(path, b.Bytes())
}
