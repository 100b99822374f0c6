package parcel

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/planar"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
)

// metresPerDegree is the length of one degree of latitude (and of longitude at the
// equator) on the sphere AreaM2 measures on.
const metresPerDegree = MeanEarthRadius * math.Pi / 180

// polygonJSON writes a GeoJSON Polygon of one ring of [lon, lat] positions, closing it.
func polygonJSON(points ...[2]float64) string {
	var parts []string
	for _, p := range append(points, points[0]) {
		parts = append(parts, fmt.Sprintf("[%v,%v]", p[0], p[1]))
	}
	return `{"type":"Polygon","coordinates":[[` + strings.Join(parts, ",") + `]]}`
}

// rect is the axis-aligned rectangle [x0, x1] × [y0, y1], counterclockwise.
func rect(x0, y0, x1, y1 float64) string {
	return polygonJSON([2]float64{x0, y0}, [2]float64{x1, y0}, [2]float64{x1, y1}, [2]float64{x0, y1})
}

// circle is a regular polygon of n vertices around (lon, lat) with radius r degrees.
func circle(lon, lat, r float64, n int) string {
	pts := make([][2]float64, n)
	for i := range pts {
		a := 2 * math.Pi * float64(i) / float64(n)
		pts[i] = [2]float64{lon + r*math.Cos(a), lat + r*math.Sin(a)}
	}
	return polygonJSON(pts...)
}

func mustParse(t testing.TB, raw string) *Boundary {
	t.Helper()
	b, err := ParseBoundary(json.RawMessage(raw))
	require.NoError(t, err, raw)
	require.NotNil(t, b)
	return b
}

func TestParseBoundaryAccepts(t *testing.T) {
	tests := []struct {
		name     string
		raw      string
		vertices int
		want     string // normalised JSON, when checked
	}{
		{name: "square counterclockwise", raw: rect(10, 50, 10.001, 50.001), vertices: 4,
			want: `{"type":"Polygon","coordinates":[[[10,50],[10.001,50],[10.001,50.001],[10,50.001],[10,50]]]}`},
		{name: "square clockwise is reversed", raw: `{"type":"Polygon","coordinates":[[[10,50],[10,50.001],[10.001,50.001],[10.001,50],[10,50]]]}`, vertices: 4,
			want: `{"type":"Polygon","coordinates":[[[10,50],[10.001,50],[10.001,50.001],[10,50.001],[10,50]]]}`},
		{name: "triangle", raw: polygonJSON([2]float64{-3.7, 40.4}, [2]float64{-3.69, 40.4}, [2]float64{-3.695, 40.41}), vertices: 3},
		{name: "members in any order with spaces", raw: " {\n \"coordinates\" : [[[0,0],[1,0],[0,1],[0,0]]], \"type\": \"Polygon\" }\n", vertices: 3,
			want: `{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,1],[0,0]]]}`},
		{name: "negative zero is zero", raw: `{"type":"Polygon","coordinates":[[[-0,-0.0],[1,0],[0,1],[-0,0]]]}`, vertices: 3,
			want: `{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,1],[0,0]]]}`},
		{name: "exponent numbers", raw: `{"type":"Polygon","coordinates":[[[1e-3,0],[2E-3,0],[1.5e-3,1e-3],[0.001,0]]]}`, vertices: 3,
			want: `{"type":"Polygon","coordinates":[[[0.001,0],[0.002,0],[0.0015,0.001],[0.001,0]]]}`},
		{name: "concave L", raw: polygonJSON([2]float64{0, 0}, [2]float64{2, 0}, [2]float64{2, 1}, [2]float64{1, 1}, [2]float64{1, 2}, [2]float64{0, 2}), vertices: 6},
		{name: "extreme bounds", raw: rect(179, 89, 180, 90), vertices: 4},
		{name: "1000 vertices", raw: circle(5, 5, 0.01, 1000), vertices: 1000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := mustParse(t, tt.raw)
			require.Len(t, b.Ring(), tt.vertices+1)
			require.Equal(t, orb.CCW, b.Ring().Orientation())
			out, err := json.Marshal(b)
			require.NoError(t, err)
			if tt.want != "" {
				require.JSONEq(t, tt.want, string(out))
				require.Equal(t, tt.want, string(out))
			}
			again := mustParse(t, string(out))
			require.True(t, b.Equal(again))
			require.Greater(t, b.AreaM2(), 0.0)
		})
	}
}

