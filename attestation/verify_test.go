package attestation_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/internal/ethsig/ethsigtest"
	"github.com/veriland/veriland/internal/ids"
)

func TestSignProducesVerifiableAttestation(t *testing.T) {
	clock := &fakeClock{t: t0.Add(1500 * time.Millisecond)}
	iss := testIssuer(t, issuerKeyHex, clock)
	att, err := iss.Sign(livenessDraft())
	if err != nil {
		t.Fatal(err)
	}
	if !ids.Valid(att.ID, "att") {
		t.Errorf("id %q is not att_ + 26 base32", att.ID)
	}
	if !att.IssuedAt.Equal(t0.Add(time.Second)) || att.IssuedAt.Location() != time.UTC {
		t.Errorf("issuedAt = %v, want whole seconds UTC", att.IssuedAt)
	}
	if att.ExpiresAt == nil || !att.ExpiresAt.Equal(att.IssuedAt.Add(365*24*time.Hour)) {
		t.Errorf("expiresAt = %v", att.ExpiresAt)
	}
	if string(att.Claims) != `{"level":"L2","policy":"default-v1","scores":{"hue":0.9,"parallax":0.81}}` {
		t.Errorf("claims not canonical: %s", att.Claims)
	}
	opts := attestation.VerifyOptions{TrustedIssuers: []common.Address{iss.Address()}, ChainID: 1, Now: clock.Now()}
	if err := attestation.Verify(att, opts); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	// What an offline verifier reads: JSON.
	b, _ := json.Marshal(att)
	for _, member := range []string{`"id":"att_`, `"kind":"LIVENESS"`, `"verifier":""`, `"scope":[]`, `"claims":{`,
		`"evidenceHash":"0x`, `"issuedAt":"2026-11-21T12:00:01Z"`, `"expiresAt":"2027-11-21T12:00:01Z"`, `"status":"VALID"`,
		`"issuer":{"address":"0x2c7536e3605d9c16a7a3d7b1898e529396a65c23","chainId":1}`, `"typedData":{`, `"signature":"0x`} {
		if !strings.Contains(string(b), member) {
			t.Errorf("JSON lacks %s: %s", member, b)
		}
	}
	if err := attestation.Verify(roundTrip(t, att), opts); err != nil {
		t.Fatalf("Verify after JSON: %v", err)
	}
	// A consent attestation, with no expiry: expiresAt is null.
	c, err := iss.Sign(consentDraft())
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(c); !strings.Contains(string(b), `"expiresAt":null`) {
		t.Errorf("no-expiry attestation: %s", b)
	}
	opts.Now = t0.Add(100 * 365 * 24 * time.Hour)
	if err := attestation.Verify(roundTrip(t, c), opts); err != nil {
		t.Fatalf("Verify consent: %v", err)
	}
}

func TestSignRefusesBadDrafts(t *testing.T) {
	iss := testIssuer(t, issuerKeyHex, &fakeClock{t: t0})
	cases := map[string]func(d *attestation.Draft){
		"kind":          func(d *attestation.Draft) { d.Kind = "OTHER" },
		"subject":       func(d *attestation.Draft) { d.Subject = "" },
		"scope item":    func(d *attestation.Draft) { d.Scope = []string{""} },
		"claims array":  func(d *attestation.Draft) { d.Claims = []int{1} },
		"claims func":   func(d *attestation.Draft) { d.Claims = func() {} },
		"negative life": func(d *attestation.Draft) { d.ValidFor = -time.Second },
		"huge claims":   func(d *attestation.Draft) { d.Claims = map[string]string{"a": strings.Repeat("x", 20000)} },
	}
	for name, mutate := range cases {
		d := livenessDraft()
		mutate(&d)
		if _, err := iss.Sign(d); veriland.CodeOf(err) != veriland.CodeValidationFailed {
			t.Errorf("%s: err = %v, want validation_failed", name, err)
		}
	}
	if _, err := (&attestation.Issuer{}).Sign(livenessDraft()); err == nil {
		t.Error("issuer without key signed")
	}
}

