package sandbox_test

import (
	"crypto"
	"fmt"
	"time"

	"github.com/veriland/veriland/chipauth"
	"github.com/veriland/veriland/chipauth/sandbox"
)

// A test country: its CSCA, a Document Signer, and a passport whose chip data
// passive authentication accepts against a trust store holding that CSCA.
func Example() {
	csca, err := sandbox.NewTestCSCA(sandbox.P256, sandbox.CertOptions{Country: "UT"})
	if err != nil {
		panic(err)
	}
	ds, err := csca.NewDS(sandbox.P256, sandbox.CertOptions{Country: "UT"})
	if err != nil {
		panic(err)
	}
	dg1, err := sandbox.BuildDG1(sandbox.MRZFields{IssuingState: "UTO", Surname: "ERIKSSON", GivenNames: "ANNA MARIA",
		DocumentNumber: "L898902C3", BirthDate: time.Date(1974, 8, 12, 0, 0, 0, 0, time.UTC), Sex: "F",
		Expiry: time.Now().AddDate(5, 0, 0)})
	if err != nil {
		panic(err)
	}
	sod, err := sandbox.BuildSOD(ds, map[int][]byte{1: dg1}, crypto.SHA256, sandbox.ECDSA, sandbox.SODOptions{})
	if err != nil {
		panic(err)
	}

	trust := chipauth.NewTrustStore()
	if _, err := trust.AddCertificates(csca.PEM()); err != nil {
		panic(err)
	}
	res, err := chipauth.Verify(sod, map[int][]byte{1: dg1}, trust, chipauth.Options{})
	fmt.Println(err, res.Verified, res.IssuingState, res.DigestAlgorithm)
	// Output: <nil> true UTO SHA-256
}
