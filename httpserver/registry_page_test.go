package httpserver

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/registrypage"
	"github.com/veriland/veriland/internal/catalogue"
	"github.com/veriland/veriland/parcel"
)

// browserAccept is what a browser sends when it opens the page from a QR code.
const browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

// surveyedRing is a five-cornered boundary around the GPS point of parcelBody (in
// Abuja), [lon, lat] as GeoJSON writes it.
var surveyedRing = [][2]float64{{7.39845, 9.07635}, {7.39875, 9.07635}, {7.39875, 9.07665}, {7.3986, 9.0768}, {7.39845, 9.07665}, {7.39845, 9.07635}}

// surveyedParcelBody is parcelBody with surveyedRing as its boundary and its area.
func surveyedParcelBody(t *testing.T, notary string) string {
	t.Helper()
	boundary, err := json.Marshal(map[string]any{"type": "Polygon", "coordinates": [][][2]float64{surveyedRing}})
	require.NoError(t, err)
	b, err := parcel.ParseBoundary(boundary)
	require.NoError(t, err)
	return fmt.Sprintf(`{"owner":{"fullName":%q,"id_doc":%q},"parcel":{"gps":[9.0765,7.3986],"area_m2":%.2f,"city":"Abuja","boundary":%s},"notary":%q}`,
		ownerName, ownerIDDoc, b.AreaM2(), boundary, notary)
}

// certifiedParcel makes a parcel of body and certifies it: its certificate hash.
func certifiedParcel(t *testing.T, f *parcelFlow, body string) string {
	t.Helper()
	r := f.h.do(request{method: "POST", path: "/v1/parcels", token: f.agent, body: body})
	require.Equal(t, 201, r.status, string(r.body))
	id := attrs(t, r)["id"].(string)
	return f.post(t, "/v1/parcels/"+id+"/certify", f.notary, nil, 200)["certificateHash"].(string)
}

// TestRegistryPageLanguage: the page's language comes from ?lang=, else
// Accept-Language, else English; it is the page's lang and dir (Arabic right to
// left) and its Content-Language, and the response varies on Accept and
// Accept-Language.
func TestRegistryPageLanguage(t *testing.T) {
	h := newHarness(t)
	f := newParcelFlow(h, veriland.Production)
	hash := certifiedParcel(t, f, parcelBody(parcelNotary))
	unknown := "0x" + strings.Repeat("ab", 32)
	tests := []struct {
		name, hash, query, acceptLanguage, want string
		status                                  int
	}{
		{"default", hash, "", "", "en", 200},
		{"Accept-Language", hash, "", "fr-CA,fr;q=0.9,en;q=0.8", "fr", 200},
		{"Accept-Language, second choice", hash, "", "ja,pt-BR;q=0.7", "pt", 200},
		{"none of ours: English", hash, "", "ja,zh;q=0.9", "en", 200},
		{"?lang= over Accept-Language", hash, "?lang=ar", "de", "ar", 200},
		{"unknown ?lang=: Accept-Language", hash, "?lang=xx", "it", "it", 200},
		{"Arabic, unknown hash", unknown, "?lang=ar", "", "ar", 404},
		{"Spanish, unknown hash", unknown, "", "es", "es", 404},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hdr := map[string]string{"Accept": browserAccept}
			if tt.acceptLanguage != "" {
				hdr["Accept-Language"] = tt.acceptLanguage
			}
			r := h.do(request{method: "GET", path: "/v1/registry/verify/" + tt.hash + tt.query, header: hdr})
			require.Equal(t, tt.status, r.status)
			require.Equal(t, registrypage.MediaType, r.header.Get("Content-Type"))
			require.Equal(t, tt.want, r.header.Get("Content-Language"))
			require.Contains(t, r.header.Values("Vary"), "Accept")
			require.Contains(t, r.header.Values("Vary"), "Accept-Language")
			body := string(r.body)
			require.Contains(t, body, `<html lang="`+tt.want+`" dir="`+catalogue.Dir(tt.want)+`">`)
			verdict := "current"
			if tt.status == 404 {
				verdict = "notFound"
			}
			require.Contains(t, body, `<p id="verdict-text">`+htmlEscape(registrypage.Text(tt.want, "verdict."+verdict+".text"))+`</p>`)
			require.Contains(t, body, `aria-current="page">`+catalogue.Name(tt.want)+`</a>`)
		})
	}
	// JSON does not change with the language.
	r := h.do(request{method: "GET", path: "/v1/registry/verify/" + hash + "?lang=fr", header: map[string]string{"Accept-Language": "fr"}})
	require.Equal(t, 200, r.status)
	require.Equal(t, "CURRENT", attrs(t, r)["status"])
	require.Empty(t, r.header.Get("Content-Language"))
	require.Contains(t, r.header.Values("Vary"), "Accept-Language")
}

