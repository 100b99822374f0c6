package chipauth_test

import (
	"crypto"
	"errors"
	"slices"
	"testing"

	"github.com/veriland/veriland/chipauth"
	"github.com/veriland/veriland/chipauth/sandbox"
)

// TestVerifyReportsChecksSeparately checks that the hash, signature and chain
// checks are reported on their own, whatever the chain outcome: an unknown CSCA
// still lets an embedder tell an intact document from a tampered one, and data
// groups the SOD does not cover (or lists without being supplied) are named.
func TestVerifyReportsChecksSeparately(t *testing.T) {
	p := mustPKI(t)
	ds := p.ds["P-256"]
	dgs := testDataGroups(t)
	sodOf := func(dgs map[int][]byte) []byte {
		t.Helper()
		sod, err := sandbox.BuildSOD(ds, dgs, crypto.SHA256, sandbox.ECDSA, sandbox.SODOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return sod
	}
	good := sodOf(dgs)
	other := testMRZ
	other.DocumentNumber = "X12345678"
	tamperedDG1, err := sandbox.BuildDG1(other)
	if err != nil {
		t.Fatal(err)
	}
	withDG14 := map[int][]byte{1: dgs[1], 2: dgs[2], 14: []byte("\x6e\x03DG14")}
	unknown := chipauth.NewTrustStore()
	ok := chipauth.Check{Status: chipauth.CheckSucceeded}
	notChecked := chipauth.Check{Status: chipauth.CheckNotChecked}
	cscaMissing := chipauth.Check{Status: chipauth.CheckFailed, Failure: "csca_not_found"}
	type dg = chipauth.DataGroupCheck
	for _, tc := range []struct {
		name      string
		sod       []byte
		supplied  map[int][]byte
		trust     *chipauth.TrustStore
		wantErr   error
		hash      chipauth.Check
		sig       chipauth.Check
		chain     chipauth.Check
		perGroup  []chipauth.DataGroupCheck
		verified  bool
		mrzFilled bool
	}{
		{"intact, trusted CSCA", good, dgs, p.trust, nil, ok, ok, ok,
			[]dg{{DG: 1, Status: chipauth.DataGroupOK}, {DG: 2, Status: chipauth.DataGroupOK}}, true, true},
		{"intact, unknown CSCA", good, dgs, unknown, chipauth.ErrCSCANotFound, ok, ok, cscaMissing,
			[]dg{{DG: 1, Status: chipauth.DataGroupOK}, {DG: 2, Status: chipauth.DataGroupOK}}, false, false},
		{"tampered DG1, unknown CSCA", good, map[int][]byte{1: tamperedDG1, 2: dgs[2]}, unknown, chipauth.ErrCSCANotFound,
			chipauth.Check{Status: chipauth.CheckFailed, Failure: "digest_mismatch:DG1"}, ok, cscaMissing,
			[]dg{{DG: 1, Status: chipauth.DataGroupMismatch}, {DG: 2, Status: chipauth.DataGroupOK}}, false, false},
		{"tampered DG1, trusted CSCA", good, map[int][]byte{1: tamperedDG1, 2: dgs[2]}, p.trust, chipauth.ErrDigestMismatch,
			chipauth.Check{Status: chipauth.CheckFailed, Failure: "digest_mismatch:DG1"}, ok, ok,
			[]dg{{DG: 1, Status: chipauth.DataGroupMismatch}, {DG: 2, Status: chipauth.DataGroupOK}}, false, false},
		{"DG not covered by the SOD, unknown CSCA", good, map[int][]byte{1: dgs[1], 2: dgs[2], 3: []byte("\x63\x02DG")}, unknown, chipauth.ErrCSCANotFound,
			chipauth.Check{Status: chipauth.CheckFailed, Failure: "dg_not_in_sod:DG3"}, ok, cscaMissing,
			[]dg{{DG: 1, Status: chipauth.DataGroupOK}, {DG: 2, Status: chipauth.DataGroupOK}, {DG: 3, Status: chipauth.DataGroupNotInSOD}}, false, false},
		{"SOD lists a DG not supplied, trusted CSCA", sodOf(withDG14), dgs, p.trust, nil, ok, ok, ok,
			[]dg{{DG: 1, Status: chipauth.DataGroupOK}, {DG: 2, Status: chipauth.DataGroupOK}, {DG: 14, Status: chipauth.DataGroupNotSupplied}}, true, true},
		{"SOD lists a DG not supplied, unknown CSCA", sodOf(withDG14), dgs, unknown, chipauth.ErrCSCANotFound, ok, ok, cscaMissing,
			[]dg{{DG: 1, Status: chipauth.DataGroupOK}, {DG: 2, Status: chipauth.DataGroupOK}, {DG: 14, Status: chipauth.DataGroupNotSupplied}}, false, false},
		{"malformed SOD", []byte{0x77, 0x00}, dgs, p.trust, chipauth.ErrSODParse, notChecked, notChecked, notChecked, nil, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := chipauth.Verify(tc.sod, tc.supplied, tc.trust, chipauth.Options{Now: clock})
			if tc.wantErr == nil && err != nil || tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
				t.Fatalf("error %v, want %v", err, tc.wantErr)
			}
			if res == nil {
				t.Fatal("nil Result")
			}
			if res.HashCheck != tc.hash || res.SignatureCheck != tc.sig || res.ChainCheck != tc.chain {
				t.Errorf("checks hash=%+v signature=%+v chain=%+v, want %+v %+v %+v",
					res.HashCheck, res.SignatureCheck, res.ChainCheck, tc.hash, tc.sig, tc.chain)
			}
			if !slices.Equal(res.DataGroups, tc.perGroup) {
				t.Errorf("data groups %+v, want %+v", res.DataGroups, tc.perGroup)
			}
			if res.Verified != tc.verified || (res.IssuingState != "") != tc.mrzFilled {
				t.Errorf("verified %v, MRZ %q", res.Verified, res.IssuingState)
			}
		})
	}
}
