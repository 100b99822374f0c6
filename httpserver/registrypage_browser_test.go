package httpserver

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/registrypage"
	"github.com/veriland/veriland/internal/catalogue"
	"github.com/veriland/veriland/internal/testenv"
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/parcel/landtitle"
)

// TestRegistryPageInChromium opens the public verification page of CURRENT,
// SUPERSEDED, REVOKED, unknown and malformed certificate hashes in headless
// Chromium, in English, French, Arabic and Portuguese (?lang=), at a phone's
// viewport (390×844) and a desktop's (1280×800), as a phone does after scanning the
// certificate's QR code: the browser's own Accept header selects the page. It checks
// the verdict in the language's words and colour, the page's lang and dir (Arabic
// laid out right to left, its hashes left to right), the language switcher, the
// parcel drawn (the CURRENT and SUPERSEDED parcel has a surveyed boundary, the
// REVOKED one only a GPS point and an area) and scaled to the page, the contrast of
// every text (≥ 4.5:1), that nothing scrolls sideways, that no owner data is shown,
// and that the browser reports no CSP violation. Screenshots
// registry-<status>-<lang>-<size>.png go to $VERILAND_SCREENSHOT_DIR when set
// (else a temp dir).
func TestRegistryPageInChromium(t *testing.T) {
	bin, err := findChromium()
	require.NoError(t, err)
	if bin == "" {
		testenv.Require(t, "Chromium (browser test of the registry page)", "set VERILAND_CHROMIUM, or put chromium on PATH; on Debian: apt-get install -y chromium")
	}
	h := newHarness(t)
	f := newParcelFlow(h, veriland.Production)
	superseded := certifiedParcel(t, f, surveyedParcelBody(t, parcelNotary))
	id := attrs(t, h.do(request{method: "GET", path: "/v1/registry/verify/" + superseded}))["parcelId"].(string)
	trID := f.post(t, "/v1/parcels/"+id+"/transfer", f.agent, transferBody(parcelNotary), 202)["id"].(string)
	f.post(t, "/v1/transfers/"+trID+"/approve", f.notary, nil, 200)
	current := attrs(t, h.do(request{method: "GET", path: "/v1/parcels/" + id, token: f.agent}))["certificateHash"].(string)
	other := f.create(t, parcelNotary)["id"].(string)
	revoked := f.post(t, "/v1/parcels/"+other+"/certify", f.notary, nil, 200)["certificateHash"].(string)
	f.post(t, "/v1/parcels/"+other+"/revoke", f.admin, `{"reason":"court order"}`, 200)

	shots := screenshotDir(t)
	b := launchBrowser(t, bin)
	const burned = "BURNED"
	tests := []struct {
		name, hash, verdict string
		status, rows        int
		// titleKey and titleStatus: the land title's words and status; titles each
		// version's title status in the history; shape what is drawn.
		titleKey, titleStatus string
		titles                []any
		shape                 string
	}{
		{"current", current, "current", 200, 2, "title.word.disabled", "DISABLED", []any{burned, "DISABLED"}, "boundary"},
		{"superseded", superseded, "superseded", 200, 2, "title.word.burnedSuperseded", burned, []any{burned, "DISABLED"}, "boundary"},
		{"revoked", revoked, "revoked", 200, 1, "title.word.burnedRevoked", burned, []any{burned}, "circle"},
		{"notfound", "0x" + strings.Repeat("0a", 32), "notFound", 404, 0, "", "", nil, ""},
		{"malformed", "0x12ab-not-a-hash", "malformed", 400, 0, "", "", nil, ""},
	}
	for _, tt := range tests {
		for _, lang := range []string{"en", "fr", "ar", "pt"} {
			t.Run(tt.name+"/"+lang, func(t *testing.T) {
				p := b.newPage(t, nil)
				for _, size := range []struct {
					suffix        string
					width, height int
				}{{"phone", 390, 844}, {"desktop", 1280, 800}} {
					phone := size.width < 500
					p.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": size.width, "height": size.height, "deviceScaleFactor": 1, "mobile": phone}, nil)
					p.navigate(h.ts.URL + "/v1/registry/verify/" + tt.hash + "?lang=" + lang)
					checkRegistryPage(t, p, lang, size.width)
					require.Equal(t, registrypage.Text(lang, "verdict."+tt.verdict+".title"), p.text("h1"))
					require.Equal(t, registrypage.Text(lang, "verdict."+tt.verdict+".word"), p.text("#verdict-word"))
					require.Equal(t, tt.hash, p.text("#hash"))
					require.EqualValues(t, tt.rows, p.eval(`document.querySelectorAll('#history tr').length`))
					require.Equal(t, tt.shape != "", p.eval(`!!document.querySelector('svg.plan')`))
					if tt.rows > 0 {
						// PRODUCTION has no chain in this harness: the land title is the
						// registry's record only, retired (BURNED) without a transaction when
						// its version closes.
						require.Equal(t, registrypage.Text(lang, tt.titleKey), p.text("#title-word"))
						require.Equal(t, tt.titleStatus, p.text("#title-status"))
						require.Equal(t, "t-"+strings.ToLower(tt.titleStatus), p.eval(`document.getElementById('title-state').classList[1]`))
						require.EqualValues(t, 0, p.eval(`document.querySelectorAll('#title-contract, #title-mint-tx, #title-burn-tx, #title-chain').length`), "no chain, no transaction")
						require.Equal(t, tt.titles, p.eval(`Array.from(document.querySelectorAll('#history [data-token-status]'), e => e.dataset.tokenStatus)`))
						require.Equal(t, "Abuja", p.text("#city"))
						require.Equal(t, parcelNotary, p.text("#notary"))
						require.EqualValues(t, 1, p.eval(`document.querySelectorAll('#history tr[aria-current="true"]').length`), "this version is marked")
						checkRegistryDrawing(t, p, tt.shape, phone)
					}
					var shot struct {
						Data string `json:"data"`
					}
					p.call("Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": true}, &shot)
					png, err := base64.StdEncoding.DecodeString(shot.Data)
					require.NoError(t, err)
					require.NoError(t, os.WriteFile(filepath.Join(shots, "registry-"+tt.name+"-"+lang+"-"+size.suffix+".png"), png, 0o644))
				}
				p.noProblems()
			})
		}
	}
}

