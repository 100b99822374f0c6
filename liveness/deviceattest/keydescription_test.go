package deviceattest

import (
	"bytes"
	"context"
	"crypto/elliptic"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"errors"
	"math/big"
	"testing"
	"time"
)

// DER builders for synthetic key descriptions.

func tlv(class, tag int, compound bool, content ...[]byte) []byte {
	b, err := asn1.Marshal(asn1.RawValue{Class: class, Tag: tag, IsCompound: compound, Bytes: bytes.Join(content, nil)})
	if err != nil {
		panic(err)
	}
	return b
}

func seq(els ...[]byte) []byte          { return tlv(asn1.ClassUniversal, asn1.TagSequence, true, els...) }
func explicit(tag int, v []byte) []byte { return tlv(asn1.ClassContextSpecific, tag, true, v) }
func derMust(v any) []byte              { b, _ := asn1.Marshal(v); return b }
func integer(n int) []byte              { return derMust(n) }
func enumerated(n int) []byte           { return derMust(asn1.Enumerated(n)) }
func octets(b []byte) []byte            { return derMust(b) }
func boolean(v bool) []byte             { return derMust(v) }
func rootOfTrust(locked, state []byte) []byte {
	return seq(octets(make([]byte, 32)), locked, state, octets(make([]byte, 32)))
}

// keyDescription is a KeyMint 300 description with the given security level,
// challenge and authorization lists.
func keyDescription(level int, challenge []byte, sw, hw []byte) []byte {
	return seq(integer(300), enumerated(level), integer(300), enumerated(level), octets(challenge), octets(nil), sw, hw)
}

func goodHW() []byte {
	return seq(
		explicit(1, tlv(asn1.ClassUniversal, asn1.TagSet, true, integer(2))),
		explicit(tagRootOfTrust, rootOfTrust(boolean(true), enumerated(0))),
		explicit(tagOSVersion, integer(160000)),
		explicit(tagOSPatchLevel, integer(202602)),
	)
}

func TestKeyDescriptionSynthetic(t *testing.T) {
	ch := []byte("synthetic challenge")
	sw := seq(explicit(701, integer(1771894563060)))
	tests := []struct {
		name  string
		der   []byte
		parse error // from ParseKeyDescription
		check error // from CheckKeyDescription
	}{
		{"TEE, verified, locked", keyDescription(1, ch, sw, goodHW()), nil, nil},
		{"StrongBox", keyDescription(2, ch, sw, goodHW()), nil, nil},
		{"empty lists then RoT v2 (3 fields)", keyDescription(1, ch, seq(), seq(explicit(tagRootOfTrust, seq(octets(nil), boolean(true), enumerated(0))))), nil, nil},
		{"extra trailing KeyDescription field tolerated", seq(integer(300), enumerated(1), integer(300), enumerated(1), octets(ch), octets(nil), sw, goodHW(), integer(9)), nil, nil},
		{"software", keyDescription(0, ch, sw, goodHW()), nil, ErrSoftwareAttestation},
		{"unknown level", keyDescription(7, ch, sw, goodHW()), nil, ErrSoftwareAttestation},
		{"other challenge", keyDescription(1, []byte("other"), sw, goodHW()), nil, ErrChallengeMismatch},
		{"root of trust only software-enforced", keyDescription(1, ch, seq(explicit(tagRootOfTrust, rootOfTrust(boolean(true), enumerated(0)))), seq()), nil, ErrMissingRootOfTrust},
		{"unlocked", keyDescription(1, ch, sw, seq(explicit(tagRootOfTrust, rootOfTrust(boolean(false), enumerated(0))))), nil, ErrDeviceUnlocked},
		{"self-signed boot", keyDescription(1, ch, sw, seq(explicit(tagRootOfTrust, rootOfTrust(boolean(true), enumerated(1))))), nil, ErrBootNotVerified},
		{"unverified boot", keyDescription(1, ch, sw, seq(explicit(tagRootOfTrust, rootOfTrust(boolean(true), enumerated(2))))), nil, ErrBootNotVerified},

		{"BER boolean 0x01", keyDescription(1, ch, sw, seq(explicit(tagRootOfTrust, rootOfTrust([]byte{0x01, 0x01, 0x01}, enumerated(0))))), ErrMalformedKeyDescription, nil},
		{"boolean of two bytes", keyDescription(1, ch, sw, seq(explicit(tagRootOfTrust, rootOfTrust([]byte{0x01, 0x02, 0xff, 0xff}, enumerated(0))))), ErrMalformedKeyDescription, nil},
		{"integer for boolean", keyDescription(1, ch, sw, seq(explicit(tagRootOfTrust, rootOfTrust(integer(1), enumerated(0))))), ErrMalformedKeyDescription, nil},
		{"duplicate tag", keyDescription(1, ch, sw, seq(explicit(tagOSVersion, integer(1)), explicit(tagOSVersion, integer(2)))), ErrMalformedKeyDescription, nil},
		{"two values in one tag", keyDescription(1, ch, sw, seq(tlv(asn1.ClassContextSpecific, tagOSVersion, true, integer(1), integer(2)))), ErrMalformedKeyDescription, nil},
		{"implicit tag", keyDescription(1, ch, sw, seq(tlv(asn1.ClassContextSpecific, tagOSVersion, false, []byte{1}))), ErrMalformedKeyDescription, nil},
		{"universal element in list", keyDescription(1, ch, sw, seq(integer(5))), ErrMalformedKeyDescription, nil},
		{"list not a sequence", keyDescription(1, ch, sw, integer(5)), ErrMalformedKeyDescription, nil},
		{"root of trust too short", keyDescription(1, ch, sw, seq(explicit(tagRootOfTrust, seq(octets(nil), boolean(true))))), ErrMalformedKeyDescription, nil},
		{"seven elements", seq(integer(300), enumerated(1), integer(300), enumerated(1), octets(ch), octets(nil), sw), ErrMalformedKeyDescription, nil},
		{"trailing bytes", append(keyDescription(1, ch, sw, goodHW()), 0), ErrMalformedKeyDescription, nil},
		{"challenge as integer", seq(integer(300), enumerated(1), integer(300), enumerated(1), integer(1), octets(nil), sw, goodHW()), ErrMalformedKeyDescription, nil},
		{"non-minimal integer", seq([]byte{0x02, 0x02, 0x00, 0x01}, enumerated(1), integer(300), enumerated(1), octets(ch), octets(nil), sw, goodHW()), ErrMalformedKeyDescription, nil},
		{"indefinite length", []byte{0x30, 0x80, 0x00, 0x00}, ErrMalformedKeyDescription, nil},
		{"empty", nil, ErrMalformedKeyDescription, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			kd, err := ParseKeyDescription(tc.der)
			if tc.parse != nil {
				if !errors.Is(err, tc.parse) {
					t.Fatalf("parse: got %v, want %v", err, tc.parse)
				}
				return
			}
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			if err := CheckKeyDescription(kd, ch); !errors.Is(err, tc.check) || (tc.check == nil && err != nil) {
				t.Fatalf("check: got %v, want %v", err, tc.check)
			}
		})
	}

	kd, err := ParseKeyDescription(keyDescription(1, ch, sw, goodHW()))
	if err != nil {
		t.Fatal(err)
	}
	if kd.HardwareEnforced.OSVersion != 160000 || kd.HardwareEnforced.OSPatchLevel != 202602 ||
		len(kd.HardwareEnforced.Tags) != 4 || kd.HardwareEnforced.Tags[1] != tagRootOfTrust {
		t.Fatalf("unexpected parse %+v", kd.HardwareEnforced)
	}
}

