package chipauth

import (
	"crypto/x509/pkix"
	"encoding/asn1"
	"strings"
	"testing"

	"golang.org/x/crypto/cryptobyte"
)

func marshalName(t *testing.T, rdns pkix.RDNSequence) []byte {
	t.Helper()
	b, err := asn1.Marshal(rdns)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestNameEqual checks that names match by meaning: attribute order, string
// type, case and spacing differ between SignerInfos and certificates in real SODs.
func TestNameEqual(t *testing.T) {
	c := asn1.ObjectIdentifier{2, 5, 4, 6}
	o := asn1.ObjectIdentifier{2, 5, 4, 10}
	cn := asn1.ObjectIdentifier{2, 5, 4, 3}
	cert := marshalName(t, pkix.RDNSequence{
		{{Type: c, Value: "UT"}}, {{Type: o, Value: "Ministry"}}, {{Type: cn, Value: "CSCA  Utopia"}},
	})
	reordered := marshalName(t, pkix.RDNSequence{
		{{Type: cn, Value: "csca utopia"}}, {{Type: o, Value: "MINISTRY "}}, {{Type: c, Value: "ut"}},
	})
	utf8, err := asn1.MarshalWithParams("Ministry", "utf8")
	if err != nil {
		t.Fatal(err)
	}
	otherType := marshalName(t, pkix.RDNSequence{
		{{Type: c, Value: "UT"}}, {{Type: o, Value: asn1.RawValue{FullBytes: utf8}}}, {{Type: cn, Value: "CSCA Utopia"}},
	})
	different := marshalName(t, pkix.RDNSequence{{{Type: c, Value: "UT"}}, {{Type: cn, Value: "CSCA Utopia"}}})
	a, err := parseName(cert)
	if err != nil {
		t.Fatal(err)
	}
	for name, der := range map[string][]byte{"reordered": reordered, "utf8": otherType} {
		b, err := parseName(der)
		if err != nil {
			t.Fatal(err)
		}
		if !a.equal(b) || a.key() != b.key() {
			t.Errorf("%s: %v != %v", name, a.attrs, b.attrs)
		}
	}
	d, err := parseName(different)
	if err != nil {
		t.Fatal(err)
	}
	if a.equal(d) {
		t.Error("different names compare equal")
	}
	if (name{}).equal(name{}) {
		t.Error("empty names compare equal")
	}
}

// TestFoldASCII checks the ASCII fold against the general one.
func TestFoldASCII(t *testing.T) {
	for _, s := range []string{"", " ", "CSCA  Utopia", "  a\tB\r\nc\v\fD  ", "Ministry ", "x", "A1-B2/C3", "é", "a\x85b", "a\u00a0b", "\x00A"} {
		got, ok := foldASCII(s)
		want := strings.ToLower(strings.Join(strings.Fields(s), " "))
		ascii := true
		for i := 0; i < len(s); i++ {
			ascii = ascii && s[i] < 0x80
		}
		if ok != ascii || (ok && got != want) {
			t.Errorf("foldASCII(%q) = %q, %v; want %q, %v", s, got, ok, want, ascii)
		}
	}
}

// FuzzFoldASCII compares the ASCII fold with the general one.
func FuzzFoldASCII(f *testing.F) {
	f.Add("CSCA  Utopia")
	f.Fuzz(func(t *testing.T, s string) {
		if got, ok := foldASCII(s); ok && got != strings.ToLower(strings.Join(strings.Fields(s), " ")) {
			t.Fatalf("foldASCII(%q) = %q", s, got)
		}
	})
}

// FuzzAppendOIDText compares appendOIDText with cryptobyte's OID reader and
// asn1.ObjectIdentifier.String.
func FuzzAppendOIDText(f *testing.F) {
	for _, seed := range []string{"\x55\x04\x03", "\x2a\x86\x48\x86\xf7\x0d\x01\x09\x01", "\x81\x00", "\x80\x01", "\x8f\xff\xff\xff\x7f", "\x50", "\x27"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, ok := appendOIDText(nil, b)
		var oid asn1.ObjectIdentifier
		der := cryptobyte.String(append([]byte{0x06, byte(len(b))}, b...))
		want := len(b) < 128 && der.ReadASN1ObjectIdentifier(&oid)
		if len(b) >= 128 {
			return
		}
		if ok != want || (ok && string(got) != oid.String()) {
			t.Fatalf("appendOIDText(%x) = %q, %v; cryptobyte %v, %v", b, got, ok, oid, want)
		}
	})
}
