package chipauth

import (
	"crypto"
	"encoding/asn1"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/veriland/veriland/chipauth/sandbox"
	"golang.org/x/crypto/cryptobyte"
)

// sameCertificateFields reports whether two readings agree. Times are
// compared as instants and an empty extension list equals an absent one.
func sameCertificateFields(a, b certificateFields) bool {
	if !a.notBefore.Equal(b.notBefore) || !a.notAfter.Equal(b.notAfter) || len(a.extensions) != len(b.extensions) {
		return false
	}
	if len(a.extensions) > 0 && !reflect.DeepEqual(a.extensions, b.extensions) {
		return false
	}
	a.notBefore, a.notAfter, a.extensions = b.notBefore, b.notAfter, b.extensions
	return reflect.DeepEqual(a, b)
}

// checkCertificateReaders fails when readCertificateDER accepts der but
// readCertificateASN1 does not, or reads it differently. It reports whether
// the DER reader accepted it.
func checkCertificateReaders(t *testing.T, der []byte) bool {
	t.Helper()
	fast, n, ok := readCertificateDER(der)
	if !ok {
		return false
	}
	slow, m, err := readCertificateASN1(der)
	if err != nil {
		t.Fatalf("DER reader accepts what encoding/asn1 refuses (%v): %x", err, der)
	}
	if n != m || !sameCertificateFields(fast, slow) {
		t.Fatalf("readers disagree on %x:\nDER   %+v\nasn1  %+v", der, fast, slow)
	}
	return true
}

// testCertificates gathers real certificates: the CSCA files, the
// certificates embedded in the real SODs and those of the German master list.
func testCertificates(tb testing.TB) map[string][]byte {
	tb.Helper()
	out := map[string][]byte{}
	files, _ := filepath.Glob(filepath.Join("testdata", "*.cer"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			tb.Fatal(err)
		}
		out[filepath.Base(name)] = b
	}
	sods, _ := filepath.Glob(filepath.Join("testdata", "*_EF_SOD.der"))
	for _, name := range sods {
		sd := mustSignedData(tb, readTestdata(tb, filepath.Base(name)))
		for i, c := range sd.certs {
			out[fmt.Sprintf("%s#%d", filepath.Base(name), i)] = c.raw
		}
	}
	sd, err := parseSignedData(readTestdata(tb, "DE_ML_2026-05-28-08-28-45.ml"))
	if err != nil {
		tb.Fatal(err)
	}
	certs, err := masterListCertificates(sd.content)
	if err != nil {
		tb.Fatal(err)
	}
	for i, c := range certs {
		out[fmt.Sprintf("DE_ML#%d", i)] = c
	}
	return out
}

// TestCertificateReadersAgree checks the DER reader against encoding/asn1 on
// every real certificate and on sandbox certificates of every key type, and
// that it reads the common shapes itself rather than leaving them to asn1.
func TestCertificateReadersAgree(t *testing.T) {
	certs := testCertificates(t)
	read := 0
	for _, der := range certs {
		if checkCertificateReaders(t, der) {
			read++
		}
	}
	t.Logf("the DER reader read %d of %d real certificates", read, len(certs))
	if read < len(certs)*9/10 {
		t.Errorf("the DER reader read %d of %d real certificates", read, len(certs))
	}
	for _, kt := range []sandbox.KeyType{sandbox.RSA2048, sandbox.P256, sandbox.BrainpoolP256r1} {
		for _, explicit := range []bool{false, true} {
			ca, err := sandbox.NewTestCSCA(kt, sandbox.CertOptions{ExplicitParams: explicit, Hash: crypto.SHA384})
			if err != nil {
				t.Fatal(err)
			}
			ds, err := ca.NewDS(kt, sandbox.CertOptions{ExplicitParams: explicit, OmitKeyUsage: explicit})
			if err != nil {
				t.Fatal(err)
			}
			for _, der := range [][]byte{ca.DER, ds.DER} {
				if !checkCertificateReaders(t, der) {
					t.Errorf("%s: the DER reader left a sandbox certificate to encoding/asn1", kt)
				}
			}
		}
	}
}

