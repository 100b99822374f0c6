package deviceattest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"crypto/x509"
	"encoding/asn1"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"
	"github.com/go-jose/go-jose/v4"
)

// The oracles below recompute, independently of the verifiers, the binding every
// accepted attestation must carry: the fuzz targets check each acceptance with them.

// fixedPlayKeys are Play Console keys derived from fixed seeds, so that the tokens
// of the committed corpus (testdata/fuzz/FuzzPlayIntegrityToken) decode in every run.
func fixedPlayKeys(t testing.TB) *playKeys {
	t.Helper()
	aes := sha256.Sum256([]byte("veriland fuzz: play integrity decryption key"))
	d := sha256.Sum256([]byte("veriland fuzz: play integrity verification key"))
	sign, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), d[:])
	if err != nil {
		t.Fatal(err)
	}
	return &playKeys{aes: aes[:], sign: sign}
}

// playBinding returns an error unless payload, a Play Integrity verdict, names
// challenge: requestDetails.nonce or requestDetails.requestHash is base64url of the
// 32 challenge bytes (with or without '=' padding, surrounding space ignored).
func playBinding(payload []byte, challenge [32]byte) error {
	var p struct {
		RequestDetails map[string]any `json:"requestDetails"`
	}
	if err := json.Unmarshal(payload, &p); err != nil {
		return fmt.Errorf("payload is not JSON: %v", err)
	}
	want := base64.RawURLEncoding.EncodeToString(challenge[:])
	for _, field := range []string{"nonce", "requestHash"} {
		s, _ := p.RequestDetails[field].(string)
		s = strings.TrimRight(strings.TrimSpace(s), "=")
		s = strings.NewReplacer("\r", "", "\n", "").Replace(s) // base64 decoders skip line breaks
		if s == want {
			return nil
		}
	}
	return fmt.Errorf("neither nonce nor requestHash of %q is base64url(challenge) %s", p.RequestDetails, want)
}

// playTokenPayload decrypts and verifies a Play Integrity token with go-jose directly
// (A256KW/A256GCM around ES256), as Google's documentation describes.
func playTokenPayload(keys *playKeys, token string) ([]byte, error) {
	jwe, err := jose.ParseEncrypted(token, []jose.KeyAlgorithm{jose.A256KW}, []jose.ContentEncryption{jose.A256GCM})
	if err != nil {
		return nil, err
	}
	inner, err := jwe.Decrypt(keys.aes)
	if err != nil {
		return nil, err
	}
	jws, err := jose.ParseSigned(string(inner), []jose.SignatureAlgorithm{jose.ES256})
	if err != nil {
		return nil, err
	}
	return jws.Verify(&keys.sign.PublicKey)
}

// keyAttestationChallenge reads, with encoding/asn1 and crypto/x509 alone, the
// attestationChallenge of the leaf of a KEY_ATTESTATION token (base64 of a JSON array
// of base64 DER certificates): the fifth member of the KeyDescription SEQUENCE in
// extension 1.3.6.1.4.1.11129.2.1.17.
func keyAttestationChallenge(token string) ([]byte, error) {
	js, err := base64.StdEncoding.DecodeString(strings.TrimSpace(token))
	if err != nil {
		return nil, err
	}
	var ders []string
	if err := json.Unmarshal(js, &ders); err != nil || len(ders) == 0 {
		return nil, fmt.Errorf("not a chain: %v", err)
	}
	der, err := base64.StdEncoding.DecodeString(ders[0])
	if err != nil {
		return nil, err
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	oid := asn1.ObjectIdentifier{1, 3, 6, 1, 4, 1, 11129, 2, 1, 17}
	for _, ext := range leaf.Extensions {
		if !ext.Id.Equal(oid) {
			continue
		}
		var kd asn1.RawValue
		if _, err := asn1.Unmarshal(ext.Value, &kd); err != nil {
			return nil, err
		}
		rest := kd.Bytes
		for i := 0; len(rest) > 0; i++ {
			var member asn1.RawValue
			if rest, err = asn1.Unmarshal(rest, &member); err != nil {
				return nil, err
			}
			if i == 4 {
				if member.Class != asn1.ClassUniversal || member.Tag != asn1.TagOctetString {
					return nil, fmt.Errorf("attestationChallenge is not an OCTET STRING")
				}
				return member.Bytes, nil
			}
		}
		return nil, fmt.Errorf("KeyDescription has no attestationChallenge")
	}
	return nil, fmt.Errorf("leaf has no key description")
}

// appAttestBinding returns an error unless the App Attest attestation object att
// (CBOR) binds clientDataHash: its credential certificate (x5c[0]) carries, in
// extension 1.2.840.113635.100.8.2, SHA-256(authData ‖ clientDataHash), and keyID is
// SHA-256 of that certificate's uncompressed P-256 point, as Apple documents.
func appAttestBinding(att []byte, keyID string, clientDataHash []byte) error {
	var obj struct {
		Fmt     string `cbor:"fmt"`
		AttStmt struct {
			X5C [][]byte `cbor:"x5c"`
		} `cbor:"attStmt"`
		AuthData []byte `cbor:"authData"`
	}
	if err := cbor.Unmarshal(att, &obj); err != nil {
		return fmt.Errorf("attestation is not CBOR: %v", err)
	}
	if obj.Fmt != "apple-appattest" || len(obj.AttStmt.X5C) == 0 {
		return fmt.Errorf("fmt %q with %d certificates", obj.Fmt, len(obj.AttStmt.X5C))
	}
	cred, err := x509.ParseCertificate(obj.AttStmt.X5C[0])
	if err != nil {
		return err
	}
	nonce := sha256.Sum256(append(append([]byte{}, obj.AuthData...), clientDataHash...))
	oid := asn1.ObjectIdentifier{1, 2, 840, 113635, 100, 8, 2}
	found := false
	for _, ext := range cred.Extensions {
		if !ext.Id.Equal(oid) {
			continue
		}
		var seq struct {
			Nonce []byte `asn1:"explicit,tag:1"`
		}
		if _, err := asn1.Unmarshal(ext.Value, &seq); err != nil {
			return fmt.Errorf("nonce extension: %v", err)
		}
		if !bytes.Equal(seq.Nonce, nonce[:]) {
			return fmt.Errorf("certificate nonce %x, SHA-256(authData ‖ clientDataHash) %x", seq.Nonce, nonce)
		}
		found = true
	}
	if !found {
		return fmt.Errorf("credential certificate has no nonce")
	}
	pub, ok := cred.PublicKey.(*ecdsa.PublicKey)
	if !ok || pub.Curve != elliptic.P256() {
		return fmt.Errorf("credential key is not P-256")
	}
	point := make([]byte, 65)
	point[0] = 4
	pub.X.FillBytes(point[1:33])
	pub.Y.FillBytes(point[33:])
	id := sha256.Sum256(point)
	if got, err := base64.StdEncoding.DecodeString(keyID); err != nil || !bytes.Equal(got, id[:]) {
		return fmt.Errorf("keyId %q is not SHA-256 of the credential key", keyID)
	}
	return nil
}