// checkRegistryPage checks what every form of the verification page must be in
// lang at a viewport width wide: no script, its lang and dir and their layout, the
// switcher, no owner data, no sideways scroll, contrast.
func checkRegistryPage(t *testing.T, p *tab, lang string, width int) {
	t.Helper()
	require.EqualValues(t, 0, p.eval(`document.scripts.length`), "works without JavaScript: it has none")
	require.Equal(t, lang, p.eval(`document.documentElement.lang`))
	dir := catalogue.Dir(lang)
	require.Equal(t, dir, p.eval(`document.documentElement.dir`))
	require.Equal(t, dir, p.eval(`getComputedStyle(document.querySelector('h1')).direction`))
	// The heading starts at the start side of the page: the right in Arabic.
	edge := `(() => { const m = document.querySelector('main').getBoundingClientRect(), r = document.createRange();
	  r.selectNodeContents(document.querySelector('h1')); const h = r.getClientRects()[0];
	  return document.documentElement.dir === 'rtl' ? m.right - h.right : h.left - m.left; })()`
	require.Less(t, p.eval(edge).(float64), 2.0, "the heading starts at the %s side", dir)
	// Hashes and ids read left to right inside right-to-left text.
	require.Empty(t, p.eval(`Array.from(document.querySelectorAll('code')).filter(c => getComputedStyle(c).direction !== 'ltr').map(c => c.id || c.textContent)`))
	// The switcher: every language named in itself, the page's own current.
	names := []any{}
	for _, l := range catalogue.Languages {
		names = append(names, catalogue.Name(l))
	}
	require.Equal(t, names, p.eval(`Array.from(document.querySelectorAll('nav.langs a'), a => a.textContent)`))
	require.Equal(t, catalogue.Name(lang), p.text(`nav.langs a[aria-current="page"]`))
	require.Equal(t, "?lang="+lang, p.eval(`document.querySelector('nav.langs a[aria-current="page"]').getAttribute('href')`))
	// (Outside hashes and ids, which may hold any 4 digits by chance.)
	body := p.eval(`(() => { const b = document.body.cloneNode(true); b.querySelectorAll('code, svg').forEach(c => c.remove()); return b.textContent; })()`).(string)
	for _, personal := range []string{ownerName, ownerIDDoc, buyerName, buyerIDDoc, "4655", "8374"} {
		require.NotContains(t, body, personal)
	}
	require.NotContains(t, p.text("body"), ownerName)
	require.EqualValues(t, width, p.eval(`window.innerWidth`))
	require.LessOrEqual(t, p.eval(`document.documentElement.scrollWidth`).(float64), float64(width), "horizontal scroll at %dpx", width)
	require.Empty(t, p.eval(`Array.from(document.querySelectorAll('code')).filter(c => { const r = c.getBoundingClientRect(), m = document.querySelector('main').getBoundingClientRect(); return r.right > m.right + 1 || r.left < m.left - 1; }).map(c => c.id || c.textContent)`), "codes wrap inside the page")
	require.Empty(t, p.eval(contrastScript), "low-contrast elements")
}

