package attestation

import (
	"encoding/json"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/veriland/veriland/internal/jsonappend"
)

// AppendJSON appends att exactly as json.Marshal(att) writes it, byte for byte, and
// fails where json.Marshal fails. It spares a response that carries an attestation
// encoding/json's reflection and its second pass over the typed data and the claims
// (validating and compacting what their MarshalJSON already wrote), about two thirds
// of the cost of encoding an attestation. A nil att is null.
func (att *Attestation) AppendJSON(dst []byte) ([]byte, error) {
	if att == nil {
		return append(dst, "null"...), nil
	}
	var err error
	dst = append(dst, `{"id":`...)
	dst = jsonappend.String(dst, att.ID)
	dst = append(dst, `,"kind":`...)
	dst = jsonappend.String(dst, string(att.Kind))
	dst = append(dst, `,"subject":`...)
	dst = jsonappend.String(dst, att.Subject)
	dst = append(dst, `,"verifier":`...)
	dst = jsonappend.String(dst, att.Verifier)
	dst = append(dst, `,"scope":`...)
	dst = appendStrings(dst, att.Scope)
	dst = append(dst, `,"claims":`...)
	if dst, err = jsonappend.Raw(dst, att.Claims); err != nil {
		return nil, err
	}
	dst = append(dst, `,"evidenceHash":`...)
	dst = jsonappend.Hex(dst, att.EvidenceHash[:])
	dst = append(dst, `,"issuedAt":`...)
	if dst, err = jsonappend.Time(dst, att.IssuedAt); err != nil {
		return nil, err
	}
	dst = append(dst, `,"expiresAt":`...)
	if att.ExpiresAt == nil {
		dst = append(dst, "null"...)
	} else if dst, err = jsonappend.Time(dst, *att.ExpiresAt); err != nil {
		return nil, err
	}
	dst = append(dst, `,"status":`...)
	dst = jsonappend.String(dst, string(att.Status))
	if att.RevokedAt != nil {
		dst = append(dst, `,"revokedAt":`...)
		if dst, err = jsonappend.Time(dst, *att.RevokedAt); err != nil {
			return nil, err
		}
	}
	dst = append(dst, `,"issuer":{"address":`...)
	dst = jsonappend.Hex(dst, att.Issuer.Address[:])
	dst = append(dst, `,"chainId":`...)
	dst = jsonappend.Uint(dst, att.Issuer.ChainID)
	dst = append(dst, `},"typedData":`...)
	if dst, err = att.TypedData.AppendJSON(dst); err != nil {
		return nil, err
	}
	dst = append(dst, `,"signature":`...)
	dst = jsonappend.Hex(dst, att.Signature)
	dst = append(dst, `,"anchor":`...)
	dst = att.Anchor.appendJSON(dst)
	if att.RevocationAnchor != nil {
		dst = append(dst, `,"revocationAnchor":`...)
		dst = att.RevocationAnchor.appendJSON(dst)
	}
	return append(dst, '}'), nil
}

// appendJSON appends a as json.Marshal(a) writes it.
func (a AnchorState) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"status":`...)
	dst = jsonappend.String(dst, string(a.Status))
	if a.TxHash != "" {
		dst = append(dst, `,"txHash":`...)
		dst = jsonappend.String(dst, a.TxHash)
	}
	if a.BlockNumber != nil {
		dst = append(dst, `,"blockNumber":`...)
		dst = jsonappend.Uint(dst, *a.BlockNumber)
	}
	return append(dst, '}')
}

// AppendJSON appends td exactly as json.Marshal(td) writes it (MarshalJSON's form)
// and fails where it fails. Message values other than strings, booleans, nil,
// *big.Int and lists of those are written by encoding/json.
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

// appendStrings appends ss as json.Marshal writes a []string (null when nil).
func appendStrings(dst []byte, ss []string) []byte {
	if ss == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonappend.String(dst, s)
	}
	return append(dst, ']')
}
