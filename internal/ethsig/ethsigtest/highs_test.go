package ethsigtest

import (
	"bytes"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"
)

// TestHighS: the twin recovers to the same key (it is a valid signature, only
// malleable), its s is in the upper half, and v flips in both notations.
func TestHighS(t *testing.T) {
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	digest := crypto.Keccak256([]byte("veriland"))
	sig, err := crypto.Sign(digest, key) // v 0/1, low s
	if err != nil {
		t.Fatal(err)
	}
	halfN := new(big.Int).Rsh(crypto.S256().Params().N, 1)
	for _, offset := range []byte{0, 27} {
		in := bytes.Clone(sig)
		in[64] += offset
		twin := HighS(in)
		if twin[64] != offset+1-sig[64] {
			t.Fatalf("v %d became %d", in[64], twin[64])
		}
		if new(big.Int).SetBytes(twin[32:64]).Cmp(halfN) <= 0 {
			t.Fatal("the twin's s is not in the upper half")
		}
		rsv := bytes.Clone(twin)
		rsv[64] -= offset
		pub, err := crypto.Ecrecover(digest, rsv)
		if err != nil || !bytes.Equal(pub, crypto.FromECDSAPub(&key.PublicKey)) {
			t.Fatalf("the twin does not recover to the key: %v", err)
		}
	}
}
