package chipauth

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"testing"

	"filippo.io/bigmod"

	"github.com/veriland/veriland/chipauth/internal/modexp"
)

// sigCase is one verification both rsaKey and crypto/rsa are asked to make.
type sigCase struct {
	name   string
	h      crypto.Hash
	digest []byte
	sig    []byte
}

// testRSAKey makes an RSA key of exactly bits bits with public exponent e
// (crypto/rsa.GenerateKey always uses 65537).
func testRSAKey(tb testing.TB, bits, e int) *rsa.PrivateKey {
	tb.Helper()
	one := big.NewInt(1)
	bigE := big.NewInt(int64(e))
	for {
		p, err := rand.Prime(rand.Reader, (bits+1)/2)
		if err != nil {
			tb.Fatal(err)
		}
		q, err := rand.Prime(rand.Reader, bits/2)
		if err != nil {
			tb.Fatal(err)
		}
		n := new(big.Int).Mul(p, q)
		if p.Cmp(q) == 0 || n.BitLen() != bits {
			continue
		}
		pm, qm := new(big.Int).Sub(p, one), new(big.Int).Sub(q, one)
		phi := new(big.Int).Mul(pm, qm)
		d := new(big.Int).ModInverse(bigE, phi)
		if d == nil {
			continue
		}
		k := &rsa.PrivateKey{PublicKey: rsa.PublicKey{N: n, E: e}, D: d, Primes: []*big.Int{p, q}}
		k.Precompute()
		return k
	}
}

var (
	rsaTestKeysOnce sync.Once
	rsaTestKeys     []*rsa.PrivateKey
)

// differentialRSAKeys are the keys the differential tests run on: the sizes
// passive authentication meets, odd sizes (whose PSS encoding is one byte
// shorter than the modulus), and e = 3 as well as 65537.
func differentialRSAKeys(tb testing.TB) []*rsa.PrivateKey {
	rsaTestKeysOnce.Do(func() {
		for _, s := range []struct{ bits, e int }{
			{1024, 3}, {1024, 65537}, {1032, 65537}, {1537, 3}, {2047, 65537}, {2048, 3}, {2048, 65537},
			{2049, 65537}, {3072, 65537}, {3072, 3}, {4096, 65537},
		} {
			rsaTestKeys = append(rsaTestKeys, testRSAKey(tb, s.bits, s.e))
		}
	})
	if len(rsaTestKeys) == 0 {
		tb.Fatal("no RSA test keys")
	}
	return rsaTestKeys
}

// rawRSASign computes em^d mod N (with the CRT), so that tests choose the
// encoded message.
func rawRSASign(k *rsa.PrivateKey, em []byte) []byte {
	c := new(big.Int).SetBytes(em)
	c.Mod(c, k.N)
	p, q := k.Primes[0], k.Primes[1]
	m1 := new(big.Int).Exp(c, k.Precomputed.Dp, p)
	m2 := new(big.Int).Exp(c, k.Precomputed.Dq, q)
	h := m1.Sub(m1, m2)
	h.Mul(h, k.Precomputed.Qinv).Mod(h, p)
	return h.Mul(h, q).Add(h, m2).FillBytes(make([]byte, k.Size()))
}

// sameVerdict fails unless both errors are nil or both carry the same text.
func sameVerdict(t *testing.T, what string, got, want error) {
	t.Helper()
	if (got == nil) != (want == nil) || (got != nil && got.Error() != want.Error()) {
		t.Errorf("%s: rsaKey says %v, crypto/rsa says %v", what, got, want)
	}
}

func digestOf(h crypto.Hash, msg string) []byte {
	d := h.New()
	d.Write([]byte(msg))
	return d.Sum(nil)
}

// TestRSAKeyPKCS1v15MatchesCryptoRSA checks rsaKey.verifyPKCS1v15 against
// rsa.VerifyPKCS1v15 on valid, corrupted, wrong-length, out-of-range and
// wrong-hash signatures.
func TestRSAKeyPKCS1v15MatchesCryptoRSA(t *testing.T) {
	forEachRSAPath(t, testRSAKeyPKCS1v15MatchesCryptoRSA)
}

// forEachRSAPath runs f with newRSAKey preparing keys for modexp and, as it
// does where modexp's assembly does not run, for bigmod and math/big.
func forEachRSAPath(t *testing.T, f func(t *testing.T)) {
	saved := useModexp
	defer func() { useModexp = saved }()
	for _, on := range []bool{true, false} {
		useModexp = on
		name := "modexp"
		if !on {
			name = "bigmod+mathbig"
		}
		t.Run(name, f)
	}
}

