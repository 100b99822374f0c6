package parcel

import (
	"encoding/json"
	"testing"
)

// A boundary entry carries the bounding box in front of the GeoJSON, and a plain
// GeoJSON value (no box) still reads as one.
func TestBoundaryEntry(t *testing.T) {
	raw := json.RawMessage(`{"type":"Polygon","coordinates":[[[3.30,6.50],[3.31,6.50],[3.31,6.51],[3.30,6.51],[3.30,6.50]]]}`)
	b, err := ParseBoundary(raw)
	if err != nil {
		t.Fatal(err)
	}
	box, geo, ok := splitBoundaryEntry(boundaryEntry(b, raw))
	if !ok || box != b.Bound() || string(geo) != string(raw) {
		t.Fatalf("split = %v %q %v; want %v and the GeoJSON", box, geo, ok, b.Bound())
	}
	if _, geo, ok := splitBoundaryEntry(raw); ok || string(geo) != string(raw) {
		t.Fatalf("plain GeoJSON read as an entry with a box")
	}
}
