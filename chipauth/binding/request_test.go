package binding

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
)

const liveID = "att_abcdefghijklmnopqrstuvwxyz"

func validRequest() Request {
	return Request{
		SOD:                   base64.StdEncoding.EncodeToString([]byte{0x77, 0x03, 1, 2, 3}),
		DataGroups:            map[string]string{"1": base64.StdEncoding.EncodeToString([]byte{0x61, 0x00})},
		LivenessAttestationID: liveID,
	}
}

func floats(n int, f func(i int) float32) string {
	b := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f(i)))
	}
	return base64.StdEncoding.EncodeToString(b)
}

func TestRequestDecode(t *testing.T) {
	d, err := validRequest().decode()
	require.NoError(t, err)
	assert.Equal(t, []byte{0x77, 0x03, 1, 2, 3}, d.sod)
	assert.Equal(t, map[int][]byte{1: {0x61, 0x00}}, d.dataGroups)
	assert.Nil(t, d.face)

	// Both alphabets, padded or not.
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		r := validRequest()
		payload := []byte{0xfb, 0xff, 0xfe, 0x01}
		r.DataGroups["2"] = enc.EncodeToString(payload)
		d, err := r.decode()
		require.NoError(t, err)
		assert.Equal(t, payload, d.dataGroups[2])
	}

	r := validRequest()
	r.FaceTemplate = floats(64, func(i int) float32 { return float32(i + 1) })
	r.ChipFaceTemplate = floats(64, func(i int) float32 { return float32(i + 2) })
	d, err = r.decode()
	require.NoError(t, err)
	assert.Len(t, d.face, 64)
	assert.Len(t, d.chipFace, 64)
}

func TestRequestValidation(t *testing.T) {
	cases := []struct {
		name    string
		edit    func(r *Request)
		pointer string
	}{
		{"no sod", func(r *Request) { r.SOD = "" }, "/sod"},
		{"sod not base64", func(r *Request) { r.SOD = "a*b=" }, "/sod"},
		{"sod mixed alphabets", func(r *Request) { r.SOD = "ab+_" }, "/sod"},
		{"sod too large", func(r *Request) { r.SOD = base64.StdEncoding.EncodeToString(make([]byte, MaxSODSize+1)) }, "/sod"},
		{"no data groups", func(r *Request) { r.DataGroups = nil }, "/dataGroups"},
		{"no DG1", func(r *Request) { r.DataGroups = map[string]string{"2": "AA"} }, "/dataGroups/1"},
		{"DG0", func(r *Request) { r.DataGroups["0"] = "AA" }, "/dataGroups/0"},
		{"DG17", func(r *Request) { r.DataGroups["17"] = "AA" }, "/dataGroups/17"},
		{"leading zero", func(r *Request) { r.DataGroups["02"] = "AA" }, "/dataGroups/02"},
		{"signed", func(r *Request) { r.DataGroups["+2"] = "AA" }, "/dataGroups/+2"},
		{"name with slash", func(r *Request) { r.DataGroups["a/b~"] = "AA" }, "/dataGroups/a~1b~0"},
		{"empty DG", func(r *Request) { r.DataGroups["1"] = "" }, "/dataGroups/1"},
		{"DG not base64", func(r *Request) { r.DataGroups["1"] = "%%%" }, "/dataGroups/1"},
		{"no liveness", func(r *Request) { r.LivenessAttestationID = "" }, "/livenessAttestationId"},
		{"liveness not an id", func(r *Request) { r.LivenessAttestationID = "vrq_abcdefghijklmnopqrstuvwxyz" }, "/livenessAttestationId"},
		{"template not base64", func(r *Request) { r.FaceTemplate = "!!" }, "/faceTemplate"},
		{"template odd bytes", func(r *Request) { r.FaceTemplate = base64.StdEncoding.EncodeToString(make([]byte, 257)) }, "/faceTemplate"},
		{"template too short", func(r *Request) { r.FaceTemplate = floats(63, func(int) float32 { return 1 }) }, "/faceTemplate"},
		{"template too long", func(r *Request) { r.ChipFaceTemplate = floats(2049, func(int) float32 { return 1 }) }, "/chipFaceTemplate"},
		{"template NaN", func(r *Request) {
			r.FaceTemplate = floats(64, func(i int) float32 { return float32(math.NaN()) })
		}, "/faceTemplate"},
		{"template Inf", func(r *Request) {
			r.ChipFaceTemplate = floats(64, func(i int) float32 { return float32(math.Inf(-1)) })
		}, "/chipFaceTemplate"},
		{"template zero", func(r *Request) { r.FaceTemplate = floats(64, func(int) float32 { return 0 }) }, "/faceTemplate"},
		{"dimension mismatch", func(r *Request) {
			r.FaceTemplate = floats(64, func(int) float32 { return 1 })
			r.ChipFaceTemplate = floats(65, func(int) float32 { return 1 })
		}, "/chipFaceTemplate"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := validRequest()
			c.edit(&r)
			err := r.Validate()
			require.Error(t, err)
			var list veriland.Errors
			var one *veriland.Error
			switch {
			case errors.As(err, &list):
				one = list[0]
			default:
				require.ErrorAs(t, err, &one)
			}
			assert.Equal(t, veriland.CodeValidationFailed, one.Code)
			assert.Equal(t, c.pointer, one.Pointer, "%v", err)
		})
	}
}

