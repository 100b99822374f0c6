package attestation

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
)

// reflectTypedData is TypedData decoded the way it was before the fast path: by
// encoding/json into apitypes.TypedData.
type reflectTypedData TypedData

func (td *reflectTypedData) UnmarshalJSON(b []byte) error {
	var raw apitypes.TypedData
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*td = reflectTypedData(raw)
	return nil
}

// reflectDecode decodes b into into (nil: a zero Attestation) by encoding/json's
// reflection alone, typedData included: the reference the fast path must agree with.
func reflectDecode(b []byte, into *Attestation) (*Attestation, error) {
	out := new(Attestation)
	err := reflectDecodeInto(b, into, out)
	return out, err
}

func reflectDecodeInto(b []byte, into, out any) error {
	// Named Attestation so that encoding/json's errors name the same struct.
	type Attestation struct {
		ID               string           `json:"id"`
		Kind             Kind             `json:"kind"`
		Subject          string           `json:"subject"`
		Verifier         string           `json:"verifier"`
		Scope            []string         `json:"scope"`
		Claims           json.RawMessage  `json:"claims"`
		EvidenceHash     common.Hash      `json:"evidenceHash"`
		IssuedAt         time.Time        `json:"issuedAt"`
		ExpiresAt        *time.Time       `json:"expiresAt"`
		Status           Status           `json:"status"`
		RevokedAt        *time.Time       `json:"revokedAt,omitempty"`
		Issuer           IssuerRef        `json:"issuer"`
		TypedData        reflectTypedData `json:"typedData"`
		Signature        hexutil.Bytes    `json:"signature"`
		Anchor           AnchorState      `json:"anchor"`
		RevocationAnchor *AnchorState     `json:"revocationAnchor,omitempty"`
	}
	var a Attestation
	if !reflect.ValueOf(into).IsNil() {
		copyFields(&a, into)
	}
	err := json.Unmarshal(b, &a)
	copyFields(out, &a)
	return err
}

// copyFields copies the fields of *src into *dst, two structs of the same layout
// whose field types differ at most by name.
func copyFields(dst, src any) {
	d, s := reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem()
	for i := range d.NumField() {
		d.Field(i).Set(s.Field(i).Convert(d.Field(i).Type()))
	}
}

// fastDecode decodes b with json.Unmarshal, TypedData's fast path included.
func fastDecode(b []byte, into *Attestation) (*Attestation, error) {
	var a Attestation
	if into != nil {
		a = *into
	}
	err := json.Unmarshal(b, &a)
	return &a, err
}

func sameDecoding(t *testing.T, b []byte, into func() *Attestation) {
	t.Helper()
	want, wantErr := reflectDecode(b, into())
	got, gotErr := fastDecode(b, into())
	if fmt.Sprint(wantErr) != fmt.Sprint(gotErr) {
		t.Fatalf("%q: error %v, encoding/json gives %v", b, gotErr, wantErr)
	}
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("%q:\ndecoded   %#v\nreflection %#v", b, got, want)
	}
}