// checkRSAPath checks which exponentiation newRSAKey prepared key for.
func checkRSAPath(t *testing.T, key *rsaKey) {
	t.Helper()
	bits := key.pub.N.BitLen()
	limbs := (bits + 63) / 64
	wantMod := useModexp && bits <= modexp.MaxBits
	wantBmod := !useModexp && (limbs == 16 || limbs == 24 || limbs == 32)
	if (key.mod != nil) != wantMod || (key.bmod != nil) != wantBmod {
		t.Errorf("%d bits, useModexp %v: modexp %v (want %v), bigmod %v (want %v)",
			bits, useModexp, key.mod != nil, wantMod, key.bmod != nil, wantBmod)
	}
}

func testRSAKeyPKCS1v15MatchesCryptoRSA(t *testing.T) {
	hashes := []crypto.Hash{crypto.SHA1, crypto.SHA224, crypto.SHA256, crypto.SHA384, crypto.SHA512}
	for _, priv := range differentialRSAKeys(t) {
		pub := &priv.PublicKey
		key := newRSAKey(pub)
		t.Run(fmt.Sprintf("%d-e%d", pub.N.BitLen(), pub.E), func(t *testing.T) {
			if !key.direct {
				t.Fatal("key left to crypto/rsa")
			}
			checkRSAPath(t, key)
			for _, h := range hashes {
				digest := digestOf(h, "LDSSecurityObject")
				sig, err := rsa.SignPKCS1v15(rand.Reader, priv, h, digest)
				if err != nil {
					t.Fatal(err)
				}
				flipped := append([]byte(nil), sig...)
				flipped[len(flipped)/2] ^= 0x10
				nBytes := pub.N.FillBytes(make([]byte, pub.Size()))
				nPlus := new(big.Int).Add(pub.N, big.NewInt(1)).FillBytes(make([]byte, pub.Size()))
				ones := make([]byte, pub.Size())
				for i := range ones {
					ones[i] = 0xff
				}
				// An encoding with eight 0xff bytes too few, and one whose
				// DigestInfo names another hash: signed, but not by the rules.
				short := append([]byte(nil), sig...)
				if em, ok := (&rsaKey{pub: pub, direct: true}).encrypt(sig); ok {
					bad := append([]byte(nil), em...)
					bad[2] = 0xfe
					short = rawRSASign(priv, bad)
				}
				cases := []sigCase{
					{"valid", h, digest, sig},
					{"corrupted", h, digest, flipped},
					{"other digest", h, digestOf(h, "other"), sig},
					{"truncated", h, digest, sig[1:]},
					{"zero-extended", h, digest, append([]byte{0}, sig...)},
					{"appended", h, digest, append(append([]byte(nil), sig...), 0)},
					{"s = N", h, digest, nBytes},
					{"s = N+1", h, digest, nPlus},
					{"s = 0xff…", h, digest, ones},
					{"s = 0", h, digest, make([]byte, pub.Size())},
					{"bad padding", h, digest, short},
					{"empty", h, digest, nil},
				}
				for _, other := range hashes {
					if other != h {
						cases = append(cases, sigCase{"wrong hash " + other.String(), other, digestOf(other, "LDSSecurityObject"), sig})
					}
				}
				for _, c := range cases {
					what := h.String() + " " + c.name
					sameVerdict(t, what, key.verifyPKCS1v15(c.h, c.digest, c.sig), rsa.VerifyPKCS1v15(pub, c.h, c.digest, c.sig))
				}
				if err := key.verifyPKCS1v15(h, digest, sig); err != nil {
					t.Errorf("%s: valid signature refused: %v", h, err)
				}
			}
		})
	}
}

// TestRSAKeyPSSMatchesCryptoRSA checks rsaKey.verifyPSS against rsa.VerifyPSS
// for signatures with several salt lengths, verified with automatic and
// explicit, right and wrong salt lengths.
func TestRSAKeyPSSMatchesCryptoRSA(t *testing.T) {
	forEachRSAPath(t, testRSAKeyPSSMatchesCryptoRSA)
}

