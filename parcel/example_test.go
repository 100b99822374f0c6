package parcel_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/parcel/landtitle"
	"github.com/veriland/veriland/storage/bolt"
	"github.com/veriland/veriland/storage/fieldcrypt"
)

// Example certifies a parcel, mints its land title on a chain (go-ethereum's
// simulated one), transfers it, and checks the first certificate offline against the
// registry's signed status list.
func Example() {
	dir, _ := os.MkdirTemp("", "parcel-example")
	defer os.RemoveAll(dir)
	store, _ := bolt.Open(filepath.Join(dir, "veriland.db"), bolt.Options{})
	defer store.Close()
	fields, _ := fieldcrypt.LoadOrCreate(dir, rand.Reader)
	registryKey, _ := crypto.GenerateKey() // mints, burns and pays the gas
	chain, err := landtitle.NewSimulated(registryKey, "https://registry.example/v1/tokens/")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer chain.Close()
	svc := &parcel.Service{
		Store:  store,
		Issuer: &attestation.Issuer{Key: issuerKey, ChainID: 1},
		Fields: fields,
		Pepper: []byte("a secret pepper of 16+ bytes"),
		Titles: map[veriland.Environment]parcel.TitleChain{veriland.Production: chain},
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
	fmt.Println(p.Status, p.Version, p.Token.Standard, p.Token.Status, p.Token.HolderKind)
	first, _ := svc.Certificate(ctx, client, p.ID)
	svc.ChainJobsOnce(ctx) // a background worker's round (RunChainJobs)
	tok, _ := svc.Token(ctx, veriland.Production, p.Token.TokenID)
	fmt.Println(tok.Status, tok.Holder == chain.Registry().Hex())

	tr, _ := svc.RequestTransfer(ctx, client, p.ID, parcel.TransferRequest{
		NewOwner: &parcel.Owner{FullName: "Chidi Okafor", IDDoc: "B7654321"}, Notary: "NOT-ABJ-42"})
	tr, _ = svc.ApproveTransfer(ctx, notary, tr.ID)
	fmt.Println(tr.Status, tr.ToVersion)
	svc.ChainJobsOnce(ctx)
	tok, _ = svc.Token(ctx, veriland.Production, p.Token.TokenID)
	fmt.Println(tok.Status, tok.BurnTx != "")

	statuses, _ := svc.Statuses(ctx, veriland.Production, time.Time{})
	res, err := parcel.VerifyCertificate(first, parcel.VerifyOptions{
		TrustedIssuers: []common.Address{svc.Issuer.Address()}, ChainID: 1, Statuses: statuses})
	fmt.Println(res.Status, err)
	// Output:
	// PENDING_NOTARY
	// CERTIFIED 1 ERC-5192 PENDING REGISTRY_CUSTODY
	// MINTED true
	// COMPLETED 2
	// BURNED true
	// SUPERSEDED <nil>
}
