package consent

import "github.com/veriland/veriland/internal/jsonappend"

// AppendJSON appends r exactly as json.Marshal(r) writes it and fails where it
// fails; the attestation is written by its own AppendJSON. The reference server
// answers POST /consent/{requestId} with it.
func (r *DecisionResult) AppendJSON(dst []byte) ([]byte, error) {
	if r == nil {
		return append(dst, "null"...), nil
	}
	dst = append(dst, `{"requestId":`...)
	dst = jsonappend.String(dst, r.RequestID)
	dst = append(dst, `,"status":`...)
	dst = jsonappend.String(dst, string(r.Status))
	dst = append(dst, `,"decision":`...)
	dst = jsonappend.String(dst, string(r.Decision))
	if r.Attestation != nil {
		var err error
		dst = append(dst, `,"attestation":`...)
		if dst, err = r.Attestation.AppendJSON(dst); err != nil {
			return nil, err
		}
	}
	return append(dst, '}'), nil
}
