package chipauth

import (
	"bytes"
	"crypto"
	"crypto/fips140"
	"crypto/rsa"
	"crypto/subtle"
	"hash"
	"math/big"

	"filippo.io/bigmod"

	"github.com/veriland/veriland/chipauth/internal/modexp"
)

// rsaKey is an RSA public key prepared for verifying many signatures.
//
// crypto/rsa rebuilds N's Montgomery constants (R² mod N) on every
// VerifyPKCS1v15 and VerifyPSS call, which costs about a third of one
// verification. rsaKey computes them once, when the certificate is parsed: a
// CSCA key then pays for them once for the life of its TrustStore, and a DS
// key once per document, as crypto/rsa would.
//
// The encodings (RFC 8017 EMSA-PKCS1-v1_5 and EMSA-PSS-VERIFY) follow
// crypto/rsa's code line by line, so that this key refuses exactly what
// crypto/rsa refuses, with the same error values; rsakey_test.go checks that
// against crypto/rsa on random keys and signatures. Keys crypto/rsa treats
// specially (below 1024 bits, even moduli or exponents, exponents out of
// range) and FIPS 140-3 mode go to crypto/rsa itself.
type rsaKey struct {
	pub *rsa.PublicKey
	// mod holds N's Montgomery constants for chipauth/internal/modexp
	// (variable time, which is fine for public keys and signatures) when it
	// runs its MULX/ADX assembly (useModexp), for moduli of 1024 to 8192 bits.
	mod *modexp.Modulus
	// bmod holds them for filippo.io/bigmod (the public copy of crypto/rsa's
	// own arithmetic) elsewhere, for moduli of 16, 24 or 32 64-bit limbs (up
	// to 1024, 1536 and 2048 bits), which it runs in assembly on most
	// platforms. With neither, math/big's squaring and division exponentiate.
	bmod *bigmod.Modulus
	// direct is false when verification is left to crypto/rsa.
	direct bool
}

// useModexp is whether newRSAKey prepares keys for chipauth/internal/modexp:
// where its assembly runs, it is faster than bigmod and math/big at every
// size (and its modulus preparation than bigmod's); elsewhere the older paths
// are kept. Tests switch it to cover both.
var useModexp = modexp.Accelerated()

// newRSAKey prepares pub, which must not be modified afterwards.
func newRSAKey(pub *rsa.PublicKey) *rsaKey {
	k := &rsaKey{pub: pub}
	n := pub.N
	if n == nil || n.Sign() <= 0 || n.BitLen() < 1024 || n.Bit(0) == 0 ||
		pub.E < 3 || pub.E&1 == 0 || pub.E > 1<<31-1 {
		return k
	}
	k.direct = true
	if useModexp {
		if m, err := modexp.NewModulus(n); err == nil {
			k.mod = m
			return k
		}
	}
	switch (n.BitLen() + 63) / 64 { // 64-bit limbs, as bigmod counts them
	case 1024 / 64, 1536 / 64, 2048 / 64:
		if m, err := bigmod.NewModulus(n.Bytes()); err == nil {
			k.bmod = m
		}
	}
	return k
}

// size is the modulus length in bytes.
func (k *rsaKey) size() int { return (k.pub.N.BitLen() + 7) / 8 }

// encrypt computes sig^e mod N as a size()-byte big-endian string; ok is false
// when sig, read as a number, is not below N.
func (k *rsaKey) encrypt(sig []byte) (em []byte, ok bool) {
	if k.mod != nil {
		return k.mod.Exp(sig, k.pub.E)
	}
	if k.bmod != nil {
		s, err := bigmod.NewNat().SetBytes(sig, k.bmod)
		if err != nil {
			return nil, false
		}
		return bigmod.NewNat().ExpShortVarTime(s, uint(k.pub.E), k.bmod).Bytes(k.bmod), true
	}
	s := new(big.Int).SetBytes(sig)
	if s.Cmp(k.pub.N) >= 0 {
		return nil, false
	}
	s.Exp(s, big.NewInt(int64(k.pub.E)), k.pub.N)
	return s.FillBytes(make([]byte, k.size())), true
}

// pkcs1DigestInfoPrefixes are the DER DigestInfo prefixes of EMSA-PKCS1-v1_5
// (RFC 8017 §9.2, note 1), for the digests passive authentication uses.
var pkcs1DigestInfoPrefixes = map[crypto.Hash][]byte{
	crypto.SHA1:   {0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x05, 0x00, 0x04, 0x14},
	crypto.SHA224: {0x30, 0x2d, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x04, 0x05, 0x00, 0x04, 0x1c},
	crypto.SHA256: {0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20},
	crypto.SHA384: {0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02, 0x05, 0x00, 0x04, 0x30},
	crypto.SHA512: {0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03, 0x05, 0x00, 0x04, 0x40},
}

