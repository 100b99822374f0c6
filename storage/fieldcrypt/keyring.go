package fieldcrypt

import (
	"crypto/aes"
	"crypto/cipher"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
)

// aadPrefix starts the additional data of every seal, so that a ciphertext of this
// package can never be mistaken for another protocol's, and so that the key id is
// authenticated too.
const aadPrefix = "veriland/fieldcrypt/v1\x00"

// Keyring holds data keys by id and seals with the current one; every key opens what
// it sealed until it is erased. A Keyring is safe for concurrent use. A Keyring made
// by LoadOrCreate keeps its key file in step with Rotate and Erase; one made by
// NewKeyring lives in memory only.
type Keyring struct {
	mu      sync.RWMutex
	rand    io.Reader
	current string
	order   []string // key ids, current first, then older ones newest first
	keys    map[string][]byte
	aeads   map[string]cipher.AEAD
	path    string // the key file, "" for an in-memory keyring
}

// NewKeyring returns a keyring holding keys (32 bytes each, by key id) that seals with
// the key named current. rand supplies nonces and the keys Rotate makes: pass
// crypto/rand.Reader outside tests. The keys are copied.
func NewKeyring(current string, keys map[string][]byte, rand io.Reader) (*Keyring, error) {
	if rand == nil {
		return nil, errors.New("fieldcrypt: nil rand")
	}
	if _, ok := keys[current]; !ok {
		return nil, fmt.Errorf("fieldcrypt: current key %q is not among the keys", current)
	}
	k := &Keyring{rand: rand, current: current, keys: map[string][]byte{}, aeads: map[string]cipher.AEAD{}}
	ids := make([]string, 0, len(keys))
	for id := range keys {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	k.order = append(k.order, current)
	for _, id := range ids {
		if err := k.add(id, keys[id]); err != nil {
			return nil, err
		}
		if id != current {
			k.order = append(k.order, id)
		}
	}
	return k, nil
}

func (k *Keyring) add(id string, key []byte) error {
	if err := validKeyID(id); err != nil {
		return err
	}
	if len(key) != KeySize {
		return fmt.Errorf("fieldcrypt: key %q has %d bytes, want %d", id, len(key), KeySize)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return err
	}
	k.keys[id] = slices.Clone(key)
	k.aeads[id] = aead
	return nil
}

// Current returns the id of the key Seal uses.
func (k *Keyring) Current() string {
	k.mu.RLock()
	defer k.mu.RUnlock()
	return k.current
}

// KeyIDs returns the ids of the keys held, the current one first.
func (k *Keyring) KeyIDs() []string {
	k.mu.RLock()
	defer k.mu.RUnlock()
	return slices.Clone(k.order)
}

// Seal encrypts plaintext under the current key with a fresh random nonce. aad binds
// the value to its place — the record and the field, for example
// "parcel:PRODUCTION:prc_…:owner.fullName" — so that a sealed value copied into
// another record or field does not open there. aad is authenticated, not stored.
func (k *Keyring) Seal(plaintext, aad []byte) (Sealed, error) {
	if k == nil {
		return Sealed{}, errors.New("fieldcrypt: nil keyring")
	}
	k.mu.RLock()
	id, aead, rand := k.current, k.aeads[k.current], k.rand
	k.mu.RUnlock()
	if aead == nil {
		return Sealed{}, errors.New("fieldcrypt: keyring without keys; use NewKeyring or LoadOrCreate")
	}
	nonce := make([]byte, NonceSize)
	if _, err := io.ReadFull(rand, nonce); err != nil {
		return Sealed{}, fmt.Errorf("fieldcrypt: nonce: %w", err)
	}
	return Sealed{KeyID: id, Nonce: nonce, Ciphertext: aead.Seal(nil, nonce, plaintext, fullAAD(id, aad))}, nil
}

// Open decrypts s with the key it names and the same aad it was sealed with. Errors:
// ErrMalformed for a badly shaped s (the zero Sealed too), ErrUnknownKey for a key id
// the keyring does not hold (erased, or another keyring's), ErrOpen when
// authentication fails: a tampered nonce or ciphertext, another aad.
func (k *Keyring) Open(s Sealed, aad []byte) ([]byte, error) {
	if k == nil {
		return nil, errors.New("fieldcrypt: nil keyring")
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	k.mu.RLock()
	aead, ok := k.aeads[s.KeyID]
	k.mu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownKey, s.KeyID)
	}
	out, err := aead.Open(nil, s.Nonce, s.Ciphertext, fullAAD(s.KeyID, aad))
	if err != nil {
		return nil, ErrOpen
	}
	return out, nil
}

// Rotate makes a new random key current and returns its id. Older keys still open
// what they sealed; new seals use the new key. A file-backed keyring writes its key
// file (atomically) before the new key is used.
func (k *Keyring) Rotate() (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	id, key, err := k.newKey()
	if err != nil {
		return "", err
	}
	next := &Keyring{keys: maps(k.keys), aeads: map[string]cipher.AEAD{}}
	if err := next.add(id, key); err != nil {
		return "", err
	}
	order := append([]string{id}, k.order...)
	if k.path != "" {
		if err := writeKeyFile(k.path, order, next.keys, true); err != nil {
			return "", err
		}
	}
	k.keys[id], k.aeads[id] = next.keys[id], next.aeads[id]
	k.order, k.current = order, id
	return id, nil
}

// Erase drops the key id, crypto-erasing every value sealed under it: from then on
// those values fail to open with ErrUnknownKey, wherever copies of them are kept
// (database pages, backups, replicas). A file-backed keyring rewrites its key file
// without the key first. The current key cannot be erased: Rotate first. Erasing
// an unknown id is an ErrUnknownKey error.
func (k *Keyring) Erase(id string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if _, ok := k.keys[id]; !ok {
		return fmt.Errorf("%w %q", ErrUnknownKey, id)
	}
	if id == k.current {
		return errors.New("fieldcrypt: the current key cannot be erased; rotate first")
	}
	order := slices.DeleteFunc(slices.Clone(k.order), func(s string) bool { return s == id })
	keys := maps(k.keys)
	delete(keys, id)
	if k.path != "" {
		if err := writeKeyFile(k.path, order, keys, true); err != nil {
			return err
		}
	}
	clear(k.keys[id])
	delete(k.keys, id)
	delete(k.aeads, id)
	k.order = order
	return nil
}

// newKey draws a fresh key id (not yet in use) and key from k.rand.
func (k *Keyring) newKey() (string, []byte, error) {
	for range 8 {
		b := make([]byte, 6+KeySize)
		if _, err := io.ReadFull(k.rand, b); err != nil {
			return "", nil, fmt.Errorf("fieldcrypt: new key: %w", err)
		}
		id := "fk_" + hex.EncodeToString(b[:6])
		if _, taken := k.keys[id]; !taken {
			return id, b[6:], nil
		}
	}
	return "", nil, errors.New("fieldcrypt: new key: rand keeps repeating itself")
}

func fullAAD(id string, aad []byte) []byte {
	out := make([]byte, 0, len(aadPrefix)+len(id)+1+len(aad))
	out = append(out, aadPrefix...)
	out = append(out, id...)
	out = append(out, 0)
	return append(out, aad...)
}

func maps(m map[string][]byte) map[string][]byte {
	out := make(map[string][]byte, len(m))
	for id, v := range m {
		out[id] = v
	}
	return out
}
