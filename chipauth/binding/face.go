package binding

import (
	"encoding/base64"
	"encoding/binary"
	"math"

	"github.com/veriland/veriland"
)

// Face template dimensions accepted (SPEC S6).
const (
	MinTemplateDimension = 64
	MaxTemplateDimension = 2048
)

// DefaultFaceThreshold is the cosine similarity from which the live face and the
// chip's face are taken to be the same person (Service.FaceThreshold).
const DefaultFaceThreshold = 0.62

// decodeTemplate reads a base64 little-endian float32 vector. An empty string is
// no template (nil, nil). The vector must have 64..2048 finite values, not all zero.
func decodeTemplate(pointer, s string) ([]float32, *veriland.Error) {
	if s == "" {
		return nil, nil
	}
	b, err := decodeBase64(s)
	if err != nil {
		return nil, veriland.Invalid(pointer, "face template must be base64")
	}
	if len(b)%4 != 0 {
		return nil, veriland.Invalid(pointer, "face template must be little-endian float32 values (a multiple of 4 bytes)")
	}
	n := len(b) / 4
	if n < MinTemplateDimension || n > MaxTemplateDimension {
		return nil, veriland.Invalid(pointer, "face template must have %d to %d values, not %d",
			MinTemplateDimension, MaxTemplateDimension, n).WithMeta("dimension", n)
	}
	v := make([]float32, n)
	zero := true
	for i := range v {
		f := math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return nil, veriland.Invalid(pointer, "face template value %d is not a finite number", i)
		}
		if f != 0 {
			zero = false
		}
		v[i] = f
	}
	if zero {
		return nil, veriland.Invalid(pointer, "face template must not be all zeros")
	}
	return v, nil
}

// EncodeTemplate returns v as the base64 (standard alphabet, padded)
// little-endian float32 vector that Request.LiveFaceTemplate and
// Request.ChipFaceTemplate carry. It is what a client library or test writes.
func EncodeTemplate(v []float32) string {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return base64.StdEncoding.EncodeToString(b)
}

// CosineSimilarity returns the cosine of the angle between a and b, computed in
// float64, in [-1, 1]; 0 when the lengths differ or either vector is zero.
func CosineSimilarity(a, b []float32) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return 0
	}
	// float32 values squared and summed 2048 times stay far inside float64's range,
	// so no scaling is needed.
	var dot, na, nb float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += x * y
		na += x * x
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0
	}
	c := dot / (math.Sqrt(na) * math.Sqrt(nb))
	return math.Max(-1, math.Min(1, c))
}

// faceScore rounds a similarity to 4 decimals for the attestation claims and the
// face_mismatch meta: enough to audit a threshold, too little to fingerprint a face.
func faceScore(sim float64) float64 {
	return math.Round(sim*1e4) / 1e4
}