func TestParseBoundaryAbsent(t *testing.T) {
	for _, raw := range []string{"", "null", "  null \n"} {
		b, err := ParseBoundary(json.RawMessage(raw))
		require.NoError(t, err)
		require.Nil(t, b)
	}
}

func TestParseBoundaryRefuses(t *testing.T) {
	ring := func(positions string) string {
		return `{"type":"Polygon","coordinates":[` + positions + `]}`
	}
	many := make([][2]float64, MaxBoundaryVertices+1)
	for i := range many {
		a := 2 * math.Pi * float64(i) / float64(len(many))
		many[i] = [2]float64{math.Cos(a), math.Sin(a)}
	}
	tests := []struct {
		name, raw, pointer string
		code               veriland.Code // validation_failed when empty
	}{
		{name: "array", raw: `[]`, pointer: "/parcel/boundary"},
		{name: "string", raw: `"Polygon"`, pointer: "/parcel/boundary"},
		{name: "broken JSON", raw: `{"type":"Polygon",`, pointer: "/parcel/boundary"},
		{name: "trailing data", raw: rect(0, 0, 1, 1) + ` {}`, pointer: "/parcel/boundary"},
		{name: "no type", raw: `{"coordinates":[[[0,0],[1,0],[0,1],[0,0]]]}`, pointer: "/parcel/boundary/type"},
		{name: "MultiPolygon", raw: `{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[0,1],[0,0]]]]}`, pointer: "/parcel/boundary/type"},
		{name: "Feature", raw: `{"type":"Feature","coordinates":[[[0,0],[1,0],[0,1],[0,0]]]}`, pointer: "/parcel/boundary/type"},
		{name: "type not a string", raw: `{"type":7,"coordinates":[[[0,0],[1,0],[0,1],[0,0]]]}`, pointer: "/parcel/boundary/type"},
		{name: "type in lower case", raw: `{"type":"polygon","coordinates":[[[0,0],[1,0],[0,1],[0,0]]]}`, pointer: "/parcel/boundary/type"},
		{name: "no coordinates", raw: `{"type":"Polygon"}`, pointer: "/parcel/boundary/coordinates"},
		{name: "bbox", raw: `{"type":"Polygon","bbox":[0,0,1,1],"coordinates":[[[0,0],[1,0],[0,1],[0,0]]]}`, pointer: "/parcel/boundary/bbox", code: veriland.CodeUnknownField},
		{name: "foreign member escaped", raw: `{"type":"Polygon","a/b~":1,"coordinates":[[[0,0],[1,0],[0,1],[0,0]]]}`, pointer: "/parcel/boundary/a~1b~0", code: veriland.CodeUnknownField},
		{name: "duplicate type", raw: `{"type":"Polygon","type":"Polygon","coordinates":[[[0,0],[1,0],[0,1],[0,0]]]}`, pointer: "/parcel/boundary/type"},
		{name: "coordinates not an array", raw: `{"type":"Polygon","coordinates":{}}`, pointer: "/parcel/boundary/coordinates"},
		{name: "coordinates null", raw: `{"type":"Polygon","coordinates":null}`, pointer: "/parcel/boundary/coordinates"},
		{name: "no ring", raw: ring(``), pointer: "/parcel/boundary/coordinates"},
		{name: "hole", raw: ring(`[[0,0],[3,0],[0,3],[0,0]],[[0.5,0.5],[1,0.5],[0.5,1],[0.5,0.5]]`), pointer: "/parcel/boundary/coordinates/1"},
		{name: "ring not an array", raw: ring(`7`), pointer: "/parcel/boundary/coordinates/0"},
		{name: "three positions", raw: ring(`[[0,0],[1,0],[0,0]]`), pointer: "/parcel/boundary/coordinates/0"},
		{name: "1001 vertices", raw: polygonJSON(many...), pointer: "/parcel/boundary/coordinates/0"},
		{name: "position not an array", raw: ring(`[[0,0],{"lon":1,"lat":0},[0,1],[0,0]]`), pointer: "/parcel/boundary/coordinates/0/1"},
		{name: "position with elevation", raw: ring(`[[0,0],[1,0,5],[0,1],[0,0]]`), pointer: "/parcel/boundary/coordinates/0/1"},
		{name: "position with one number", raw: ring(`[[0,0],[1],[0,1],[0,0]]`), pointer: "/parcel/boundary/coordinates/0/1"},
		{name: "longitude a string", raw: ring(`[[0,0],["1",0],[0,1],[0,0]]`), pointer: "/parcel/boundary/coordinates/0/1/0"},
		{name: "latitude null", raw: ring(`[[0,0],[1,null],[0,1],[0,0]]`), pointer: "/parcel/boundary/coordinates/0/1/1"},
		{name: "latitude over 90", raw: ring(`[[0,0],[1,0],[0,90.5],[0,0]]`), pointer: "/parcel/boundary/coordinates/0/2/1"},
		{name: "longitude under -180", raw: ring(`[[0,0],[-180.000001,0],[0,1],[0,0]]`), pointer: "/parcel/boundary/coordinates/0/1/0"},
		{name: "number overflows", raw: ring(`[[0,0],[1e400,0],[0,1],[0,0]]`), pointer: "/parcel/boundary/coordinates/0/1/0"},
		{name: "not closed", raw: ring(`[[0,0],[1,0],[1,1],[0,1]]`), pointer: "/parcel/boundary/coordinates/0/3"},
		{name: "repeated position", raw: ring(`[[0,0],[1,0],[1,0],[1,1],[0,0]]`), pointer: "/parcel/boundary/coordinates/0/2"},
		{name: "repeated closing position", raw: ring(`[[0,0],[1,0],[1,1],[0,0],[0,0]]`), pointer: "/parcel/boundary/coordinates/0/4"},
		{name: "antimeridian", raw: ring(`[[179.9,0],[-179.9,0],[-179.9,1],[179.9,1],[179.9,0]]`), pointer: "/parcel/boundary/coordinates/0/1"},
		{name: "bow-tie", raw: ring(`[[0,0],[1,1],[1,0],[0,1],[0,0]]`), pointer: "/parcel/boundary/coordinates/0/3"},
		{name: "collinear", raw: ring(`[[0,0],[1,0],[2,0],[0,0]]`), pointer: "/parcel/boundary/coordinates/0/3"},
		{name: "spike folding back", raw: ring(`[[0,0],[2,0],[1,0],[1,1],[0,0]]`), pointer: "/parcel/boundary/coordinates/0/2"},
		{name: "vertex touching an edge", raw: ring(`[[0,0],[2,0],[2,2],[1,0],[0,2],[0,0]]`), pointer: "/parcel/boundary/coordinates/0/3"},
		{name: "vertex within tolerance of an edge", raw: ring(`[[0,0],[2,0],[2,2],[1,0.0000000005],[0,2],[0,0]]`), pointer: "/parcel/boundary/coordinates/0/3"},
		{name: "figure eight through a vertex", raw: ring(`[[0,0],[1,1],[2,0],[2,2],[1,1],[0,2],[0,0]]`), pointer: "/parcel/boundary/coordinates/0/4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := ParseBoundary(json.RawMessage(tt.raw))
			require.Error(t, err)
			require.Nil(t, b)
			list := veriland.ErrorList(err)
			require.NotEmpty(t, list, "%v", err)
			code := tt.code
			if code == "" {
				code = veriland.CodeValidationFailed
			}
			require.Equal(t, code, list[0].Code, "%v", err)
			require.Equal(t, tt.pointer, list[0].Pointer, "%v", err)
			require.NotEmpty(t, list[0].Message)
		})
	}
}

