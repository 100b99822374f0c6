package secpcomb

import (
	"errors"
	"math/big"
	"sync"
)

// combTable holds j·2^(8i)·P at [i][j] for i < 32 and 0 < j < 256; [i][0] is unused.
type combTable [32][256]affine

// newCombTable builds the table of p: 32 windows of 255 mixed additions, each window
// brought to affine form with one inversion.
func newCombTable(p affine) *combTable {
	t := new(combTable)
	base := p
	var acc [256]jacobian
	for i := range 32 {
		run := jacobian{x: base.x, y: base.y, z: feOne}
		for j := 1; j < 256; j++ {
			acc[j] = run
			run.addMixed(&base)
		}
		batchAffine(t[i][1:], acc[1:])
		if i < 31 {
			base, _ = run.toAffine() // 256·base: never infinity, 256 < n
		}
	}
	return t
}

// batchAffine sets out[k] to the affine form of in[k] (none at infinity) with one
// inversion (Montgomery's trick).
func batchAffine(out []affine, in []jacobian) {
	prefix := make([]fe, len(in))
	acc := feOne
	for k := range in {
		prefix[k] = acc
		feMul(&acc, &acc, &in[k].z)
	}
	var inv fe
	feInverse(&inv, &acc)
	for k := len(in) - 1; k >= 0; k-- {
		var zinv, zinv2, zinv3 fe
		feMul(&zinv, &inv, &prefix[k])
		feMul(&inv, &inv, &in[k].z)
		feSquare(&zinv2, &zinv)
		feMul(&zinv3, &zinv2, &zinv)
		feMul(&out[k].x, &in[k].x, &zinv2)
		feMul(&out[k].y, &in[k].y, &zinv3)
	}
}

// add adds k·P to acc, k a big-endian scalar.
func (t *combTable) add(acc *jacobian, k *[32]byte) {
	for i := range 32 {
		if b := k[31-i]; b != 0 {
			acc.addMixed(&t[i][b])
		}
	}
}

var (
	curveN, _   = new(big.Int).SetString("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141", 16)
	generator   affine
	gTable      *combTable
	gTableBuilt sync.Once
)

func init() {
	gx := [32]byte{0x79, 0xbe, 0x66, 0x7e, 0xf9, 0xdc, 0xbb, 0xac, 0x55, 0xa0, 0x62, 0x95, 0xce, 0x87, 0x0b, 0x07,
		0x02, 0x9b, 0xfc, 0xdb, 0x2d, 0xce, 0x28, 0xd9, 0x59, 0xf2, 0x81, 0x5b, 0x16, 0xf8, 0x17, 0x98}
	gy := [32]byte{0x48, 0x3a, 0xda, 0x77, 0x26, 0xa3, 0xc4, 0x65, 0x5d, 0xa4, 0xfb, 0xfc, 0x0e, 0x11, 0x08, 0xa8,
		0xfd, 0x17, 0xb4, 0x48, 0xa6, 0x85, 0x54, 0x19, 0x9c, 0x47, 0xd0, 0x8f, 0xfb, 0x10, 0xd4, 0xb8}
	feFromBytes(&generator.x, &gx)
	feFromBytes(&generator.y, &gy)
}

// Key is a secp256k1 public key with its comb table (about 512 KiB).
type Key struct {
	table *combTable
}

// ErrNotOnCurve is returned by NewKey for bytes that are not an uncompressed point of
// secp256k1.
var ErrNotOnCurve = errors.New("secpcomb: not an uncompressed secp256k1 point")

// NewKey builds the table of the 65-byte uncompressed public key pub (0x04 ‖ X ‖ Y).
// It takes a few milliseconds; the first Key also builds the table of the generator.
func NewKey(pub []byte) (*Key, error) {
	if len(pub) != 65 || pub[0] != 4 {
		return nil, ErrNotOnCurve
	}
	var q affine
	if !feFromBytes(&q.x, (*[32]byte)(pub[1:33])) || !feFromBytes(&q.y, (*[32]byte)(pub[33:])) || !q.onCurve() {
		return nil, ErrNotOnCurve
	}
	gTableBuilt.Do(func() { gTable = newCombTable(generator) })
	return &Key{table: newCombTable(q)}, nil
}

// Recovers reports whether public key recovery of the signature r ‖ s ‖ v over
// digest, as libsecp256k1 computes it, gives k's key: v is 0 or 1 and r, s are in
// [1, n-1] (the caller has checked). It computes R' = (z/s)·G + (r/s)·Q and checks
// that R' is the point recovery starts from, the one with x = r and y of parity v;
// then recovery's r⁻¹(s·R - z·G) is Q. False means only "not shown": recover instead.
func (k *Key) Recovers(digest *[32]byte, sig *[65]byte) bool {
	if sig[64] > 1 {
		return false
	}
	r := new(big.Int).SetBytes(sig[:32])
	s := new(big.Int).SetBytes(sig[32:64])
	if r.Sign() == 0 || s.Sign() == 0 || r.Cmp(curveN) >= 0 || s.Cmp(curveN) >= 0 {
		return false
	}
	z := new(big.Int).SetBytes(digest[:])
	sInv := new(big.Int).ModInverse(s, curveN)
	u1 := z.Mul(z, sInv)
	u1.Mod(u1, curveN)
	u2 := sInv.Mul(sInv, r)
	u2.Mod(u2, curveN)
	var b1, b2 [32]byte
	u1.FillBytes(b1[:])
	u2.FillBytes(b2[:])

	acc := jacobian{inf: true}
	gTable.add(&acc, &b1)
	k.table.add(&acc, &b2)
	rp, ok := acc.toAffine()
	if !ok {
		return false
	}
	var rx fe
	feFromBytes(&rx, (*[32]byte)(sig[:32]))
	return rp.x == rx && rp.y[0]&1 == uint64(sig[64])
}
