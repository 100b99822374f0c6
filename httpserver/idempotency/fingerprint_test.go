package idempotency

import (
	"bytes"
	"crypto/sha256"
	"testing"
)

// Without a key the fingerprint is SHA-256 of the body; with one it is a keyed MAC,
// so a guessed body cannot be confirmed from the store, and two keys disagree.
func TestFingerprint(t *testing.T) {
	body := []byte(`{"owner":{"fullName":"Amina Bello","id_doc":"NIN-1"}}`)
	plain := (&Store{}).Fingerprint(body)
	if plain != sha256.Sum256(body) {
		t.Fatalf("unkeyed fingerprint is not SHA-256 of the body")
	}
	a := (&Store{FingerprintKey: bytes.Repeat([]byte{1}, 32)}).Fingerprint(body)
	b := (&Store{FingerprintKey: bytes.Repeat([]byte{2}, 32)}).Fingerprint(body)
	cases := []struct {
		name string
		ok   bool
	}{
		{"keyed differs from SHA-256", a != plain},
		{"two keys differ", a != b},
		{"same key, same body, same fingerprint", a == (&Store{FingerprintKey: bytes.Repeat([]byte{1}, 32)}).Fingerprint(body)},
		{"same key, other body, other fingerprint", a != (&Store{FingerprintKey: bytes.Repeat([]byte{1}, 32)}).Fingerprint(append(body, ' '))},
	}
	for _, c := range cases {
		if !c.ok {
			t.Errorf("%s: no", c.name)
		}
	}
}