func TestParseBoundaryOneErrorPerNumber(t *testing.T) {
	_, err := ParseBoundary(json.RawMessage(`{"type":"Polygon","coordinates":[[[0,0],[200,0],[0,-95],[0,0]]]}`))
	list := veriland.ErrorList(err)
	require.Len(t, list, 2)
	require.Equal(t, "/parcel/boundary/coordinates/0/1/0", list[0].Pointer)
	require.Equal(t, "/parcel/boundary/coordinates/0/2/1", list[1].Pointer)

	// A ring of garbage stops at maxPositionErrors errors.
	bad := `{"type":"Polygon","coordinates":[[` + strings.Repeat(`["x","y"],`, 50) + `["x","y"]]]}`
	require.Len(t, veriland.ErrorList(mustFail(t, bad)), maxPositionErrors)
}

func mustFail(t *testing.T, raw string) error {
	t.Helper()
	_, err := ParseBoundary(json.RawMessage(raw))
	require.Error(t, err)
	return err
}

func TestBoundaryUnmarshalJSON(t *testing.T) {
	var holder struct {
		Boundary *Boundary `json:"boundary"`
	}
	require.NoError(t, json.Unmarshal([]byte(`{"boundary":`+rect(1, 1, 2, 2)+`}`), &holder))
	require.True(t, holder.Boundary.Equal(mustParse(t, rect(1, 1, 2, 2))))
	err := json.Unmarshal([]byte(`{"boundary":{"type":"Point","coordinates":[1,1]}}`), &holder)
	require.True(t, veriland.IsCode(err, veriland.CodeValidationFailed), "%v", err)
}