func testRSAKeyPSSMatchesCryptoRSA(t *testing.T) {
	for _, priv := range differentialRSAKeys(t) {
		pub := &priv.PublicKey
		key := newRSAKey(pub)
		t.Run(fmt.Sprintf("%d-e%d", pub.N.BitLen(), pub.E), func(t *testing.T) {
			checkRSAPath(t, key)
			for _, h := range []crypto.Hash{crypto.SHA1, crypto.SHA256, crypto.SHA384, crypto.SHA512} {
				digest := digestOf(h, "LDSSecurityObject")
				for _, signSalt := range []int{rsa.PSSSaltLengthEqualsHash, rsa.PSSSaltLengthAuto, 1, 20, 32} {
					sig, err := rsa.SignPSS(rand.Reader, priv, h, digest, &rsa.PSSOptions{SaltLength: signSalt})
					if errors.Is(err, rsa.ErrMessageTooLong) {
						continue // salt and digest do not fit a small key
					} else if err != nil {
						t.Fatal(err)
					}
					flipped := append([]byte(nil), sig...)
					flipped[len(flipped)-1] ^= 1
					// Encodings signed with the private key but broken in one
					// place each: the trailer byte, and the top bits above emBits.
					broken := [][]byte{flipped, flipped, flipped}
					if signSalt == rsa.PSSSaltLengthEqualsHash {
						em, _ := (&rsaKey{pub: pub, direct: true}).encrypt(sig)
						badTrailer := append([]byte(nil), em...)
						badTrailer[len(badTrailer)-1] = 0xbd
						topBits := append([]byte(nil), em...)
						topBits[0] |= 0x80
						if pub.N.BitLen()%8 == 1 {
							topBits[1] |= 0x80 // em[0] is the zero byte before the encoding
						}
						broken = [][]byte{rawRSASign(priv, badTrailer), rawRSASign(priv, topBits), rawRSASign(priv, append([]byte{1}, em[1:]...))}
					}
					for _, verifySalt := range []int{0, 1, 20, 32, h.Size(), 64, pub.Size() - h.Size() - 2, pub.Size()} {
						for _, c := range []sigCase{
							{"valid", h, digest, sig},
							{"corrupted", h, digest, flipped},
							{"other digest", h, digestOf(h, "other"), sig},
							{"truncated", h, digest, sig[:len(sig)-1]},
							{"appended", h, digest, append(append([]byte(nil), sig...), 0)},
							{"s = N", h, digest, pub.N.FillBytes(make([]byte, pub.Size()))},
							{"bad trailer", h, digest, broken[0]},
							{"top bits set", h, digest, broken[1]},
							{"leading byte set", h, digest, broken[2]},
							{"wrong hash", crypto.SHA224, digestOf(crypto.SHA224, "LDSSecurityObject"), sig},
						} {
							what := fmt.Sprintf("%s signed salt %d, verified salt %d, %s", h, signSalt, verifySalt, c.name)
							opts := &rsa.PSSOptions{SaltLength: verifySalt}
							sameVerdict(t, what, key.verifyPSS(c.h, c.digest, c.sig, verifySalt), rsa.VerifyPSS(pub, c.h, c.digest, c.sig, opts))
						}
					}
					if err := key.verifyPSS(h, digest, sig, 0); err != nil {
						t.Errorf("%s salt %d: valid signature refused with automatic salt length: %v", h, signSalt, err)
					}
				}
			}
		})
	}
}

// TestRSAKeyLeftToCryptoRSA checks that keys crypto/rsa treats specially are
// verified by crypto/rsa itself, with its errors.
func TestRSAKeyLeftToCryptoRSA(t *testing.T) {
	small := testRSAKey(t, 768, 65537)
	n := differentialRSAKeys(t)[0].N
	tests := []struct {
		name string
		pub  *rsa.PublicKey
	}{
		{"768 bits", &small.PublicKey},
		{"even exponent", &rsa.PublicKey{N: n, E: 65536}},
		{"exponent 1", &rsa.PublicKey{N: n, E: 1}},
		{"exponent too large", &rsa.PublicKey{N: n, E: 1 << 32}},
		{"even modulus", &rsa.PublicKey{N: new(big.Int).Add(n, big.NewInt(1)), E: 65537}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			key := newRSAKey(tc.pub)
			if key.direct || key.mod != nil || key.bmod != nil {
				t.Fatalf("direct = %v, want crypto/rsa", key.direct)
			}
			digest := digestOf(crypto.SHA256, "x")
			sig := make([]byte, tc.pub.Size())
			sig[len(sig)-1] = 2
			sameVerdict(t, "PKCS1v15", key.verifyPKCS1v15(crypto.SHA256, digest, sig), rsa.VerifyPKCS1v15(tc.pub, crypto.SHA256, digest, sig))
			sameVerdict(t, "PSS", key.verifyPSS(crypto.SHA256, digest, sig, 20), rsa.VerifyPSS(tc.pub, crypto.SHA256, digest, sig, &rsa.PSSOptions{SaltLength: 20}))
		})
	}
	if sig, err := rsa.SignPKCS1v15(rand.Reader, small, crypto.SHA256, digestOf(crypto.SHA256, "x")); err == nil {
		sameVerdict(t, "768-bit valid", newRSAKey(&small.PublicKey).verifyPKCS1v15(crypto.SHA256, digestOf(crypto.SHA256, "x"), sig),
			rsa.VerifyPKCS1v15(&small.PublicKey, crypto.SHA256, digestOf(crypto.SHA256, "x"), sig))
	}
}

