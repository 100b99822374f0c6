package fieldcrypt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Sizes of the parts of a Sealed value.
const (
	// KeySize is the length of a data key: AES-256.
	KeySize = 32
	// NonceSize is the length of a GCM nonce, chosen at random for every Seal.
	NonceSize = 12
	// TagSize is the length of the GCM authentication tag at the end of Ciphertext.
	TagSize = 16
	// MaxKeyIDLen bounds a key id.
	MaxKeyIDLen = 64
)

// binaryVersion is the first byte of the binary form (MarshalBinary).
const binaryVersion = 1

// Sealed is a field encrypted with AES-256-GCM under the key named KeyID. Its JSON
// form is {"kid": "...", "n": base64 nonce, "c": base64 ciphertext+tag}. The zero
// Sealed stands for "no value": it round-trips through JSON and Open refuses it.
type Sealed struct {
	KeyID      string `json:"kid"`
	Nonce      []byte `json:"n"`
	Ciphertext []byte `json:"c"`
}

// IsZero reports whether s holds no sealed value.
func (s Sealed) IsZero() bool {
	return s.KeyID == "" && len(s.Nonce) == 0 && len(s.Ciphertext) == 0
}

// Validate checks the shape of s (a key id, a 12-byte nonce, at least a tag of
// ciphertext); it says nothing about whether s opens. Errors wrap ErrMalformed.
func (s Sealed) Validate() error {
	if err := validKeyID(s.KeyID); err != nil {
		return err
	}
	if len(s.Nonce) != NonceSize {
		return fmt.Errorf("%w: nonce of %d bytes, want %d", ErrMalformed, len(s.Nonce), NonceSize)
	}
	if len(s.Ciphertext) < TagSize {
		return fmt.Errorf("%w: ciphertext of %d bytes is shorter than the tag", ErrMalformed, len(s.Ciphertext))
	}
	return nil
}

// UnmarshalJSON decodes the JSON form and validates its shape: a value that
// decodes is either the zero Sealed or well formed. null is a no-op.
func (s *Sealed) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		return nil
	}
	type plain Sealed // no methods: no recursion
	var p plain
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if dec.More() {
		return fmt.Errorf("%w: trailing data", ErrMalformed)
	}
	v := Sealed(p)
	if !v.IsZero() {
		if err := v.Validate(); err != nil {
			return err
		}
	}
	*s = v
	return nil
}

// MarshalBinary returns the compact binary form: a version byte (1), the key id's
// length and bytes, the 12-byte nonce, then ciphertext and tag.
func (s Sealed) MarshalBinary() ([]byte, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	out := make([]byte, 0, 2+len(s.KeyID)+NonceSize+len(s.Ciphertext))
	out = append(out, binaryVersion, byte(len(s.KeyID)))
	out = append(out, s.KeyID...)
	out = append(out, s.Nonce...)
	return append(out, s.Ciphertext...), nil
}

// UnmarshalBinary decodes the form MarshalBinary writes. The result does not alias b.
// Errors wrap ErrMalformed.
func (s *Sealed) UnmarshalBinary(b []byte) error {
	if len(b) < 2 || b[0] != binaryVersion {
		return fmt.Errorf("%w: not a version %d sealed value", ErrMalformed, binaryVersion)
	}
	n := int(b[1])
	b = b[2:]
	if len(b) < n+NonceSize+TagSize {
		return fmt.Errorf("%w: truncated", ErrMalformed)
	}
	v := Sealed{
		KeyID:      string(b[:n]),
		Nonce:      bytes.Clone(b[n : n+NonceSize]),
		Ciphertext: bytes.Clone(b[n+NonceSize:]),
	}
	if err := v.Validate(); err != nil {
		return err
	}
	*s = v
	return nil
}

// validKeyID accepts 1..MaxKeyIDLen characters of [A-Za-z0-9_-]: key ids name files
// and appear in every record.
func validKeyID(id string) error {
	if id == "" || len(id) > MaxKeyIDLen {
		return fmt.Errorf("%w: key id must be 1..%d characters", ErrMalformed, MaxKeyIDLen)
	}
	for _, c := range []byte(id) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return fmt.Errorf("%w: key id %q has a character outside [A-Za-z0-9_-]", ErrMalformed, id)
		}
	}
	return nil
}

// Errors. Open never says more than which of these happened.
var (
	// ErrMalformed: the sealed value or a key file is not well formed.
	ErrMalformed = errors.New("fieldcrypt: malformed")
	// ErrUnknownKey: the key id is not in the keyring (never was, or was erased).
	ErrUnknownKey = errors.New("fieldcrypt: unknown key id")
	// ErrOpen: authentication failed (tampered value, wrong key or wrong AAD).
	ErrOpen = errors.New("fieldcrypt: message authentication failed")
)