// Each broken attestation must fail for its own reason.
func TestVerifyRefusals(t *testing.T) {
	clock := &fakeClock{t: t0}
	iss := testIssuer(t, issuerKeyHex, clock)
	other := testIssuer(t, otherKeyHex, clock)
	good, err := iss.Sign(consentDraft())
	if err != nil {
		t.Fatal(err)
	}
	life, err := iss.Sign(livenessDraft())
	if err != nil {
		t.Fatal(err)
	}
	trusted := []common.Address{iss.Address()}
	opts := attestation.VerifyOptions{TrustedIssuers: trusted, ChainID: 1, Now: t0.Add(time.Hour)}

	revokedLater := &attestation.RevocationList{ChainID: 1, IssuedAt: t0, Revocations: []attestation.Revocation{{ID: good.ID, RevokedAt: t0.Add(2 * time.Hour)}}}
	revokedBefore := &attestation.RevocationList{ChainID: 1, IssuedAt: t0, Revocations: []attestation.Revocation{{ID: good.ID, RevokedAt: t0.Add(30 * time.Minute)}}}
	for _, l := range []*attestation.RevocationList{revokedLater, revokedBefore} {
		if err := attestation.SignRevocationList(l, iss.Key); err != nil {
			t.Fatal(err)
		}
	}
	forged := &attestation.RevocationList{ChainID: 1, IssuedAt: t0}
	if err := attestation.SignRevocationList(forged, other.Key); err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		name   string
		att    *attestation.Attestation // default: a JSON copy of good
		mutate func(a *attestation.Attestation, o *attestation.VerifyOptions)
		want   error // nil: valid
		also   error
	}{
		{name: "valid", mutate: func(*attestation.Attestation, *attestation.VerifyOptions) {}},
		{name: "v 0/1", mutate: func(a *attestation.Attestation, _ *attestation.VerifyOptions) { a.Signature[64] -= 27 }},
		{name: "no typedData", mutate: func(a *attestation.Attestation, _ *attestation.VerifyOptions) {
			a.TypedData.Types, a.TypedData.Message, a.TypedData.PrimaryType = nil, nil, ""
		}},
		{name: "typedData ethers-style, no EIP712Domain type", mutate: func(a *attestation.Attestation, _ *attestation.VerifyOptions) {
			delete(a.TypedData.Types, "EIP712Domain")
		}},
		{name: "typedData numbers as strings", mutate: func(a *attestation.Attestation, _ *attestation.VerifyOptions) {
			a.TypedData.Message["issuedAt"] = "0x" + strings.TrimLeft(hexutil.EncodeUint64(uint64(a.IssuedAt.Unix()))[2:], "0")
			a.TypedData.Message["expiresAt"] = "0"
		}},
		{name: "chain from the attestation", mutate: func(_ *attestation.Attestation, o *attestation.VerifyOptions) { o.ChainID = 0 }},
		{name: "revoked after the verification time", mutate: func(_ *attestation.Attestation, o *attestation.VerifyOptions) { o.Revocations = revokedLater }},

		{name: "nil", att: nil, mutate: nil, want: attestation.ErrMalformed},
		{name: "no id", mutate: func(a *attestation.Attestation, _ *attestation.VerifyOptions) { a.ID = "" }, want: attestation.ErrMalformed},
		{name: "unknown kind", mutate: func(a *attestation.Attestation, _ *attestation.VerifyOptions) { a.Kind = "X" }, want: attestation.ErrMalformed},
		{name: "no trusted issuer", mutate: func(_ *attestation.Attestation, o *attestation.VerifyOptions) { o.TrustedIssuers = nil }, want: attestation.ErrMalformed},
		{name: "claims not JSON", mutate: func(a *attestation.Attestation, _ *attestation.VerifyOptions) { a.Claims = json.RawMessage(`{"a":`) }, want: attestation.ErrMalformed},

		{name: "claims changed", mutate: func(a *attestation.Attestation, _ *attestation.VerifyOptions) {
			a.Claims = json.RawMessage(`{"identity":true,"is_adult":false}`)
		}, want: attestation.ErrClaimsMismatch},
		{name: "claims reordered (same canonical form)", mutate: func(a *attestation.Attestation, _ *attestation.VerifyOptions) {
			a.Claims = json.RawMessage(`{ "is_adult": true, "identity": true }`)
		}},
		{name: "claims changed, typedData dropped", mutate: func(a *attestation.Attestation, _ *attestation.VerifyOptions) {
			a.Claims = json.RawMessage(`{"identity":true,"is_adult":false}`)
			a.TypedData.Types, a.TypedData.Message, a.TypedData.PrimaryType = nil, nil, ""
		}, want: attestation.ErrBadSignature},
		{name: "subject changed", mutate: func(a *attestation.Attestation, _ *attestation.VerifyOptions) { a.Subject = "did:veriland:someoneelse" }, want: attestation.ErrTypedDataMismatch},
		{name: "subject changed in both", mutate: func(a *attestation.Attestation, _ *attestation.VerifyOptions) {
			a.Subject = "did:veriland:someoneelse"
			a.TypedData.Message["subject"] = a.Subject
		}, want: attestation.ErrBadSignature},
		{name: "scope widened", mutate: func(a *attestation.Attestation, _ *attestation.VerifyOptions) {
			a.Scope = append(a.Scope, "nationality")
		}, want: attestation.ErrTypedDataMismatch},
		{name: "typedData domain changed", mutate: func(a *attestation.Attestation, _ *attestation.VerifyOptions) { a.TypedData.Domain.Name = "Other" }, want: attestation.ErrTypedDataMismatch},
		{name: "typedData extra member", mutate: func(a *attestation.Attestation, _ *attestation.VerifyOptions) { a.TypedData.Message["x"] = "y" }, want: attestation.ErrTypedDataMismatch},
		{name: "typedData verifyingContract", mutate: func(a *attestation.Attestation, _ *attestation.VerifyOptions) {
			a.TypedData.Domain.VerifyingContract = "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC"
		}, want: attestation.ErrTypedDataMismatch},
		{name: "issuedAt changed", mutate: func(a *attestation.Attestation, _ *attestation.VerifyOptions) {
			a.IssuedAt = a.IssuedAt.Add(-time.Hour)
		}, want: attestation.ErrTypedDataMismatch},
		{name: "expiry added", mutate: func(a *attestation.Attestation, _ *attestation.VerifyOptions) {
			e := t0.Add(24 * time.Hour)
			a.ExpiresAt = &e
		}, want: attestation.ErrTypedDataMismatch},

		{name: "signature truncated", mutate: func(a *attestation.Attestation, _ *attestation.VerifyOptions) { a.Signature = a.Signature[:64] }, want: attestation.ErrBadSignature, also: ethsig.ErrSignatureLength},
		{name: "signature v 29", mutate: func(a *attestation.Attestation, _ *attestation.VerifyOptions) { a.Signature[64] = 29 }, want: attestation.ErrBadSignature, also: ethsig.ErrBadV},
		{name: "signature high-s twin", mutate: func(a *attestation.Attestation, _ *attestation.VerifyOptions) { a.Signature = highSTwin(a.Signature) }, want: attestation.ErrBadSignature, also: ethsig.ErrHighS},
		{name: "issuer address swapped", mutate: func(a *attestation.Attestation, _ *attestation.VerifyOptions) { a.Issuer.Address = other.Address() }, want: attestation.ErrBadSignature},
		{name: "signed by another key", att: mustSign(t, other, consentDraft()), mutate: func(*attestation.Attestation, *attestation.VerifyOptions) {}, want: attestation.ErrUntrustedIssuer},
		{name: "untrusted", mutate: func(_ *attestation.Attestation, o *attestation.VerifyOptions) {
			o.TrustedIssuers = []common.Address{other.Address()}
		}, want: attestation.ErrUntrustedIssuer},
		{name: "wrong chain expected", mutate: func(_ *attestation.Attestation, o *attestation.VerifyOptions) { o.ChainID = 5 }, want: attestation.ErrWrongChain},
		{name: "chain id rewritten", mutate: func(a *attestation.Attestation, o *attestation.VerifyOptions) {
			a.Issuer.ChainID = 5
			a.TypedData.Domain.ChainId = (*math.HexOrDecimal256)(new(big.Int).SetUint64(5))
			o.ChainID = 0
		}, want: attestation.ErrBadSignature},

		{name: "expired", att: roundTrip(t, life), mutate: func(_ *attestation.Attestation, o *attestation.VerifyOptions) { o.Now = t0.Add(366 * 24 * time.Hour) }, want: attestation.ErrExpired},
		{name: "expires exactly now", att: roundTrip(t, life), mutate: func(a *attestation.Attestation, o *attestation.VerifyOptions) { o.Now = *a.ExpiresAt }, want: attestation.ErrExpired},
		{name: "expired within leeway", att: roundTrip(t, life), mutate: func(a *attestation.Attestation, o *attestation.VerifyOptions) {
			o.Now, o.Leeway = a.ExpiresAt.Add(time.Second), time.Minute
		}},
		{name: "not yet valid", mutate: func(_ *attestation.Attestation, o *attestation.VerifyOptions) { o.Now = t0.Add(-time.Hour) }, want: attestation.ErrNotYetValid},
		{name: "status revoked", mutate: func(a *attestation.Attestation, _ *attestation.VerifyOptions) { a.Status = attestation.StatusRevoked }, want: attestation.ErrRevoked},
		{name: "revocation list", mutate: func(_ *attestation.Attestation, o *attestation.VerifyOptions) { o.Revocations = revokedBefore }, want: attestation.ErrRevoked},
		{name: "forged revocation list", mutate: func(_ *attestation.Attestation, o *attestation.VerifyOptions) { o.Revocations = forged }, want: attestation.ErrBadRevocationList},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			att := c.att
			if att == nil && c.mutate != nil {
				att = roundTrip(t, good)
			}
			o := opts
			if c.mutate != nil {
				c.mutate(att, &o)
			}
			err := attestation.Verify(att, o)
			if c.want == nil {
				if err != nil {
					t.Fatalf("Verify: %v", err)
				}
				return
			}
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
			if c.also != nil && !errors.Is(err, c.also) {
				t.Fatalf("err = %v, want it to wrap %v", err, c.also)
			}
			var e *veriland.Error
			if !errors.As(err, &e) || e.Message == "" {
				t.Fatalf("err %v is not a *veriland.Error with a message", err)
			}
		})
	}
}

