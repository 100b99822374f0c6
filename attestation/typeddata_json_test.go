package attestation_test

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/internal/ethsig"
)

// The served JSON of a typed-data object: the domain holds exactly the members that
// types.EIP712Domain lists, in order, with chainId a JSON number, and it hashes to
// the same digest after a round trip.
func TestTypedDataJSON(t *testing.T) {
	m := attestation.Message{ID: "att_x", Kind: "CONSENT", Subject: "did:veriland:x", Verifier: "v", Scope: []string{"is_adult"}, IssuedAt: 1700000000}
	td := m.TypedData(1)

	b, err := json.Marshal(td)
	require.NoError(t, err)
	var raw struct {
		Domain json.RawMessage `json:"domain"`
	}
	require.NoError(t, json.Unmarshal(b, &raw))
	require.Equal(t, `{"name":"Identity Attestation","version":"1","chainId":1}`, string(raw.Domain))

	var back attestation.TypedData
	require.NoError(t, json.Unmarshal(b, &back))
	d, _, _, err := ethsig.APIDigest(apitypes.TypedData(back))
	require.NoError(t, err)
	require.Equal(t, m.Digest(1), d)

	// The same digest when the domain is decoded from a hex or decimal-string chainId.
	for _, chain := range []string{`"0x1"`, `"1"`} {
		var alt attestation.TypedData
		require.NoError(t, json.Unmarshal(replaceDomain(t, b, `{"name":"Identity Attestation","version":"1","chainId":`+chain+`}`), &alt))
		d, _, _, err := ethsig.APIDigest(apitypes.TypedData(alt))
		require.NoError(t, err, chain)
		require.Equal(t, m.Digest(1), d, chain)
	}
}

func TestTypedDataJSONDomains(t *testing.T) {
	big53 := new(big.Int).Lsh(big.NewInt(1), 53)
	cases := []struct {
		name    string
		fields  []apitypes.Type
		domain  apitypes.TypedDataDomain
		want    string
		wantErr bool
	}{
		{
			name:   "listed members only",
			fields: ethsig.DomainFields(),
			domain: apitypes.TypedDataDomain{Name: "n", Version: "1", ChainId: math.NewHexOrDecimal256(5)},
			want:   `{"name":"n","version":"1","chainId":5}`,
		},
		{
			name:   "chainId past 2^53 as a decimal string",
			fields: ethsig.DomainFields(),
			domain: apitypes.TypedDataDomain{Name: "n", Version: "1", ChainId: (*math.HexOrDecimal256)(big53)},
			want:   `{"name":"n","version":"1","chainId":"9007199254740992"}`,
		},
		{
			name: "verifyingContract when listed",
			fields: []apitypes.Type{{Name: "name", Type: "string"}, {Name: "chainId", Type: "uint256"},
				{Name: "verifyingContract", Type: "address"}},
			domain: apitypes.TypedDataDomain{Name: "n", ChainId: math.NewHexOrDecimal256(1), VerifyingContract: "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC"},
			want:   `{"name":"n","chainId":1,"verifyingContract":"0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC"}`,
		},
		{
			name:   "no EIP712Domain type: the members that are set",
			domain: apitypes.TypedDataDomain{Name: "n", Version: "1", ChainId: math.NewHexOrDecimal256(1)},
			want:   `{"name":"n","version":"1","chainId":1}`,
		},
		{
			name:    "a member EIP-712 does not define",
			fields:  []apitypes.Type{{Name: "colour", Type: "string"}},
			domain:  apitypes.TypedDataDomain{Name: "n"},
			wantErr: true,
		},
		{
			name:    "chainId listed but absent",
			fields:  ethsig.DomainFields(),
			domain:  apitypes.TypedDataDomain{Name: "n", Version: "1"},
			wantErr: true,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			td := attestation.TypedData{Types: apitypes.Types{"A": {{Name: "a", Type: "string"}}}, PrimaryType: "A",
				Domain: c.domain, Message: map[string]any{"a": "x"}}
			if c.fields != nil {
				td.Types["EIP712Domain"] = c.fields
			}
			b, err := json.Marshal(td)
			if c.wantErr {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			var raw struct {
				Domain json.RawMessage `json:"domain"`
			}
			require.NoError(t, json.Unmarshal(b, &raw))
			require.Equal(t, c.want, string(raw.Domain))
		})
	}
}

func replaceDomain(t *testing.T, b []byte, domain string) []byte {
	t.Helper()
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(b, &m))
	m["domain"] = json.RawMessage(domain)
	out, err := json.Marshal(m)
	require.NoError(t, err)
	return out
}
