package ethsigtest

import (
	"math/big"

	"github.com/ethereum/go-ethereum/crypto"
)

// HighS returns the malleable twin of a 65-byte r ‖ s ‖ v signature: s' = n − s and v
// flipped (27 ↔ 28, or 0 ↔ 1). The same key recovers from it, so a verifier that
// accepts it is malleable; every veriland verifier must refuse it.
func HighS(sig []byte) []byte {
	out := make([]byte, 65)
	copy(out, sig[:32])
	s := new(big.Int).SetBytes(sig[32:64])
	s.Sub(crypto.S256().Params().N, s)
	s.FillBytes(out[32:64])
	if v := sig[64]; v >= 27 {
		out[64] = 27 + 28 - v
	} else {
		out[64] = 1 - v
	}
	return out
}