func mustSign(t *testing.T, iss *attestation.Issuer, d attestation.Draft) *attestation.Attestation {
	t.Helper()
	att, err := iss.Sign(d)
	if err != nil {
		t.Fatal(err)
	}
	return roundTrip(t, att)
}

func highSTwin(sig []byte) []byte {
	out := append([]byte(nil), sig...)
	n := crypto.S256().Params().N
	twin := new(big.Int).Sub(n, new(big.Int).SetBytes(sig[32:64]))
	twin.FillBytes(out[32:64])
	out[64] = 27 + 28 - out[64]
	return out
}

// Attestations built from the independent vectors (ethers v6 signatures) verify, and
// their tampered forms fail for the right reason.
func TestVerifyVectors(t *testing.T) {
	for _, v := range ethsigtest.Load(t, vectorFile, attestation.PrimaryType) {
		t.Run(v.Name, func(t *testing.T) {
			m := messageOf(t, v)
			att := &attestation.Attestation{
				ID: m.ID, Kind: attestation.Kind(m.Kind), Subject: m.Subject, Verifier: m.Verifier, Scope: m.Scope,
				Claims: v.Claims, EvidenceHash: m.EvidenceHash, IssuedAt: time.Unix(int64(m.IssuedAt), 0).UTC(),
				Status: attestation.StatusValid, Issuer: attestation.IssuerRef{Address: v.Signer, ChainID: v.ChainID()},
				TypedData: attestation.TypedData(v.TypedData), Signature: v.Signature,
			}
			if m.ExpiresAt != 0 {
				e := time.Unix(int64(m.ExpiresAt), 0).UTC()
				att.ExpiresAt = &e
			}
			opts := attestation.VerifyOptions{TrustedIssuers: []common.Address{v.Signer}, ChainID: 1, Now: att.IssuedAt.Add(time.Hour)}
			if err := attestation.Verify(att, opts); err != nil {
				t.Fatalf("Verify: %v", err)
			}
			att2 := roundTrip(t, att)
			att2.Signature = v.SignatureV01
			if err := attestation.Verify(att2, opts); err != nil {
				t.Fatalf("Verify v 0/1: %v", err)
			}
			att2.Signature = v.HighSTwin
			if err := attestation.Verify(att2, opts); !errors.Is(err, ethsig.ErrHighS) || !errors.Is(err, attestation.ErrBadSignature) {
				t.Fatalf("high-s twin: %v", err)
			}
			att3 := roundTrip(t, att)
			att3.Issuer.ChainID = 5
			att3.TypedData.Domain.ChainId = (*math.HexOrDecimal256)(new(big.Int).SetUint64(5))
			opts.ChainID = 0
			if err := attestation.Verify(att3, opts); !errors.Is(err, attestation.ErrBadSignature) {
				t.Fatalf("chain 5: %v", err)
			}
			att3.Issuer.Address = v.WrongChain5
			opts.TrustedIssuers = append(opts.TrustedIssuers, v.WrongChain5)
			if err := attestation.Verify(att3, opts); err != nil {
				t.Fatalf("chain 5 with the address it recovers: %v", err)
			}
		})
	}
}
