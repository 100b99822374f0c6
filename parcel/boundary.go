package parcel

// A parcel's optional boundary (SPEC S9 "Optional extension"): a GeoJSON Polygon that is
// validated strictly, measured on the sphere and compared with the boundaries of
// certified parcels.
//
// Geometry conventions, chosen where the SPEC is silent:
//   - Positions are [longitude, latitude] in WGS84 degrees, in that order (RFC 7946 §3.1.1),
//     exactly two numbers: a parcel boundary is two-dimensional, so an elevation is refused.
//     Note the contrast with parcel.gps, which is [lat, lon] as seed 000 §2 says.
//   - One exterior ring and no holes: an enclave inside a parcel is its own parcel, so a
//     ring after the first is refused at /parcel/boundary/coordinates/1.
//   - Either winding order is accepted (RFC 7946 §3.1.6 asks parsers not to refuse
//     clockwise rings); the normalised form is counterclockwise, starting at the same
//     position.
//   - Only "type" and "coordinates" are accepted as members: "bbox", foreign members and
//     duplicate members are refused, so that what is stored is exactly what is checked.
//   - Edges are straight lines in the longitude/latitude plane. That is what the overlap
//     test needs and it is adequate for parcel-sized polygons; a ring with an edge spanning
//     more than 180° of longitude would cross the antimeridian (RFC 7946 §3.1.9 asks for such
//     polygons to be split) and is refused.
//   - Points closer than Tolerance (1e-9°, about 0.1 mm) to an edge count as lying on it:
//     a ring that comes that close to itself is refused as self-intersecting, and two
//     parcels that meet within it merely touch.

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"
	"github.com/paulmach/orb/planar"

	"github.com/veriland/veriland"
)

// Boundary limits and constants.
const (
	// MaxBoundaryVertices is the most distinct vertices a boundary may have (SPEC S9);
	// the ring's closing position, which repeats the first, is not counted.
	MaxBoundaryVertices = 1000
	// AreaTolerance is how far, as a fraction, the boundary's spherical area may be
	// from the declared area_m2 (SPEC S9: 5 %).
	AreaTolerance = 0.05
	// Tolerance is the distance in degrees under which a point counts as lying on an
	// edge (about 0.1 mm on the ground), for self-intersection and overlap tests.
	Tolerance = 1e-9
	// MeanEarthRadius is the WGS84 mean radius R1 = (2a + b) / 3 in metres, the sphere
	// on which AreaM2 measures. The authalic (equal-area) radius is 1.6 m shorter, a
	// relative difference in area of 5·10⁻⁷, far inside AreaTolerance.
	MeanEarthRadius = 6371008.8
)

// boundaryPointer is the JSON pointer of the boundary member in a create request.
const boundaryPointer = "/parcel/boundary"

// Boundary is a parcel's boundary: a valid GeoJSON Polygon with one closed,
// counterclockwise exterior ring of [longitude, latitude] WGS84 positions that does
// not intersect itself. The zero value is not a valid boundary; make one with
// ParseBoundary. A Boundary is immutable and safe for concurrent use.
type Boundary struct {
	ring  orb.Ring   // closed (first == last), counterclockwise, no holes
	bound orb.Bound  // the ring's bounding box
	edges *edgeIndex // the ring's edges sorted by longitude, for the geometric tests
}

