package landtitle_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/veriland/veriland/parcel/landtitle"
)

// Mint a title on the simulated chain, mint it again (nothing is sent), burn it, and
// see that its id can never be minted again.
func Example() {
	ctx := context.Background()
	key, err := crypto.GenerateKey()
	if err != nil {
		log.Fatal(err)
	}
	chain, err := landtitle.NewSimulated(key, "https://registry.example/v1/tokens/")
	if err != nil {
		log.Fatal(err)
	}
	defer chain.Close()

	holder := common.HexToAddress("0x00000000000000000000000000000000000A11CE")
	id := big.NewInt(42)
	certificate := crypto.Keccak256Hash([]byte("certificate of title 42"))

	minted, err := chain.Mint(ctx, holder, id, certificate)
	if err != nil {
		log.Fatal(err)
	}
	again, err := chain.Mint(ctx, holder, id, certificate)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("same mint:", again.TxHash == minted.TxHash)

	title, _ := chain.Title(ctx, id)
	fmt.Println(title.State, title.Holder.Hex())

	if _, err := chain.Burn(ctx, id); err != nil {
		log.Fatal(err)
	}
	title, _ = chain.Title(ctx, id)
	fmt.Println(title.State, title.CertificateHash == certificate)

	_, err = chain.Mint(ctx, holder, id, certificate)
	fmt.Println("mint after burn refused:", errors.Is(err, landtitle.ErrConflict))
	// Output:
	// same mint: true
	// minted 0x00000000000000000000000000000000000A11cE
	// burned true
	// mint after burn refused: true
}