// FuzzRSAKeyMatchesCryptoRSA compares rsaKey with crypto/rsa on signatures
// whose encoded message the fuzzer chooses (signed raw with the private key,
// so that every branch of the EMSA checks is reachable) and on raw signature
// bytes. Both must agree on every input.
func FuzzRSAKeyMatchesCryptoRSA(f *testing.F) {
	keys := differentialRSAKeys(f)
	digest := digestOf(crypto.SHA256, "LDSSecurityObject")
	for i, priv := range keys[:7] {
		sig, err := rsa.SignPKCS1v15(rand.Reader, priv, crypto.SHA256, digest)
		if err != nil {
			f.Fatal(err)
		}
		em, _ := (&rsaKey{pub: &priv.PublicKey, direct: true}).encrypt(sig)
		f.Add(uint8(i), uint8(0), uint8(0), em)
		pss, err := rsa.SignPSS(rand.Reader, priv, crypto.SHA256, digest, &rsa.PSSOptions{SaltLength: 32})
		if err != nil {
			f.Fatal(err)
		}
		em, _ = (&rsaKey{pub: &priv.PublicKey, direct: true}).encrypt(pss)
		f.Add(uint8(i), uint8(1), uint8(32), em)
		f.Add(uint8(i), uint8(3), uint8(0), pss)
	}
	f.Fuzz(func(t *testing.T, keyIndex, mode, salt uint8, data []byte) {
		priv := keys[int(keyIndex)%len(keys)]
		pub := &priv.PublicKey
		key := newRSAKey(pub)
		sig := data
		if mode&2 == 0 { // data is the encoded message
			sig = rawRSASign(priv, data)
		}
		if mode&1 == 0 {
			sameVerdict(t, "PKCS1v15", key.verifyPKCS1v15(crypto.SHA256, digest, sig), rsa.VerifyPKCS1v15(pub, crypto.SHA256, digest, sig))
		} else {
			sameVerdict(t, "PSS", key.verifyPSS(crypto.SHA256, digest, sig, int(salt)),
				rsa.VerifyPSS(pub, crypto.SHA256, digest, sig, &rsa.PSSOptions{SaltLength: int(salt)}))
		}
	})
}

// TestRSAKeyEncryptPaths checks that the three exponentiations of
// rsaKey.encrypt (modexp, bigmod for 1024, 1536 and 2048-bit moduli, math/big)
// agree on valid, random and out-of-range signatures.
func TestRSAKeyEncryptPaths(t *testing.T) {
	for _, priv := range differentialRSAKeys(t) {
		pub := &priv.PublicKey
		m, err := modexp.NewModulus(pub.N)
		if err != nil {
			t.Fatal(err)
		}
		keys := map[string]*rsaKey{
			"modexp":  {pub: pub, mod: m, direct: true},
			"mathbig": {pub: pub, direct: true},
		}
		if bm, err := bigmod.NewModulus(pub.N.Bytes()); err == nil && (pub.N.BitLen()+63)/64%8 == 0 {
			keys["bigmod"] = &rsaKey{pub: pub, bmod: bm, direct: true}
		}
		sig, err := rsa.SignPKCS1v15(rand.Reader, priv, crypto.SHA256, digestOf(crypto.SHA256, "x"))
		if err != nil {
			t.Fatal(err)
		}
		random := make([]byte, pub.Size())
		rand.Read(random)
		random[0] >>= 1
		for name, s := range map[string][]byte{
			"valid":  sig,
			"random": random,
			"N":      pub.N.Bytes(),
			"N-1":    new(big.Int).Sub(pub.N, big.NewInt(1)).FillBytes(make([]byte, pub.Size())),
			"zero":   make([]byte, pub.Size()),
		} {
			want, wantOK := keys["mathbig"].encrypt(s)
			for path, key := range keys {
				got, gotOK := key.encrypt(s)
				if gotOK != wantOK || string(got) != string(want) {
					t.Errorf("%d-bit e=%d %s: %s %x, %v; math/big %x, %v", pub.N.BitLen(), pub.E, name, path, got, gotOK, want, wantOK)
				}
			}
		}
	}
}
