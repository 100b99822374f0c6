package chipauth_test

import (
	"crypto"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/chipauth"
	"github.com/veriland/veriland/chipauth/sandbox"
)

var allHashes = []crypto.Hash{crypto.SHA1, crypto.SHA224, crypto.SHA256, crypto.SHA384, crypto.SHA512}

// TestVerifySyntheticAlgorithms signs a document with every key type, scheme and
// digest chipauth accepts and checks that it verifies.
func TestVerifySyntheticAlgorithms(t *testing.T) {
	p := mustPKI(t)
	type combo struct {
		ds     string
		scheme sandbox.Scheme
		hash   crypto.Hash
	}
	var combos []combo
	for _, h := range allHashes {
		combos = append(combos, combo{"RSA-2048", sandbox.PKCS1v15, h}, combo{"RSA-2048", sandbox.PSS, h})
		for _, kt := range []string{"P-256", "P-384", "P-521", "brainpoolP256r1", "brainpoolP384r1", "brainpoolP512r1"} {
			combos = append(combos, combo{kt, sandbox.ECDSA, h})
		}
	}
	for _, kt := range []string{"P-256", "P-384", "P-521", "brainpoolP256r1", "brainpoolP384r1", "brainpoolP512r1"} {
		combos = append(combos, combo{kt + "+explicit", sandbox.ECDSA, crypto.SHA256})
	}
	dgs := testDataGroups(t)
	for _, c := range combos {
		t.Run(fmt.Sprintf("%s/%s/%v", c.ds, c.scheme, c.hash), func(t *testing.T) {
			t.Parallel()
			sod, err := sandbox.BuildSOD(p.ds[c.ds], dgs, c.hash, c.scheme, sandbox.SODOptions{LDSVersion: 1})
			if err != nil {
				t.Fatal(err)
			}
			res, err := chipauth.Verify(sod, dgs, p.trust, chipauth.Options{Now: clock})
			if err != nil {
				t.Fatalf("Verify: %v", err)
			}
			if !res.Verified || res.DigestAlgorithm != c.hash.String() || len(res.DataGroupsVerified) != 2 {
				t.Errorf("result %+v", res)
			}
			if res.IssuingState != "UTO" || res.DocumentType != "P" || res.MRZFormat != chipauth.TD3 {
				t.Errorf("MRZ fields %q %q %q", res.IssuingState, res.DocumentType, res.MRZFormat)
			}
		})
	}
}

func TestVerifyResultFields(t *testing.T) {
	p := mustPKI(t)
	dgs := testDataGroups(t)
	signed := testNow.AddDate(0, -1, 0)
	sod, err := sandbox.BuildSOD(p.ds["brainpoolP384r1+explicit"], dgs, crypto.SHA384, sandbox.ECDSA,
		sandbox.SODOptions{SigningTime: signed, SubjectKeyID: true, Unwrapped: true})
	if err != nil {
		t.Fatal(err)
	}
	pepper := []byte("pepper")
	res, err := chipauth.Verify(sod, dgs, p.trust, chipauth.Options{Now: clock, Pepper: pepper})
	if err != nil {
		t.Fatal(err)
	}
	mrz, err := chipauth.ParseDG1(dgs[1])
	if err != nil {
		t.Fatal(err)
	}
	want := chipauth.DocumentKey(pepper, mrz)
	if string(res.DocumentKey) != string(want[:]) {
		t.Error("DocumentKey differs from DocumentKey(pepper, mrz)")
	}
	if !res.SigningTime.Equal(signed) || !res.ValidityTime.Equal(signed) {
		t.Errorf("signing time %v, validity time %v", res.SigningTime, res.ValidityTime)
	}
	if res.SignatureAlgorithm != "ECDSA-SHA-384" || res.SignerKey != "EC brainpoolP384r1 (explicit)" {
		t.Errorf("algorithms %q %q", res.SignatureAlgorithm, res.SignerKey)
	}
	if len(res.DSFingerprint) != 64 || len(res.CSCAFingerprint) != 64 || res.DSExpired || res.DocumentExpired {
		t.Errorf("result %+v", res)
	}
	if res.FailedStep != "" || len(res.Passed) == 0 {
		t.Errorf("steps: passed %v failed %q", res.Passed, res.FailedStep)
	}
}

