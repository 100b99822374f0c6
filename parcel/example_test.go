package parcel_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/storage/bolt"
	"github.com/veriland/veriland/storage/fieldcrypt"
)

// Example certifies a parcel, transfers it, and checks the first certificate offline
// against the registry's signed status list.
func Example() {
	dir, _ := os.MkdirTemp("", "parcel-example")
	defer os.RemoveAll(dir)
	store, _ := bolt.Open(filepath.Join(dir, "veriland.db"), bolt.Options{})
	defer store.Close()
	fields, _ := fieldcrypt.LoadOrCreate(dir, rand.Reader)
	svc := &parcel.Service{
		Store:  store,
		Issuer: &attestation.Issuer{Key: issuerKey, ChainID: 1},
		Fields: fields,
		Pepper: []byte("a secret pepper of 16+ bytes"),
	}
	ctx := context.Background()
	client := veriland.Principal{Subject: "app", Role: veriland.RoleVerifier, Env: veriland.Production, Account: "acct_demo"}
	notary := veriland.Principal{Subject: "NOT-ABJ-42", Role: veriland.RoleNotary, Env: veriland.Production}

	req, err := parcel.DecodeCreateRequest([]byte(`{
		"owner": {"fullName": "Amina Bello", "id_doc": "A12345678"},
		"parcel": {"gps": [9.0765, 7.3986], "area_m2": 1250, "city": "Abuja"},
		"notary": "NOT-ABJ-42"}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	p, _ := svc.Create(ctx, client, req)
	fmt.Println(p.Status)
	p, _ = svc.Certify(ctx, notary, p.ID)
	fmt.Println(p.Status, p.Version, p.Token.Standard, p.Token.Status)
	first, _ := svc.Certificate(ctx, client, p.ID)

	tr, _ := svc.RequestTransfer(ctx, client, p.ID, parcel.TransferRequest{
		NewOwner: &parcel.Owner{FullName: "Chidi Okafor", IDDoc: "B7654321"}, Notary: "NOT-ABJ-42"})
	tr, _ = svc.ApproveTransfer(ctx, notary, tr.ID)
	fmt.Println(tr.Status, tr.ToVersion)

	statuses, _ := svc.Statuses(ctx, veriland.Production, time.Time{})
	res, err := parcel.VerifyCertificate(first, parcel.VerifyOptions{
		TrustedIssuers: []common.Address{svc.Issuer.Address()}, ChainID: 1, Statuses: statuses})
	fmt.Println(res.Status, err)
	// Output:
	// PENDING_NOTARY
	// CERTIFIED 1 ERC-5192 ACTIVE
	// COMPLETED 2
	// SUPERSEDED <nil>
}