// checkRegistryDrawing checks the parcel's drawing as Chromium lays it out: shape
// drawn, scaled to the page's width (never wider, never squashed), its labels and
// outline painted.
func checkRegistryDrawing(t *testing.T, p *tab, shape string, phone bool) {
	t.Helper()
	require.Equal(t, shape, p.eval(`document.getElementById('where').dataset.shape`))
	sel := map[string]string{"boundary": "#plan-boundary", "circle": "#plan-area"}[shape]
	require.Greater(t, p.eval(`document.querySelector('`+sel+`').getBoundingClientRect().width`).(float64), 40.0, "the %s is drawn", shape)
	box := p.eval(`(() => { const s = document.querySelector('svg.plan').getBoundingClientRect(), m = document.querySelector('main').getBoundingClientRect();
	  return [s.width, s.height, m.width, s.left - m.left, m.right - s.right]; })()`).([]any)
	w, hgt, mainW := box[0].(float64), box[1].(float64), box[2].(float64)
	require.InDelta(t, 270.0/360.0, hgt/w, 0.01, "scaled, not stretched")
	require.GreaterOrEqual(t, box[3].(float64), -0.5)
	require.GreaterOrEqual(t, box[4].(float64), -0.5)
	if phone {
		require.InDelta(t, mainW, w, 1, "the drawing takes the phone's width")
	} else {
		require.InDelta(t, 360, w, 1, "at its own size on a desktop")
	}
	// The outline is painted in the drawing's colour (presentation attributes, which
	// the policy allows, not style attributes).
	require.Equal(t, "rgb(27, 94, 32)", p.eval(`getComputedStyle(document.querySelector('`+sel+`')).stroke`))
	require.NotEmpty(t, p.text("#plan-scale + text"))
	require.Equal(t, registrypageNorth(p), p.text("#plan-north text"))
}

// registrypageNorth is the north letter of the page's language.
func registrypageNorth(p *tab) string {
	return catalogue.Page(catalogue.Common).Text(p.eval(`document.documentElement.lang`).(string), "plan.north")
}