// TestVerifyUnsortedSignedAttributes checks that signed attributes are verified
// as signed: not in DER order, they would fail if re-encoded.
func TestVerifyUnsortedSignedAttributes(t *testing.T) {
	p := mustPKI(t)
	dgs := testDataGroups(t)
	sod, err := sandbox.BuildSOD(p.ds["RSA-2048"], dgs, crypto.SHA256, sandbox.PKCS1v15,
		sandbox.SODOptions{SigningTime: testNow.Add(-time.Hour), UnsortedAttributes: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chipauth.Verify(sod, dgs, p.trust, chipauth.Options{Now: clock}); err != nil {
		t.Fatal(err)
	}
}

// TestVerifyBroken checks that each broken document fails at its named step.
func TestVerifyBroken(t *testing.T) {
	p := mustPKI(t)
	ds := p.ds["RSA-2048"]
	dgs := testDataGroups(t)
	signingTime := testNow.AddDate(0, 0, -7)
	good, err := sandbox.BuildSOD(ds, dgs, crypto.SHA256, sandbox.PKCS1v15, sandbox.SODOptions{SigningTime: signingTime})
	if err != nil {
		t.Fatal(err)
	}
	build := func(t *testing.T, ds *sandbox.DS, dgs map[int][]byte, o sandbox.SODOptions) []byte {
		t.Helper()
		sod, err := sandbox.BuildSOD(ds, dgs, crypto.SHA256, sandbox.PKCS1v15, o)
		if err != nil {
			t.Fatal(err)
		}
		return sod
	}
	with := func(m map[int][]byte, n int, v []byte) map[int][]byte {
		out := map[int][]byte{}
		for k, b := range m {
			out[k] = b
		}
		if v == nil {
			delete(out, n)
		} else {
			out[n] = v
		}
		return out
	}
	otherCSCA, err := sandbox.NewTestCSCA(sandbox.P256, sandbox.CertOptions{NotBefore: yearAgo})
	if err != nil {
		t.Fatal(err)
	}
	otherTrust := chipauth.NewTrustStore()
	if _, err := otherTrust.AddCertificates(otherCSCA.DER); err != nil {
		t.Fatal(err)
	}
	// An impostor CSCA with the same name as the real one but another key.
	impostor, err := sandbox.NewTestCSCA(sandbox.RSA2048, sandbox.CertOptions{NotBefore: yearAgo, CommonName: "Sandbox CSCA RSA"})
	if err != nil {
		t.Fatal(err)
	}
	impostorDS, err := impostor.NewDS(sandbox.RSA2048, sandbox.CertOptions{NotBefore: yearAgo})
	if err != nil {
		t.Fatal(err)
	}
	expiredDS, err := p.cscaRSA.NewDS(sandbox.P256, sandbox.CertOptions{Now: clock,
		NotBefore: testNow.AddDate(-3, 0, 0), NotAfter: testNow.AddDate(-1, 0, 0)})
	if err != nil {
		t.Fatal(err)
	}
	noUsageDS, err := p.cscaRSA.NewDS(sandbox.P256, sandbox.CertOptions{NotBefore: yearAgo, OmitKeyUsage: true})
	if err != nil {
		t.Fatal(err)
	}
	buildEC := func(t *testing.T, ds *sandbox.DS, o sandbox.SODOptions) []byte {
		t.Helper()
		sod, err := sandbox.BuildSOD(ds, dgs, crypto.SHA256, sandbox.ECDSA, o)
		if err != nil {
			t.Fatal(err)
		}
		return sod
	}
	badMRZ := []byte(string(dgs[1][:len(dgs[1])-1]) + "9") // composite check digit wrong
	if string(badMRZ) == string(dgs[1]) {
		badMRZ = []byte(string(dgs[1][:len(dgs[1])-1]) + "8")
	}

	tests := []struct {
		name  string
		sod   func(t *testing.T) []byte
		dgs   map[int][]byte
		trust *chipauth.TrustStore
		opts  chipauth.Options
		want  error
		step  string
	}{
		{name: "altered DG2", sod: func(*testing.T) []byte { return good }, dgs: with(dgs, 2, []byte("\x75\x05DG2!!")),
			want: chipauth.DigestMismatch(2), step: "digest_mismatch:DG2"},
		{name: "altered DG1", sod: func(*testing.T) []byte { return good }, dgs: with(dgs, 1, badMRZ),
			want: chipauth.ErrDigestMismatch, step: "digest_mismatch:DG1"},
		{name: "altered signed attribute", sod: func(*testing.T) []byte {
			return replaceOnce(t, good, []byte(signingTime.Format("060102150405Z")), []byte(signingTime.Add(time.Second).Format("060102150405Z")))
		}, want: chipauth.ErrSignatureInvalid, step: "signature_invalid"},
		{name: "altered LDS content", sod: func(t *testing.T) []byte { return flipInside(t, good, sumOf(crypto.SHA256, dgs[2])) },
			want: chipauth.ErrMessageDigestMismatch, step: "message_digest_mismatch"},
		{name: "altered signature", sod: func(*testing.T) []byte { return flipByte(good, len(good)-5) },
			want: chipauth.ErrSignatureInvalid, step: "signature_invalid"},
		{name: "wrong CSCA", sod: func(*testing.T) []byte { return good }, trust: otherTrust,
			want: chipauth.ErrCSCANotFound, step: "csca_not_found"},
		{name: "CSCA with same name, other key", sod: func(t *testing.T) []byte { return build(t, impostorDS, dgs, sandbox.SODOptions{}) },
			want: chipauth.ErrCSCANotFound, step: "csca_not_found"},
		{name: "no trust store", sod: func(*testing.T) []byte { return good }, trust: (*chipauth.TrustStore)(nil),
			want: chipauth.ErrCSCANotFound, step: "csca_not_found"},
		{name: "expired DS", sod: func(t *testing.T) []byte { return buildEC(t, expiredDS, sandbox.SODOptions{}) },
			want: chipauth.ErrDSExpired, step: "ds_expired"},
		{name: "signed after DS expiry", sod: func(t *testing.T) []byte {
			return buildEC(t, expiredDS, sandbox.SODOptions{SigningTime: testNow.AddDate(0, -6, 0)})
		}, want: chipauth.ErrDSExpired, step: "ds_expired"},
		{name: "DS without key usage", sod: func(t *testing.T) []byte { return buildEC(t, noUsageDS, sandbox.SODOptions{}) },
			want: chipauth.ErrDSKeyUsage, step: "ds_key_usage"},
		{name: "unknown digest OID", sod: func(t *testing.T) []byte {
			return build(t, ds, dgs, sandbox.SODOptions{DigestOID: []int{1, 2, 3, 4}})
		}, want: chipauth.ErrUnsupportedAlgorithm, step: "unsupported_algorithm"},
		{name: "no certificate", sod: func(t *testing.T) []byte { return build(t, ds, dgs, sandbox.SODOptions{OmitCertificate: true}) },
			want: chipauth.ErrSignerNotFound, step: "signer_not_found"},
		{name: "truncated DER", sod: func(*testing.T) []byte { return good[:len(good)-40] },
			want: chipauth.ErrSODParse, step: "sod_parse"},
		{name: "trailing garbage", sod: func(*testing.T) []byte { return append(append([]byte{}, good...), 0xde, 0xad) },
			want: chipauth.ErrSODParse, step: "sod_parse"},
		{name: "trailing garbage unwrapped", sod: func(t *testing.T) []byte {
			return append(build(t, ds, dgs, sandbox.SODOptions{Unwrapped: true}), 0)
		}, want: chipauth.ErrSODParse, step: "sod_parse"},
		{name: "empty", sod: func(*testing.T) []byte { return nil }, want: chipauth.ErrSODParse, step: "sod_parse"},
		{name: "not DER", sod: func(*testing.T) []byte { return []byte("hello, world") }, want: chipauth.ErrSODParse, step: "sod_parse"},
		{name: "DG1 missing", sod: func(*testing.T) []byte { return good }, dgs: with(dgs, 1, nil),
			want: chipauth.ErrDG1Missing, step: "dg1_missing"},
		{name: "DG1 not in SOD", sod: func(t *testing.T) []byte { return build(t, ds, map[int][]byte{2: dgs[2]}, sandbox.SODOptions{}) },
			want: chipauth.ErrDG1Missing, step: "dg1_missing"},
		{name: "DG not in SOD", sod: func(*testing.T) []byte { return good }, dgs: with(dgs, 3, []byte("DG3")),
			want: chipauth.ErrDataGroupNotInSOD, step: "dg_not_in_sod:DG3"},
		{name: "MRZ check digit", sod: func(t *testing.T) []byte { return build(t, ds, with(dgs, 1, badMRZ), sandbox.SODOptions{}) },
			dgs: with(dgs, 1, badMRZ), want: chipauth.ErrMRZInvalid, step: "mrz_invalid"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			trust := p.trust
			if tc.trust != nil || tc.name == "no trust store" {
				trust = tc.trust
			}
			d := dgs
			if tc.dgs != nil {
				d = tc.dgs
			}
			opts := tc.opts
			opts.Now = clock
			res, err := chipauth.Verify(tc.sod(t), d, trust, opts)
			if err == nil {
				t.Fatalf("Verify succeeded, want %s", tc.step)
			}
			if !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want errors.Is %v", err, tc.want)
			}
			var ve *veriland.Error
			if !errors.As(err, &ve) || ve.Code != veriland.CodePassiveAuthFailed || ve.Meta["step"] != tc.step {
				t.Errorf("err = %#v, want passive_auth_failed with step %s", err, tc.step)
			}
			if strings.Contains(err.Error(), testMRZ.DocumentNumber) {
				t.Errorf("error quotes the document number: %v", err)
			}
			if res == nil || res.FailedStep != tc.step || res.Verified {
				t.Errorf("result %+v, want FailedStep %s", res, tc.step)
			}
		})
	}
}

