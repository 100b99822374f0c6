package plan

import (
	"errors"
	"fmt"
	"math"
)

// EarthRadius is the radius of the sphere the projection uses, in metres: the WGS84
// mean radius, as parcel.MeanEarthRadius (the sphere the registry measures areas on).
const EarthRadius = 6371008.8

// Point is a position on the drawing, in the box's units, y growing downwards.
type Point struct{ X, Y float64 }

// Input is what the drawing shows: the parcel's GPS point, its area, and its
// boundary when one was surveyed.
type Input struct {
	// Lat and Lon are the parcel's GPS point in WGS84 degrees.
	Lat, Lon float64
	// AreaM2 is the parcel's area in square metres; without a boundary it is drawn
	// as a circle of that area around the GPS point.
	AreaM2 float64
	// Boundary is the boundary's exterior ring as [longitude, latitude] positions
	// (GeoJSON order), closed or not; nil or empty for a parcel without one.
	Boundary [][2]float64
}

// Circle is a circle on the drawing.
type Circle struct {
	Center Point
	R      float64
}

// ScaleBar is a horizontal bar from Start, Length units long, that stands for
// Metres on the ground.
type ScaleBar struct {
	Start  Point
	Length float64
	Metres float64
}

// Arrow is a north arrow: its tip at Tip, Size units tall, pointing up.
type Arrow struct {
	Tip  Point
	Size float64
}

// Plan is a parcel's drawing in a Width × Height box.
type Plan struct {
	Width, Height float64
	// Outline is the boundary's vertices on the drawing, in the ring's order and
	// without the closing repeat; nil for a parcel without a boundary.
	Outline []Point
	// Area is the circle of the parcel's area around its GPS point, drawn when it has
	// no boundary (nil otherwise).
	Area *Circle
	// Marker is the GPS point; MarkerShown is false when it falls outside the box
	// (a GPS point far from the surveyed boundary).
	Marker      Point
	MarkerShown bool
	Scale       ScaleBar
	North       Arrow
	// UnitsPerMetre is the drawing's scale: one metre on the ground is this many
	// units of the box, across and down alike.
	UnitsPerMetre float64
	// Origin is the point of the ground that the projection is centred on.
	OriginLat, OriginLon float64
}

// Errors returned by Draw.
var (
	ErrBox      = errors.New("plan: the box must be at least 40 × 40 units")
	ErrPosition = errors.New("plan: a position is not a finite WGS84 latitude and longitude")
	ErrArea     = errors.New("plan: a parcel without a boundary needs a positive, finite area")
)

// Layout of the box, as fractions of its smaller side.
const (
	marginFrac = 0.08 // around the parcel
	footerFrac = 0.16 // kept free at the bottom for the scale bar
	arrowFrac  = 0.14 // the north arrow's height
)

// Draw computes the drawing of in in a width × height box.
func Draw(in Input, width, height float64) (*Plan, error) {
	if !(width >= 40 && height >= 40) || math.IsInf(width, 0) || math.IsInf(height, 0) {
		return nil, ErrBox
	}
	if !validPosition(in.Lat, in.Lon) {
		return nil, ErrPosition
	}
	ring := in.Boundary
	if n := len(ring); n > 1 && ring[0] == ring[n-1] {
		ring = ring[:n-1]
	}
	for _, p := range ring {
		if !validPosition(p[1], p[0]) {
			return nil, ErrPosition
		}
	}
	if len(ring) > 0 && len(ring) < 3 {
		return nil, fmt.Errorf("plan: a boundary needs at least 3 distinct vertices, has %d", len(ring))
	}
	if len(ring) == 0 && !(in.AreaM2 > 0 && !math.IsInf(in.AreaM2, 0)) {
		return nil, ErrArea
	}

	p := &Plan{Width: width, Height: height}
	side := math.Min(width, height)
	margin := marginFrac * side
	footer := footerFrac * side
	// The parcel's extent on the ground, in metres about the origin.
	var minX, minY, maxX, maxY float64
	if len(ring) > 0 {
		minLon, maxLon, minLat, maxLat := ring[0][0], ring[0][0], ring[0][1], ring[0][1]
		for _, q := range ring[1:] {
			minLon, maxLon = math.Min(minLon, q[0]), math.Max(maxLon, q[0])
			minLat, maxLat = math.Min(minLat, q[1]), math.Max(maxLat, q[1])
		}
		p.OriginLat, p.OriginLon = (minLat+maxLat)/2, (minLon+maxLon)/2
		minX, minY = p.ground(minLat, minLon)
		maxX, maxY = p.ground(maxLat, maxLon)
	} else {
		p.OriginLat, p.OriginLon = in.Lat, in.Lon
		r := math.Sqrt(in.AreaM2 / math.Pi)
		minX, minY, maxX, maxY = -r, -r, r, r
	}
	spanX, spanY := math.Max(maxX-minX, 1e-3), math.Max(maxY-minY, 1e-3)
	availW, availH := width-2*margin, height-2*margin-footer
	p.UnitsPerMetre = math.Min(availW/spanX, availH/spanY)
	// Centre the parcel in the space above the footer.
	cx, cy := (minX+maxX)/2, (minY+maxY)/2
	offX := width/2 - cx*p.UnitsPerMetre
	offY := margin + availH/2 + cy*p.UnitsPerMetre
	toBox := func(lat, lon float64) Point {
		x, y := p.ground(lat, lon)
		return Point{X: offX + x*p.UnitsPerMetre, Y: offY - y*p.UnitsPerMetre}
	}
	for _, q := range ring {
		p.Outline = append(p.Outline, toBox(q[1], q[0]))
	}
	p.Marker = toBox(in.Lat, in.Lon)
	p.MarkerShown = p.Marker.X >= 0 && p.Marker.X <= width && p.Marker.Y >= 0 && p.Marker.Y <= height
	if len(ring) == 0 {
		p.Area = &Circle{Center: p.Marker, R: math.Sqrt(in.AreaM2/math.Pi) * p.UnitsPerMetre}
	}

	metres := roundLength(width / 4 / p.UnitsPerMetre)
	p.Scale = ScaleBar{Start: Point{X: margin, Y: height - margin}, Length: metres * p.UnitsPerMetre, Metres: metres}
	size := arrowFrac * side
	p.North = Arrow{Tip: Point{X: width - margin - size/4, Y: margin}, Size: size}
	return p, nil
}

// ground returns the position of (lat, lon) in metres east and north of the origin.
func (p *Plan) ground(lat, lon float64) (x, y float64) {
	rad := math.Pi / 180
	dLon := lon - p.OriginLon
	return EarthRadius * dLon * rad * math.Cos(p.OriginLat*rad), EarthRadius * (lat - p.OriginLat) * rad
}

// roundLength returns the largest of 1, 2 and 5 × 10ⁿ metres not longer than m
// (and at least 1 cm).
func roundLength(m float64) float64 {
	if !(m > 0.01) {
		return 0.01
	}
	pow := math.Pow(10, math.Floor(math.Log10(m)))
	for _, f := range []float64{5, 2, 1} {
		if f*pow <= m*(1+1e-12) {
			return f * pow
		}
	}
	return pow
}

func validPosition(lat, lon float64) bool {
	return lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180
}
