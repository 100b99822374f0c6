package attestation_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/veriland/veriland/attestation"
)

// BenchmarkVerify and BenchmarkEcrecover sit together so that the cost of everything
// Verify does besides the public key recovery (hashing, JCS of the claims, the
// typedData check) can be read as their ratio.
func BenchmarkVerify(b *testing.B) {
	iss := testIssuer(b, issuerKeyHex, &fakeClock{t: t0})
	att, err := iss.Sign(consentDraft())
	if err != nil {
		b.Fatal(err)
	}
	att = roundTrip(b, att)
	opts := attestation.VerifyOptions{TrustedIssuers: []common.Address{iss.Address()}, ChainID: 1, Now: t0.Add(time.Hour)}
	b.ReportAllocs()
	for b.Loop() {
		if err := attestation.Verify(att, opts); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEcrecover(b *testing.B) {
	iss := testIssuer(b, issuerKeyHex, &fakeClock{t: t0})
	digest := crypto.Keccak256([]byte("digest"))
	sig, err := crypto.Sign(digest, iss.Key)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := crypto.Ecrecover(digest, sig); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyWire is offline verification from the wire: decoding the JSON an
// attestation is served as, then Verify. BenchmarkGethTypedDataWire is go-ethereum's
// own path on the same bytes (decode the typedData and signature,
// apitypes.TypedDataAndHash, crypto.SigToPub), without any of Verify's other checks;
// scripts/bench.sh prints their ratio.
func BenchmarkVerifyWire(b *testing.B) {
	iss, wire := wireAttestation(b)
	opts := attestation.VerifyOptions{TrustedIssuers: []common.Address{iss.Address()}, ChainID: 1, Now: t0.Add(time.Hour)}
	b.ReportAllocs()
	for b.Loop() {
		var att attestation.Attestation
		if err := json.Unmarshal(wire, &att); err != nil {
			b.Fatal(err)
		}
		if err := attestation.Verify(&att, opts); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGethTypedDataWire(b *testing.B) {
	iss, wire := wireAttestation(b)
	b.ReportAllocs()
	for b.Loop() {
		var att struct {
			TypedData apitypes.TypedData `json:"typedData"`
			Signature hexutil.Bytes      `json:"signature"`
		}
		if err := json.Unmarshal(wire, &att); err != nil {
			b.Fatal(err)
		}
		digest, _, err := apitypes.TypedDataAndHash(att.TypedData)
		if err != nil {
			b.Fatal(err)
		}
		if len(att.Signature) != 65 {
			b.Fatalf("signature of %d bytes", len(att.Signature))
		}
		sig := bytes.Clone(att.Signature)
		if sig[64] >= 27 {
			sig[64] -= 27
		}
		pub, err := crypto.SigToPub(digest, sig)
		if err != nil {
			b.Fatal(err)
		}
		if crypto.PubkeyToAddress(*pub) != iss.Address() {
			b.Fatal("go-ethereum recovered another signer")
		}
	}
}

// wireAttestation signs a consent attestation and returns its issuer and its JSON.
func wireAttestation(b *testing.B) (*attestation.Issuer, []byte) {
	iss := testIssuer(b, issuerKeyHex, &fakeClock{t: t0})
	att, err := iss.Sign(consentDraft())
	if err != nil {
		b.Fatal(err)
	}
	wire, err := json.Marshal(att)
	if err != nil {
		b.Fatal(err)
	}
	return iss, wire
}
