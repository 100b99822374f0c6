package modexp

import (
	"encoding/binary"
	"math/bits"
)

// setBytes sets z to the big-endian number b and reports whether it fit in
// len(z) limbs (leading zero bytes are allowed beyond that).
func setBytes(z []uint64, b []byte) bool {
	clear(z)
	for i := range z {
		if len(b) >= 8 {
			z[i] = binary.BigEndian.Uint64(b[len(b)-8:])
			b = b[:len(b)-8]
			continue
		}
		var w uint64
		for _, c := range b {
			w = w<<8 | uint64(c)
		}
		z[i], b = w, nil
		break
	}
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// fillBytes writes x as a big-endian number into all of b, which must be long
// enough to hold it.
func fillBytes(b []byte, x []uint64) {
	for _, w := range x {
		if len(b) >= 8 {
			binary.BigEndian.PutUint64(b[len(b)-8:], w)
			b = b[:len(b)-8]
			continue
		}
		for i := len(b) - 1; i >= 0; i-- {
			b[i], w = byte(w), w>>8
		}
		b = nil
	}
	clear(b)
}

// less reports whether x < y; both have the same length.
func less(x, y []uint64) bool {
	for i := len(x) - 1; i >= 0; i-- {
		if x[i] != y[i] {
			return x[i] < y[i]
		}
	}
	return false
}

// subVV sets z = x - y and returns the borrow; all have the same length.
func subVV(z, x, y []uint64) (b uint64) {
	y = y[:len(x)]
	z = z[:len(x)]
	for i := range x {
		z[i], b = bits.Sub64(x[i], y[i], b)
	}
	return b
}

// addMulVVWGeneric sets z += x·y and returns the carry word; len(x) ≥ len(z).
// It is the portable version of addMulVVW.
func addMulVVWGeneric(z, x []uint64, y uint64) (c uint64) {
	x = x[:len(z)]
	for i := range z {
		hi, lo := bits.Mul64(x[i], y)
		lo, cc := bits.Add64(lo, z[i], 0)
		hi += cc
		lo, cc = bits.Add64(lo, c, 0)
		hi += cc
		z[i], c = lo, hi
	}
	return c
}