func TestRequestStringRedacts(t *testing.T) {
	r := validRequest()
	r.FaceTemplate = "SECRETFACE"
	for _, s := range []string{r.String(), fmt.Sprintf("%#v", r), fmt.Sprintf("%+v", r), r.LogValue().String()} {
		assert.NotContains(t, s, r.SOD)
		assert.NotContains(t, s, r.DataGroups["1"])
		assert.NotContains(t, s, "SECRETFACE")
	}
}

func TestCosineSimilarity(t *testing.T) {
	a := []float32{1, 0, 0}
	assert.InDelta(t, 1, CosineSimilarity(a, a), 1e-12)
	assert.InDelta(t, 0, CosineSimilarity(a, []float32{0, 1, 0}), 1e-12)
	assert.InDelta(t, -1, CosineSimilarity(a, []float32{-2, 0, 0}), 1e-12)
	assert.Equal(t, 0.0, CosineSimilarity(a, []float32{1, 0}))
	assert.Equal(t, 0.0, CosineSimilarity(a, []float32{0, 0, 0}))
	big := []float32{math.MaxFloat32, math.MaxFloat32, -math.MaxFloat32}
	assert.InDelta(t, 1, CosineSimilarity(big, big), 1e-12)
	tiny := []float32{math.SmallestNonzeroFloat32, 0, 0}
	assert.InDelta(t, 1, CosineSimilarity(tiny, tiny), 1e-12)
	assert.Equal(t, 0.6235, faceScore(0.62349))
}

// FuzzRequestDecode feeds arbitrary members to the decoder: it must never panic,
// must either fail with validation_failed errors that carry a pointer or succeed
// with a DG1, and every template it accepts must be finite and of a legal dimension.
func FuzzRequestDecode(f *testing.F) {
	r := validRequest()
	f.Add(r.SOD, r.DataGroups["1"], "2", "AA==", liveID, "", "")
	f.Add("d3", "YQA", "16", "_-8", liveID, floats(64, func(i int) float32 { return float32(i) }),
		floats(64, func(i int) float32 { return float32(-i) }))
	f.Add("", "", "01", "A", "att_", "AAAA", "////")
	f.Fuzz(func(t *testing.T, sod, dg1, name, dg, live, face, chip string) {
		req := Request{SOD: sod, DataGroups: map[string]string{"1": dg1, name: dg},
			LivenessAttestationID: live, FaceTemplate: face, ChipFaceTemplate: chip}
		d, err := req.decode()
		if err != nil {
			var list veriland.Errors
			var one *veriland.Error
			if !errors.As(err, &list) {
				if e, ok := err.(*veriland.Error); ok {
					one = e
				}
				list = veriland.Errors{one}
			}
			for _, e := range list {
				if e == nil || e.Code != veriland.CodeValidationFailed || e.Pointer == "" {
					t.Fatalf("bad error %#v", err)
				}
			}
			return
		}
		if len(d.dataGroups[1]) == 0 || len(d.sod) == 0 {
			t.Fatal("decoded without DG1 or SOD")
		}
		if (d.face == nil) != (d.chipFace == nil) || len(d.face) != len(d.chipFace) {
			t.Fatal("templates decoded unevenly")
		}
		for _, v := range [][]float32{d.face, d.chipFace} {
			if v == nil {
				continue
			}
			if len(v) < MinTemplateDimension || len(v) > MaxTemplateDimension {
				t.Fatalf("dimension %d accepted", len(v))
			}
			for _, x := range v {
				if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
					t.Fatal("non-finite value accepted")
				}
			}
		}
		if d.face != nil {
			if s := CosineSimilarity(d.face, d.chipFace); s < -1 || s > 1 || math.IsNaN(s) {
				t.Fatalf("similarity %v", s)
			}
		}
	})
}
