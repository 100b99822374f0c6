package attestation_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/internal/ethsig"
)

func TestRevocationListRoundTrip(t *testing.T) {
	clock := &fakeClock{t: t0}
	iss := testIssuer(t, issuerKeyHex, clock)
	other := testIssuer(t, otherKeyHex, clock)
	since := t0.Add(-24*time.Hour + 300*time.Millisecond)
	l := &attestation.RevocationList{
		ChainID:  1,
		IssuedAt: t0.In(time.FixedZone("CET", 3600)),
		Since:    &since,
		Revocations: []attestation.Revocation{
			{ID: "att_aaaaaaaaaaaaaaaaaaaaaaaaaa", RevokedAt: t0.Add(-time.Hour)},
			{ID: "att_bbbbbbbbbbbbbbbbbbbbbbbbbb", RevokedAt: t0.Add(-time.Minute)},
		},
	}
	if err := attestation.SignRevocationList(l, iss.Key); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	for _, member := range []string{`"issuer":"0x2c7536e3605d9c16a7a3d7b1898e529396a65c23"`, `"chainId":1`,
		`"issuedAt":"2026-11-21T12:00:00Z"`, `"since":"2026-11-20T12:00:00Z"`, `"revokedAt":"2026-11-21T11:00:00Z"`, `"signature":"0x`} {
		if !strings.Contains(string(b), member) {
			t.Errorf("JSON lacks %s: %s", member, b)
		}
	}
	var got attestation.RevocationList
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	trusted := []common.Address{iss.Address()}
	if err := attestation.VerifyRevocationList(&got, trusted, 1); err != nil {
		t.Fatalf("VerifyRevocationList: %v", err)
	}
	// The signature is EIP-191 over the JCS form without the signature member.
	payload, _ := got.SigningPayload()
	if strings.Contains(string(payload), "signature") || !strings.HasPrefix(string(payload), `{"chainId":1,"issuedAt":`) {
		t.Errorf("payload = %s", payload)
	}
	if signer, err := ethsig.Recover(ethsig.PersonalDigest(payload), got.Signature); err != nil || signer != iss.Address() {
		t.Errorf("personal_sign recovery = %s, %v", signer.Hex(), err)
	}
	if at, ok := got.RevokedAt("att_bbbbbbbbbbbbbbbbbbbbbbbbbb"); !ok || !at.Equal(t0.Add(-time.Minute)) {
		t.Errorf("RevokedAt = %v, %v", at, ok)
	}

	tampered := got
	tampered.Revocations = tampered.Revocations[:1] // hide a revocation
	cases := map[string]struct {
		l       *attestation.RevocationList
		trusted []common.Address
		chain   uint64
	}{
		"nil":         {nil, trusted, 1},
		"tampered":    {&tampered, trusted, 1},
		"untrusted":   {&got, []common.Address{other.Address()}, 1},
		"wrong chain": {&got, trusted, 5},
	}
	for name, c := range cases {
		if err := attestation.VerifyRevocationList(c.l, c.trusted, c.chain); !errors.Is(err, attestation.ErrBadRevocationList) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	swapped := got
	swapped.Issuer = other.Address()
	if err := attestation.VerifyRevocationList(&swapped, []common.Address{other.Address(), iss.Address()}, 1); !errors.Is(err, attestation.ErrBadRevocationList) {
		t.Errorf("issuer swapped: err = %v", err)
	}
	noSig := got
	noSig.Signature = nil
	if err := attestation.VerifyRevocationList(&noSig, trusted, 1); !errors.Is(err, ethsig.ErrSignatureLength) {
		t.Errorf("unsigned: err = %v", err)
	}
	if err := attestation.SignRevocationList(nil, iss.Key); err == nil {
		t.Error("signed a nil list")
	}
}

func TestEmptyRevocationListSignsAsEmptyArray(t *testing.T) {
	iss := testIssuer(t, issuerKeyHex, &fakeClock{t: t0})
	l := &attestation.RevocationList{ChainID: 1, IssuedAt: t0}
	if err := attestation.SignRevocationList(l, iss.Key); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(l)
	if !strings.Contains(string(b), `"revocations":[]`) || !strings.Contains(string(b), `"since":null`) {
		t.Fatalf("JSON = %s", b)
	}
	var got attestation.RevocationList
	_ = json.Unmarshal(b, &got)
	if err := attestation.VerifyRevocationList(&got, []common.Address{iss.Address()}, 1); err != nil {
		t.Fatal(err)
	}
}
