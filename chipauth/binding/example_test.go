package binding_test

import (
	"context"
	"crypto"
	"encoding/base64"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	ethcrypto "github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/chipauth"
	"github.com/veriland/veriland/chipauth/binding"
	"github.com/veriland/veriland/chipauth/sandbox"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

// Example binds a sandbox passport to a holder: the reference server's wiring in
// miniature, with a document issued by the sandbox PKI in place of a phone's chip
// read.
func Example() {
	dir, err := os.MkdirTemp("", "binding-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	store, err := bolt.Open(filepath.Join(dir, "veriland.db"), bolt.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	ctx := context.Background()

	// The server's first start: a sandbox CSCA and DS in the data directory, the CSCA
	// in SANDBOX's trust store.
	csca, ds, err := binding.LoadOrCreateSandboxPKI(dir)
	if err != nil {
		log.Fatal(err)
	}
	sandboxTrust := chipauth.NewTrustStore()
	if _, err := sandboxTrust.AddCertificates(csca.PEM()); err != nil {
		log.Fatal(err)
	}
	key, _ := ethcrypto.GenerateKey()
	atts := &attestation.Service{Store: store, Issuer: &attestation.Issuer{Key: key, ChainID: 1}}
	svc := &binding.Service{
		Store: store,
		Trust: func(env veriland.Environment) *chipauth.TrustStore {
			if env == veriland.Sandbox {
				return sandboxTrust
			}
			return nil // PRODUCTION: the -trust-dir store
		},
		Pepper:       []byte("a secret of at least 16 bytes"),
		Attestations: atts,
	}

	// The holder passed liveness a moment ago (the liveness package issues this).
	passLiveness := func(subject string) string {
		var id string
		if err := store.Update(ctx, func(tx storage.Tx) error {
			att, err := atts.Issue(ctx, tx, veriland.Sandbox, attestation.Draft{
				Kind: attestation.KindLiveness, Subject: subject, Claims: map[string]any{"level": "L2"}})
			if err == nil {
				id = att.ID
			}
			return err
		}); err != nil {
			log.Fatal(err)
		}
		return id
	}
	holder := veriland.Principal{Subject: "did:veriland:AAAAAAAAAAAAAAAAAAAAAA", Role: veriland.RoleHolder, Env: veriland.Sandbox}

	// The phone read the chip.
	dg1, _ := sandbox.BuildDG1(sandbox.MRZFields{IssuingState: "UTO", Surname: "Eriksson", GivenNames: "Anna",
		DocumentNumber: "L898902C3", BirthDate: time.Date(1974, 8, 12, 0, 0, 0, 0, time.UTC),
		Expiry: time.Now().AddDate(5, 0, 0)})
	sod, _ := sandbox.BuildSOD(ds, map[int][]byte{1: dg1}, crypto.SHA256, sandbox.ECDSA, sandbox.SODOptions{})

	res, err := svc.Bind(ctx, veriland.Sandbox, holder, binding.Request{
		SODBase64:             base64.StdEncoding.EncodeToString(sod),
		DataGroups:            []binding.DataGroup{{Number: 1, ContentBase64: base64.StdEncoding.EncodeToString(dg1)}},
		LivenessAttestationID: passLiveness(holder.Subject),
	})
	if err != nil {
		log.Fatal(err)
	}
	claims, _ := binding.ClaimsOf(res.Attestation)
	fmt.Println(res.Status, res.Mode, res.Attestation.Kind, claims.IssuingState, claims.DocumentType, claims.SignatureAlgorithm)

	// Another identity presenting the same passport is refused.
	other := holder
	other.Subject = "did:veriland:BBBBBBBBBBBBBBBBBBBBBB"
	_, err = svc.Bind(ctx, veriland.Sandbox, other, binding.Request{
		SODBase64:             base64.StdEncoding.EncodeToString(sod),
		DataGroups:            []binding.DataGroup{{Number: 1, ContentBase64: base64.StdEncoding.EncodeToString(dg1)}},
		LivenessAttestationID: passLiveness(other.Subject),
	})
	fmt.Println(veriland.CodeOf(err))
	// Output:
	// VERIFIED PA_ONLY CHIP_BINDING UTO P ECDSA-SHA-256
	// document_already_bound
}