// TestRegistryPageLandTitleInChromium opens the verification page of a parcel whose
// land titles live on a (simulated) chain (SPEC S14): the CURRENT version's title
// MINTED to the registry's custody account (an owner without a wallet), the version
// a transfer superseded BURNED, and one MINTED to the owner's wallet; each with the
// contract, the chain id and the full transaction hashes, wrapped on a phone, and the
// history with each version's title. Screenshots at phone and desktop sizes.
func TestRegistryPageLandTitleInChromium(t *testing.T) {
	bin, err := findChromium()
	require.NoError(t, err)
	if bin == "" {
		testenv.Require(t, "Chromium (browser test of the registry page)", "set VERILAND_CHROMIUM, or put chromium on PATH; on Debian: apt-get install -y chromium")
	}
	h := newHarness(t)
	sim := titleChain(t, h)
	custody := sim.Registry().Hex()
	f := newParcelFlow(h, veriland.Sandbox)
	id := f.create(t, parcelNotary)["id"].(string)
	superseded := f.post(t, "/v1/parcels/"+id+"/certify", f.notary, nil, 200)["certificateHash"].(string)
	h.runChainJobs(t)
	trID := f.post(t, "/v1/parcels/"+id+"/transfer", f.agent, transferBody(parcelNotary), 202)["id"].(string)
	f.post(t, "/v1/transfers/"+trID+"/approve", f.notary, nil, 200)
	h.runChainJobs(t)
	prc := attrs(t, h.do(request{method: "GET", path: "/v1/parcels/" + id, token: f.agent}))
	current := prc["certificateHash"].(string)
	tok := prc["token"].(map[string]any)
	require.Equal(t, "MINTED", tok["status"])
	wallet := strings.ToLower("0x" + strings.Repeat("7e", 20))
	owned := dashboardWalletParcel(t, f, wallet)
	h.runChainJobs(t)
	ownedHash := attrs(t, h.do(request{method: "GET", path: "/v1/parcels/" + owned, token: f.agent}))["certificateHash"].(string)
	old := h.do(request{method: "GET", path: "/v1/registry/verify/" + superseded}).json(t)["data"].(map[string]any)["attributes"].(map[string]any)["token"].(map[string]any)
	require.Equal(t, "BURNED", old["status"])

	shots := screenshotDir(t)
	b := launchBrowser(t, bin)
	tests := []struct {
		name, hash, word, status, class, holder, kind, mintTx, burnTx string
		history                                                       []any
	}{
		{"minted", current, "On chain, held by the registry's custody account", "MINTED", "t-minted", custody,
			"the registry's custody account, for an owner without a wallet", tok["mintTx"].(string), "", []any{"BURNED", "MINTED"}},
		{"burned", superseded, "Burned (this version was superseded)", "BURNED", "t-burned", custody,
			"the registry's custody account, for an owner without a wallet", old["mintTx"].(string), old["burnTx"].(string), []any{"BURNED", "MINTED"}},
		{"owner-wallet", ownedHash, "On chain, held by the owner's wallet", "MINTED", "t-minted", wallet,
			"the owner's wallet", "", "", []any{"MINTED"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := b.newPage(t, nil)
			for _, size := range []struct {
				suffix string
				width  int
			}{{"phone", 390}, {"desktop", 1280}} {
				p.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": size.width, "height": 844, "deviceScaleFactor": 1, "mobile": size.width < 500}, nil)
				p.navigate(h.ts.URL + "/v1/registry/verify/" + tt.hash)
				require.Equal(t, tt.word, p.text("#title-word"))
				require.Equal(t, tt.status, p.text("#title-status"))
				require.Equal(t, tt.class, p.eval(`document.getElementById('title-state').classList[1]`))
				require.True(t, strings.EqualFold(tt.holder, p.text("#title-holder")), p.text("#title-holder"))
				require.Equal(t, tt.kind, p.text("#title-holder-kind"))
				require.Equal(t, sim.Address().Hex(), p.text("#title-contract"))
				require.Equal(t, "1337", p.text("#title-chain"))
				require.Regexp(t, `^[0-9]{20,78}$`, p.text("#token-id"))
				if tt.mintTx != "" {
					require.Equal(t, tt.mintTx, p.text("#title-mint-tx"), "the full hash")
				} else {
					require.Regexp(t, `^0x[0-9a-f]{64}$`, p.text("#title-mint-tx"))
				}
				if tt.burnTx != "" {
					require.Equal(t, tt.burnTx, p.text("#title-burn-tx"))
				} else {
					require.EqualValues(t, 0, p.eval(`document.querySelectorAll('#title-burn-tx').length`))
				}
				require.Equal(t, tt.history, p.eval(`Array.from(document.querySelectorAll('#history [data-token-status]'), e => e.dataset.tokenStatus)`))
				body := p.text("body")
				for _, personal := range []string{ownerName, ownerIDDoc, buyerName, buyerIDDoc} {
					require.NotContains(t, body, personal)
				}
				require.LessOrEqual(t, p.eval(`document.documentElement.scrollWidth`).(float64), float64(size.width), "horizontal scroll at %dpx", size.width)
				// The full hashes wrap inside the page, never past its edge.
				require.Empty(t, p.eval(`Array.from(document.querySelectorAll('code')).filter(c => c.getBoundingClientRect().right > document.querySelector('main').getBoundingClientRect().right + 1).map(c => c.id || c.textContent)`))
				require.Empty(t, p.eval(contrastScript), "low-contrast elements")
				var shot struct {
					Data string `json:"data"`
				}
				p.call("Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": true}, &shot)
				png, err := base64.StdEncoding.DecodeString(shot.Data)
				require.NoError(t, err)
				require.NoError(t, os.WriteFile(filepath.Join(shots, "registry-title-"+tt.name+"-"+size.suffix+".png"), png, 0o644))
			}
			p.noProblems()
		})
	}
}

// titleChain gives h's SANDBOX parcels a simulated chain with a LandTitle contract
// (SPEC S14), before any parcel is made: their land titles are then minted and burned
// by the server's chain-job worker (h.runChainJobs).
func titleChain(t *testing.T, h *harness) *landtitle.Simulated {
	t.Helper()
	key, err := crypto.GenerateKey()
	require.NoError(t, err)
	sim, err := landtitle.NewSimulated(key, "http://veriland.test/v1/tokens/")
	require.NoError(t, err)
	t.Cleanup(func() { _ = sim.Close() })
	h.srv.cfg.Parcels.Titles = map[veriland.Environment]parcel.TitleChain{veriland.Sandbox: sim}
	return sim
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
