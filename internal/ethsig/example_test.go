package ethsig_test

import (
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland/internal/ethsig"
)

func Example() {
	// A public test key; real keys come from configuration.
	key, _ := crypto.HexToECDSA("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")

	domain := ethsig.Domain{Name: "Identity Consent", Version: "1", ChainID: 1}
	structHash := ethsig.Keccak([]byte("any struct hash"))
	digest := ethsig.TypedDataDigest(domain.Separator(), structHash)

	sig, _ := ethsig.Sign(key, digest)
	signer, err := ethsig.Recover(digest, sig)
	fmt.Println(signer.Hex(), err, sig[64])

	_, err = ethsig.Recover(digest, sig[:64])
	fmt.Println(errors.Is(err, ethsig.ErrSignatureLength))
	// Output:
	// 0x2c7536E3605D9C16a7a3D7b1898e529396a65c23 <nil> 27
	// true
}
