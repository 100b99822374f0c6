package fieldcrypt

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"testing"
)

// FuzzSealed decodes outside bytes as a Sealed, in JSON and in the binary form: a
// value either fails with ErrMalformed or is well formed, re-encodes to a value that
// decodes equal, and never opens under a keyring that did not seal it.
func FuzzSealed(f *testing.F) {
	ring, err := NewKeyring("k1", map[string][]byte{"k1": bytes.Repeat([]byte{1}, KeySize)}, rand.Reader)
	if err != nil {
		f.Fatal(err)
	}
	s, _ := ring.Seal([]byte("Amina Diallo"), []byte("aad"))
	js, _ := json.Marshal(s)
	bin, _ := s.MarshalBinary()
	f.Add(js)
	f.Add(bin)
	f.Add([]byte(`{"kid":"","n":null,"c":null}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"kid":"k1","n":"AAAAAAAAAAAAAAAA","c":"AAAAAAAAAAAAAAAAAAAAAA=="}`))
	f.Add([]byte{1, 2, 'k', '1'})
	f.Fuzz(func(t *testing.T, b []byte) {
		var j Sealed
		if err := json.Unmarshal(b, &j); err == nil && !j.IsZero() {
			if err := j.Validate(); err != nil {
				t.Fatalf("decoded an invalid value: %v", err)
			}
			again, _ := json.Marshal(j)
			var k Sealed
			if err := json.Unmarshal(again, &k); err != nil || !equal(j, k) {
				t.Fatalf("JSON re-encoding: %v", err)
			}
			if p, err := ring.Open(j, []byte("aad")); err == nil && !bytes.Equal(p, []byte("Amina Diallo")) {
				t.Fatalf("a forged value opened: %q", p)
			}
		}
		var v Sealed
		if err := v.UnmarshalBinary(b); err == nil {
			out, err := v.MarshalBinary()
			if err != nil || !bytes.Equal(out, b) {
				t.Fatalf("binary re-encoding: %x vs %x, %v", out, b, err)
			}
		}
	})
}

func equal(a, b Sealed) bool {
	return a.KeyID == b.KeyID && bytes.Equal(a.Nonce, b.Nonce) && bytes.Equal(a.Ciphertext, b.Ciphertext)
}
