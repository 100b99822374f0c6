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
		SODBase64:             base64.StdEncoding.EncodeToString([]byte{0x77, 0x03, 1, 2, 3}),
		DataGroups:            []DataGroup{{Number: 1, ContentBase64: base64.StdEncoding.EncodeToString([]byte{0x61, 0x00})}},
		LivenessAttestationID: liveID,
	}
}

func dg(n int, content string) DataGroup { return DataGroup{Number: n, ContentBase64: content} }

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
		r.DataGroups = append(r.DataGroups, dg(2, enc.EncodeToString(payload)))
		d, err := r.decode()
		require.NoError(t, err)
		assert.Equal(t, payload, d.dataGroups[2])
	}

	r := validRequest()
	r.DataGroups = append(r.DataGroups, dg(2, "dQA"))
	r.LiveFaceTemplate = floats(64, func(i int) float32 { return float32(i + 1) })
	r.ChipFaceTemplate = floats(64, func(i int) float32 { return float32(i + 2) })
	d, err = r.decode()
	require.NoError(t, err)
	assert.Len(t, d.face, 64)
	assert.Len(t, d.chipFace, 64)

	// One template alone: shape-checked, then PA_ONLY (no comparison).
	for _, one := range []func(r *Request){
		func(r *Request) { r.ChipFaceTemplate = "" },
		func(r *Request) { r.LiveFaceTemplate = "" },
	} {
		single := r
		one(&single)
		d, err = single.decode()
		require.NoError(t, err)
		assert.Nil(t, d.face)
		assert.Nil(t, d.chipFace)
	}
}