// ParseBoundary parses and validates the GeoJSON Polygon in raw, the parcel.boundary
// member of a create request. Empty raw or the literal null means no boundary and
// returns (nil, nil).
//
// Every refusal is a *veriland.Error (or a veriland.Errors list, one per offending
// position number) with a JSON pointer under /parcel/boundary: validation_failed,
// or unknown_field for a member other than type and coordinates. It refuses: anything
// but an object {"type": "Polygon", "coordinates": [[[lon, lat], …]]}; holes; positions
// that are not two finite numbers within [-180, 180] × [-90, 90]; rings of fewer than
// four positions, not closed, with a position repeating the previous one, with more
// than MaxBoundaryVertices vertices, crossing the antimeridian, or intersecting or
// touching themselves.
func ParseBoundary(raw json.RawMessage) (*Boundary, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return nil, nil
	}
	members, err := boundaryMembers(trimmed)
	if err != nil {
		return nil, err
	}
	typ, ok := members["type"]
	if !ok {
		return nil, veriland.Invalid(boundaryPointer+"/type", "a GeoJSON Polygon needs a type member")
	}
	var name string
	if json.Unmarshal(typ, &name) != nil || name != "Polygon" {
		return nil, veriland.Invalid(boundaryPointer+"/type", `type must be "Polygon"`)
	}
	coords, ok := members["coordinates"]
	if !ok {
		return nil, veriland.Invalid(boundaryPointer+"/coordinates", "a GeoJSON Polygon needs a coordinates member")
	}
	ring, err := parseRings(coords)
	if err != nil {
		return nil, err
	}
	edges, err := checkRing(ring)
	if err != nil {
		return nil, err
	}
	if ring.Orientation() == orb.CW { // reverse, keeping the first position first
		for i, j := 1, len(ring)-2; i < j; i, j = i+1, j-1 {
			ring[i], ring[j] = ring[j], ring[i]
		}
		edges = newEdgeIndex(ring) // edge numbers changed
	}
	return &Boundary{ring: ring, bound: ring.Bound(), edges: edges}, nil
}

// boundaryMembers reads the top-level object of a boundary, refusing a non-object,
// unknown and duplicate members, and trailing data.
func boundaryMembers(raw []byte) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	notObject := veriland.Invalid(boundaryPointer, "boundary must be a GeoJSON Polygon object")
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, notObject
	}
	members := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, notObject
		}
		key, _ := tok.(string)
		pointer := boundaryPointer + "/" + escapePointerToken(key)
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, veriland.Invalid(pointer, "not valid JSON")
		}
		switch key {
		case "type", "coordinates":
		default:
			return nil, &veriland.Error{Code: veriland.CodeUnknownField, Pointer: pointer,
				Message: fmt.Sprintf("unknown member %q: a boundary has only type and coordinates", key)}
		}
		if _, dup := members[key]; dup {
			return nil, veriland.Invalid(pointer, "member %q appears twice", key)
		}
		members[key] = value
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return nil, notObject
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, notObject
	}
	return members, nil
}

// maxPositionErrors caps the per-number errors one boundary can produce.
const maxPositionErrors = 10

