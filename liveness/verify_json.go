package liveness

import "github.com/veriland/veriland/internal/jsonappend"

// AppendJSON appends r exactly as json.Marshal(r) writes it and fails where it
// fails; the attestation is written by its own AppendJSON. The reference server
// answers POST /liveness/verify with it.
func (r *VerifyResult) AppendJSON(dst []byte) ([]byte, error) {
	if r == nil {
		return append(dst, "null"...), nil
	}
	dst = append(dst, `{"status":`...)
	dst = jsonappend.String(dst, r.Status)
	dst = append(dst, `,"level":`...)
	dst = jsonappend.String(dst, string(r.Level))
	dst = append(dst, `,"attestation":`...)
	dst, err := r.Attestation.AppendJSON(dst)
	if err != nil {
		return nil, err
	}
	return append(dst, '}'), nil
}
