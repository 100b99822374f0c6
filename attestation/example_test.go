package attestation_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland/attestation"
)

func Example() {
	// The issuer's key is a public test key here; a server loads its own.
	key, _ := crypto.HexToECDSA("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	issuedAt := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	issuer := &attestation.Issuer{
		Key:     key,
		ChainID: 1,
		Rand:    rand.NewChaCha8([32]byte{}),
		Now:     func() time.Time { return issuedAt },
	}
	att, err := issuer.Sign(attestation.Draft{
		Kind:     attestation.KindLiveness,
		Subject:  "did:veriland:7Xq9hZK3mB2nP4rT6vW8yA",
		Claims:   map[string]any{"level": "L2"},
		ValidFor: 365 * 24 * time.Hour,
	})
	if err != nil {
		panic(err)
	}

	// An offline verifier needs only the attestation and the issuer's address.
	opts := attestation.VerifyOptions{
		TrustedIssuers: []common.Address{common.HexToAddress("0x2c7536E3605D9C16a7a3D7b1898e529396a65c23")},
		ChainID:        1,
		Now:            issuedAt.Add(24 * time.Hour),
	}
	fmt.Println(attestation.Verify(att, opts))

	opts.Now = issuedAt.Add(400 * 24 * time.Hour)
	fmt.Println(errors.Is(attestation.Verify(att, opts), attestation.ErrExpired))
	// Output:
	// <nil>
	// true
}