// verifyPKCS1v15 is rsa.VerifyPKCS1v15(k.pub, h, digest, sig) (RFC 8017 §8.2.2).
func (k *rsaKey) verifyPKCS1v15(h crypto.Hash, digest, sig []byte) error {
	prefix, known := pkcs1DigestInfoPrefixes[h]
	if !k.direct || !known || len(digest) != h.Size() || fips140.Enabled() {
		return rsa.VerifyPKCS1v15(k.pub, h, digest, sig)
	}
	size := k.size()
	if len(sig) != size {
		return rsa.ErrVerification
	}
	em, ok := k.encrypt(sig)
	if !ok {
		return rsa.ErrVerification
	}
	// EM = 0x00 || 0x01 || PS (0xff, at least 8) || 0x00 || DigestInfo.
	tLen := len(prefix) + len(digest)
	if size < tLen+2+8+1 {
		return rsa.ErrVerification
	}
	want := make([]byte, size)
	want[1] = 1
	for i := 2; i < size-tLen-1; i++ {
		want[i] = 0xff
	}
	copy(want[size-tLen:], prefix)
	copy(want[size-len(digest):], digest)
	if subtle.ConstantTimeCompare(em, want) != 1 {
		return rsa.ErrVerification
	}
	return nil
}

// verifyPSS is rsa.VerifyPSS(k.pub, h, digest, sig, &rsa.PSSOptions{SaltLength:
// saltLen}) for saltLen ≥ 0, 0 being rsa.PSSSaltLengthAuto (RFC 8017 §8.1.2).
func (k *rsaKey) verifyPSS(h crypto.Hash, digest, sig []byte, saltLen int) error {
	if !k.direct || saltLen < 0 || !h.Available() || fips140.Enabled() {
		return rsa.VerifyPSS(k.pub, h, digest, sig, &rsa.PSSOptions{SaltLength: saltLen})
	}
	if len(sig) != k.size() {
		return rsa.ErrVerification
	}
	em, ok := k.encrypt(sig)
	if !ok {
		return rsa.ErrVerification
	}
	emBits := k.pub.N.BitLen() - 1
	emLen := (emBits + 7) / 8
	// The encoding is emLen bytes, one less than the modulus when its bit
	// length is 1 mod 8; the extra leading byte must then be zero.
	for len(em) > emLen {
		if em[0] != 0 {
			return rsa.ErrVerification
		}
		em = em[1:]
	}
	if saltLen == rsa.PSSSaltLengthAuto {
		saltLen = -1
	}
	return emsaPSSVerify(digest, em, emBits, saltLen, h.New())
}

// emsaPSSVerify is EMSA-PSS-VERIFY (RFC 8017 §9.1.2) with MGF1 over the same
// hash; sLen < 0 takes the salt length from the position of the 0x01 separator.
func emsaPSSVerify(mHash, em []byte, emBits, sLen int, hash hash.Hash) error {
	hLen := hash.Size()
	emLen := len(em)
	if hLen != len(mHash) || emLen < hLen+2 || (sLen >= 0 && emLen < hLen+sLen+2) {
		return rsa.ErrVerification
	}
	if em[emLen-1] != 0xbc {
		return rsa.ErrVerification
	}
	db := em[:emLen-hLen-1]
	hh := em[emLen-hLen-1 : emLen-1]
	bitMask := byte(0xff >> (8*emLen - emBits))
	if em[0]&^bitMask != 0 {
		return rsa.ErrVerification
	}
	mgf1XOR(db, hash, hh)
	db[0] &= bitMask
	if sLen < 0 {
		psLen := bytes.IndexByte(db, 0x01)
		if psLen < 0 {
			return rsa.ErrVerification
		}
		sLen = len(db) - psLen - 1
	}
	psLen := emLen - hLen - sLen - 2
	for _, b := range db[:psLen] {
		if b != 0 {
			return rsa.ErrVerification
		}
	}
	if db[psLen] != 0x01 {
		return rsa.ErrVerification
	}
	salt := db[len(db)-sLen:]
	hash.Reset()
	var zeros [8]byte
	hash.Write(zeros[:])
	hash.Write(mHash)
	hash.Write(salt)
	if subtle.ConstantTimeCompare(hash.Sum(nil), hh) != 1 {
		return rsa.ErrVerification
	}
	return nil
}

// mgf1XOR XORs out with MGF1(seed, len(out)) (RFC 8017 §B.2.1).
func mgf1XOR(out []byte, hash hash.Hash, seed []byte) {
	var counter [4]byte
	var digest []byte
	for done := 0; done < len(out); {
		hash.Reset()
		hash.Write(seed)
		hash.Write(counter[:])
		digest = hash.Sum(digest[:0])
		done += subtle.XORBytes(out[done:], out[done:], digest)
		for i := 3; i >= 0; i-- {
			if counter[i]++; counter[i] != 0 {
				break
			}
		}
	}
}
