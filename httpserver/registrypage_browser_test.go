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
	"github.com/veriland/veriland/internal/testenv"
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/parcel/landtitle"
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
	const disabled, burned = "Registry record only (no chain configured)", "BURNED"
	tests := []struct {
		name, hash, title, word string
		rows                    int
		// titleWord, titleStatus and titles: the land title's words and status, and
		// each version's title status in the history.
		titleWord, titleStatus string
		titles                 []any
	}{
		{"current", current, "This certificate is CURRENT", "CURRENT", 2, disabled, "DISABLED", []any{burned, "DISABLED"}},
		{"superseded", superseded, "This certificate is SUPERSEDED", "SUPERSEDED", 2, "Burned (this version was superseded)", burned, []any{burned, "DISABLED"}},
		{"revoked", revoked, "This certificate is REVOKED", "REVOKED", 1, "Burned (this version was revoked)", burned, []any{burned}},
		{"unknown", "0x" + strings.Repeat("0a", 32), "Certificate not found", "NOT FOUND", 0, "", "", nil},
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
				// PRODUCTION has no chain in this harness: the land title is the
				// registry's record only, retired (BURNED) without a transaction when
				// its version closes.
				require.Equal(t, tt.titleWord, p.text("#title-word"))
				require.Equal(t, tt.titleStatus, p.text("#title-status"))
				require.Equal(t, "t-"+strings.ToLower(tt.titleStatus), p.eval(`document.getElementById('title-state').classList[1]`))
				require.EqualValues(t, 0, p.eval(`document.querySelectorAll('#title-contract, #title-mint-tx, #title-burn-tx, #title-chain').length`), "no chain, no transaction")
				require.Equal(t, tt.titles, p.eval(`Array.from(document.querySelectorAll('#history [data-token-status]'), e => e.dataset.tokenStatus)`))
				require.Equal(t, "Abuja", p.text("#city"))
				require.Equal(t, parcelNotary, p.text("#notary"))
				require.EqualValues(t, 1, p.eval(`document.querySelectorAll('#history tr[aria-current="true"]').length`), "this version is marked")
			}
			// (Outside hashes and ids, which may hold any 4 digits by chance.)
			body := p.eval(`(() => { const b = document.body.cloneNode(true); b.querySelectorAll('code').forEach(c => c.remove()); return b.textContent; })()`).(string)
			for _, personal := range []string{ownerName, ownerIDDoc, buyerName, buyerIDDoc, "4655", "8374"} {
				require.NotContains(t, body, personal)
			}
			require.NotContains(t, p.text("body"), ownerName)
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
