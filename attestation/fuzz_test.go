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
		`0.93`, `-0.5`, `1e21`, `1e+21`, `0.000001`, `1e-7`, `123.450`, `5e-324`, `9007199254740993`,
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

// typedDataReference is, written out by hand, the eth_signTypedData_v4 object of the
// message FuzzTypedData checks against, for chain 1: what a wallet hashes.
const typedDataReference = `{
 "types": {
  "EIP712Domain": [{"name":"name","type":"string"},{"name":"version","type":"string"},{"name":"chainId","type":"uint256"}],
  "Attestation": [
   {"name":"id","type":"string"},{"name":"kind","type":"string"},{"name":"subject","type":"string"},
   {"name":"verifier","type":"string"},{"name":"scope","type":"string[]"},{"name":"claimsHash","type":"bytes32"},
   {"name":"evidenceHash","type":"bytes32"},{"name":"issuedAt","type":"uint64"},{"name":"expiresAt","type":"uint64"}]
 },
 "primaryType": "Attestation",
 "domain": {"name":"` + DomainName + `","version":"` + DomainVersion + `","chainId":1},
 "message": {"id":"att_x","kind":"CONSENT","subject":"s","verifier":"","scope":["a"],
  "claimsHash":"0x0000000000000000000000000000000000000000000000000000000000000000",
  "evidenceHash":"0x0000000000000000000000000000000000000000000000000000000000000000",
  "issuedAt":1,"expiresAt":0}
}`

// apitypesDigest is go-ethereum's own EIP-712 digest of td (apitypes.TypedDataAndHash),
// completing the EIP712Domain type from the domain's members when td leaves it out, as
// ethers does; ok is false when apitypes cannot hash td (or panics on it).
func apitypesDigest(td apitypes.TypedData) (digest []byte, ok bool) {
	defer func() {
		if recover() != nil {
			digest, ok = nil, false
		}
	}()
	if _, has := td.Types["EIP712Domain"]; !has {
		types := apitypes.Types{}
		for k, v := range td.Types {
			types[k] = v
		}
		var dom []apitypes.Type
		if td.Domain.Name != "" {
			dom = append(dom, apitypes.Type{Name: "name", Type: "string"})
		}
		if td.Domain.Version != "" {
			dom = append(dom, apitypes.Type{Name: "version", Type: "string"})
		}
		if td.Domain.ChainId != nil {
			dom = append(dom, apitypes.Type{Name: "chainId", Type: "uint256"})
		}
		types["EIP712Domain"] = dom
		td.Types = types
	}
	d, _, err := apitypes.TypedDataAndHash(td)
	return d, err == nil
}

// FuzzTypedData decodes any bytes as typed data and checks it against a message:
// whatever checkTypedData accepts must hash, with go-ethereum's apitypes (an
// implementation independent of the package's hand-written encoder), to the digest of
// the message it was checked against. A check that lets a different message, type,
// domain or value form through fails here. Hashing with ethsig.APIDigest must never
// panic.
func FuzzTypedData(f *testing.F) {
	m := Message{ID: "att_x", Kind: "CONSENT", Subject: "s", Scope: []string{"a"}, IssuedAt: 1}
	var ref apitypes.TypedData
	if err := json.Unmarshal([]byte(typedDataReference), &ref); err != nil {
		f.Fatal(err)
	}
	want, ok := apitypesDigest(ref)
	if !ok || !bytes.Equal(want, func() []byte { d := m.Digest(1); return d[:] }()) {
		f.Fatalf("the reference typed data hashes to %x, Message.Digest to %x", want, m.Digest(1))
	}
	good, _ := json.Marshal(m.TypedData(1))
	f.Add(good)
	f.Add([]byte(typedDataReference))
	f.Add([]byte(`{"types":{"Attestation":[{"name":"scope","type":"string[]"}]},"primaryType":"Attestation","domain":{"chainId":1},"message":{"scope":"x"}}`))
	f.Add([]byte(`{"types":{"A":[{"name":"a","type":"A"}]},"primaryType":"A","domain":{"name":"n"},"message":{"a":{"a":{"a":{}}}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var td apitypes.TypedData
		if json.Unmarshal(b, &td) != nil {
			return
		}
		att := &Attestation{TypedData: TypedData(td)}
		err := checkTypedData(att, &m, 1)
		_, _, _, _ = ethsig.APIDigest(td)
		if err != nil || (td.PrimaryType == "" && td.Message == nil && td.Types == nil) {
			return // refused, or absent (the fields alone are what is signed)
		}
		got, ok := apitypesDigest(td)
		if !ok {
			t.Fatalf("accepted typed data that apitypes cannot hash: %s", b)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("accepted typed data whose apitypes digest is %x, not the message's %x: %s", got, want, b)
		}
	})
}

// TestIsCanonical pins which forms isCanonical accepts, and that jcs.Transform
// agrees with each one it accepts (FuzzIsCanonical explores the rest).
func TestIsCanonical(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{`{"a":1,"b":[true,false,null],"c":"é"}`, true},
		{`{"level":"L2","scores":{"hueScore":0.93,"latencyMs":412.5}}`, true},
		{`0.000001`, true},
		{`1e+21`, true},
		{`1e-7`, true},
		{`123456789012345`, true},
		{`{"b":1,"a":2}`, false},    // keys out of order
		{`{"a":1,"a":2}`, false},    // a repeated key
		{`1e21`, false},             // ECMAScript prints 1e+21
		{`123.450`, false},          // a trailing zero
		{`1E+21`, false},            // a capital E
		{`9007199254740993`, false}, // not a float64: printed 9007199254740992
		{`-0`, false},               // printed 0
		{`0.1e1`, false},            // printed 1
		{`"\u00e9"`, false},         // an escape JCS does not keep
		{` {}`, false},              // white space
		{`{"a":{"b":0.5}}`, true},
		{`-0.5`, true},
		{`01`, false}, // a leading zero
	} {
		if got := isCanonical([]byte(c.in)); got != c.want {
			t.Errorf("isCanonical(%s) = %v, want %v", c.in, got, c.want)
		}
		if c.want {
			out, err := jcs.Transform([]byte(c.in))
			if err != nil || string(out) != c.in {
				t.Errorf("jcs.Transform(%s) = %s, %v", c.in, out, err)
			}
		}
	}
}
