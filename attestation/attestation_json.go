package attestation

import "github.com/veriland/veriland/internal/jsonappend"

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
