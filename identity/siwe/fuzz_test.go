package siwe_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity/siwe"
	"github.com/veriland/veriland/storage/bolt"
)

// FuzzParse checks that Parse never panics, refuses only with a validation_failed
// *ParseError, and that whatever it accepts survives String and Parse again.
func FuzzParse(f *testing.F) {
	seeds := []string{
		full,
		svcHeader + svcStmt + svcFields,
		svcHeader + "\n" + svcFields,
		svcHeader + "\n\n" + svcFields,
		"https://" + full,
		strings.Replace(full, "service.org wants", "[::1]:8080 wants", 1),
		strings.Replace(full, "service.org wants", "user:pw@service.org:443 wants", 1),
		strings.Replace(full, ".000Z", "+05:30", 1),
		svcHeader + svcStmt + svcFields + "\nResources:",
		svcHeader + svcFields,
		full + "\n",
		strings.ReplaceAll(full, "\n", "\r\n"),
		strings.Replace(full, "Chain ID: 1", "Chain ID: 99999999999999999999", 1),
		strings.Replace(full, "I accept", "I accépt", 1),
		"",
		"\n\n\n\n\n\n\n\n\n",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := siwe.Parse(s)
		if err != nil {
			var perr *siwe.ParseError
			if veriland.CodeOf(err) != veriland.CodeValidationFailed || !errors.As(err, &perr) {
				t.Fatalf("Parse(%q) = %v, want validation_failed with a ParseError", s, err)
			}
			return
		}
		again, err := siwe.Parse(m.String())
		if err != nil {
			t.Fatalf("Parse(%q).String() = %q does not parse: %v", s, m.String(), err)
		}
		if !sameMessage(m, again) {
			t.Fatalf("round trip changed %q: %+v vs %+v", s, m, again)
		}
	})
}

func sameMessage(a, b *siwe.Message) bool {
	if !a.IssuedAt.Equal(b.IssuedAt) || !a.ExpirationTime.Equal(b.ExpirationTime) || !a.NotBefore.Equal(b.NotBefore) {
		return false
	}
	if len(a.Resources) != len(b.Resources) || (a.Resources == nil) != (b.Resources == nil) {
		return false
	}
	for i := range a.Resources {
		if a.Resources[i] != b.Resources[i] {
			return false
		}
	}
	return a.Scheme == b.Scheme && a.Domain == b.Domain && a.Address == b.Address && a.Statement == b.Statement &&
		a.URI == b.URI && a.Version == b.Version && a.ChainID == b.ChainID && a.Nonce == b.Nonce && a.RequestID == b.RequestID
}

// FuzzVerifySignature feeds Verify a good message with arbitrary signatures: never a
// panic, never a login, and only the two client error codes.
func FuzzVerifySignature(f *testing.F) {
	store, err := bolt.Open(filepath.Join(f.TempDir(), "siwe.db"), bolt.Options{NoSync: true})
	if err != nil {
		f.Fatal(err)
	}
	defer store.Close()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	svc := &siwe.Service{Store: store, Origin: origin, ChainID: 1, Now: func() time.Time { return now }}
	key := testKey(f, 1)
	text := message(key, "abcdefgh12345678", now).String()
	good := sign(f, key, text)
	for _, s := range []string{hex0x(good), hex0x(highS(good)), "", "0x", "0x00", hex0x(make([]byte, 65)), hex0x(append(good, 1)), "0x" + strings.Repeat("f", 130)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sig string) {
		login, err := svc.Verify(context.Background(), veriland.Sandbox, text, sig)
		if login != nil || err == nil {
			t.Fatalf("Verify accepted %q", sig) // the nonce was never issued
		}
		if c := veriland.CodeOf(err); c != veriland.CodeValidationFailed && c != veriland.CodeUnauthenticated {
			t.Fatalf("Verify(%q) = %v", sig, err)
		}
	})
}