// TestCertificateDERLeavesOddShapes checks shapes the DER reader must leave
// to encoding/asn1 (which accepts or refuses them itself).
func TestCertificateDERLeavesOddShapes(t *testing.T) {
	der := readTestdata(t, "IDN_2020-10_CSCA.cer")
	tests := []struct {
		name string
		der  []byte
	}{
		{"trailing data", append(append([]byte(nil), der...), 0)},
		{"truncated", der[:len(der)-1]},
		{"empty", nil},
		{"not a sequence", append([]byte{0x31}, der[1:]...)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, ok := readCertificateDER(tc.der); ok {
				t.Error("DER reader accepted it")
			}
			if _, err := parseCertificate(tc.der); err == nil {
				t.Error("parseCertificate accepted it")
			}
		})
	}
}

// TestReadTimeDER checks the time reader against encoding/asn1's rules.
func TestReadTimeDER(t *testing.T) {
	tests := []struct {
		in   string
		ok   bool
		want string
	}{
		{"\x17\x0d491231235959Z", true, "2049-12-31T23:59:59Z"},
		{"\x17\x0d500101000000Z", true, "1950-01-01T00:00:00Z"},
		{"\x17\x0d680229000000Z", true, "1968-02-29T00:00:00Z"},
		{"\x17\x0d690101000000Z", true, "1969-01-01T00:00:00Z"},
		{"\x18\x0f20500101000000Z", true, "2050-01-01T00:00:00Z"},
		{"\x17\x0d230229000000Z", false, ""}, // not a leap year
		{"\x17\x0d230431000000Z", false, ""},
		{"\x17\x0d231301000000Z", false, ""},
		{"\x17\x0d230100000000Z", false, ""},
		{"\x17\x0d230101240000Z", false, ""},
		{"\x17\x0d230101236000Z", false, ""},
		{"\x17\x0d230101235960Z", false, ""},
		{"\x17\x0b2301012359Z", false, ""}, // no seconds: left to encoding/asn1
		{"\x17\x0d23010123595+Z", false, ""},
		{"\x17\x11230101235959+0100", false, ""},
		{"\x18\x1120500101000000.5Z", false, ""},
	}
	for _, tc := range tests {
		var got time.Time
		s := cryptobyte.String(tc.in)
		ok := readTimeDER(&s, &got)
		if ok != tc.ok || (ok && got.Format(time.RFC3339) != tc.want) {
			t.Errorf("%q: %v %v, want %v %s", tc.in, ok, got, tc.ok, tc.want)
		}
		var ref time.Time
		if _, err := asn1.Unmarshal([]byte(tc.in), &ref); ok && (err != nil || !ref.Equal(got)) {
			t.Errorf("%q: encoding/asn1 reads %v (%v)", tc.in, ref, err)
		}
	}
}

// FuzzCertificateReadersAgree checks that whatever the DER reader accepts,
// encoding/asn1 accepts and reads the same way.
func FuzzCertificateReadersAgree(f *testing.F) {
	for _, der := range testCertificates(f) {
		f.Add(der)
	}
	f.Fuzz(func(t *testing.T, der []byte) {
		checkCertificateReaders(t, der)
	})
}

