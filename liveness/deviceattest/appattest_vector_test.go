package deviceattest

import (
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

type appAttestVector struct {
	AppID         string    `json:"appId"`
	Development   bool      `json:"development"`
	KeyID         string    `json:"keyId"`
	ChallengeUUID string    `json:"challengeUUID"`
	ValidAt       time.Time `json:"validAt"`
	PublicKeyPEM  string    `json:"publicKeyPEM"`
	Attestation   string    `json:"attestation"`
}

func readAppAttestVector(t testing.TB) (*appAttestVector, string, [32]byte) {
	t.Helper()
	data, err := os.ReadFile("testdata/appattest/rnclientattest_development.json")
	if err != nil {
		t.Fatal(err)
	}
	var v appAttestVector
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	uuid, err := hex.DecodeString(strings.ReplaceAll(v.ChallengeUUID, "-", ""))
	if err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(appAttestToken{KeyID: v.KeyID, Attestation: v.Attestation})
	return &v, base64.StdEncoding.EncodeToString(js), sha256.Sum256(uuid)
}

func TestAppAttestRealDeviceVector(t *testing.T) {
	vec, token, clientDataHash := readAppAttestVector(t)
	newV := func(appID string, dev bool, at time.Time, roots []*x509.Certificate) *AppAttestVerifier {
		v, err := NewAppAttestVerifier(AppAttestConfig{AppID: appID, Development: dev, Roots: roots, Now: func() time.Time { return at }})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}

	res, err := newV(vec.AppID, true, vec.ValidAt, nil).Verify(context.Background(), token, clientDataHash)
	if err != nil {
		t.Fatalf("real attestation refused: %v", err)
	}
	block, _ := pem.Decode([]byte(vec.PublicKeyPEM))
	if string(res.AttestedPublicKey) != string(block.Bytes) {
		t.Fatal("attested public key differs from the expected one")
	}
	if base64.StdEncoding.EncodeToString(res.KeyID) != vec.KeyID || !res.Development || len(res.Receipt) == 0 {
		t.Fatalf("unexpected result %+v", res)
	}

	other := newTestRoot(t, "Not Apple")
	for _, tc := range []struct {
		name      string
		v         *AppAttestVerifier
		challenge [32]byte
		want      error
	}{
		{"production mode", newV(vec.AppID, false, vec.ValidAt, nil), clientDataHash, ErrAAGUIDMismatch},
		{"other app", newV("979F6L8R8M.org.example.other", true, vec.ValidAt, nil), clientDataHash, ErrAppIDMismatch},
		{"other challenge", newV(vec.AppID, true, vec.ValidAt, nil), EnrollChallenge("did:x", "0x1"), ErrNonceMismatch},
		{"expired", newV(vec.AppID, true, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), nil), clientDataHash, ErrCertificateValidity},
		{"other root", newV(vec.AppID, true, vec.ValidAt, []*x509.Certificate{other.cert}), clientDataHash, ErrUntrustedRoot},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.v.Verify(context.Background(), token, tc.challenge)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}
