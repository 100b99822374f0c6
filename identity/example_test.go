package identity_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/storage/bolt"
)

func Example() {
	dir, _ := os.MkdirTemp("", "identity-example")
	defer os.RemoveAll(dir)
	store, err := bolt.Open(filepath.Join(dir, "veriland.db"), bolt.Options{})
	if err != nil {
		panic(err)
	}
	defer store.Close()

	svc := &identity.Service{
		Store:  store,
		Pepper: []byte("a secret of at least 16 bytes"), // from configuration, never a constant
		KYC:    identity.SandboxKYC{},
		Rand:   rand.Reader,
	}
	ctx := context.Background()

	// The payload goes to the KYC provider and is dropped; the subjectRef is kept only
	// as a keyed hash.
	res, err := svc.Issue(ctx, veriland.Sandbox, identity.IssueRequest{
		SubjectRef:    "customer-8812",
		CountryCode:   "NG",
		WalletAddress: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
		Payload:       json.RawMessage(`{"scenario": "success", "document": "…"}`),
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Status, res.WalletAddress)

	st, _ := svc.Status(ctx, veriland.Sandbox, res.DID)
	fmt.Println(st.CountryCode, st.WalletBound)

	// A second identity for the same subject is refused, naming the first.
	_, err = svc.Issue(ctx, veriland.Sandbox, identity.IssueRequest{SubjectRef: "customer-8812", CountryCode: "NG"})
	fmt.Println(veriland.CodeOf(err))

	// The other environment does not see it.
	_, err = svc.Status(ctx, veriland.Production, res.DID)
	fmt.Println(veriland.CodeOf(err))

	// Wallet login resolves the signer's identity, or falls back to a did:pkh.
	id, _ := svc.ByWallet(ctx, veriland.Sandbox, "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")
	fmt.Println(id.DID == res.DID, identity.PKHDID(1, "0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B"))
	// Output:
	// ACTIVE 0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed
	// NG true
	// already_exists
	// not_found
	// true did:pkh:eip155:1:0xab5801a7d398351b8be11c439e05c5b3259aec9b
}