// FuzzDERValuesAgreeWithASN1 checks the reflection-free readers of object
// identifiers, times, algorithm identifiers, names, RSASSA-PSS parameters and
// LDSSecurityObjects:
// whatever they accept, encoding/asn1 accepts with the same value.
func FuzzDERValuesAgreeWithASN1(f *testing.F) {
	for _, seed := range []string{
		"\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01\x0b",
		"\x06\x06\x67\x81\x08\x01\x01\x01",
		"\x17\x0d260101120000Z",
		"\x18\x0f20260101120000Z",
		"\x30\x0d\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01\x0b\x05\x00",
		"\x30\x0b\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01\x0a",
	} {
		f.Add([]byte(seed))
	}
	sods, _ := filepath.Glob(filepath.Join("testdata", "*_EF_SOD.der"))
	for _, name := range sods {
		if ci, err := unwrapSOD(readTestdata(f, filepath.Base(name))); err == nil {
			if sd, err := parseSignedData(ci); err == nil {
				f.Add(sd.content)
			}
		}
	}
	for _, der := range testCertificates(f) {
		if c, err := parseCertificate(der); err == nil {
			f.Add(c.issuer.raw)
			if len(c.sigAlg.Parameters.FullBytes) > 0 {
				f.Add(c.sigAlg.Parameters.FullBytes)
			}
		}
	}
	f.Fuzz(func(t *testing.T, der []byte) {
		s := cryptobyte.String(der)
		var oid asn1.ObjectIdentifier
		if readObjectIdentifierDER(&s, &oid) && len(s) == 0 {
			var ref asn1.ObjectIdentifier
			if rest, err := asn1.Unmarshal(der, &ref); err != nil || len(rest) > 0 || !ref.Equal(oid) {
				t.Fatalf("OID %x: DER reader %v, encoding/asn1 %v (%v)", der, oid, ref, err)
			}
		}
		s = cryptobyte.String(der)
		var tm time.Time
		if readTimeDER(&s, &tm) && len(s) == 0 {
			var ref time.Time
			if rest, err := asn1.Unmarshal(der, &ref); err != nil || len(rest) > 0 || !ref.Equal(tm) {
				t.Fatalf("time %x: DER reader %v, encoding/asn1 %v (%v)", der, tm, ref, err)
			}
		}
		s = cryptobyte.String(der)
		var ai algorithmIdentifier
		if readAlgorithmIdentifierDER(&s, &ai) && len(s) == 0 {
			var ref algorithmIdentifier
			if rest, err := asn1.Unmarshal(der, &ref); err != nil || len(rest) > 0 || !reflect.DeepEqual(ai, ref) {
				t.Fatalf("algorithm %x: DER reader %+v, encoding/asn1 %+v (%v)", der, ai, ref, err)
			}
		}
		if lds, ok := readLDSSecurityObjectDER(der); ok {
			var ref rawLDSSecurityObject
			if rest, err := asn1.Unmarshal(der, &ref); err != nil || len(rest) > 0 || !reflect.DeepEqual(lds, ref) {
				t.Fatalf("LDSSecurityObject %x: DER reader %+v, encoding/asn1 %+v (%v)", der, lds, ref, err)
			}
		}
		var pss pssParameters
		if readPSSParametersDER(der, &pss) {
			var ref pssParameters
			if rest, err := asn1.Unmarshal(der, &ref); err != nil || len(rest) > 0 || !reflect.DeepEqual(pss, ref) {
				t.Fatalf("PSS parameters %x: DER reader %+v, encoding/asn1 %+v (%v)", der, pss, ref, err)
			}
		}
		if n, ok := readNameDER(der); ok {
			if ref, err := readNameASN1(der); err != nil || !reflect.DeepEqual(n, ref) {
				t.Fatalf("name %x: DER reader %+v, encoding/asn1 %+v (%v)", der, n, ref, err)
			}
		}
	})
}

// TestRealSODsReadWithoutReflection checks that the LDSSecurityObject, the
// names and the algorithm identifiers of every real SOD take the
// reflection-free readers, and read as encoding/asn1 reads them.
func TestRealSODsReadWithoutReflection(t *testing.T) {
	sods, _ := filepath.Glob(filepath.Join("testdata", "*_EF_SOD.der"))
	for _, file := range sods {
		sd := mustSignedData(t, readTestdata(t, filepath.Base(file)))
		lds, ok := readLDSSecurityObjectDER(sd.content)
		var ref rawLDSSecurityObject
		if _, err := asn1.Unmarshal(sd.content, &ref); !ok || err != nil || !reflect.DeepEqual(lds, ref) {
			t.Errorf("%s: LDSSecurityObject read %v, %+v; encoding/asn1 %+v (%v)", file, ok, lds, ref, err)
		}
		for _, c := range sd.certs {
			for _, n := range []name{c.issuer, c.subject} {
				if fast, ok := readNameDER(n.raw); !ok || !reflect.DeepEqual(fast, n) {
					t.Errorf("%s: name read %v, %+v; want %+v", file, ok, fast, n)
				}
			}
		}
	}
}
