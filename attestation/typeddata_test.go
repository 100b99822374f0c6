package attestation_test

import (
	"encoding/json"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/internal/ethsig/ethsigtest"
)

const vectorFile = "testdata/veriland_typed_data.json"

func messageOf(t *testing.T, v ethsigtest.Vector) attestation.Message {
	t.Helper()
	var m struct {
		ID, Kind, Subject, Verifier string
		Scope                       []string
		ClaimsHash                  common.Hash
		EvidenceHash                common.Hash
		IssuedAt, ExpiresAt         uint64
	}
	b, _ := json.Marshal(v.Message)
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return attestation.Message{
		ID: m.ID, Kind: m.Kind, Subject: m.Subject, Verifier: m.Verifier, Scope: m.Scope,
		ClaimsHash: m.ClaimsHash, EvidenceHash: m.EvidenceHash, IssuedAt: m.IssuedAt, ExpiresAt: m.ExpiresAt,
	}
}

func TestMessageVectors(t *testing.T) {
	for _, v := range ethsigtest.Load(t, vectorFile, attestation.PrimaryType) {
		t.Run(v.Name, func(t *testing.T) {
			m := messageOf(t, v)
			chain := v.ChainID()
			ethsigtest.Check(t, v, apitypes.TypedData(m.TypedData(chain)),
				attestation.Domain(chain).Separator(), m.StructHash(), m.Digest(chain), m.Digest(5))

			canon, err := attestation.Canonical(v.Claims)
			if err != nil || string(canon) != v.ClaimsJCS {
				t.Errorf("Canonical = %s, %v; want %s", canon, err, v.ClaimsJCS)
			}
			h, err := attestation.ClaimsHash(v.Claims)
			if err != nil || h != m.ClaimsHash {
				t.Errorf("ClaimsHash = %x, %v; want %x", h, err, m.ClaimsHash)
			}
		})
	}
}

func TestTypeHash(t *testing.T) {
	// StructHash of the zero message starts from the type hash; compare with apitypes.
	var m attestation.Message
	td := apitypes.TypedData(m.TypedData(1))
	if got, want := common.Hash(td.TypeHash(attestation.PrimaryType)), ethsig.HashString(attestation.EncodedType); got != want {
		t.Fatalf("apitypes type hash %s differs from keccak256(EncodedType)", got)
	}
	if string(td.EncodeType(attestation.PrimaryType)) != attestation.EncodedType {
		t.Fatalf("EncodedType = %q, apitypes says %q", attestation.EncodedType, td.EncodeType(attestation.PrimaryType))
	}
	d, _, sh, err := ethsig.APIDigest(td)
	if err != nil || sh != m.StructHash() || d != m.Digest(1) {
		t.Fatalf("zero message: apitypes %x/%x, ours %x/%x (%v)", sh, d, m.StructHash(), m.Digest(1), err)
	}
}

func TestClaimsHashRefusesInvalidJSON(t *testing.T) {
	for _, in := range []string{``, `{`, `{"a":1,"a":2}`, `{"a":01}`, "\"\xff\""} {
		if _, err := attestation.ClaimsHash(json.RawMessage(in)); err == nil {
			t.Errorf("ClaimsHash(%q) succeeded", in)
		}
	}
}
