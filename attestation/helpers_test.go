package attestation_test

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland/attestation"
)

// Public test keys; never use them outside tests.
const (
	issuerKeyHex = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
	otherKeyHex  = "c85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4"
)

var t0 = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

type fakeClock struct{ t time.Time }

func (c *fakeClock) Now() time.Time          { return c.t }
func (c *fakeClock) Advance(d time.Duration) { c.t = c.t.Add(d) }

func testIssuer(t testing.TB, keyHex string, clock *fakeClock) *attestation.Issuer {
	t.Helper()
	key, err := crypto.HexToECDSA(keyHex)
	if err != nil {
		t.Fatal(err)
	}
	return &attestation.Issuer{
		Key:     key,
		ChainID: 1,
		Rand:    rand.NewChaCha8([32]byte{1}),
		Now:     clock.Now,
	}
}

func livenessDraft() attestation.Draft {
	return attestation.Draft{
		Kind:    attestation.KindLiveness,
		Subject: "did:veriland:7Xq9hZK3mB2nP4rT6vW8yA",
		Claims: map[string]any{
			"level":  "L2",
			"policy": "default-v1",
			"scores": map[string]float64{"parallax": 0.81, "hue": 0.9},
		},
		EvidenceHash: crypto.Keccak256Hash([]byte("evidence")),
		ValidFor:     365 * 24 * time.Hour,
	}
}

func consentDraft() attestation.Draft {
	return attestation.Draft{
		Kind:     attestation.KindConsent,
		Subject:  "did:pkh:eip155:1:0x2c7536e3605d9c16a7a3d7b1898e529396a65c23",
		Verifier: "verifier-acme-bank",
		Scope:    []string{"identity", "is_adult"},
		Claims:   map[string]bool{"identity": true, "is_adult": true},
	}
}

// roundTrip returns a copy of att as an offline verifier would read it from JSON.
func roundTrip(t testing.TB, att *attestation.Attestation) *attestation.Attestation {
	t.Helper()
	b, err := json.Marshal(att)
	if err != nil {
		t.Fatal(err)
	}
	var out attestation.Attestation
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return &out
}