// parseRings reads the coordinates member: exactly one ring of [lon, lat] positions,
// each a pair of finite numbers in range. It checks the ring's length before reading
// its positions, so an oversized ring costs no more than its JSON decoding.
func parseRings(raw json.RawMessage) (orb.Ring, error) {
	ptr := boundaryPointer + "/coordinates"
	var rings []json.RawMessage
	if json.Unmarshal(raw, &rings) != nil || rings == nil {
		return nil, veriland.Invalid(ptr, "coordinates must be an array of linear rings")
	}
	switch {
	case len(rings) == 0:
		return nil, veriland.Invalid(ptr, "a Polygon needs an exterior ring")
	case len(rings) > 1:
		return nil, veriland.Invalid(ptr+"/1", "holes are not accepted: a boundary is one exterior ring (an enclave is its own parcel)")
	}
	if ring := fastRing(rings[0]); ring != nil {
		return ring, nil
	}
	ptr += "/0"
	var positions []json.RawMessage
	if json.Unmarshal(rings[0], &positions) != nil || positions == nil {
		return nil, veriland.Invalid(ptr, "a linear ring must be an array of positions")
	}
	if len(positions) < 4 {
		return nil, veriland.Invalid(ptr, "a linear ring needs at least 4 positions (3 vertices and the closing position), got %d", len(positions))
	}
	if len(positions) > MaxBoundaryVertices+1 {
		return nil, veriland.Invalid(ptr, "a boundary has at most %d vertices, got %d positions", MaxBoundaryVertices, len(positions))
	}
	ring := make(orb.Ring, len(positions))
	var errs veriland.Errors
	for i, p := range positions {
		pptr := ptr + "/" + strconv.Itoa(i)
		var nums []json.RawMessage
		if json.Unmarshal(p, &nums) != nil || nums == nil {
			errs = append(errs, veriland.Invalid(pptr, "a position must be an array [longitude, latitude]"))
		} else if len(nums) != 2 {
			errs = append(errs, veriland.Invalid(pptr, "a position must be exactly [longitude, latitude], got %d numbers", len(nums)))
		} else {
			for axis, limit := range [2]float64{180, 90} {
				v, err := boundaryCoordinate(nums[axis], limit, pptr+"/"+strconv.Itoa(axis))
				if err != nil {
					errs = append(errs, err)
				}
				ring[i][axis] = v
			}
		}
		if len(errs) >= maxPositionErrors {
			break
		}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return ring, nil
}

// fastRing decodes a well-formed ring in one call, for the common case (and for
// boundaries read back from storage); it returns nil for anything else, which the
// position-by-position path then reports with pointers. Decoding into float64 refuses
// strings, booleans and out-of-range exponents but silently skips null, so a ring
// with a null anywhere takes the slow path.
func fastRing(raw json.RawMessage) orb.Ring {
	var positions [][]float64
	if bytes.Contains(raw, []byte("null")) || json.Unmarshal(raw, &positions) != nil ||
		len(positions) < 4 || len(positions) > MaxBoundaryVertices+1 {
		return nil
	}
	ring := make(orb.Ring, len(positions))
	for i, p := range positions {
		if len(p) != 2 || p[0] < -180 || p[0] > 180 || p[1] < -90 || p[1] > 90 {
			return nil
		}
		for axis, v := range p {
			if v == 0 {
				v = 0 // -0 and 0 are one position
			}
			ring[i][axis] = v
		}
	}
	return ring
}

// boundaryCoordinate reads one longitude (limit 180) or latitude (limit 90).
func boundaryCoordinate(raw json.RawMessage, limit float64, ptr string) (float64, *veriland.Error) {
	what := "longitude"
	if limit == 90 {
		what = "latitude"
	}
	s := string(bytes.TrimSpace(raw))
	if s == "" || !(s[0] == '-' || (s[0] >= '0' && s[0] <= '9')) {
		return 0, veriland.Invalid(ptr, "%s must be a number", what)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, veriland.Invalid(ptr, "%s must be a finite number", what)
	}
	if v < -limit || v > limit {
		return 0, veriland.Invalid(ptr, "%s must be within [-%g, %g], got %g", what, limit, limit, v)
	}
	if v == 0 {
		v = 0 // -0 and 0 are one position
	}
	return v, nil
}

// checkRing checks the ring's topology: closed, no repeated consecutive positions, no
// antimeridian crossing, no self-intersection or self-touch, positive area. It returns
// the ring's edge index, built for the self-intersection test.
func checkRing(r orb.Ring) (*edgeIndex, error) {
	ptr := boundaryPointer + "/coordinates/0/"
	n := len(r) - 1 // edges; vertices are r[0..n-1]
	if r[0] != r[n] {
		return nil, veriland.Invalid(ptr+strconv.Itoa(n), "the ring is not closed: the last position must equal the first")
	}
	for i := 1; i <= n; i++ {
		if r[i] == r[i-1] {
			return nil, veriland.Invalid(ptr+strconv.Itoa(i), "position repeats the previous one")
		}
		if math.Abs(r[i][0]-r[i-1][0]) > 180 {
			return nil, veriland.Invalid(ptr+strconv.Itoa(i), "the edge to this position crosses the antimeridian: split the parcel or use positions on one side")
		}
	}
	edges := newEdgeIndex(r)
	if i, j, ok := selfIntersection(r, edges); ok {
		return nil, veriland.Invalid(ptr+strconv.Itoa(j), "the ring intersects itself: the edge ending here meets the edge ending at position %d", i).
			WithMeta("edges", []int{i, j})
	}
	if r.Orientation() == 0 {
		return nil, veriland.Invalid(boundaryPointer+"/coordinates/0", "the ring encloses no area")
	}
	return edges, nil
}

// selfIntersection finds two edges of the closed ring r that meet other than where
// adjacent edges share their one common vertex. Edges are numbered by the index of
// their end position (edge k runs r[k-1] → r[k], k = 1..n); it returns the two edge
// numbers, lowest first. Each edge is tested only against the edges idx finds near it
// in longitude.
func selfIntersection(r orb.Ring, idx *edgeIndex) (int, int, bool) {
	n := len(r) - 1
	// Adjacent edges share a vertex and may only fold back onto each other.
	for a := 1; a <= n; a++ {
		b := a%n + 1 // the edge after a
		v := r[a]
		if foldsBack(v, r[a-1], r[b]) {
			return min(a, b), max(a, b), true
		}
	}
	for a := 1; a <= n; a++ {
		p, q := r[a-1], r[a]
		first := 0 // the lowest edge after a that meets it
		idx.near(math.Min(p[0], q[0]), math.Max(p[0], q[0]), func(b int) bool {
			if b > a+1 && !(a == 1 && b == n) && (first == 0 || b < first) && segmentsMeet(p, q, r[b-1], r[b]) {
				first = b
			}
			return false
		})
		if first != 0 {
			return a, first, true
		}
	}
	return 0, 0, false
}

// edgeIndex orders a ring's edges by their western end, so that the edges that may
// meet a longitude interval are found by binary search instead of a scan of all. The
// few edges much wider than the others (a parcel's long straight side next to many
// short surveyed ones) are kept apart and always visited, so that they do not widen
// every search.
type edgeIndex struct {
	ring     orb.Ring
	order    []int     // edge numbers k (edge k runs ring[k-1] → ring[k]), by minX
	minX     []float64 // minX of order[i], ascending
	maxWidth float64   // the widest indexed edge's extent in longitude
	wide     []int     // edges wider than maxWidth, visited by every search
}

// newEdgeIndex indexes the edges of the closed ring r.
func newEdgeIndex(r orb.Ring) *edgeIndex {
	n := len(r) - 1
	width := func(k int) float64 { return math.Abs(r[k][0] - r[k-1][0]) }
	widths := make([]float64, n)
	for k := 1; k <= n; k++ {
		widths[k-1] = width(k)
	}
	slices.Sort(widths)
	// Wide means over 4 times the width of the 94th percentile, so at most 1/16 of
	// the edges are wide, and none in a ring of similar edges.
	limit := 4 * widths[n-1-n/16]
	idx := &edgeIndex{ring: r}
	for k := 1; k <= n; k++ {
		if w := width(k); w > limit {
			idx.wide = append(idx.wide, k)
		} else {
			idx.order = append(idx.order, k)
			idx.maxWidth = math.Max(idx.maxWidth, w)
		}
	}
	minX := func(k int) float64 { return math.Min(r[k-1][0], r[k][0]) }
	slices.SortFunc(idx.order, func(a, b int) int { return cmp.Compare(minX(a), minX(b)) })
	idx.minX = make([]float64, len(idx.order))
	for i, k := range idx.order {
		idx.minX[i] = minX(k)
	}
	return idx
}

// near calls fn with each edge whose longitude extent may come within Tolerance of
// [x0, x1] (and with every wide edge), until fn returns true; it reports whether fn
// did.
func (idx *edgeIndex) near(x0, x1 float64, fn func(k int) bool) bool {
	for _, k := range idx.wide {
		if fn(k) {
			return true
		}
	}
	from, _ := slices.BinarySearch(idx.minX, x0-idx.maxWidth-Tolerance)
	for i := from; i < len(idx.minX) && idx.minX[i] <= x1+Tolerance; i++ {
		k := idx.order[i]
		if math.Max(idx.ring[k-1][0], idx.ring[k][0])+Tolerance < x0 {
			continue
		}
		if fn(k) {
			return true
		}
	}
	return false
}

// foldsBack reports whether two edges v→a and v→b sharing vertex v overlap beyond v:
// they are collinear and leave v in the same direction.
func foldsBack(v, a, b orb.Point) bool {
	if side(v, a, b) != 0 {
		return false
	}
	return (a[0]-v[0])*(b[0]-v[0])+(a[1]-v[1])*(b[1]-v[1]) > 0
}

// side is the orientation of c relative to the directed line a→b: +1 left, -1 right,
// 0 within Tolerance of the line.
func side(a, b, c orb.Point) int {
	dx, dy := b[0]-a[0], b[1]-a[1]
	cross := dx*(c[1]-a[1]) - dy*(c[0]-a[0])
	if math.Abs(cross) <= Tolerance*math.Hypot(dx, dy) {
		return 0
	}
	if cross > 0 {
		return 1
	}
	return -1
}

// within reports whether c, known to be on the line a→b, lies on the segment a–b
// (Tolerance included).
func within(a, b, c orb.Point) bool {
	return c[0] >= math.Min(a[0], b[0])-Tolerance && c[0] <= math.Max(a[0], b[0])+Tolerance &&
		c[1] >= math.Min(a[1], b[1])-Tolerance && c[1] <= math.Max(a[1], b[1])+Tolerance
}

// boxesApart reports whether the bounding boxes of segments p–q and s–t are further
// apart than Tolerance, which rules out any contact.
func boxesApart(p, q, s, t orb.Point) bool {
	return math.Max(p[0], q[0])+Tolerance < math.Min(s[0], t[0]) ||
		math.Max(s[0], t[0])+Tolerance < math.Min(p[0], q[0]) ||
		math.Max(p[1], q[1])+Tolerance < math.Min(s[1], t[1]) ||
		math.Max(s[1], t[1])+Tolerance < math.Min(p[1], q[1])
}

// segmentsMeet reports whether segments p–q and s–t have any point in common:
// a proper crossing, an endpoint on the other segment, or a collinear overlap.
func segmentsMeet(p, q, s, t orb.Point) bool {
	if boxesApart(p, q, s, t) {
		return false
	}
	d1, d2 := side(s, t, p), side(s, t, q)
	d3, d4 := side(p, q, s), side(p, q, t)
	if d1*d2 < 0 && d3*d4 < 0 {
		return true
	}
	return (d1 == 0 && within(s, t, p)) || (d2 == 0 && within(s, t, q)) ||
		(d3 == 0 && within(p, q, s)) || (d4 == 0 && within(p, q, t))
}

// segmentsCross reports whether segments p–q and s–t cross properly: each passes
// strictly from one side of the other's line to the other side, so they meet at one
// point inside both.
func segmentsCross(p, q, s, t orb.Point) bool {
	if boxesApart(p, q, s, t) {
		return false
	}
	return side(s, t, p)*side(s, t, q) < 0 && side(p, q, s)*side(p, q, t) < 0
}

// AreaM2 returns the boundary's area in square metres on the sphere of radius
// MeanEarthRadius. It is orb/geo.Area (which measures on orb.EarthRadius, the WGS84
// equatorial radius) rescaled to the mean radius.
func (b *Boundary) AreaM2() float64 {
	scale := MeanEarthRadius / orb.EarthRadius
	return geo.Area(b.ring) * scale * scale
}

// CheckArea checks that the boundary's spherical area agrees with the declared
// area_m2 within AreaTolerance (5 %) of area_m2. A disagreement is validation_failed
// at /parcel/area_m2 with meta declaredAreaM2 and boundaryAreaM2 (rounded to 0.01 m²).
// A nil boundary always agrees.
func CheckArea(b *Boundary, areaM2 float64) error {
	if b == nil {
		return nil
	}
	measured := b.AreaM2()
	if areaM2 > 0 && math.Abs(measured-areaM2) <= AreaTolerance*areaM2 {
		return nil
	}
	return veriland.Invalid("/parcel/area_m2",
		"area_m2 %g disagrees with the boundary's area of %.2f m² by more than %g %%", areaM2, measured, AreaTolerance*100).
		WithMeta("declaredAreaM2", areaM2).
		WithMeta("boundaryAreaM2", math.Round(measured*100)/100)
}

// OverlapError is the parcel_overlap error (409) for a boundary that overlaps the
// boundary of the CURRENT certified parcel parcelID: pointer /parcel/boundary, meta
// parcelId. It names only the other parcel's id, never its owner.
func OverlapError(parcelID string) *veriland.Error {
	return (&veriland.Error{Code: veriland.CodeParcelOverlap, Pointer: boundaryPointer,
		Message: fmt.Sprintf("the boundary overlaps the boundary of certified parcel %s", parcelID)}).
		WithMeta("parcelId", parcelID)
}

// Bound returns the boundary's bounding box in degrees (min and max [lon, lat]), for
// callers that index boundaries or skip distant ones before calling Overlaps.
func (b *Boundary) Bound() orb.Bound { return b.bound }

// Ring returns a copy of the boundary's closed, counterclockwise exterior ring.
func (b *Boundary) Ring() orb.Ring { return b.ring.Clone() }

// Equal reports whether two boundaries have the same normalised ring.
func (b *Boundary) Equal(o *Boundary) bool {
	if b == nil || o == nil {
		return b == o
	}
	return b.ring.Equal(o.ring)
}

// Overlaps reports whether the interiors of b and o intersect, that is whether some
// area of land would lie in both parcels. Boundaries that only touch, along edges or
// at points (neighbouring parcels), do not overlap; identical boundaries do, as does a
// boundary inside another.
//
// The test is planar in longitude/latitude, adequate for parcel-sized polygons that do
// not cross the antimeridian (which ParseBoundary refuses). Two edges crossing
// properly mean an overlap. Otherwise the boundaries meet only at points and along
// shared stretches, so each edge is split at the other boundary's vertices that lie on
// it, and each piece is wholly inside, outside or on the other boundary: the midpoint
// of a piece strictly inside the other polygon (further than Tolerance from its
// boundary, and contained by orb/planar.RingContains) means an overlap. A boundary all
// of whose pieces lie on the other boundary is the same boundary. After a
// bounding-box rejection, edges are matched through an index sorted by longitude, and
// the point-in-polygon test runs only where the boundaries touch: about a millisecond
// for two 1000-vertex parcels that share a 997-edge border (BenchmarkOverlaps).
func (b *Boundary) Overlaps(o *Boundary) bool {
	if b == nil || o == nil || len(b.ring) == 0 || len(o.ring) == 0 || boundsApart(b.bound, o.bound) {
		return false // a nil or zero Boundary is no land at all
	}
	r, s := b.ring, o.ring
	for i := 1; i < len(r); i++ {
		p, q := r[i-1], r[i]
		if !segmentTouchesBound(p, q, o.bound) {
			continue
		}
		crosses := o.edges.near(math.Min(p[0], q[0]), math.Max(p[0], q[0]), func(j int) bool {
			return segmentsCross(p, q, s[j-1], s[j])
		})
		if crosses {
			return true
		}
	}
	inside, allOn := piecesInside(b, o)
	if inside || allOn { // ∂b ⊆ ∂o for two simple rings means b and o are the same polygon
		return true
	}
	inside, _ = piecesInside(o, b)
	return inside
}

// boundsApart reports whether two bounding boxes share no area (touching boxes are
// apart: polygons inside them can only touch).
func boundsApart(a, b orb.Bound) bool {
	return a.Max[0] <= b.Min[0]+Tolerance || b.Max[0] <= a.Min[0]+Tolerance ||
		a.Max[1] <= b.Min[1]+Tolerance || b.Max[1] <= a.Min[1]+Tolerance
}

// segmentTouchesBound reports whether the bounding box of p–q meets bound.
func segmentTouchesBound(p, q orb.Point, bound orb.Bound) bool {
	return math.Max(p[0], q[0])+Tolerance >= bound.Min[0] && math.Min(p[0], q[0])-Tolerance <= bound.Max[0] &&
		math.Max(p[1], q[1])+Tolerance >= bound.Min[1] && math.Min(p[1], q[1])-Tolerance <= bound.Max[1]
}

// Where a piece of one boundary lies relative to the other polygon.
const (
	pieceUnknown = iota
	pieceOutside
	pieceOn
	pieceInside
)

// piecesInside splits each edge of b's ring at the vertices of o's ring lying on it
// and classifies each piece against o: it reports whether some piece lies strictly
// inside o, and whether every piece lies on o's boundary. It assumes no edge of b
// crosses an edge of o properly, so a piece can only change sides at a point on o's
// boundary: a piece that starts off o's boundary lies where the piece before it lay,
// and the costly point-in-polygon test runs only after a contact.
func piecesInside(b, o *Boundary) (inside, allOn bool) {
	r, s := b.ring, o.ring
	allOn = true
	last := pieceUnknown
	var cuts []float64
	for i := 1; i < len(r); i++ {
		p, q := r[i-1], r[i]
		if !segmentTouchesBound(p, q, o.bound) {
			allOn, last = false, pieceOutside // wholly outside o's bounding box
			continue
		}
		dx, dy := q[0]-p[0], q[1]-p[1]
		length2 := dx*dx + dy*dy
		x0, x1 := math.Min(p[0], q[0]), math.Max(p[0], q[0])
		y0, y1 := math.Min(p[1], q[1]), math.Max(p[1], q[1])
		cuts = append(cuts[:0], 0, 1)
		o.edges.near(x0, x1, func(k int) bool {
			v := s[k-1] // each vertex of o starts exactly one edge
			if v[0] < x0-Tolerance || v[0] > x1+Tolerance || v[1] < y0-Tolerance || v[1] > y1+Tolerance || side(p, q, v) != 0 {
				return false
			}
			if t := ((v[0]-p[0])*dx + (v[1]-p[1])*dy) / length2; t > 0 && t < 1 {
				cuts = append(cuts, t)
			}
			return false
		})
		sortCuts(cuts)
		for k := 1; k < len(cuts); k++ {
			if cuts[k] == cuts[k-1] {
				continue
			}
			// A piece's start is on o's boundary when it is a vertex of o (k > 1) or
			// a vertex of b lying on o's boundary.
			if last == pieceUnknown || last == pieceOn || k > 1 || onRing(o, p) {
				t := (cuts[k-1] + cuts[k]) / 2
				m := orb.Point{p[0] + t*dx, p[1] + t*dy}
				switch {
				case onRing(o, m):
					last = pieceOn
				case planar.RingContains(s, m):
					last = pieceInside
				default:
					last = pieceOutside
				}
			}
			if last == pieceInside {
				return true, false
			}
			if last != pieceOn {
				allOn = false
			}
		}
	}
	return false, allOn
}

// onRing reports whether m lies within Tolerance of an edge of o's ring.
func onRing(o *Boundary, m orb.Point) bool {
	s := o.ring
	return o.edges.near(m[0], m[0], func(j int) bool {
		a, c := s[j-1], s[j]
		if m[1] < math.Min(a[1], c[1])-Tolerance || m[1] > math.Max(a[1], c[1])+Tolerance {
			return false
		}
		return side(a, c, m) == 0
	})
}

// sortCuts sorts a short slice in place (insertion sort: the cut lists hold a
// handful of values, and this avoids an allocation per edge).
func sortCuts(a []float64) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// MarshalJSON writes the normalised GeoJSON Polygon: {"type":"Polygon","coordinates":
// [[[lon,lat],…]]}, the ring closed and counterclockwise, each number in its shortest
// form that parses back to the same float64. ParseBoundary of the output gives an
// equal Boundary.
func (b *Boundary) MarshalJSON() ([]byte, error) {
	if b == nil {
		return []byte("null"), nil
	}
	if len(b.ring) == 0 {
		return nil, errors.New("parcel: marshalling the zero Boundary, which ParseBoundary never returns")
	}
	var sb strings.Builder
	sb.Grow(32 + 40*len(b.ring))
	sb.WriteString(`{"type":"Polygon","coordinates":[[`)
	for i, p := range b.ring {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteByte('[')
		sb.WriteString(strconv.FormatFloat(p[0], 'g', -1, 64))
		sb.WriteByte(',')
		sb.WriteString(strconv.FormatFloat(p[1], 'g', -1, 64))
		sb.WriteByte(']')
	}
	sb.WriteString(`]]}`)
	return []byte(sb.String()), nil
}

// UnmarshalJSON parses a boundary with ParseBoundary, so that a stored Boundary reads
// back through encoding/json with the same checks.
func (b *Boundary) UnmarshalJSON(data []byte) error {
	parsed, err := ParseBoundary(data)
	if err != nil {
		return err
	}
	if parsed == nil {
		return veriland.Invalid(boundaryPointer, "boundary is null")
	}
	*b = *parsed
	return nil
}

// escapePointerToken escapes a member name for use in a JSON pointer (RFC 6901).
func escapePointerToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
