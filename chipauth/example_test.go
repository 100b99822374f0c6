package chipauth_test

import (
	"crypto"
	"errors"
	"fmt"
	"time"

	"github.com/veriland/veriland/chipauth"
	"github.com/veriland/veriland/chipauth/sandbox"
)

// Example issues a test passport with the sandbox package and authenticates it.
func Example() {
	now := func() time.Time { return time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC) }

	// A test CSCA and Document Signer with explicit-parameter P-256 keys.
	csca, _ := sandbox.NewTestCSCA(sandbox.P256, sandbox.CertOptions{Now: now, ExplicitParams: true})
	ds, _ := csca.NewDS(sandbox.P256, sandbox.CertOptions{Now: now, ExplicitParams: true})
	dg1, _ := sandbox.BuildDG1(sandbox.MRZFields{
		IssuingState: "UTO", Surname: "ERIKSSON", GivenNames: "ANNA MARIA", DocumentNumber: "L898902C3",
		BirthDate: time.Date(1974, 8, 12, 0, 0, 0, 0, time.UTC), Sex: "F",
		Expiry: time.Date(2032, 4, 15, 0, 0, 0, 0, time.UTC),
	})
	dataGroups := map[int][]byte{1: dg1, 2: []byte("face image")}
	sod, _ := sandbox.BuildSOD(ds, dataGroups, crypto.SHA256, sandbox.ECDSA, sandbox.SODOptions{SigningTime: now()})

	trust := chipauth.NewTrustStore()
	if _, err := trust.AddCertificates(csca.PEM()); err != nil {
		fmt.Println(err)
		return
	}
	opts := chipauth.Options{Now: now, Pepper: []byte("server-side secret")}
	res, err := chipauth.Verify(sod, dataGroups, trust, opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Verified, res.IssuingState, res.DocumentType, res.DigestAlgorithm, res.SignatureAlgorithm)
	fmt.Println(res.SignerKey, res.DataGroupsVerified, len(res.DocumentKey))

	// A tampered data group fails at its own step.
	dataGroups[2] = []byte("another face")
	_, err = chipauth.Verify(sod, dataGroups, trust, opts)
	fmt.Println(errors.Is(err, chipauth.DigestMismatch(2)), err)
	// Output:
	// true UTO P SHA-256 ECDSA-SHA-256
	// EC P-256 (explicit) [1 2] 32
	// true passive_auth_failed: passive authentication failed at digest_mismatch:DG2: DG2 does not match its hash in the SOD
}
