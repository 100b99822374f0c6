// Package plan draws a land parcel the way a surveyor's sketch does: its boundary
// polygon (or, for a parcel known only by a GPS point and an area, a circle of that
// area around the point), north up, with a scale bar and a north arrow. No map
// tiles and no network: the drawing is computed from the certificate's own numbers,
// so the verification page and the PDF certificate show the same land offline.
//
// Draw projects the parcel onto a plane tangent at its centre (an equirectangular
// projection about the centre's latitude: x = R·Δλ·cos φ₀, y = R·Δφ, on the sphere
// of parcel.MeanEarthRadius). For anything the size of a land parcel (up to tens of
// kilometres across) distances on the drawing match great-circle distances to far
// better than a pixel, which the tests check against the haversine distance. The
// drawing is scaled to fit a box with a margin, never stretched: one unit of the
// box is the same number of metres across and down.
//
// The scale bar is a round length (1, 2 or 5 × 10ⁿ metres) close to a quarter of
// the box's width, labelled in metres below 1 km and in kilometres above; its drawn
// length is exactly that many metres at the drawing's scale.
//
// A Plan is geometry in the caller's units (CSS pixels for SVG, millimetres for a
// PDF), y growing downwards. SVG renders it as an inline <svg> element (numbers and
// escaped labels only, no script, no style attribute, so it fits a strict
// Content-Security-Policy); the PDF renderer draws the same geometry as vector
// paths.
package plan
