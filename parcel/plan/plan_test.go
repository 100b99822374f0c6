package plan_test

import (
	"encoding/xml"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geo"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/parcel/plan"
)

// lagos is a 5-corner parcel of about 40 m × 30 m in Lagos (lon, lat).
var lagos = [][2]float64{{3.3790, 6.5240}, {3.37936, 6.5240}, {3.37936, 6.52427}, {3.37918, 6.52440}, {3.3790, 6.52427}, {3.3790, 6.5240}}

// TestOutlineMatchesTheGround checks the drawing against the ground: for every pair
// of the boundary's vertices, the distance on the drawing divided by the scale is the
// great-circle (haversine) distance within one unit of the box (a pixel), north is up
// and east is right.
func TestOutlineMatchesTheGround(t *testing.T) {
	for _, tc := range []struct {
		name string
		ring [][2]float64
		w, h float64
	}{
		{"a house plot in Lagos", lagos, 480, 360},
		{"a farm near Dakar, phone width", [][2]float64{{-17.30, 14.80}, {-17.28, 14.80}, {-17.28, 14.815}, {-17.29, 14.82}, {-17.30, 14.815}}, 320, 320},
		{"a long strip far north (Tromsø)", [][2]float64{{18.90, 69.64}, {18.99, 69.64}, {18.99, 69.645}, {18.90, 69.645}}, 600, 300},
		{"south of the equator (Luanda)", [][2]float64{{13.2890, -8.8395}, {13.2899, -8.8395}, {13.2899, -8.8388}, {13.2890, -8.8388}}, 400, 400},
		{"a 10,000 km² ranch", [][2]float64{{20, -20}, {21, -20}, {21, -19.1}, {20, -19.1}}, 500, 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := plan.Draw(plan.Input{Lat: tc.ring[0][1], Lon: tc.ring[0][0], Boundary: tc.ring}, tc.w, tc.h)
			require.NoError(t, err)
			ring := tc.ring
			if ring[0] == ring[len(ring)-1] {
				ring = ring[:len(ring)-1]
			}
			require.Len(t, p.Outline, len(ring))
			drawn := svgPolygon(t, p.SVG(plan.Labels{Title: "t", North: "N", Scale: "s"}))
			require.Len(t, drawn, len(ring))
			for i := range ring {
				for j := i + 1; j < len(ring); j++ {
					ground := geo.DistanceHaversine(orb.Point(ring[i]), orb.Point(ring[j])) * plan.EarthRadius / orb.EarthRadius
					onPage := math.Hypot(drawn[i].X-drawn[j].X, drawn[i].Y-drawn[j].Y)
					require.InDelta(t, ground*p.UnitsPerMetre, onPage, 1, "vertices %d and %d", i, j)
					// North up, east right.
					if ring[j][1] > ring[i][1]+1e-9 {
						require.Less(t, drawn[j].Y, drawn[i].Y)
					}
					if ring[j][0] > ring[i][0]+1e-9 {
						require.Greater(t, drawn[j].X, drawn[i].X)
					}
				}
			}
			for _, q := range drawn {
				require.True(t, q.X >= 0 && q.X <= tc.w && q.Y >= 0 && q.Y <= tc.h, "vertex %v outside the box", q)
			}
		})
	}
}

// TestScaleBarMatchesItsLabel reads the bar's length and its label from the SVG and
// checks them against each other within 2 %.
func TestScaleBarMatchesItsLabel(t *testing.T) {
	for _, tc := range []struct {
		area  float64
		ring  [][2]float64
		lang  string
		label string
	}{
		{0, lagos, "en", "20 m"},
		{0, lagos, "ar", "20 م"},
		{2_000_000, nil, "fr", "500 m"},
		{5e9, nil, "de", "20 km"},
		{40, nil, "en", "2 m"},
	} {
		p, err := plan.Draw(plan.Input{Lat: 6.5244, Lon: 3.3792, AreaM2: tc.area, Boundary: tc.ring}, 480, 360)
		require.NoError(t, err)
		svg := p.SVG(p.LabelsFor(tc.lang, tc.area))
		var doc node
		require.NoError(t, xml.Unmarshal([]byte(svg), &doc))
		bar := doc.find("plan-scale-bar")
		require.NotNil(t, bar)
		length := num(t, bar.attr("x2")) - num(t, bar.attr("x1"))
		upm, err := strconv.ParseFloat(doc.attr("data-units-per-metre"), 64)
		require.NoError(t, err)
		require.Contains(t, svg, ">"+tc.label+"<")
		labelled := labelMetres(t, tc.label)
		require.InEpsilon(t, labelled, length/upm, 0.02, "the bar says %s and is %.1f units at %.4f units/m", tc.label, length, upm)
		require.Less(t, length, 480*0.3, "the bar fits its box")
		require.Greater(t, length, 480*0.09)
	}
}

