package parcel

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/planar"

	"github.com/veriland/veriland"
)

// FuzzParseBoundary feeds arbitrary bytes to ParseBoundary. It must never panic; every
// refusal is a veriland error with a pointer under /parcel/boundary; every accepted
// boundary has a positive finite area, overlaps itself, and re-marshals to JSON that
// parses back to an equal boundary and marshals to the same bytes.
func FuzzParseBoundary(f *testing.F) {
	below, above := zigzagPair()
	for _, seed := range []string{
		rect(10, 50, 10.001, 50.001),
		`{"type":"Polygon","coordinates":[[[10,50],[10,50.001],[10.001,50.001],[10.001,50],[10,50]]]}`,
		`{"coordinates":[[[0,0],[1,0],[0,1],[0,0]]],"type":"Polygon"}`,
		`{"type":"Polygon","coordinates":[[[-0,-0.0],[1e-3,0],[0,1E-3],[0,0]]]}`,
		circle(5, 5, 0.01, 12),
		below,
		above,
		rect(179, 89, 180, 90),
		// Refusals.
		``, `null`, `[]`, `{}`, `{"type":"Polygon"`, `{"type":"Polygon","coordinates":null}`,
		`{"type":"Polygon","bbox":[0,0,1,1],"coordinates":[[[0,0],[1,0],[0,1],[0,0]]]}`,
		`{"type":"Polygon","type":"Polygon","coordinates":[[[0,0],[1,0],[0,1],[0,0]]]}`,
		`{"type":"Polygon","coordinates":[[[0,0],[3,0],[0,3],[0,0]],[[0.5,0.5],[1,0.5],[0.5,1],[0.5,0.5]]]}`,
		`{"type":"Polygon","coordinates":[[[0,0],[1,1],[1,0],[0,1],[0,0]]]}`,
		`{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}`,
		`{"type":"Polygon","coordinates":[[[0,0],[1e400,0],[0,1],[0,0]]]}`,
		`{"type":"Polygon","coordinates":[[[179.9,0],[-179.9,0],[-179.9,1],[179.9,1],[179.9,0]]]}`,
		`{"type":"Polygon","coordinates":[[[0,0],[2,0],[1,0],[1,1],[0,0]]]}`,
		`{"type":"Polygon","coordinates":[[[0,0],[1,0,5],[0,1],[0,0]]]}`,
		`{"type":"Polygon","coordinates":[[[0,0],["1",0],[0,1],[0,0]]]}`,
		`{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,0],[1,1],[0,0]]]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) > 64<<10 {
			return // the HTTP layer caps bodies well below this
		}
		b, err := ParseBoundary(raw)
		if err != nil {
			if b != nil {
				t.Fatalf("boundary and error both returned")
			}
			list := veriland.ErrorList(err)
			if len(list) == 0 {
				t.Fatalf("error is not a veriland error: %v", err)
			}
			for _, e := range list {
				if e.Code != veriland.CodeValidationFailed && e.Code != veriland.CodeUnknownField {
					t.Fatalf("unexpected code %s", e.Code)
				}
				if !strings.HasPrefix(e.Pointer, "/parcel/boundary") || e.Message == "" {
					t.Fatalf("error without a boundary pointer or message: %#v", e)
				}
			}
			return
		}
		if b == nil {
			if s := string(bytes.TrimSpace(raw)); s != "" && s != "null" {
				t.Fatalf("nil boundary without error for %q", raw)
			}
			return
		}
		if n := len(b.Ring()) - 1; n < 3 || n > MaxBoundaryVertices {
			t.Fatalf("accepted %d vertices", n)
		}
		if a := b.AreaM2(); !(a > 0) || math.IsInf(a, 0) {
			t.Fatalf("accepted boundary with area %v", a)
		}
		if !b.Overlaps(b) {
			t.Fatalf("boundary does not overlap itself: %s", raw)
		}
		out, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		again, err := ParseBoundary(out)
		if err != nil {
			t.Fatalf("normalised form %s refused: %v", out, err)
		}
		if !again.Equal(b) {
			t.Fatalf("round trip changed the boundary: %s → %s", raw, out)
		}
		out2, _ := json.Marshal(again)
		if !bytes.Equal(out, out2) {
			t.Fatalf("marshal not stable: %s vs %s", out, out2)
		}
	})
}

// FuzzBoundaryGeometry draws two rings of up to 16 vertices on a small grid from the
// fuzzer's bytes, so that most inputs reach the geometric checks (collinear edges,
// shared vertices, touching and crossing boundaries) rather than stopping at JSON.
// ParseBoundary must never panic, an accepted ring must round-trip, and Overlaps must
// be symmetric and reflexive.
func FuzzBoundaryGeometry(f *testing.F) {
	f.Add([]byte{0, 0, 4, 0, 4, 4, 0, 4}, []byte{4, 0, 8, 0, 8, 4, 4, 4})             // sharing an edge
	f.Add([]byte{0, 0, 4, 0, 4, 4, 0, 4}, []byte{2, 2, 6, 2, 6, 6, 2, 6})             // crossing
	f.Add([]byte{0, 0, 4, 0, 4, 4, 0, 4}, []byte{0, 0, 4, 0, 4, 4})                   // triangle on three corners
	f.Add([]byte{0, 0, 4, 4, 4, 0, 0, 4}, []byte{1, 1, 2, 1, 2, 2})                   // bow-tie
	f.Add([]byte{0, 0, 8, 0, 8, 4, 4, 4, 4, 8, 0, 8}, []byte{4, 4, 8, 4, 8, 8, 4, 8}) // L and its notch
	ring := func(data []byte) string {
		if len(data) > 32 {
			data = data[:32]
		}
		var pts [][2]float64
		for i := 0; i+1 < len(data); i += 2 {
			pts = append(pts, [2]float64{10 + float64(data[i]%16)*1e-4, 50 + float64(data[i+1]%16)*1e-4})
		}
		if len(pts) == 0 {
			return `{"type":"Polygon","coordinates":[[]]}`
		}
		return polygonJSON(pts...)
	}
	f.Fuzz(func(t *testing.T, da, db []byte) {
		a, errA := ParseBoundary(json.RawMessage(ring(da)))
		b, errB := ParseBoundary(json.RawMessage(ring(db)))
		for _, x := range []*Boundary{a, b} {
			if x == nil {
				continue
			}
			out, _ := json.Marshal(x)
			again, err := ParseBoundary(out)
			if err != nil || !again.Equal(x) {
				t.Fatalf("round trip of %s: %v", out, err)
			}
			if !x.Overlaps(x) {
				t.Fatalf("%s does not overlap itself", out)
			}
		}
		if errA != nil || errB != nil {
			return
		}
		overlaps := a.Overlaps(b)
		if overlaps != b.Overlaps(a) {
			t.Fatalf("Overlaps not symmetric for %s and %s", ring(da), ring(db))
		}
		if overlaps {
			return
		}
		// No overlap: then no sample point lies strictly inside both.
		for i := 0; i < 32; i++ {
			for j := 0; j < 32; j++ {
				p := orb.Point{10 + (float64(i)/2+0.1234567)*1e-4, 50 + (float64(j)/2+0.0987654)*1e-4}
				if planar.RingContains(a.ring, p) && planar.RingContains(b.ring, p) && !onRing(a, p) && !onRing(b, p) {
					t.Fatalf("%v is inside both %s and %s, yet they do not overlap", p, ring(da), ring(db))
				}
			}
		}
	})
}
