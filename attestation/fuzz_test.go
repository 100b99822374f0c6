package attestation

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
	"github.com/gowebpki/jcs"

	"github.com/veriland/veriland/internal/ethsig"
)

// Whatever isCanonical accepts must be exactly what jcs.Transform produces.
func FuzzIsCanonical(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `{"a":1,"b":[true,false,null],"c":"é"}`, `{"b":1,"a":2}`, `{"a":1,"a":2}`,
		`-0`, `0`, `-12`, `012`, `1.5`, `1e3`, `123456789012345`, `1234567890123456`, `"\u00e9"`,
		`"a\nb"`, "\"\u2028\"", "\"\xed\xa0\x80\"", `{"a":{"b":{}}}`, ` {}`, `{"é":1}`, `"😀"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !isCanonical(b) {
			return
		}
		out, err := jcs.Transform(b)
		if err != nil || !bytes.Equal(out, b) {
			t.Fatalf("isCanonical(%q) but jcs gives %q, %v", b, out, err)
		}
	})
}

// Decoding any bytes as an attestation and verifying it must never panic, and an
// accepted attestation must really be signed by the trusted key.
func FuzzVerifyJSON(f *testing.F) {
	b, err := os.ReadFile("testdata/attestation_consent.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(`{"id":"att_x","kind":"CONSENT","subject":"s","claims":{},"typedData":{"types":{},"message":{"claimsHash":7}}}`))
	f.Add([]byte(`{"kind":"LIVENESS","typedData":{"domain":{"chainId":"0x1"},"message":{"scope":[1,2]}}}`))
	trusted := common.HexToAddress("0x2c7536E3605D9C16a7a3D7b1898e529396a65c23")
	now := time.Date(2026, 11, 21, 13, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, b []byte) {
		var att Attestation
		if json.Unmarshal(b, &att) != nil {
			return
		}
		err := Verify(&att, VerifyOptions{TrustedIssuers: []common.Address{trusted}, Now: now})
		if err == nil && att.Issuer.Address != trusted {
			t.Fatalf("accepted an attestation of %s", att.Issuer.Address.Hex())
		}
	})
}

// Decoding any bytes as typed data, checking it against a message and hashing it
// with apitypes must never panic.
func FuzzTypedData(f *testing.F) {
	m := Message{ID: "att_x", Kind: "CONSENT", Subject: "s", Scope: []string{"a"}, IssuedAt: 1}
	good, _ := json.Marshal(m.TypedData(1))
	f.Add(good)
	f.Add([]byte(`{"types":{"Attestation":[{"name":"scope","type":"string[]"}]},"primaryType":"Attestation","domain":{"chainId":1},"message":{"scope":"x"}}`))
	f.Add([]byte(`{"types":{"A":[{"name":"a","type":"A"}]},"primaryType":"A","domain":{"name":"n"},"message":{"a":{"a":{"a":{}}}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var td apitypes.TypedData
		if json.Unmarshal(b, &td) != nil {
			return
		}
		att := &Attestation{TypedData: TypedData(td)}
		_ = checkTypedData(att, &m, 1)
		_, _, _, _ = ethsig.APIDigest(td)
	})
}
