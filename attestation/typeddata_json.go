package attestation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/veriland/veriland/internal/jsonappend"
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

// MarshalJSON implements json.Marshaler with AppendJSON. It fails for a domain
// member that EIP712Domain does not define, rather than sign one thing and show
// another.
func (td TypedData) MarshalJSON() ([]byte, error) { return td.AppendJSON(nil) }

// AppendJSON appends td's JSON form: {"types", "primaryType", "domain", "message"},
// written as json.Marshal writes a struct of those members (types and message maps
// in key order, HTML characters escaped), the domain by marshalDomain; it fails for
// a domain member EIP712Domain does not define. Attestation.AppendJSON writes the
// typed data with it, and MarshalJSON is it. Message values other than strings,
// booleans, nil, *big.Int and lists of those are written by encoding/json.
func (td TypedData) AppendJSON(dst []byte) ([]byte, error) {
	domain, err := marshalDomain(td.Types["EIP712Domain"], td.Domain)
	if err != nil {
		return nil, err
	}
	dst = append(dst, `{"types":`...)
	dst = appendTypes(dst, td.Types)
	dst = append(dst, `,"primaryType":`...)
	dst = jsonappend.String(dst, td.PrimaryType)
	dst = append(dst, `,"domain":`...)
	if dst, err = jsonappend.Raw(dst, domain); err != nil {
		return nil, err
	}
	dst = append(dst, `,"message":`...)
	if dst, err = appendMessage(dst, td.Message); err != nil {
		return nil, err
	}
	return append(dst, '}'), nil
}

// appendTypes appends types as json.Marshal writes an apitypes.Types: names in
// byte order, each a list of {"name","type"} (null for a nil map or list).
func appendTypes(dst []byte, types apitypes.Types) []byte {
	if types == nil {
		return append(dst, "null"...)
	}
	names := make([]string, 0, len(types))
	for name := range types {
		names = append(names, name)
	}
	slices.Sort(names)
	dst = append(dst, '{')
	for i, name := range names {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonappend.Key(dst, name)
		fields := types[name]
		if fields == nil {
			dst = append(dst, "null"...)
			continue
		}
		dst = append(dst, '[')
		for j, f := range fields {
			if j > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"name":`...)
			dst = jsonappend.String(dst, f.Name)
			dst = append(dst, `,"type":`...)
			dst = jsonappend.String(dst, f.Type)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

// appendMessage appends m as json.Marshal writes a map[string]any: keys in byte
// order. A value appendValue does not write sends the whole map to encoding/json.
func appendMessage(dst []byte, m map[string]any) ([]byte, error) {
	if m == nil {
		return append(dst, "null"...), nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	start := len(dst)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonappend.Key(dst, k)
		var ok bool
		if dst, ok = appendValue(dst, m[k]); !ok {
			b, err := json.Marshal(m)
			if err != nil {
				return nil, err
			}
			return append(dst[:start], b...), nil
		}
	}
	return append(dst, '}'), nil
}

// appendValue appends a typed-data message value of the kinds veriland's messages
// hold, as json.Marshal writes it; false, with dst to be discarded, for another kind.
func appendValue(dst []byte, v any) ([]byte, bool) {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...), true
	case string:
		return jsonappend.String(dst, v), true
	case bool:
		if v {
			return append(dst, "true"...), true
		}
		return append(dst, "false"...), true
	case *big.Int:
		if v == nil {
			return append(dst, "null"...), true
		}
		return v.Append(dst, 10), true
	case []string:
		return appendStrings(dst, v), true
	case []any:
		if v == nil {
			return append(dst, "null"...), true
		}
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			var ok bool
			if dst, ok = appendValue(dst, e); !ok {
				return dst, false
			}
		}
		return append(dst, ']'), true
	}
	return dst, false
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
