package anchor_test

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland/attestation/anchor"
)

func Example() {
	// A public test key; the simulated chain funds it in its genesis.
	key, _ := crypto.HexToECDSA("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	sim, err := anchor.NewSimulated(key)
	if err != nil {
		panic(err)
	}
	defer sim.Close()

	var a anchor.Anchor = sim
	receipt, err := a.Anchor(context.Background(), crypto.Keccak256Hash([]byte("attestation digest")))
	fmt.Println(a.Name(), receipt.BlockNumber, err)
	// Output: simulated 1 <nil>
}
