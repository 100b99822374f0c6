package attestation_test

import (
	"encoding/json"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/internal/jsonappend"
)

// requireAppendsAsMarshal checks that att.AppendJSON writes what json.Marshal(att)
// writes, or fails where it fails.
func requireAppendsAsMarshal(t testing.TB, att *attestation.Attestation) {
	t.Helper()
	require.NoError(t, jsonappend.SameAsMarshal(att))
}

// TestAttestationAppendJSON holds AppendJSON to json.Marshal on issued attestations
// and on every member edited into the forms encoding/json escapes, drops or refuses.
func TestAttestationAppendJSON(t *testing.T) {
	iss := testIssuer(t, issuerKeyHex, &fakeClock{t: t0})
	issued := func(d attestation.Draft) *attestation.Attestation {
		att, err := iss.Sign(d)
		require.NoError(t, err)
		return att
	}
	block := uint64(7)
	revoked := t0.Add(time.Hour)
	zone := time.FixedZone("", 5*3600+30*60)
	cases := []struct {
		name string
		edit func(*attestation.Attestation)
	}{
		{"as issued", func(*attestation.Attestation) {}},
		{"revoked and anchored", func(a *attestation.Attestation) {
			a.Status, a.RevokedAt = attestation.StatusRevoked, &revoked
			a.Anchor = attestation.AnchorState{Status: attestation.AnchorAnchored, TxHash: "0xabc", BlockNumber: &block}
			a.RevocationAnchor = &attestation.AnchorState{Status: attestation.AnchorPending}
		}},
		{"no expiry, nil scope, nil signature", func(a *attestation.Attestation) { a.ExpiresAt, a.Scope, a.Signature = nil, nil, nil }},
		{"empty scope", func(a *attestation.Attestation) { a.Scope = []string{} }},
		{"HTML, quotes and control characters", func(a *attestation.Attestation) {
			a.ID, a.Subject, a.Verifier = `<a href="x">&`, "tab\there\nnew\u0001", `back\slash`
			a.Scope = []string{"<>", "&amp;"}
		}},
		{"non-ASCII, U+2028 and invalid UTF-8", func(a *attestation.Attestation) {
			a.ID, a.Subject, a.Verifier = "été", "line\u2028sep\u2029", "bad\xffbyte"
		}},
		{"claims with white space and HTML", func(a *attestation.Attestation) {
			a.Claims = json.RawMessage(" {\"a\" : [1, 2],\n \"b\":\"<&>\"} ")
		}},
		{"claims with non-ASCII and U+2028", func(a *attestation.Attestation) { a.Claims = json.RawMessage(`{"a":"é\u2028"}`) }},
		{"nil claims", func(a *attestation.Attestation) { a.Claims = nil }},
		{"invalid claims", func(a *attestation.Attestation) { a.Claims = json.RawMessage(`{"a":}`) }},
		{"empty claims", func(a *attestation.Attestation) { a.Claims = json.RawMessage{} }},
		{"times in a zone with nanoseconds", func(a *attestation.Attestation) {
			a.IssuedAt = time.Date(2026, 1, 2, 3, 4, 5, 123456789, zone)
			e := a.IssuedAt.Add(time.Hour)
			a.ExpiresAt = &e
		}},
		{"a year past 9999", func(a *attestation.Attestation) { a.IssuedAt = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) }},
		{"an expiry past 9999", func(a *attestation.Attestation) {
			e := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
			a.ExpiresAt = &e
		}},
		{"a revocation past 9999", func(a *attestation.Attestation) {
			r := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
			a.RevokedAt = &r
		}},
		{"typed data without types or message", func(a *attestation.Attestation) { a.TypedData.Types, a.TypedData.Message = nil, nil }},
		{"typed data with a nil type list", func(a *attestation.Attestation) { a.TypedData.Types["Extra"] = nil }},
		{"typed data with other message values", func(a *attestation.Attestation) {
			a.TypedData.Message = map[string]any{"f": 1.5, "m": map[string]any{"x": "<"}, "s": "ok"}
		}},
		{"typed data with every written kind", func(a *attestation.Attestation) {
			a.TypedData.Message = map[string]any{"n": nil, "b": true, "f": false, "i": big.NewInt(-42), "ni": (*big.Int)(nil),
				"l": []any{"a", []any{big.NewInt(1)}, nil}, "nl": []any(nil), "ss": []string{"<"}, "ns": []string(nil), "<k>": "v"}
		}},
		{"typed data with an unencodable value", func(a *attestation.Attestation) {
			a.TypedData.Message = map[string]any{"c": make(chan int)}
		}},
		{"typed data with a domain member EIP712Domain does not define", func(a *attestation.Attestation) {
			a.TypedData.Types["EIP712Domain"] = append(a.TypedData.Types["EIP712Domain"], a.TypedData.Types["EIP712Domain"][0])
			a.TypedData.Types["EIP712Domain"][0].Name = "bogus"
		}},
		{"typed data with a chainId past 2^53", func(a *attestation.Attestation) {
			a.TypedData.Domain.ChainId = (*math.HexOrDecimal256)(new(big.Int).Lsh(big.NewInt(1), 60))
		}},
		{"zero issuer and hashes", func(a *attestation.Attestation) {
			a.Issuer, a.EvidenceHash = attestation.IssuerRef{}, common.Hash{}
		}},
	}
	for _, draft := range []struct {
		name string
		d    func() attestation.Draft
	}{{"liveness", livenessDraft}, {"consent", consentDraft}} {
		for _, tc := range cases {
			t.Run(draft.name+"/"+tc.name, func(t *testing.T) {
				att := issued(draft.d())
				tc.edit(att)
				requireAppendsAsMarshal(t, att)
			})
		}
	}
	t.Run("nil", func(t *testing.T) { requireAppendsAsMarshal(t, nil) })
	t.Run("zero", func(t *testing.T) { requireAppendsAsMarshal(t, &attestation.Attestation{}) })
}