// androidFixture is a synthetic Android attestation PKI whose intermediate, like some
// real OEM ones, is not marked as a CA.
type androidFixture struct {
	root, inter *testCA
}

func newAndroidFixture(t testing.TB) *androidFixture {
	root := newTestRoot(t, "Test Android Root")
	key := newTestKey(t, elliptic.P256())
	tmpl := caTemplate("Test OEM Intermediate", 3)
	tmpl.IsCA, tmpl.BasicConstraintsValid, tmpl.KeyUsage = false, false, x509.KeyUsageDigitalSignature
	return &androidFixture{root: root, inter: &testCA{cert: issue(t, tmpl, &key.PublicKey, root), key: key}}
}

// token returns a KEY_ATTESTATION token whose leaf carries keyDescription.
func (f *androidFixture) token(t testing.TB, keyDescription []byte) string {
	t.Helper()
	key := newTestKey(t, elliptic.P256())
	leaf := issue(t, &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "Android Keystore Key"},
		NotBefore:    time.Unix(0, 0),
		NotAfter:     time.Date(2048, 1, 1, 0, 0, 0, 0, time.UTC),
		ExtraExtensions: []pkix.Extension{{
			Id: asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 11129, 2, 1, 17}, Value: keyDescription,
		}},
	}, &key.PublicKey, f.inter)
	return chainToken([]*x509.Certificate{leaf, f.inter.cert, f.root.cert})
}

func (f *androidFixture) verifier(t testing.TB) *KeyAttestationVerifier {
	t.Helper()
	v, err := NewKeyAttestationVerifier(KeyAttestationConfig{
		Roots: []*x509.Certificate{f.root.cert},
		Now:   func() time.Time { return testEpoch },
	})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestKeyAttestationEnrollChallenge(t *testing.T) {
	f := newAndroidFixture(t)
	challenge := EnrollChallenge("did:veriland:holder", "0xDEVICE")
	token := f.token(t, keyDescription(1, challenge[:], seq(), goodHW()))
	res, err := f.verifier(t).Verify(context.Background(), token, challenge)
	if err != nil {
		t.Fatal(err)
	}
	if res.Trust != TrustStrong || res.SecurityLevel != "TEE" || res.OSPatchLevel != 202602 {
		t.Fatalf("unexpected result %+v", res)
	}
	if _, err := f.verifier(t).Verify(context.Background(), token, EnrollChallenge("did:veriland:other", "0xDEVICE")); !errors.Is(err, ErrChallengeMismatch) {
		t.Fatalf("other holder: %v", err)
	}
	noExt := chainToken([]*x509.Certificate{f.inter.cert, f.root.cert})
	if _, err := f.verifier(t).Verify(context.Background(), noExt, challenge); !errors.Is(err, ErrMissingKeyDescription) {
		t.Fatalf("no extension: %v", err)
	}
}