// TestRegistryPageMalformedHash: a browser that opens a malformed hash gets a 400
// page in its language saying what a hash looks like; a JSON client gets the same
// validation_failed error as before, whatever its languages.
func TestRegistryPageMalformedHash(t *testing.T) {
	h := newHarness(t)
	newParcelFlow(h, veriland.Production)
	for _, tt := range []struct{ bad, lang string }{
		{"abc", "en"}, {"0x1234", "fr"}, {"0x" + strings.Repeat("g", 64), "ar"}, {strings.Repeat("a", 66), "pt"}, {"0x" + strings.Repeat("a", 65), "de"},
	} {
		t.Run(tt.lang, func(t *testing.T) {
			// The OpenAPI document describes the 400 as JSON only (see the report).
			r := h.do(request{method: "GET", path: "/v1/registry/verify/" + tt.bad + "?lang=" + tt.lang, header: map[string]string{"Accept": browserAccept}})
			require.Equal(t, 400, r.status)
			require.Equal(t, registrypage.MediaType, r.header.Get("Content-Type"))
			require.Equal(t, tt.lang, r.header.Get("Content-Language"))
			require.Equal(t, registrypage.ContentSecurityPolicy(), r.header.Get("Content-Security-Policy"))
			body := string(r.body)
			require.Contains(t, body, `<h1 id="title">`+htmlEscape(registrypage.Text(tt.lang, "verdict.malformed.title"))+`</h1>`)
			require.Contains(t, body, `<code id="hash" dir="ltr">`+tt.bad+`</code>`)
			require.Contains(t, body, htmlEscape(registrypage.Text(tt.lang, "malformed.form")))
			require.NotContains(t, body, "validation_failed")

			for _, hdr := range []map[string]string{nil, {"Accept": "application/json", "Accept-Language": tt.lang}, {"Accept": "application/vnd.api+json"}} {
				r := h.do(request{method: "GET", path: "/v1/registry/verify/" + tt.bad, header: hdr})
				require.Equal(t, 400, r.status)
				require.Empty(t, r.header.Get("Content-Language"))
				errs := r.json(t)["errors"].([]any)
				require.Len(t, errs, 1)
				e := errs[0].(map[string]any)
				require.Equal(t, "validation_failed", e["code"])
				require.Equal(t, map[string]any{"pointer": "/hash"}, e["source"])
				require.Equal(t, "hash must be 0x followed by 64 hex digits", e["detail"])
				require.Equal(t, "hash", e["meta"].(map[string]any)["parameter"])
			}
		})
	}
}

// TestRegistryPageDrawsTheParcel: the page draws a surveyed parcel's boundary
// polygon (its corners from the GeoJSON ring), and a parcel without one as the
// circle of its area, with the GPS point and area in words.
func TestRegistryPageDrawsTheParcel(t *testing.T) {
	h := newHarness(t)
	f := newParcelFlow(h, veriland.Production)
	plain := certifiedParcel(t, f, parcelBody(parcelNotary))
	surveyed := certifiedParcel(t, f, surveyedParcelBody(t, parcelNotary))
	v := attrs(t, h.do(request{method: "GET", path: "/v1/registry/verify/" + surveyed}))
	require.NotNil(t, v["boundary"], "the verification carries the boundary")
	for _, tt := range []struct {
		name, hash, lang string
		want, absent     []string
	}{
		{"surveyed", surveyed, "en", []string{`data-shape="boundary"`, `<polygon id="plan-boundary" points="`, `<dd id="boundary">Surveyed, 5 corners</dd>`,
			`<bdi id="lat" dir="ltr">9.0765°</bdi>`, `<bdi id="lon" dir="ltr">7.3986°</bdi>`}, []string{`id="plan-area"`}},
		{"surveyed, in Italian", surveyed, "it", []string{`<dd id="boundary">Rilevato, 5 vertici</dd>`, `<bdi id="lat" dir="ltr">9,0765°</bdi>`}, nil},
		{"GPS point and area", plain, "fr", []string{`data-shape="circle"`, `<circle id="plan-area"`, "<dd id=\"area\">1\u00a0200 m²</dd>",
			htmlEscape(registrypage.Text("fr", "boundary.none"))}, []string{`id="plan-boundary"`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := h.do(request{method: "GET", path: "/v1/registry/verify/" + tt.hash + "?lang=" + tt.lang, header: map[string]string{"Accept": browserAccept}})
			require.Equal(t, 200, r.status)
			body := string(r.body)
			require.Equal(t, 1, strings.Count(body, "<svg "))
			require.Contains(t, body, `<h2 id="where-title">`+htmlEscape(registrypage.Text(tt.lang, "h.where"))+`</h2>`)
			for _, w := range tt.want {
				require.Contains(t, body, w)
			}
			for _, a := range tt.absent {
				require.NotContains(t, body, a)
			}
		})
	}
	// The polygon has the ring's five corners.
	body := string(h.do(request{method: "GET", path: "/v1/registry/verify/" + surveyed, header: map[string]string{"Accept": browserAccept}}).body)
	_, rest, _ := strings.Cut(body, `<polygon id="plan-boundary" points="`)
	points, _, _ := strings.Cut(rest, `"`)
	require.Len(t, strings.Fields(points), len(surveyedRing)-1)
}

// TestRegistryViewBoundaryRing: the page's ring is the GeoJSON Polygon's exterior
// ring; anything else draws the circle (nil).
func TestRegistryViewBoundaryRing(t *testing.T) {
	ring := `[[7.39845,9.07635],[7.39875,9.07635],[7.39875,9.07665],[7.39845,9.07635]]`
	for _, tt := range []struct {
		name, raw string
		corners   int
	}{
		{"polygon", `{"type":"Polygon","coordinates":[` + ring + `]}`, 4},
		{"polygon with a hole: its exterior ring", `{"type":"Polygon","coordinates":[` + ring + `,` + ring + `]}`, 4},
		{"absent", ``, 0},
		{"null", `null`, 0},
		{"not a polygon", `{"type":"Point","coordinates":[7.3,9.0]}`, 0},
		{"too few positions", `{"type":"Polygon","coordinates":[[[7.3,9.0],[7.4,9.0],[7.3,9.0]]]}`, 0},
		{"not JSON", `{"type":`, 0},
		{"positions with an altitude: ignored", `{"type":"Polygon","coordinates":[[[7.3,9.0,1],[7.4,9.0,1],[7.4,9.1,1],[7.3,9.0,1]]]}`, 4},
	} {
		t.Run(tt.name, func(t *testing.T) {
			require.Len(t, boundaryRing(json.RawMessage(tt.raw)), tt.corners)
		})
	}
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}
