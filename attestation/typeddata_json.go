package attestation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/signer/core/apitypes"
)

// TypedData is an EIP-712 object exactly as veriland serves it: the argument of a
// wallet's eth_signTypedData_v4, and what ethers v6, viem and MetaMask's eth-sig-util
// sign and verify unchanged (SPEC S5). It is go-ethereum's apitypes.TypedData with a
// JSON form of its own, because apitypes writes every domain member whatever the
// domain type lists — an empty "verifyingContract" and "salt", which ethers refuses as
// an invalid address — and a hex chainId, which viem refuses.
//
// The domain is written with exactly the members that types.EIP712Domain lists, in
// that order; chainId is a JSON number (a decimal string past 2^53, which JavaScript
// numbers cannot hold). Convert with apitypes.TypedData(td) for go-ethereum's hashing.
type TypedData apitypes.TypedData

// maxSafeJSONInteger is the largest integer a JavaScript number holds exactly (2^53-1).
const maxSafeJSONInteger = 1<<53 - 1

// MarshalJSON implements json.Marshaler. It fails for a domain member that
// EIP712Domain does not define, rather than sign one thing and show another.
func (td TypedData) MarshalJSON() ([]byte, error) {
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

// UnmarshalJSON implements json.Unmarshaler: any form apitypes reads (chainId as a
// number, a decimal or a hex string; absent domain members empty). The form veriland
// serves is read by a dedicated scanner (wire_scan.go); anything else by encoding/json,
// with the same result.
func (td *TypedData) UnmarshalJSON(b []byte) error {
	var fast TypedData
	if s := (wireScanner{b: b}); s.typedData(&fast) && s.end() {
		*td = fast
		return nil
	}
	var raw apitypes.TypedData
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*td = TypedData(raw)
	return nil
}

// marshalDomain writes d with the members fields lists, in their order. Without an
// EIP712Domain type (the form ethers produces) it writes the members that are set.
func marshalDomain(fields []apitypes.Type, d apitypes.TypedDataDomain) ([]byte, error) {
	if fields == nil {
		for _, f := range []struct{ name, value string }{{"name", d.Name}, {"version", d.Version}, {"verifyingContract", d.VerifyingContract}, {"salt", d.Salt}} {
			if f.value != "" {
				fields = append(fields, apitypes.Type{Name: f.name})
			}
		}
		if d.ChainId != nil {
			fields = append(fields, apitypes.Type{Name: "chainId"})
		}
	}
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, f := range fields {
		if i > 0 {
			buf.WriteByte(',')
		}
		key, _ := json.Marshal(f.Name)
		buf.Write(key)
		buf.WriteByte(':')
		var v any
		switch f.Name {
		case "name":
			v = d.Name
		case "version":
			v = d.Version
		case "verifyingContract":
			v = d.VerifyingContract
		case "salt":
			v = d.Salt
		case "chainId":
			if d.ChainId == nil {
				return nil, fmt.Errorf("attestation: typed data domain lists chainId but has none")
			}
			n := (*big.Int)(d.ChainId)
			if n.Sign() >= 0 && n.IsUint64() && n.Uint64() <= maxSafeJSONInteger {
				buf.WriteString(n.String())
				continue
			}
			v = n.String()
		default:
			return nil, fmt.Errorf("attestation: typed data domain member %q is not an EIP-712 domain member", f.Name)
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		buf.Write(b)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}