func TestAreaM2(t *testing.T) {
	side := 100 / metresPerDegree // 100 m in degrees of latitude
	tests := []struct {
		name    string
		raw     string
		want    float64
		relTol  float64
		comment string
	}{
		{name: "100 m square at the equator", raw: rect(0, 0, side, side), want: 10000, relTol: 1e-4},
		{name: "100 m square at 45°N", raw: rect(7, 45, 7+side/math.Cos(45.00045*math.Pi/180), 45+side), want: 10000, relTol: 1e-4},
		{name: "100 m square at 60°S", raw: rect(-70, -60-side, -70+side/math.Cos(-60.00045*math.Pi/180), -60), want: 10000, relTol: 1e-4},
		// A lon/lat cell's area on the sphere is R²·Δλ·(sin φ2 − sin φ1), exactly.
		{name: "one degree cell", raw: rect(0, 0, 1, 1), want: MeanEarthRadius * MeanEarthRadius * math.Pi / 180 * math.Sin(math.Pi/180), relTol: 1e-12},
		{name: "right triangle half the square", raw: polygonJSON([2]float64{0, 0}, [2]float64{side, 0}, [2]float64{0, side}), want: 5000, relTol: 1e-4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustParse(t, tt.raw).AreaM2()
			require.InEpsilon(t, tt.want, got, tt.relTol)
		})
	}
}

func TestCheckArea(t *testing.T) {
	side := 100 / metresPerDegree
	b := mustParse(t, rect(0, 0, side, side))
	m := b.AreaM2()
	require.InEpsilon(t, 10000, m, 1e-4)
	tests := []struct {
		declared float64
		ok       bool
	}{
		{declared: 10000, ok: true},
		{declared: m / 1.049, ok: true},  // area_m2 4.9 % below the boundary's
		{declared: m / 1.051, ok: false}, // 5.1 % below
		{declared: m / 0.951, ok: true},  // 4.9 % above
		{declared: m / 0.949, ok: false}, // 5.1 % above
		{declared: 10500, ok: true},
		{declared: 10600, ok: false},
		{declared: 9600, ok: true},
		{declared: 9500, ok: false},
		{declared: 0, ok: false},
		{declared: -10000, ok: false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.declared), func(t *testing.T) {
			err := CheckArea(b, tt.declared)
			if tt.ok {
				require.NoError(t, err)
				return
			}
			var e *veriland.Error
			require.ErrorAs(t, err, &e)
			require.Equal(t, veriland.CodeValidationFailed, e.Code)
			require.Equal(t, "/parcel/area_m2", e.Pointer)
			require.Equal(t, tt.declared, e.Meta["declaredAreaM2"])
			require.InDelta(t, m, e.Meta["boundaryAreaM2"], 0.01)
		})
	}
	require.NoError(t, CheckArea(nil, 123), "no boundary, nothing to check")
}

func TestOverlapError(t *testing.T) {
	e := OverlapError("prc_01HZZZZZZZZZZZZZZZZZZZZZZZ")
	require.Equal(t, veriland.CodeParcelOverlap, e.Code)
	require.Equal(t, "/parcel/boundary", e.Pointer)
	require.Equal(t, "prc_01HZZZZZZZZZZZZZZZZZZZZZZZ", e.Meta["parcelId"])
	require.Contains(t, e.Message, "prc_01HZZZZZZZZZZZZZZZZZZZZZZZ")
}

// zigzagPair returns two 1000-vertex polygons that share a zigzag edge of 998
// vertices: one below it, one above it. They touch along 997 edges and do not overlap.
func zigzagPair() (below, above string) {
	const n = 998
	zig := make([][2]float64, n)
	for i := range zig {
		zig[i] = [2]float64{10 + float64(i)*1e-5, 50 + float64(i%2)*1e-5}
	}
	end := zig[n-1][0]
	lower := append([][2]float64{}, zig...)
	lower = append(lower, [2]float64{end, 49.999}, [2]float64{10, 49.999})
	var upper [][2]float64
	upper = append(upper, [2]float64{10, 50.001}, [2]float64{end, 50.001})
	for i := n - 1; i >= 0; i-- {
		upper = append(upper, zig[i])
	}
	return polygonJSON(lower...), polygonJSON(upper...)
}

