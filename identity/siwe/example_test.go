package siwe_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/identity/siwe"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/storage/bolt"
)

func Example() {
	dir, _ := os.MkdirTemp("", "siwe-example")
	defer os.RemoveAll(dir)
	store, err := bolt.Open(filepath.Join(dir, "veriland.db"), bolt.Options{})
	if err != nil {
		panic(err)
	}
	defer store.Close()

	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	svc := &siwe.Service{Store: store, Origin: "https://veriland.example", ChainID: 1,
		Now: func() time.Time { return now }}
	ctx := context.Background()

	// 1. The server hands out a nonce (POST /auth/siwe/nonce).
	nonce, expiresAt, _ := svc.NewNonce(ctx)
	fmt.Println(len(nonce), expiresAt.Sub(now))

	// 2. The wallet signs an EIP-4361 message with it (personal_sign).
	key, _ := crypto.HexToECDSA("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	msg := (&siwe.Message{
		Domain: "veriland.example", Address: crypto.PubkeyToAddress(key.PublicKey).Hex(),
		Statement: "Sign in to veriland.", URI: "https://veriland.example/auth/siwe",
		Version: "1", ChainID: 1, Nonce: nonce, IssuedAt: now,
	}).String()
	sig := walletSign(key, msg)

	// 3. The server verifies it (POST /auth/siwe) and maps the signer to a DID.
	login, err := svc.Verify(ctx, veriland.Sandbox, msg, sig)
	if err != nil {
		panic(err)
	}
	fmt.Println(login.Address)
	fmt.Println(identity.PKHDID(login.ChainID, login.Address)) // when no identity has this wallet

	// The nonce is spent.
	_, err = svc.Verify(ctx, veriland.Sandbox, msg, sig)
	fmt.Println(veriland.CodeOf(err))
	// Output:
	// 32 5m0s
	// 0x2c7536e3605d9c16a7a3d7b1898e529396a65c23
	// did:pkh:eip155:1:0x2c7536e3605d9c16a7a3d7b1898e529396a65c23
	// unauthenticated
}

func walletSign(key *ecdsa.PrivateKey, msg string) string {
	sig, err := ethsig.Sign(key, ethsig.PersonalDigest([]byte(msg)))
	if err != nil {
		panic(err)
	}
	return "0x" + hex.EncodeToString(sig)
}
