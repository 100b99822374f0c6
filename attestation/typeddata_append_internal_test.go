package attestation

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
	"github.com/stretchr/testify/require"
)

// marshalTypedDataStruct is the typed data's JSON form as encoding/json writes it
// from a struct of its four members: the oracle AppendJSON (and so MarshalJSON) is
// held to.
func marshalTypedDataStruct(td TypedData) ([]byte, error) {
	domain, err := marshalDomain(td.Types["EIP712Domain"], td.Domain)
	if err != nil {
		return nil, err
	}
	return json.Marshal(struct {
		Types       apitypes.Types  `json:"types"`
		PrimaryType string          `json:"primaryType"`
		Domain      json.RawMessage `json:"domain"`
		Message     map[string]any  `json:"message"`
	}{td.Types, td.PrimaryType, domain, td.Message})
}

// requireTypedDataAsStruct checks that td.AppendJSON writes what the struct oracle
// writes, or fails where it fails.
func requireTypedDataAsStruct(t testing.TB, td TypedData) {
	t.Helper()
	want, werr := marshalTypedDataStruct(td)
	got, gerr := td.AppendJSON([]byte("prefix"))
	if werr != nil {
		require.Error(t, gerr, "the oracle fails (%v)", werr)
		return
	}
	require.NoError(t, gerr)
	require.Equal(t, "prefix"+string(want), string(got))
}

// TestTypedDataAppendJSON holds AppendJSON to the struct oracle on the typed data of
// an attestation and on every member edited into the forms encoding/json escapes,
// drops or refuses.
func TestTypedDataAppendJSON(t *testing.T) {
	issued := func() TypedData {
		m := &Message{ID: "att_1", Kind: string(KindConsent), Subject: "did:x", Verifier: "v", Scope: []string{"is_adult", "<&>"}, IssuedAt: 1, ExpiresAt: 2}
		return m.TypedData(1)
	}
	cases := []struct {
		name string
		edit func(*TypedData)
	}{
		{"as issued", func(*TypedData) {}},
		{"no types or message", func(td *TypedData) { td.Types, td.Message = nil, nil }},
		{"a nil type list", func(td *TypedData) { td.Types["Extra"] = nil }},
		{"escaped names and types", func(td *TypedData) {
			td.Types["<T>"] = []apitypes.Type{{Name: "a&b", Type: "string\u2028"}}
			td.PrimaryType = "Attestation\"x"
		}},
		{"other message values", func(td *TypedData) {
			td.Message = map[string]any{"f": 1.5, "m": map[string]any{"x": "<"}, "s": "ok"}
		}},
		{"every written kind", func(td *TypedData) {
			td.Message = map[string]any{"n": nil, "b": true, "f": false, "i": big.NewInt(-42), "ni": (*big.Int)(nil),
				"l": []any{"a", []any{big.NewInt(1)}, nil}, "nl": []any(nil), "ss": []string{"<"}, "ns": []string(nil), "<k>": "v\xff"}
		}},
		{"a value inside a list written by encoding/json", func(td *TypedData) { td.Message = map[string]any{"l": []any{"a", 2.5}} }},
		{"an unencodable value", func(td *TypedData) { td.Message = map[string]any{"c": make(chan int)} }},
		{"a domain member EIP712Domain does not define", func(td *TypedData) {
			td.Types["EIP712Domain"] = []apitypes.Type{{Name: "bogus", Type: "string"}}
		}},
		{"a chainId past 2^53", func(td *TypedData) {
			td.Domain.ChainId = (*math.HexOrDecimal256)(new(big.Int).Lsh(big.NewInt(1), 60))
		}},
		{"no EIP712Domain type", func(td *TypedData) { delete(td.Types, "EIP712Domain") }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			td := issued()
			tc.edit(&td)
			requireTypedDataAsStruct(t, td)
		})
	}
	t.Run("zero", func(t *testing.T) { requireTypedDataAsStruct(t, TypedData{}) })
}

// FuzzTypedDataAppendJSON holds AppendJSON to the struct oracle on typed data whose
// primary type, type names and message come from the fuzzer.
func FuzzTypedDataAppendJSON(f *testing.F) {
	f.Add("Attestation", "id", "att_<1>", "string", "\u2028")
	f.Add("\xff", "", "", "", "\"")
	f.Fuzz(func(t *testing.T, primary, name, value, typ, other string) {
		m := &Message{ID: value, Kind: other, Subject: name, Scope: []string{value, other}}
		td := m.TypedData(7)
		td.PrimaryType = primary
		td.Types[primary] = []apitypes.Type{{Name: name, Type: typ}}
		td.Message[name] = []any{value, nil, big.NewInt(int64(len(other)))}
		td.Message[other] = value
		requireTypedDataAsStruct(t, td)
	})
}