func TestOverlaps(t *testing.T) {
	const s = 0.001 // side of the unit squares, about 111 m
	x, y := 10.0, 50.0
	square := rect(x, y, x+s, y+s)
	below, above := zigzagPair()
	L := polygonJSON([2]float64{x, y}, [2]float64{x + 2*s, y}, [2]float64{x + 2*s, y + s}, [2]float64{x + s, y + s}, [2]float64{x + s, y + 2*s}, [2]float64{x, y + 2*s})
	tests := []struct {
		name string
		a, b string
		want bool
	}{
		{name: "disjoint", a: square, b: rect(x+3*s, y, x+4*s, y+s), want: false},
		{name: "disjoint, bounding boxes overlap", a: polygonJSON([2]float64{x, y}, [2]float64{x + 2*s, y}, [2]float64{x, y + 2*s}), b: rect(x+1.5*s, y+1.5*s, x+2*s, y+2*s), want: false},
		{name: "sharing an edge", a: square, b: rect(x+s, y, x+2*s, y+s), want: false},
		{name: "sharing part of an edge", a: square, b: rect(x+s, y+s/2, x+2*s, y+1.5*s), want: false},
		{name: "vertex on an edge (T-junction)", a: square, b: polygonJSON([2]float64{x + s/2, y + s}, [2]float64{x + s, y + 2*s}, [2]float64{x, y + 2*s}), want: false},
		{name: "touching at a corner", a: square, b: rect(x+s, y+s, x+2*s, y+2*s), want: false},
		{name: "gap within tolerance is touching", a: square, b: rect(x+s+Tolerance/2, y, x+2*s, y+s), want: false},
		{name: "square in the L's notch", a: L, b: rect(x+s, y+s, x+2*s, y+2*s), want: false},
		{name: "touching along a zigzag of 997 edges", a: below, b: above, want: false},
		{name: "crossing", a: square, b: rect(x+s/2, y+s/2, x+1.5*s, y+1.5*s), want: true},
		{name: "cross shape, no vertex inside the other", a: rect(x, y+s/3, x+s, y+2*s/3), b: rect(x+s/3, y, x+2*s/3, y+s), want: true},
		{name: "overlap by a sliver", a: square, b: rect(x+s-1e-7, y, x+2*s, y+s), want: true},
		{name: "contained", a: square, b: rect(x+s/4, y+s/4, x+s/2, y+s/2), want: true},
		{name: "contained sharing an edge", a: square, b: rect(x, y, x+s/2, y+s), want: true},
		{name: "contained sharing a corner", a: square, b: rect(x, y, x+s/2, y+s/2), want: true},
		{name: "triangle on three corners", a: square, b: polygonJSON([2]float64{x, y}, [2]float64{x + s, y}, [2]float64{x + s, y + s}), want: true},
		{name: "identical", a: square, b: square, want: true},
		{name: "identical, other start and winding", a: square, b: polygonJSON([2]float64{x + s, y + s}, [2]float64{x + s, y}, [2]float64{x, y}, [2]float64{x, y + s}), want: true},
		{name: "along the L's edge into its arm", a: L, b: rect(x+s/2, y+s, x+1.5*s, y+2*s), want: true},
		{name: "through the L's reflex corner", a: L, b: rect(x+s/2, y+s/2, x+1.5*s, y+1.5*s), want: true},
		{name: "zigzag against its own side", a: below, b: below, want: true},
		{name: "nested circles of 1000 vertices", a: circle(x, y, s, 1000), b: circle(x, y, s/2, 1000), want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := mustParse(t, tt.a), mustParse(t, tt.b)
			require.Equal(t, tt.want, a.Overlaps(b), "a.Overlaps(b)")
			require.Equal(t, tt.want, b.Overlaps(a), "b.Overlaps(a)")
			require.True(t, a.Overlaps(a), "a boundary overlaps itself")
		})
	}
	var none *Boundary
	require.False(t, none.Overlaps(mustParse(t, square)))
	require.False(t, mustParse(t, square).Overlaps(nil))
	require.False(t, new(Boundary).Overlaps(mustParse(t, rect(-1, -1, 1, 1))), "the zero Boundary is no land")
	require.False(t, mustParse(t, rect(-1, -1, 1, 1)).Overlaps(new(Boundary)))
	_, err := json.Marshal(new(Boundary))
	require.Error(t, err)
	require.True(t, none.Equal(nil))
	require.False(t, none.Equal(mustParse(t, square)))
}

