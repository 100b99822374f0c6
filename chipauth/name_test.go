package chipauth

import (
	"crypto/x509/pkix"
	"encoding/asn1"
	"testing"
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
