package ethsig

import (
	"fmt"
	"math/big"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// signatureVariants returns signatures over digest by key and by other, with v in
// both forms, flipped, high s, out of range and cut short.
func signatureVariants(t *testing.T, digest [32]byte, keyHex, otherHex string) [][]byte {
	t.Helper()
	var out [][]byte
	for _, h := range []string{keyHex, otherHex} {
		k, err := crypto.HexToECDSA(h)
		if err != nil {
			t.Fatal(err)
		}
		sig, err := Sign(k, digest)
		if err != nil {
			t.Fatal(err)
		}
		raw := append([]byte(nil), sig...)
		raw[64] -= 27
		flipped := append([]byte(nil), sig...)
		flipped[64] ^= 1
		high := append([]byte(nil), sig...)
		n := crypto.S256().Params().N
		new(big.Int).Sub(n, new(big.Int).SetBytes(sig[32:64])).FillBytes(high[32:64])
		high[64] ^= 1 // the twin that recovers the same key
		zeroR := append([]byte(nil), sig...)
		copy(zeroR[:32], make([]byte, 32))
		badV := append([]byte(nil), sig...)
		badV[64] = 29
		changed := append([]byte(nil), sig...)
		changed[10] ^= 0x40
		out = append(out, sig, raw, flipped, high, zeroR, badV, changed, sig[:64])
	}
	return out
}

// RecoverAs answers exactly what Recover answers, before and after it learns the
// key, and takes the table once it has.
func TestRecoverAsMatchesRecover(t *testing.T) {
	const keyHex, otherHex = "b71c71a67e1177ad4e901695e1b4b9ee17ae16c6668d313eac2f96dbcda3f291", "8da4ef21b864d2cc526dbdb2a120bd2874c36c9d0a1fb7f8c63d7f7a8b41de8f"
	key, _ := crypto.HexToECDSA(keyHex)
	want := Address(key)
	for round := range 3 {
		for i := range 20 {
			digest := Keccak([]byte(fmt.Sprint(round, i)))
			for j, sig := range signatureVariants(t, digest, keyHex, otherHex) {
				gotAddr, gotErr := RecoverAs(digest, sig, want)
				wantAddr, wantErr := Recover(digest, sig)
				if gotAddr != wantAddr || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
					t.Fatalf("round %d digest %d variant %d: RecoverAs %s, %v; Recover %s, %v", round, i, j, gotAddr.Hex(), gotErr, wantAddr.Hex(), wantErr)
				}
			}
		}
		k := knownKey(want)
		if k == nil {
			t.Fatal("the key was not learnt")
		}
		digest := Keccak([]byte("fast"))
		sig, _ := Sign(key, digest)
		rsv, err := checkSignature(sig)
		if err != nil || !k.Recovers(&digest, &rsv) {
			t.Fatal("a signature by the learnt key does not take the table")
		}
	}
}

// Concurrent callers learn keys once each and never more than maxKnownKeys.
func TestRecoverAsConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 2 * maxKnownKeys {
		wg.Go(func() {
			k, err := crypto.ToECDSA(common.LeftPadBytes([]byte{byte(g + 1), 0x55}, 32))
			if err != nil {
				t.Error(err)
				return
			}
			for i := range 3 {
				digest := Keccak([]byte(fmt.Sprint(g, i)))
				sig, _ := Sign(k, digest)
				if got, err := RecoverAs(digest, sig, Address(k)); err != nil || got != Address(k) {
					t.Errorf("RecoverAs: %s, %v", got.Hex(), err)
				}
			}
		})
	}
	wg.Wait()
	if m := knownKeys.Load(); m == nil || len(*m) > maxKnownKeys {
		t.Fatalf("%v keys kept", m)
	}
}

// BenchmarkRecover and BenchmarkRecoverAs sit together: their ratio is what the
// tables of a known key save.
func BenchmarkRecover(b *testing.B) {
	key, _ := crypto.HexToECDSA("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	digest := Keccak([]byte("bench"))
	sig, _ := Sign(key, digest)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Recover(digest, sig); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRecoverAs(b *testing.B) {
	key, _ := crypto.HexToECDSA("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	digest := Keccak([]byte("bench"))
	sig, _ := Sign(key, digest)
	want := Address(key)
	if _, err := RecoverAs(digest, sig, want); err != nil { // learns the key
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if got, err := RecoverAs(digest, sig, want); err != nil || got != want {
			b.Fatal(got, err)
		}
	}
}
