package chipauth

import (
	"crypto/x509/pkix"
	"encoding/asn1"
	"testing"
)

// TestSignerCertificate checks the three ways a SignerInfo names its certificate.
func TestSignerCertificate(t *testing.T) {
	var certs []*certificate
	for _, name := range []string{"gmrtd_DE_EF_SOD.der", "gmrtd_US_EF_SOD.der"} {
		sd := mustSignedData(t, readTestdata(t, name))
		if len(sd.certs) != 1 {
			t.Fatalf("%s: %d embedded certificates, want 1", name, len(sd.certs))
		}
		certs = append(certs, sd.certs[0])
	}
	de, us := certs[0], certs[1]
	if len(de.subjectKeyID) == 0 {
		t.Fatal("DE DS has no subject key identifier")
	}
	// The US DS's issuer with its RDNs reversed: same name, other bytes.
	var rdns pkix.RDNSequence
	if _, err := asn1.Unmarshal(us.issuer.raw, &rdns); err != nil {
		t.Fatal(err)
	}
	for i, j := 0, len(rdns)-1; i < j; i, j = i+1, j-1 {
		rdns[i], rdns[j] = rdns[j], rdns[i]
	}
	reversed, err := asn1.Marshal(rdns)
	if err != nil {
		t.Fatal(err)
	}
	usIssuer, err := parseName(reversed)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		si   signerInfo
		want *certificate
	}{
		{"subject key id", signerInfo{subjectKeyID: de.subjectKeyID}, de},
		{"issuer and serial, RDNs reordered", signerInfo{issuer: usIssuer, serial: us.serial}, us},
		{"issuer of one, serial of other", signerInfo{issuer: usIssuer, serial: de.serial}, nil},
		{"unknown key id", signerInfo{subjectKeyID: []byte{1, 2, 3}}, nil},
	}
	for _, tc := range tests {
		if got := signerCertificate(tc.si, certs); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	// With one embedded certificate, that one is the last resort.
	if got := signerCertificate(signerInfo{subjectKeyID: []byte{1}}, certs[:1]); got != de {
		t.Error("single certificate not used as last resort")
	}
}