func TestRequestValidation(t *testing.T) {
	cases := []struct {
		name    string
		edit    func(r *Request)
		pointer string
	}{
		{"no sod", func(r *Request) { r.SODBase64 = "" }, "/sodBase64"},
		{"sod not base64", func(r *Request) { r.SODBase64 = "a*b=" }, "/sodBase64"},
		{"sod mixed alphabets", func(r *Request) { r.SODBase64 = "ab+_" }, "/sodBase64"},
		{"sod too large", func(r *Request) { r.SODBase64 = base64.StdEncoding.EncodeToString(make([]byte, MaxSODSize+1)) }, "/sodBase64"},
		{"no data groups", func(r *Request) { r.DataGroups = nil }, "/dataGroups"},
		{"empty data groups", func(r *Request) { r.DataGroups = []DataGroup{} }, "/dataGroups"},
		{"no DG1", func(r *Request) { r.DataGroups = []DataGroup{dg(2, "AA")} }, "/dataGroups"},
		{"DG0", func(r *Request) { r.DataGroups = append(r.DataGroups, dg(0, "AA")) }, "/dataGroups/1/number"},
		{"DG17", func(r *Request) { r.DataGroups = append(r.DataGroups, dg(17, "AA")) }, "/dataGroups/1/number"},
		{"negative", func(r *Request) { r.DataGroups = append(r.DataGroups, dg(-2, "AA")) }, "/dataGroups/1/number"},
		{"duplicate", func(r *Request) { r.DataGroups = append(r.DataGroups, dg(2, "AA"), dg(2, "AB")) }, "/dataGroups/2/number"},
		{"duplicate DG1", func(r *Request) { r.DataGroups = append(r.DataGroups, r.DataGroups[0]) }, "/dataGroups/1/number"},
		{"empty DG", func(r *Request) { r.DataGroups[0].ContentBase64 = "" }, "/dataGroups/0/contentBase64"},
		{"DG not base64", func(r *Request) { r.DataGroups[0].ContentBase64 = "%%%" }, "/dataGroups/0/contentBase64"},
		{"DG too large", func(r *Request) {
			r.DataGroups[0].ContentBase64 = base64.StdEncoding.EncodeToString(make([]byte, MaxDataGroupSize+1))
		}, "/dataGroups/0/contentBase64"},
		{"no liveness", func(r *Request) { r.LivenessAttestationID = "" }, "/livenessAttestationId"},
		{"liveness not an id", func(r *Request) { r.LivenessAttestationID = "vrq_abcdefghijklmnopqrstuvwxyz" }, "/livenessAttestationId"},
		{"template not base64", func(r *Request) { r.LiveFaceTemplate = "!!" }, "/liveFaceTemplate"},
		{"template odd bytes", func(r *Request) { r.LiveFaceTemplate = base64.StdEncoding.EncodeToString(make([]byte, 257)) }, "/liveFaceTemplate"},
		{"template too short", func(r *Request) { r.LiveFaceTemplate = floats(63, func(int) float32 { return 1 }) }, "/liveFaceTemplate"},
		{"template too long", func(r *Request) { r.ChipFaceTemplate = floats(2049, func(int) float32 { return 1 }) }, "/chipFaceTemplate"},
		{"template NaN", func(r *Request) {
			r.LiveFaceTemplate = floats(64, func(i int) float32 { return float32(math.NaN()) })
		}, "/liveFaceTemplate"},
		{"template Inf", func(r *Request) {
			r.ChipFaceTemplate = floats(64, func(i int) float32 { return float32(math.Inf(-1)) })
		}, "/chipFaceTemplate"},
		{"template zero", func(r *Request) { r.LiveFaceTemplate = floats(64, func(int) float32 { return 0 }) }, "/liveFaceTemplate"},
		{"dimension mismatch", func(r *Request) {
			r.DataGroups = append(r.DataGroups, dg(2, "AA"))
			r.LiveFaceTemplate = floats(64, func(int) float32 { return 1 })
			r.ChipFaceTemplate = floats(65, func(int) float32 { return 1 })
		}, "/chipFaceTemplate"},
		{"face match without DG2", func(r *Request) {
			r.LiveFaceTemplate = floats(64, func(int) float32 { return 1 })
			r.ChipFaceTemplate = floats(64, func(int) float32 { return 1 })
		}, "/dataGroups"},
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
	r.LiveFaceTemplate = "SECRETFACE"
	for _, s := range []string{r.String(), fmt.Sprintf("%#v", r), fmt.Sprintf("%+v", r), r.LogValue().String(),
		fmt.Sprint(r.DataGroups), fmt.Sprintf("%#v", r.DataGroups[0])} {
		assert.NotContains(t, s, r.SODBase64)
		assert.NotContains(t, s, r.DataGroups[0].ContentBase64)
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
// with a DG1 and no duplicate, and every template it accepts must be finite and of
// a legal dimension, with DG2 present.
func FuzzRequestDecode(f *testing.F) {
	r := validRequest()
	f.Add(r.SODBase64, 1, r.DataGroups[0].ContentBase64, 2, "AA==", liveID, "", "")
	f.Add("d3", 1, "YQA", 16, "_-8", liveID, floats(64, func(i int) float32 { return float32(i) }),
		floats(64, func(i int) float32 { return float32(-i) }))
	f.Add("d3", 1, "YQA", 2, "dQA", liveID, floats(64, func(i int) float32 { return float32(i + 1) }),
		floats(64, func(i int) float32 { return float32(i) }))
	f.Add("", 0, "", 1, "A", "att_", "AAAA", "////")
	f.Add("d3", 1, "YQA", 1, "YQA", liveID, "", "")
	f.Fuzz(func(t *testing.T, sod string, n1 int, dg1 string, n2 int, dg string, live, face, chip string) {
		req := Request{SODBase64: sod, DataGroups: []DataGroup{{n1, dg1}, {n2, dg}},
			LivenessAttestationID: live, LiveFaceTemplate: face, ChipFaceTemplate: chip}
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
		if n1 == n2 {
			t.Fatal("a duplicate data group was accepted")
		}
		if (d.face == nil) != (d.chipFace == nil) || len(d.face) != len(d.chipFace) {
			t.Fatal("templates decoded unevenly")
		}
		if d.face != nil && len(d.dataGroups[2]) == 0 {
			t.Fatal("a face match without DG2")
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
