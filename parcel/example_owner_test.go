package parcel_test

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/storage/bolt"
	"github.com/veriland/veriland/storage/fieldcrypt"
)

// Example_ownerSigns transfers the parcel of an owner who holds a wallet: the notary
// binds the wallet at certification, the transfer waits for the owner's EIP-712
// signature, and only then does the notary — not the clerk who asked — complete it.
func Example_ownerSigns() {
	dir, _ := os.MkdirTemp("", "parcel-owner-example")
	defer os.RemoveAll(dir)
	store, _ := bolt.Open(filepath.Join(dir, "veriland.db"), bolt.Options{})
	defer store.Close()
	fields, _ := fieldcrypt.LoadOrCreate(dir, rand.Reader)
	svc := &parcel.Service{Store: store, Issuer: &attestation.Issuer{Key: issuerKey, ChainID: 1}, Fields: fields,
		Pepper: []byte("a secret pepper of 16+ bytes")}
	ctx := context.Background()
	clerk := veriland.Principal{Subject: "registry-clerk", Role: veriland.RoleAdmin, Env: veriland.Production, Account: "acct_demo"}
	notary := veriland.Principal{Subject: "NOT-ABJ-42", Role: veriland.RoleNotary, Env: veriland.Production}
	ownerKey, _ := crypto.GenerateKey()
	wallet := crypto.PubkeyToAddress(ownerKey.PublicKey).Hex()

	p, _ := svc.Create(ctx, clerk, parcel.CreateRequest{
		Owner:  &parcel.Owner{FullName: "Amina Bello", IDDoc: "A12345678", WalletAddress: wallet},
		Parcel: &parcel.ParcelInput{GPS: []float64{9.0765, 7.3986}, AreaM2: ptr(1250.0), City: "Abuja"}, Notary: "NOT-ABJ-42"})
	p, _ = svc.Certify(ctx, notary, p.ID)
	fmt.Println(p.Status, p.Owner.Binding)

	tr, _ := svc.RequestTransfer(ctx, clerk, p.ID, parcel.TransferRequest{
		NewOwner: &parcel.Owner{FullName: "Chidi Okafor", IDDoc: "B7654321"}, Notary: "NOT-ABJ-42"})
	fmt.Println(tr.Status, tr.OwnerConsent.Method)

	// The owner's wallet signs the served TransferConsent with its decision (what
	// eth_signTypedData_v4 does), and the service re-verifies it.
	sig, _ := ethsig.Sign(ownerKey, parcel.TransferConsentOf(tr, parcel.DecisionApproved).Digest(1))
	tr, _ = svc.DecideOwner(ctx, veriland.Production, tr.ID, parcel.OwnerDecision{
		Decision: parcel.DecisionApproved, OwnerSignature: hexutil.Encode(sig), OwnerAddress: wallet})
	fmt.Println(tr.Status, tr.OwnerConsent.Decision)

	// The clerk asked for the transfer: even as an admin it cannot also approve it.
	_, err := svc.ApproveTransfer(ctx, clerk, tr.ID)
	var refusal *veriland.Error
	if errors.As(err, &refusal) {
		fmt.Println(refusal.Code, refusal.Meta["reason"])
	}
	tr, _ = svc.ApproveTransfer(ctx, notary, tr.ID)
	fmt.Println(tr.Status, tr.ToVersion)
	// Output:
	// CERTIFIED NOTARY_VERIFIED
	// PENDING_OWNER OWNER_SIGNATURE
	// PENDING_NOTARY APPROVED
	// forbidden separation_of_duties
	// COMPLETED 2
}
