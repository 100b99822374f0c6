package sandbox_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/sandbox"
)

// cityCentres are the centres of the seeded parcels' cities ([lat, lon], WGS 84),
// written here apart from the seed so that a parcel placed at the wrong city (Lagos
// at Abuja's longitude, say) fails.
var cityCentres = map[string][2]float64{
	"Abuja":  {9.0765, 7.3986},
	"Kano":   {12.0000, 8.5167},
	"Lagos":  {6.5244, 3.3792},
	"Ibadan": {7.3964, 3.9167},
	"Enugu":  {6.4500, 7.5000},
}

// maxFromCentre is how far from its city's centre a seeded parcel may be.
const maxFromCentre = 30_000.0 // metres

// haversine is the great-circle distance in metres between two [lat, lon] points.
func haversine(a, b [2]float64) float64 {
	const r = 6_371_000.0
	rad := math.Pi / 180
	dLat, dLon := (b[0]-a[0])*rad, (b[1]-a[1])*rad
	h := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(a[0]*rad)*math.Cos(b[0]*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * r * math.Asin(math.Sqrt(h))
}

func TestHaversine(t *testing.T) {
	// Lagos to Abuja is about 525 km as the crow flies.
	require.InDelta(t, 525_000, haversine(cityCentres["Lagos"], cityCentres["Abuja"]), 15_000)
	require.Zero(t, haversine(cityCentres["Kano"], cityCentres["Kano"]))
}

// TestSeededParcelsLieInTheirCities: every parcel the seed makes, and every parcel a
// scenario's request would create, has its GPS point within 30 km of its city's
// centre, and its boundary (when it has one) around that point.
func TestSeededParcelsLieInTheirCities(t *testing.T) {
	w := newSeedWorld(t, true)
	ctx := t.Context()
	st, err := w.seeder.Ensure(ctx, "acct_1")
	require.NoError(t, err)
	agency := veriland.Principal{Subject: "agency-1", Role: veriland.RoleVerifier, Env: veriland.Sandbox, Account: "acct_1"}
	list, _, err := w.parcels.List(ctx, agency, "", 100)
	require.NoError(t, err)
	require.Len(t, list, 5)
	seen := map[string]bool{}
	for _, p := range list {
		centre, ok := cityCentres[p.City]
		require.True(t, ok, "parcel %s is in %q, a city this test has no centre for", p.ID, p.City)
		d := haversine(centre, p.GPS)
		require.LessOrEqual(t, d, maxFromCentre, "parcel %s in %s at %v is %.0f km from the city's centre", p.ID, p.City, p.GPS, d/1000)
		if len(p.Boundary) > 0 {
			var poly struct {
				Coordinates [][][2]float64 `json:"coordinates"`
			}
			require.NoError(t, json.Unmarshal(p.Boundary, &poly))
			for _, ring := range poly.Coordinates {
				for _, v := range ring { // GeoJSON positions are [lon, lat]
					require.LessOrEqual(t, haversine(p.GPS, [2]float64{v[1], v[0]}), 5_000.0,
						"parcel %s: a corner of its boundary %v is far from its point %v", p.ID, v, p.GPS)
				}
			}
		}
		seen[p.City] = true
	}
	require.Len(t, seen, 5, "the seeded parcels' cities: %v", seen)

	n := 0
	for _, sc := range sandbox.Scenarios("http://127.0.0.1:8080", st.Seeded) {
		body, ok := sc.Request.Body.(map[string]any)
		if !ok || sc.Request.Path != "/v1/parcels" {
			continue
		}
		in := body["parcel"].(map[string]any)
		city := in["city"].(string)
		gps := in["gps"].([]float64)
		require.Len(t, gps, 2)
		centre, ok := cityCentres[city]
		require.True(t, ok, "scenario %s is in %q, a city this test has no centre for", sc.ID, city)
		d := haversine(centre, [2]float64{gps[0], gps[1]})
		require.LessOrEqual(t, d, maxFromCentre, "scenario %s in %s at %v is %.0f km from the city's centre", sc.ID, city, gps, d/1000)
		n++
	}
	require.Positive(t, n, "no scenario creates a parcel")
}