func TestCircleOfTheArea(t *testing.T) {
	p, err := plan.Draw(plan.Input{Lat: 9.0765, Lon: 7.3986, AreaM2: 1250}, 400, 300)
	require.NoError(t, err)
	require.Nil(t, p.Outline)
	require.NotNil(t, p.Area)
	r := p.Area.R / p.UnitsPerMetre
	require.InEpsilon(t, 1250, math.Pi*r*r, 1e-9)
	require.True(t, p.MarkerShown)
	require.Equal(t, p.Marker, p.Area.Center)
	svg := p.SVG(p.LabelsFor("pt", 1250))
	require.Contains(t, svg, `id="plan-area"`)
	require.Contains(t, svg, "1.250 m²")
	require.NotContains(t, svg, "plan-boundary")
}

func TestDrawRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   plan.Input
		w, h float64
	}{
		{"tiny box", plan.Input{Lat: 1, Lon: 1, AreaM2: 10}, 10, 300},
		{"NaN box", plan.Input{Lat: 1, Lon: 1, AreaM2: 10}, math.NaN(), 300},
		{"latitude out of range", plan.Input{Lat: 91, Lon: 1, AreaM2: 10}, 300, 300},
		{"NaN longitude", plan.Input{Lat: 1, Lon: math.NaN(), AreaM2: 10}, 300, 300},
		{"no area, no boundary", plan.Input{Lat: 1, Lon: 1}, 300, 300},
		{"infinite area", plan.Input{Lat: 1, Lon: 1, AreaM2: math.Inf(1)}, 300, 300},
		{"two vertices", plan.Input{Lat: 1, Lon: 1, Boundary: [][2]float64{{1, 1}, {1.1, 1}}}, 300, 300},
		{"vertex out of range", plan.Input{Lat: 1, Lon: 1, Boundary: [][2]float64{{1, 1}, {200, 1}, {1, 2}}}, 300, 300},
	} {
		_, err := plan.Draw(tc.in, tc.w, tc.h)
		require.Error(t, err, tc.name)
	}
}

func TestLabelsEscaped(t *testing.T) {
	p, err := plan.Draw(plan.Input{Lat: 1, Lon: 1, AreaM2: 100}, 300, 300)
	require.NoError(t, err)
	svg := p.SVG(plan.Labels{Title: `<script>`, North: `"&`, Scale: "1 m", Description: "</svg>"})
	require.NotContains(t, svg, "<script>")
	require.Equal(t, 1, strings.Count(svg, "</svg>"))
	var doc node
	require.NoError(t, xml.Unmarshal([]byte(svg), &doc))
}

func TestTextOfLengthsAndAreas(t *testing.T) {
	for _, tc := range []struct {
		lang   string
		metres float64
		want   string
	}{
		{"en", 0.5, "0.5 m"}, {"en", 20, "20 m"}, {"en", 1000, "1 km"}, {"fr", 2500, "2,5 km"}, {"ar", 5000, "5 كم"},
	} {
		require.Equal(t, tc.want, plan.LengthText(tc.lang, tc.metres))
	}
	require.Equal(t, "1,250.5 m²", plan.AreaText("en", 1250.5))
	require.Equal(t, "1\u00a0250,25 m²", plan.AreaText("fr", 1250.25))
	require.Equal(t, "0.3 m²", plan.AreaText("en", 0.3))
}

// node is a minimal XML tree to read the SVG back.
type node struct {
	XMLName xml.Name
	Attrs   []xml.Attr `xml:",any,attr"`
	Nodes   []node     `xml:",any"`
}

func (n *node) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func (n *node) find(id string) *node {
	if n.attr("id") == id {
		return n
	}
	for i := range n.Nodes {
		if f := n.Nodes[i].find(id); f != nil {
			return f
		}
	}
	return nil
}

func num(t *testing.T, s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	require.NoError(t, err)
	return v
}

func svgPolygon(t *testing.T, svg string) []plan.Point {
	var doc node
	require.NoError(t, xml.Unmarshal([]byte(svg), &doc))
	poly := doc.find("plan-boundary")
	require.NotNil(t, poly)
	var out []plan.Point
	for pair := range strings.FieldsSeq(poly.attr("points")) {
		x, y, ok := strings.Cut(pair, ",")
		require.True(t, ok)
		out = append(out, plan.Point{X: num(t, x), Y: num(t, y)})
	}
	return out
}

// labelMetres reads a scale label ("500 m", "20 km", "10 م") back in metres.
func labelMetres(t *testing.T, label string) float64 {
	n, unit, _ := strings.Cut(label, " ")
	v := num(t, strings.NewReplacer(",", ".", "\u00a0", "").Replace(n))
	if unit == "km" || unit == "كم" {
		v *= 1000
	}
	return v
}