func BenchmarkOverlaps(b *testing.B) {
	const s = 0.001
	below, above := zigzagPair()
	cases := []struct {
		name string
		a, b string
	}{
		{name: "crossing", a: circle(10, 50, s, 1000), b: circle(10+s, 50, s, 1000)},
		{name: "nested", a: circle(10, 50, s, 1000), b: circle(10, 50, s/2, 1000)},
		{name: "touching along 997 edges", a: below, b: above},
		{name: "bounding boxes apart", a: circle(10, 50, s, 1000), b: circle(10+3*s, 50, s, 1000)},
	}
	for _, c := range cases {
		p, q := mustParse(b, c.a), mustParse(b, c.b)
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				p.Overlaps(q)
			}
		})
	}
}

func BenchmarkParseBoundary1000(b *testing.B) {
	raw := json.RawMessage(circle(10, 50, 0.001, 1000))
	for b.Loop() {
		if _, err := ParseBoundary(raw); err != nil {
			b.Fatal(err)
		}
	}
}

// TestOverlapsRectilinear checks Overlaps against an independent answer on random
// rectangles and L shapes with vertices on a unit grid: the interior of such a polygon
// is a union of grid cells, so two interiors intersect exactly when some cell's centre
// lies inside both.
func TestOverlapsRectilinear(t *testing.T) {
	const unit = 0.0001
	rng := rand.New(rand.NewPCG(10, 50))
	shape := func() (string, []orb.Point) {
		x0, y0 := rng.IntN(6), rng.IntN(6)
		x1, y1 := x0+1+rng.IntN(4), y0+1+rng.IntN(4)
		pts := [][2]float64{{float64(x0), float64(y0)}, {float64(x1), float64(y0)}, {float64(x1), float64(y1)}, {float64(x0), float64(y1)}}
		if x1-x0 > 1 && y1-y0 > 1 && rng.IntN(2) == 0 { // cut a corner off: an L
			c := rng.IntN(4)
			cx, cy := float64(x0+1+rng.IntN(x1-x0-1)), float64(y0+1+rng.IntN(y1-y0-1))
			corner := pts[c]
			prev := pts[(c+3)%4]
			var a, b [2]float64 // the cut's ends on the edges from prev and to next
			if prev[0] == corner[0] {
				a, b = [2]float64{corner[0], cy}, [2]float64{cx, corner[1]}
			} else {
				a, b = [2]float64{cx, corner[1]}, [2]float64{corner[0], cy}
			}
			pts = append(append(append([][2]float64{}, pts[:c]...), a, [2]float64{cx, cy}, b), pts[c+1:]...)
		}
		var cells []orb.Point
		ring := orb.Ring{}
		for _, p := range pts {
			ring = append(ring, orb.Point{p[0], p[1]})
		}
		ring = append(ring, ring[0])
		for i := 0; i < 10; i++ {
			for j := 0; j < 10; j++ {
				if c := (orb.Point{float64(i) + 0.5, float64(j) + 0.5}); planarContains(ring, c) {
					cells = append(cells, c)
				}
			}
		}
		scaled := make([][2]float64, len(pts))
		for i, p := range pts {
			scaled[i] = [2]float64{20 + p[0]*unit, -30 + p[1]*unit}
		}
		return polygonJSON(scaled...), cells
	}
	var ls, overlaps int
	for i := 0; i < 2000; i++ {
		ra, ca := shape()
		rb, cb := shape()
		if strings.Count(ra, "[") == 9 { // 7 positions and the two brackets around the ring
			ls++
		}
		want := false
		for _, c := range ca {
			if slices.Contains(cb, c) {
				want = true
				break
			}
		}
		a, b := mustParse(t, ra), mustParse(t, rb)
		require.Equal(t, want, a.Overlaps(b), "%s\n%s", ra, rb)
		require.Equal(t, want, b.Overlaps(a), "%s\n%s", rb, ra)
		if want {
			overlaps++
		}
	}
	require.Greater(t, ls, 300, "L shapes drawn")
	require.Greater(t, overlaps, 300, "overlapping pairs drawn")
	require.Less(t, overlaps, 1700, "disjoint or touching pairs drawn")
}

// planarContains is orb's point-in-ring test, for cell centres that are never on an edge.
func planarContains(r orb.Ring, p orb.Point) bool { return planar.RingContains(r, p) }