// FuzzAttestationAppendJSON holds AppendJSON to json.Marshal on attestations whose
// text members, claims and times come from the fuzzer.
func FuzzAttestationAppendJSON(f *testing.F) {
	f.Add("att_1", "did:veriland:x", "<verifier>&", "scope\u2028", []byte(`{"a":1}`), int64(1795000000123456789), int64(3600), "0xabc")
	f.Add("\xff", "", "\"", "", []byte(" [ ] "), int64(-62135596800), int64(-1), "")
	f.Add("é", "\t", "\\", "x", []byte(nil), int64(253402300800), int64(0), "<")
	iss := testIssuer(f, issuerKeyHex, &fakeClock{t: t0})
	base, err := iss.Sign(consentDraft())
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, id, subject, verifier, scope string, claims []byte, unixNano, offset int64, txHash string) {
		att := *base
		att.ID, att.Subject, att.Verifier, att.Scope = id, subject, verifier, []string{scope, id}
		att.Claims = claims
		att.IssuedAt = time.Unix(0, unixNano).In(time.FixedZone("", int(offset%(26*3600))))
		att.Anchor = attestation.AnchorState{Status: attestation.AnchorStatus(scope), TxHash: txHash}
		att.TypedData.PrimaryType = verifier
		att.TypedData.Message = map[string]any{id: subject, "k": []any{scope, nil}}
		requireAppendsAsMarshal(t, &att)
	})
}

// BenchmarkAttestationJSON compares json.Marshal of an issued consent attestation
// with AppendJSON into a reused buffer.
func BenchmarkAttestationJSON(b *testing.B) {
	att, err := testIssuer(b, issuerKeyHex, &fakeClock{t: t0}).Sign(consentDraft())
	require.NoError(b, err)
	b.Run("json.Marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(att); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("AppendJSON", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		for b.Loop() {
			if buf, err = att.AppendJSON(buf[:0]); err != nil {
				b.Fatal(err)
			}
		}
	})
}