func TestVerifyAllowExpired(t *testing.T) {
	p := mustPKI(t)
	expiredDS, err := p.cscaEC.NewDS(sandbox.BrainpoolP256r1, sandbox.CertOptions{Now: clock,
		NotBefore: testNow.AddDate(-3, 0, 0), NotAfter: testNow.AddDate(-1, 0, 0)})
	if err != nil {
		t.Fatal(err)
	}
	dgs := testDataGroups(t)
	sod, err := sandbox.BuildSOD(expiredDS, dgs, crypto.SHA256, sandbox.ECDSA, sandbox.SODOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := chipauth.Verify(sod, dgs, p.trust, chipauth.Options{Now: clock, AllowExpired: true})
	if err != nil {
		t.Fatal(err)
	}
	if !res.DSExpired || !res.DSExpiredNow {
		t.Errorf("expiry flags %v %v, want both set", res.DSExpired, res.DSExpiredNow)
	}
	// Signed while the DS was valid: passes without AllowExpired, reports now-expiry.
	sod, err = sandbox.BuildSOD(expiredDS, dgs, crypto.SHA256, sandbox.ECDSA, sandbox.SODOptions{SigningTime: testNow.AddDate(-2, 0, 0)})
	if err != nil {
		t.Fatal(err)
	}
	res, err = chipauth.Verify(sod, dgs, p.trust, chipauth.Options{Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	if res.DSExpired || !res.DSExpiredNow {
		t.Errorf("expiry flags %v %v, want false, true", res.DSExpired, res.DSExpiredNow)
	}
}
