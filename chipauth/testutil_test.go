package chipauth_test

import (
	"bytes"
	"crypto"
	"testing"
)

func replaceOnce(t *testing.T, b, old, new []byte) []byte {
	t.Helper()
	if bytes.Count(b, old) != 1 {
		t.Fatalf("pattern found %d times", bytes.Count(b, old))
	}
	return bytes.Replace(b, old, new, 1)
}

func flipInside(t *testing.T, b, pattern []byte) []byte {
	t.Helper()
	i := bytes.Index(b, pattern)
	if i < 0 {
		t.Fatal("pattern not found")
	}
	return flipByte(b, i+len(pattern)/2)
}

func flipByte(b []byte, i int) []byte {
	out := bytes.Clone(b)
	out[i] ^= 0x01
	return out
}

func sumOf(h crypto.Hash, b []byte) []byte {
	d := h.New()
	d.Write(b)
	return d.Sum(nil)
}
