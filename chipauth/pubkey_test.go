package chipauth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/asn1"
	"errors"
	"math/big"
	"testing"
)

func spki(t *testing.T, params any, point []byte) []byte {
	t.Helper()
	p, err := asn1.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	b, err := asn1.Marshal(struct {
		Alg struct {
			OID    asn1.ObjectIdentifier
			Params asn1.RawValue
		}
		Key asn1.BitString
	}{
		Alg: struct {
			OID    asn1.ObjectIdentifier
			Params asn1.RawValue
		}{oidECPublicKey, asn1.RawValue{FullBytes: p}},
		Key: asn1.BitString{Bytes: point, BitLength: 8 * len(point)},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParsePublicKeyEC(t *testing.T) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	uncompressed := encodeTestPoint(k.X, k.Y, false)
	compressed := encodeTestPoint(k.X, k.Y, true)
	p256 := asn1.ObjectIdentifier{1, 2, 840, 10045, 3, 1, 7}
	params := elliptic.P256().Params()
	explicit := ecParameters{
		Version:  1,
		FieldID:  fieldID{FieldType: oidPrimeField, Prime: params.P},
		Curve:    curveCoefficients{A: new(big.Int).Sub(params.P, big.NewInt(3)).Bytes(), B: params.B.Bytes()},
		Base:     encodeTestPoint(params.Gx, params.Gy, true),
		Order:    params.N,
		Cofactor: big.NewInt(1),
	}
	for name, der := range map[string][]byte{
		"named uncompressed":     spki(t, p256, uncompressed),
		"named compressed":       spki(t, p256, compressed),
		"explicit, compressed G": spki(t, explicit, uncompressed),
	} {
		pk, err := parsePublicKey(der)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if pk.ec == nil || pk.ec.X.Cmp(k.X) != 0 || pk.ec.Y.Cmp(k.Y) != 0 || pk.curve != "P-256" {
			t.Errorf("%s: got %v", name, pk)
		}
	}

	wrongB := explicit
	wrongB.Curve.B = append([]byte{}, explicit.Curve.B...)
	wrongB.Curve.B[0] ^= 1
	notPrime := explicit
	notPrime.FieldID.Prime = new(big.Int).Add(params.P, big.NewInt(2)) // no square roots asked of a composite
	otherG := explicit
	otherG.Base = uncompressed
	bad := map[string][]byte{
		"unknown curve OID":   spki(t, asn1.ObjectIdentifier{1, 3, 132, 0, 10}, uncompressed),
		"explicit, wrong b":   spki(t, wrongB, uncompressed),
		"explicit, other p":   spki(t, notPrime, uncompressed),
		"explicit, other G":   spki(t, otherG, uncompressed),
		"point off the curve": spki(t, p256, encodeTestPoint(k.X, new(big.Int).Add(k.Y, big.NewInt(1)), false)),
		"point too short":     spki(t, p256, uncompressed[:40]),
		"implicitlyCA":        spki(t, asn1.NullRawValue, uncompressed),
	}
	for name, der := range bad {
		if pk, err := parsePublicKey(der); err == nil {
			t.Errorf("%s: accepted %v", name, pk)
		}
	}
	if _, err := parsePublicKey(spki(t, asn1.ObjectIdentifier{1, 3, 132, 0, 10}, uncompressed)); !errors.Is(err, errUnsupportedKey) {
		t.Errorf("unknown curve: %v, want errUnsupportedKey", err)
	}
}

func TestParsePublicKeyRSA(t *testing.T) {
	k, err := x509.ParsePKIXPublicKey(mustSPKIFromVector(t))
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(k)
	if err != nil {
		t.Fatal(err)
	}
	pk, err := parsePublicKey(der)
	if err != nil || pk.rsa == nil || pk.String() != "RSA-2048" {
		t.Fatalf("parsePublicKey: %v %v", pk, err)
	}
}

// mustSPKIFromVector returns the RSA DS key of the US SOD.
func mustSPKIFromVector(t *testing.T) []byte {
	t.Helper()
	sd := mustSignedData(t, readTestdata(t, "gmrtd_US_EF_SOD.der"))
	if len(sd.certs) != 1 {
		t.Fatalf("%d embedded certificates, want 1", len(sd.certs))
	}
	c, err := x509.ParseCertificate(sd.certs[0].raw)
	if err != nil {
		t.Fatal(err)
	}
	return c.RawSubjectPublicKeyInfo
}

func encodeTestPoint(x, y *big.Int, compressed bool) []byte {
	if compressed {
		out := make([]byte, 33)
		out[0] = 2 | byte(y.Bit(0))
		x.FillBytes(out[1:])
		return out
	}
	out := make([]byte, 65)
	out[0] = 4
	x.FillBytes(out[1:33])
	y.FillBytes(out[33:])
	return out
}
