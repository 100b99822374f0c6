package secpcomb

import (
	"crypto/ecdsa"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"
)

func testKey(t testing.TB, seed uint64) *ecdsa.PrivateKey {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	var b [32]byte
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	k, err := crypto.ToECDSA(b[:])
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// The comb tables hold the multiples crypto.S256 computes.
func TestCombTableAgainstS256(t *testing.T) {
	key := testKey(t, 1)
	k, err := NewKey(crypto.FromECDSAPub(&key.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	curve := crypto.S256()
	rng := rand.New(rand.NewPCG(3, 4))
	for n := range 40 {
		var scalar [32]byte
		switch n {
		case 0:
			scalar[31] = 1
		case 1:
			curveN.FillBytes(scalar[:])
			scalar[31]--
		default:
			for i := range scalar {
				scalar[i] = byte(rng.Uint32())
			}
		}
		for _, c := range []struct {
			table  *combTable
			wx, wy *big.Int
		}{
			{gTable, nil, nil},
			{k.table, key.PublicKey.X, key.PublicKey.Y},
		} {
			var wx, wy *big.Int
			if c.wx == nil {
				wx, wy = curve.ScalarBaseMult(scalar[:])
			} else {
				wx, wy = curve.ScalarMult(c.wx, c.wy, scalar[:])
			}
			acc := jacobian{inf: true}
			c.table.add(&acc, &scalar)
			got, ok := acc.toAffine()
			if !ok || feBig(&got.x).Cmp(wx) != 0 || feBig(&got.y).Cmp(wy) != 0 || !got.onCurve() {
				t.Fatalf("scalar %x: comb gives %x, %x; S256 %x, %x", scalar, feBig(&got.x), feBig(&got.y), wx, wy)
			}
		}
	}
}

// recoversLikeLibsecp256k1 checks Recovers against go-ethereum's (libsecp256k1's)
// recovery: true exactly when recovery gives the key.
func recoversLikeLibsecp256k1(t *testing.T, k *Key, pub []byte, digest [32]byte, sig [65]byte) bool {
	t.Helper()
	got := k.Recovers(&digest, &sig)
	rec, err := crypto.Ecrecover(digest[:], sig[:])
	want := err == nil && string(rec) == string(pub)
	if got != want {
		t.Fatalf("digest %x sig %x: Recovers %v, recovery gives the key: %v", digest, sig, got, want)
	}
	return got
}

func TestRecoversAgainstLibsecp256k1(t *testing.T) {
	key, other := testKey(t, 1), testKey(t, 2)
	pub := crypto.FromECDSAPub(&key.PublicKey)
	k, err := NewKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for n := range 100 {
		var digest [32]byte
		for i := range digest {
			digest[i] = byte(rng.Uint32())
		}
		switch n {
		case 0:
			digest = [32]byte{}
		case 1:
			curveN.FillBytes(digest[:]) // z ≡ 0
		case 2:
			for i := range digest {
				digest[i] = 0xff
			}
		}
		s, err := crypto.Sign(digest[:], key)
		if err != nil {
			t.Fatal(err)
		}
		sig := [65]byte(s)
		if !recoversLikeLibsecp256k1(t, k, pub, digest, sig) {
			t.Fatalf("a signature by the key is not shown to recover it")
		}
		flipped := sig
		flipped[64] ^= 1
		recoversLikeLibsecp256k1(t, k, pub, digest, flipped)
		s2, _ := crypto.Sign(digest[:], other)
		recoversLikeLibsecp256k1(t, k, pub, digest, [65]byte(s2))
		changed := digest
		changed[n%32] ^= 1
		recoversLikeLibsecp256k1(t, k, pub, changed, sig)
		garbage := sig
		garbage[rng.IntN(64)] ^= byte(1 + rng.IntN(255))
		recoversLikeLibsecp256k1(t, k, pub, digest, garbage)
	}
}

func TestNewKeyRefusesBadPoints(t *testing.T) {
	pub := crypto.FromECDSAPub(&testKey(t, 1).PublicKey)
	for _, bad := range [][]byte{nil, pub[:64], append([]byte{3}, pub[1:]...), func() []byte {
		b := append([]byte(nil), pub...)
		b[64] ^= 1
		return b
	}(), append([]byte{4}, append(fieldP.Bytes(), pub[33:]...)...)} {
		if _, err := NewKey(bad); err == nil {
			t.Errorf("NewKey(%x) accepted", bad)
		}
	}
}

func FuzzRecovers(f *testing.F) {
	key := testKey(f, 1)
	pub := crypto.FromECDSAPub(&key.PublicKey)
	k, err := NewKey(pub)
	if err != nil {
		f.Fatal(err)
	}
	digest := crypto.Keccak256([]byte("x"))
	sig, _ := crypto.Sign(digest, key)
	f.Add(append(digest, sig...))
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) != 97 {
			return
		}
		recoversLikeLibsecp256k1(t, k, pub, [32]byte(in[:32]), [65]byte(in[32:]))
	})
}

func BenchmarkRecovers(b *testing.B) {
	key := testKey(b, 1)
	k, err := NewKey(crypto.FromECDSAPub(&key.PublicKey))
	if err != nil {
		b.Fatal(err)
	}
	digest := [32]byte(crypto.Keccak256([]byte("x")))
	sig, _ := crypto.Sign(digest[:], key)
	b.ReportAllocs()
	for b.Loop() {
		if !k.Recovers(&digest, (*[65]byte)(sig)) {
			b.Fatal("not shown")
		}
	}
}

func BenchmarkNewKey(b *testing.B) {
	pub := crypto.FromECDSAPub(&testKey(b, 1).PublicKey)
	for b.Loop() {
		if _, err := NewKey(pub); err != nil {
			b.Fatal(err)
		}
	}
}