// wireVariants returns served attestations and edits of them, well and badly formed,
// that must decode exactly as encoding/json decodes them by reflection.
func wireVariants(t testing.TB) [][]byte {
	files, err := filepath.Glob("testdata/*.json")
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	var served []byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
		if strings.HasSuffix(f, "attestation_consent.json") {
			served = b
		}
	}
	compact := func(b []byte) []byte {
		var buf strings.Builder
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		c, _ := json.Marshal(v)
		buf.Write(c)
		return []byte(buf.String())
	}
	base := string(compact(served))
	edits := [][2]string{
		{`"kind":"CONSENT"`, `"kind":"CONSENT","kind":"LIVENESS"`},
		{`"kind":"CONSENT"`, `"Kind":"CONSENT"`},
		{`"kind":"CONSENT"`, `"kind":"CONSENT","unknown":[1,{"a":null}]`},
		{`"kind":"CONSENT"`, `"kind":null`},
		{`"kind":"CONSENT"`, `"kind":7`},
		{`"kind":"CONSENT"`, `"kind":"CON\u0053ENT"`},
		{`"kind":"CONSENT"`, `"kind":"CONS\xffENT"`},
		{`"kind":"CONSENT"`, `"kind":"CONSÉNT"`},
		{`"scope":[`, `"scope":null,"x":[`},
		{`"scope":[`, `"scope":[],"x":[`},
		{`"scope":[`, `"scope":[null,`},
		{`"scope":[`, `"scope":[1,`},
		{`"claims":{`, `"claims":null,"x":{`},
		{`"claims":{`, `"claims":{"z":[1.5e3,-0,"\u00e9\n",true,false,null],`},
		{`"claims":{`, `"claims":{"deep":[[[[[[[[]]]]]]]],`},
		{`"claims":{`, `"claims":{"bad":01,`},
		{`"claims":{`, `"claims":{"bad":"\x01",`},
		{`"evidenceHash":"0x`, `"evidenceHash":"0X`},
		{`"evidenceHash":"0x`, `"evidenceHash":"0x00`},
		{`"evidenceHash":"0x`, `"evidenceHash":"`},
		{`"evidenceHash":"0x`, `"evidenceHash":null,"x":"`},
		{`"issuedAt":"`, `"issuedAt":null,"x":"`},
		{`"issuedAt":"`, `"issuedAt":"x`},
		{`"issuedAt":"`, `"issuedAt":1,"x":"`},
		{`"expiresAt":`, `"expiresAt":"2030-01-01T00:00:00+02:00","x":`},
		{`"expiresAt":`, `"expiresAt":"2030-01-01T00:00:00.123456789Z","x":`},
		{`"expiresAt":`, `"expiresAt":"2030-01-01","x":`},
		{`"expiresAt":`, `"revokedAt":"2030-01-01T00:00:00Z","x":`},
		{`"expiresAt":`, `"revokedAt":null,"x":`},
		{`"chainId":1}`, `"chainId":1.0}`},
		{`"chainId":1}`, `"chainId":-1}`},
		{`"chainId":1}`, `"chainId":18446744073709551616}`},
		{`"chainId":1}`, `"chainId":18446744073709551615}`},
		{`"chainId":1}`, `"chainId":"1"}`},
		{`"chainId":1}`, `"chainId":null}`},
		{`"chainId":1}`, `"chainId":"0x1"}`},
		{`"chainId":1}`, `"chainId":1e0}`},
		{`"chainId":1}`, `"chainId":"0xzz"}`},
		{`"chainId":1}`, `"chainId":1,"verifyingContract":"0x1","salt":"s"}`},
		{`"primaryType":"Attestation"`, `"primaryType":"Attestation","primaryType":"A"`},
		{`"primaryType":"Attestation"`, `"primarytype":"Attestation"`},
		{`"typedData":{`, `"typedData":null,"x":{`},
		{`"typedData":{`, `"typedData":{"extra":1,`},
		{`"types":{`, `"types":{"A":[],"B":null,"A":[{"name":"x"}],`},
		{`"types":{`, `"types":{"A":[{"name":"x","name":"y"}],`},
		{`"types":{`, `"types":{"A":[{"name":"x","Type":"y"}],`},
		{`"message":{`, `"message":{"n":1e400,`},
		{`"message":{`, `"message":{"n":[1,-2.5e-3,{"k":{}},[],"s"],"n":2,`},
		{`"message":{`, `"message":{"\u0061":1,`},
		{`"signature":"0x`, `"signature":"0xabc`},
		{`"signature":"0x`, `"signature":"0x","x":"`},
		{`"signature":"0x`, `"signature":"","x":"`},
		{`"signature":"0x`, `"signature":"12`},
		{`"anchor":{`, `"anchor":{"blockNumber":5,"txHash":"0xab",`},
		{`"anchor":{`, `"anchor":{"blockNumber":null,`},
		{`"anchor":{`, `"anchor":{"blockNumber":-5,`},
		{`"anchor":{`, `"revocationAnchor":{"status":"PENDING"},"anchor":{`},
		{`"anchor":{`, `"revocationAnchor":null,"anchor":{`},
		{`"anchor":{`, `"revocationAnchor":{"status":"PENDING","status":"FAILED"},"anchor":{`},
		{`{`, ` { `},
		{`}`, `} x`},
		{`,`, ` ,`},
	}
	for _, e := range edits {
		if !strings.Contains(base, e[0]) {
			t.Fatalf("no %q in the served attestation", e[0])
		}
		out = append(out, []byte(strings.Replace(base, e[0], e[1], 1)))
	}
	return append(out, []byte(base), []byte(`{}`), []byte(`null`), []byte(`[]`), []byte(``), []byte(`{"id":"a"`))
}

// TestTypedDataJSONDifferential decodes served attestations and edits of them both
// ways, into a zero and into a used Attestation: same value, same error.
func TestTypedDataJSONDifferential(t *testing.T) {
	used := func() *Attestation {
		exp := time.Unix(5, 0)
		return &Attestation{ID: "old", Scope: []string{"a", "b", "c"}, ExpiresAt: &exp, TypedData: TypedData{Message: map[string]any{"old": 1.0}}}
	}
	for i, b := range wireVariants(t) {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			sameDecoding(t, b, func() *Attestation { return nil })
			sameDecoding(t, b, used)
		})
	}
}

// TestTypedDataFastPath checks that a served typedData does take the fast path.
func TestTypedDataFastPath(t *testing.T) {
	b, err := os.ReadFile("testdata/attestation_consent.json")
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		TypedData json.RawMessage `json:"typedData"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	var td TypedData
	s := wireScanner{b: raw.TypedData}
	if !s.typedData(&td) || !s.end() || td.PrimaryType != PrimaryType {
		t.Fatalf("the served typedData leaves the fast path at byte %d", s.Pos())
	}
}

// FuzzTypedDataJSON decodes attestations, and the same bytes as a typedData, both
// ways: same value, same error.
func FuzzTypedDataJSON(f *testing.F) {
	for _, b := range wireVariants(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		sameDecoding(t, b, func() *Attestation { return nil })
		var td, ref TypedData
		errFast := json.Unmarshal(b, &td)
		errRef := json.Unmarshal(b, (*reflectTypedData)(&ref))
		if fmt.Sprint(errFast) != fmt.Sprint(errRef) || !reflect.DeepEqual(td, ref) {
			t.Fatalf("%q: typedData %#v, %v; encoding/json %#v, %v", b, td, errFast, ref, errRef)
		}
	})
}
