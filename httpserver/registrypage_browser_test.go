package httpserver

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/testenv"
)

// TestRegistryPageInChromium opens the public verification page of CURRENT,
// SUPERSEDED, REVOKED and unknown certificate hashes in headless Chromium at a phone's
// viewport (390×844), as a phone does after scanning the certificate's QR code: the
// browser's own Accept header selects the page. It checks the verdict in words and
// colour, the contrast of every coloured status (≥ 4.5:1), that nothing scrolls
// sideways, that no owner data is shown, and that the browser reports no CSP
// violation. Screenshots go to $VERILAND_SCREENSHOT_DIR when set (else a temp dir).
func TestRegistryPageInChromium(t *testing.T) {
	bin, err := findChromium()
	require.NoError(t, err)
	if bin == "" {
		testenv.Require(t, "Chromium (browser test of the registry page)", "set VERILAND_CHROMIUM, or put chromium on PATH; on Debian: apt-get install -y chromium")
	}
	h := newHarness(t)
	f := newParcelFlow(h, veriland.Production)
	id := f.create(t, parcelNotary)["id"].(string)
	superseded := f.post(t, "/v1/parcels/"+id+"/certify", f.notary, nil, 200)["certificateHash"].(string)
	trID := f.post(t, "/v1/parcels/"+id+"/transfer", f.agent, transferBody(parcelNotary), 202)["id"].(string)
	f.post(t, "/v1/transfers/"+trID+"/approve", f.notary, nil, 200)
	current := attrs(t, h.do(request{method: "GET", path: "/v1/parcels/" + id, token: f.agent}))["certificateHash"].(string)
	other := f.create(t, parcelNotary)["id"].(string)
	revoked := f.post(t, "/v1/parcels/"+other+"/certify", f.notary, nil, 200)["certificateHash"].(string)
	f.post(t, "/v1/parcels/"+other+"/revoke", f.admin, `{"reason":"court order"}`, 200)

	shots := screenshotDir(t)
	b := launchBrowser(t, bin)
	tests := []struct {
		name, hash, title, word string
		rows                    int
	}{
		{"current", current, "This certificate is CURRENT", "CURRENT", 2},
		{"superseded", superseded, "This certificate is SUPERSEDED", "SUPERSEDED", 2},
		{"revoked", revoked, "This certificate is REVOKED", "REVOKED", 1},
		{"unknown", "0x" + strings.Repeat("0a", 32), "Certificate not found", "NOT FOUND", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := b.newPage(t, nil)
			p.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": true}, nil)
			p.navigate(h.ts.URL + "/v1/registry/verify/" + tt.hash)
			require.Equal(t, tt.title, p.text("h1"))
			require.Equal(t, tt.word, p.text("#verdict-word"))
			require.EqualValues(t, 0, p.eval(`document.scripts.length`), "works without JavaScript: it has none")
			require.Equal(t, "en", p.eval(`document.documentElement.lang`))
			require.Equal(t, "ltr", p.eval(`document.documentElement.dir`))
			require.Equal(t, tt.hash, p.text("#hash"))
			require.EqualValues(t, tt.rows, p.eval(`document.querySelectorAll('#history tr').length`))
			if tt.rows > 0 {
				require.Equal(t, "Abuja", p.text("#city"))
				require.Equal(t, parcelNotary, p.text("#notary"))
				require.EqualValues(t, 1, p.eval(`document.querySelectorAll('#history tr[aria-current="true"]').length`), "this version is marked")
			}
			body := p.text("body")
			for _, personal := range []string{ownerName, ownerIDDoc, buyerName, buyerIDDoc, "4655", "8374"} {
				require.NotContains(t, body, personal)
			}
			// Nothing scrolls sideways on a phone.
			require.EqualValues(t, 390, p.eval(`window.innerWidth`))
			require.LessOrEqual(t, p.eval(`document.documentElement.scrollWidth`).(float64), float64(390), "horizontal scroll at 390px")
			// Every coloured status meets WCAG AA contrast (4.5:1) against its own background.
			low := p.eval(contrastScript)
			require.Empty(t, low, "low-contrast elements")
			require.Equal(t, "rgb(255, 255, 255)", p.eval(`getComputedStyle(document.body).backgroundColor === 'rgba(0, 0, 0, 0)' ? 'rgb(255, 255, 255)' : getComputedStyle(document.body).backgroundColor`))

			var shot struct {
				Data string `json:"data"`
			}
			p.call("Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": true}, &shot)
			png, err := base64.StdEncoding.DecodeString(shot.Data)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(shots, "registry-"+tt.name+".png"), png, 0o644))
			p.noProblems()
		})
	}
}

// contrastScript lists the elements whose text contrasts with its nearest opaque
// background by less than 4.5:1 (WCAG 2.x relative luminance).
const contrastScript = `(() => {
  const rgb = s => (s.match(/[\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const bg = el => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.99)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const low = [];
  for (const el of document.querySelectorAll('body *')) {
    if (!Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim())) continue;
    const a = lum(rgb(getComputedStyle(el).color).slice(0, 3)), b = lum(bg(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) low.push(el.tagName + '#' + el.id + '.' + el.className + ' ' + ratio.toFixed(2));
  }
  return low;
})()`
