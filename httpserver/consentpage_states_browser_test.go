package httpserver

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/consentpage"
	"github.com/veriland/veriland/internal/testenv"
)

// TestConsentPageStatesInChromium drives the hosted consent page through every state
// a request can be in (PENDING, APPROVED, REJECTED, EXPIRED, CANCELLED, and REVOKED:
// an approval whose attestation was revoked), read live, through the withdrawal and
// the liveness check (both signed in with the wallet, EIP-4361), the QR code and
// wallet links, the 404 page, and every language (Accept-Language, the switcher,
// right to left for Arabic). Each state is checked with axe-core (vendored in
// testdata/axe: zero serious or critical violations) and with the dashboard's label,
// name, contrast and phone-width checks, and saved as desktop and phone screenshots
// in $VERILAND_SCREENSHOT_DIR (else a temp dir).
func TestConsentPageStatesInChromium(t *testing.T) {
	bin, err := findChromium()
	require.NoError(t, err)
	if bin == "" {
		testenv.Require(t, "Chromium (browser test of the consent page)", "set VERILAND_CHROMIUM, or put chromium, chromium-browser or google-chrome on PATH; on Debian: apt-get install -y chromium")
	}
	h := newHarness(t)
	f := newConsentFlow(t, h)
	shots := screenshotDir(t)
	b := launchBrowser(t, bin)
	holder := crypto.PubkeyToAddress(f.wallet.PublicKey)
	open := func(t *testing.T, w *testWallet, id string) *tab {
		p := b.newPage(t, w)
		p.navigate(h.ts.URL + "/consent/" + id)
		p.waitFor(`!document.getElementById('state-box').hidden`)
		return p
	}

	t.Run("PENDING, with the QR code and the wallet links", func(t *testing.T) {
		id := f.request(t, map[string]any{"scope": []string{"identity", "is_adult", "age_over_18", "nationality", "liveness"}})
		p := open(t, nil, id)
		require.Equal(t, "Waiting for your answer", p.text("#request-status"))
		require.Equal(t, "state state-pending", p.eval(`document.getElementById('state-box').className`))
		require.Equal(t, []any{"That your identity is verified", "That you are an adult", "That you are over 18", "Your nationality",
			"That a live person controls your identity (liveness check)"},
			p.eval(`Array.from(document.querySelectorAll('#scope li .label'), e => e.textContent)`))
		pageURL := "http://veriland.test/consent/" + id
		require.Equal(t, pageURL, p.text("#page-url"))
		require.Equal(t, "https://metamask.app.link/dapp/veriland.test/consent/"+id, p.eval(`document.getElementById('metamask').href`))
		require.Equal(t, "https://go.cb-w.com/dapp?cb_url="+url.QueryEscape(pageURL), p.eval(`document.getElementById('coinbase').href`))
		require.Equal(t, "QR code of this page’s address", p.eval(`document.getElementById('qr').getAttribute('aria-labelledby') && document.getElementById('qr-title').textContent`))
		require.Greater(t, p.eval(`document.getElementById('qr').getBoundingClientRect().width`).(float64), float64(150))
		p.checkConsentPage(t, "en")
		p.screenshots(t, shots, "consent-pending")
		p.noProblems()
	})

	t.Run("CANCELLED, seen live", func(t *testing.T) {
		id := f.request(t, nil)
		p := open(t, &testWallet{t: t, key: f.wallet}, id)
		require.False(t, p.eval(`document.getElementById('decide').hidden`).(bool))
		c := h.do(request{method: "POST", path: "/verify/request/" + id + "/cancel", token: f.verifierTok, body: `{}`})
		require.Equal(t, http.StatusOK, c.status, string(c.body))
		p.waitFor(`document.getElementById('request-status').textContent === 'Cancelled by the verifier'`)
		require.True(t, p.eval(`document.getElementById('decide').hidden`).(bool), "nothing to sign any more")
		require.Equal(t, "The status of this request changed: Cancelled by the verifier.", p.text("#status"))
		p.checkConsentPage(t, "en")
		p.screenshots(t, shots, "consent-cancelled")
		p.noProblems()
	})

	t.Run("EXPIRED", func(t *testing.T) {
		id := f.request(t, map[string]any{"expiresInSeconds": 60})
		h.clock.Advance(61 * time.Second)
		p := open(t, nil, id)
		require.Equal(t, "Expired", p.text("#request-status"))
		require.True(t, p.eval(`document.getElementById('handoff').hidden`).(bool), "nothing to continue on a phone")
		require.Contains(t, p.text("#state-text"), "expired before it was answered")
		require.True(t, p.eval(`document.getElementById('decide').hidden && document.getElementById('withdraw').hidden`).(bool))
		p.checkConsentPage(t, "en")
		p.screenshots(t, shots, "consent-expired")
		p.noProblems()
	})

	t.Run("REJECTED", func(t *testing.T) {
		id := f.request(t, nil)
		r := f.decide(t, id, f.wallet, holder, "REJECTED", []string{})
		require.Equal(t, http.StatusOK, r.status, string(r.body))
		p := open(t, nil, id)
		require.Equal(t, "Rejected", p.text("#request-status"))
		require.Equal(t, "You rejected this request. Nothing was shared.", p.text("#state-text"))
		require.Contains(t, p.text("#status"), "There is nothing to sign")
		p.checkConsentPage(t, "en")
		p.screenshots(t, shots, "consent-rejected")
		p.noProblems()
	})

	t.Run("APPROVED, withdrawn from the page: REVOKED", func(t *testing.T) {
		id, attID := f.approve(t, nil)
		w := &testWallet{t: t, key: f.wallet}
		p := open(t, w, id)
		require.Equal(t, "Approved", p.text("#request-status"))
		require.False(t, p.eval(`document.getElementById('withdraw').hidden`).(bool))
		p.checkConsentPage(t, "en")
		p.screenshots(t, shots, "consent-approved")

		p.click("#withdraw-button")
		p.waitFor(`document.getElementById('result-title').textContent === 'Withdrawn'`)
		require.Equal(t, "Withdrawn", p.text("#request-status"))
		require.True(t, p.eval(`document.getElementById('withdraw').hidden`).(bool))
		require.Equal(t, "result-title", p.eval(`document.activeElement.id`))
		st := h.do(request{method: "GET", path: "/attestation/" + attID + "/status"}).json(t)
		require.Equal(t, "REVOKED", st["status"])
		// The login the wallet signed is this server's, for this wallet.
		require.Len(t, w.siwe, 1)
		require.True(t, strings.HasPrefix(w.siwe[0], "veriland.test wants you to sign in with your Ethereum account:\n"+holder.Hex()+"\n"), w.siwe[0])
		require.Contains(t, w.siwe[0], "\nURI: http://veriland.test/consent/"+id+"\n")

		// Reloaded, the page still says so.
		p.navigate(h.ts.URL + "/consent/" + id)
		p.waitFor(`document.getElementById('request-status').textContent === 'Withdrawn'`)
		require.Contains(t, p.text("#state-text"), "no longer valid")
		p.checkConsentPage(t, "en")
		p.screenshots(t, shots, "consent-revoked")
		p.noProblems()
	})

	t.Run("APPROVED, revoked elsewhere: seen live", func(t *testing.T) {
		id, attID := f.approve(t, nil)
		p := open(t, nil, id)
		require.Equal(t, "Approved", p.text("#request-status"))
		require.False(t, p.eval(`document.getElementById('withdraw-nowallet').hidden`).(bool), "without a wallet, says how to withdraw")
		tok, _ := h.login(t, f.wallet, veriland.Sandbox)
		r := h.do(request{method: "POST", path: "/attestation/" + attID + "/revoke", token: tok, body: `{}`})
		require.Equal(t, http.StatusOK, r.status, string(r.body))
		p.waitFor(`document.getElementById('request-status').textContent === 'Withdrawn'`)
		require.Equal(t, "The status of this request changed: Withdrawn.", p.text("#status"))
		p.noProblems()
	})

	t.Run("withdrawal declined in the wallet", func(t *testing.T) {
		id, attID := f.approve(t, nil)
		p := open(t, &testWallet{t: t, key: f.wallet, decline: true}, id)
		p.click("#withdraw-button")
		p.waitFor(`document.getElementById('result-title').textContent === 'Cancelled'`)
		require.Equal(t, "Approved", p.text("#request-status"))
		require.Equal(t, "VALID", h.do(request{method: "GET", path: "/attestation/" + attID + "/status"}).json(t)["status"])
	})

	t.Run("requireLiveness: checked after signing in", func(t *testing.T) {
		id := f.request(t, map[string]any{"requireLiveness": map[string]any{"minLevel": "L2", "maxAgeDays": 7}})
		p := open(t, &testWallet{t: t, key: f.wallet}, id)
		require.False(t, p.eval(`document.getElementById('liveness-check').hidden`).(bool))
		p.click("#liveness-check")
		p.waitFor(`!document.getElementById('liveness-result').hidden`)
		require.Contains(t, p.text("#liveness-result"), "You do not have a valid liveness check that meets this requirement yet")
		require.Contains(t, p.text("#liveness-result"), "level L2 or higher")
		p.checkConsentPage(t, "en")
		p.screenshots(t, shots, "consent-liveness-missing")

		h.livenessAttestation(t, f.did, "L1") // too low
		h.livenessAttestation(t, f.did, "L3")
		p.click("#liveness-check") // signed in already: no second signature
		p.waitFor(`document.getElementById('liveness-result').textContent.indexOf('You meet this requirement') === 0`)
		require.Contains(t, p.text("#liveness-result"), "level L3")
		p.checkConsentPage(t, "en")
		p.noProblems()
	})

	t.Run("every language", func(t *testing.T) {
		id := f.request(t, map[string]any{"requireLiveness": map[string]any{"minLevel": "L2"}})
		for _, tc := range []struct {
			acceptLanguage, lang, dir, heading, pending, adult string
		}{
			{"en-GB,en;q=0.9", "en", "ltr", "Consent request", "Waiting for your answer", "That you are an adult"},
			{"fr-FR,fr;q=0.9,en;q=0.5", "fr", "ltr", "Demande de consentement", "En attente de votre réponse", "Que vous êtes majeur"},
			{"es-ES", "es", "ltr", "Solicitud de consentimiento", "Esperando su respuesta", "Que usted es mayor de edad"},
			{"pt-BR,pt;q=0.9", "pt", "ltr", "Pedido de consentimento", "À espera da sua resposta", "Que é maior de idade"},
			{"ar-MA,ar;q=0.9", "ar", "rtl", "طلب موافقة", "بانتظار ردك", "أنك بالغ"},
			{"de-CH,de;q=0.9", "de", "ltr", "Einwilligungsanfrage", "Wartet auf Ihre Antwort", "Dass Sie volljährig sind"},
			{"it", "it", "ltr", "Richiesta di consenso", "In attesa della tua risposta", "Che sei maggiorenne"},
		} {
			t.Run(tc.lang, func(t *testing.T) {
				p := b.newPage(t, nil)
				p.call("Network.enable", nil, nil)
				p.call("Network.setExtraHTTPHeaders", map[string]any{"headers": map[string]string{"Accept-Language": tc.acceptLanguage}}, nil)
				p.navigate(h.ts.URL + "/consent/" + id)
				p.waitFor(`!document.getElementById('state-box').hidden`)
				require.Equal(t, tc.lang, p.eval(`document.documentElement.lang`))
				require.Equal(t, tc.dir, p.eval(`document.documentElement.dir`))
				require.Equal(t, tc.heading, p.text("h1"))
				require.Equal(t, tc.heading, p.eval(`document.title`))
				require.Equal(t, tc.pending, p.text("#request-status"))
				require.Equal(t, tc.adult, p.text("#scope li .label"))
				require.Equal(t, consentpage.Label(tc.lang, "liveness.check"), p.text("#liveness-check"))
				require.Equal(t, tc.lang, p.eval(`document.getElementById('lang').value`))
				require.Equal(t, consentpage.Label(tc.lang, "language"), p.eval(`document.getElementById('lang').labels[0].textContent`))
				if tc.lang == "en" || tc.lang == "ar" || tc.lang == "fr" {
					p.checkConsentPage(t, tc.lang)
					p.screenshots(t, shots, "consent-lang-"+tc.lang)
				}
				p.noProblems()
			})
		}
	})

	t.Run("the language switcher", func(t *testing.T) {
		id := f.request(t, nil)
		p := open(t, &testWallet{t: t, key: f.wallet, wantRequestID: id, wantDecision: "REJECTED"}, id)
		require.Equal(t, "en", p.eval(`document.documentElement.lang`))
		p.eval(`(function () { var s = document.getElementById('lang'); s.value = 'ar'; s.dispatchEvent(new Event('change')); }())`)
		require.Equal(t, "rtl", p.eval(`document.documentElement.dir`))
		require.Equal(t, "ar", p.eval(`document.documentElement.lang`))
		require.Equal(t, "طلب موافقة", p.text("h1"))
		require.Equal(t, "بانتظار ردك", p.text("#request-status"))
		require.Equal(t, "أنك بالغ", p.text("#scope li .label"))
		require.Equal(t, consentpage.Label("ar", "st.loaded"), p.text("#status"))
		require.Equal(t, consentpage.Label("ar", "approve"), p.text("#approve"))
		require.Equal(t, "?lang=ar", p.eval(`location.search`), "a reload keeps the choice")
		// Signing still works in the chosen language.
		p.click("#reject")
		p.waitFor(`document.getElementById('result-title').textContent === ` + jsString(consentpage.Label("ar", "r.rejected")))
		require.Equal(t, "مرفوض", p.text("#request-status"))
		p.eval(`(function () { var s = document.getElementById('lang'); s.value = 'de'; s.dispatchEvent(new Event('change')); }())`)
		require.Equal(t, "ltr", p.eval(`document.documentElement.dir`))
		require.Equal(t, "Abgelehnt", p.text("#request-status"))
		require.Equal(t, "Abgelehnt", p.text("#result-title"))
		p.navigate(h.ts.URL + "/consent/" + id + "?lang=de")
		p.waitFor(`!document.getElementById('state-box').hidden`)
		require.Equal(t, "Einwilligungsanfrage", p.text("h1"))
		require.Contains(t, p.text("#status"), "Es gibt nichts zu signieren")
		p.noProblems()
	})

	t.Run("404 page", func(t *testing.T) {
		for _, lang := range []string{"en", "ar"} {
			p := b.newPage(t, nil)
			p.navigate(h.ts.URL + "/consent/vrq_aaaaaaaaaaaaaaaaaaaaaaaaaa?lang=" + lang)
			require.Equal(t, consentpage.Label(lang, "nf.title"), p.text("h1"))
			require.Equal(t, consentpage.Label(lang, "nf.title"), p.eval(`document.title`))
			require.Equal(t, 404, p.status(), "served as a 404")
			p.checkConsentPage(t, lang)
			p.screenshots(t, shots, "consent-404-"+lang)
			p.noProblems()
		}
	})
}

// status returns the HTTP status of the page's own navigation.
func (p *tab) status() int {
	p.t.Helper()
	v, _ := p.eval(`performance.getEntriesByType('navigation')[0].responseStatus`).(float64)
	return int(v)
}

// checkConsentPage checks what is visible now, as a person with assistive technology
// would need it: axe-core's rules (zero serious or critical violations), then, as
// the dashboard test does, labels, accessible names, contrast ≥ 4.5:1, the page's
// language, and no sideways scrolling at a phone's width.
func (p *tab) checkConsentPage(t *testing.T, lang string) {
	t.Helper()
	require.Empty(t, p.axe(t), "axe-core: serious or critical violations")
	require.Empty(t, p.eval(`Array.from(document.querySelectorAll('input, select, textarea')).filter(e =>
		e.labels.length === 0 && !e.getAttribute('aria-label') && !e.getAttribute('aria-labelledby')).map(e => e.id)`), "fields without a label")
	require.Empty(t, p.eval(`Array.from(document.querySelectorAll('button, a')).filter(b =>
		b.getClientRects().length && !b.textContent.trim() && !b.getAttribute('aria-label')).map(b => b.outerHTML)`), "buttons and links without a name")
	require.Empty(t, p.eval(contrastScript), "low-contrast elements")
	require.Equal(t, lang, p.eval(`document.documentElement.lang`))
	p.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": true}, nil)
	require.LessOrEqual(t, p.eval(`document.documentElement.scrollWidth`).(float64), float64(390), "horizontal scroll at 390px: %v",
		p.eval(`Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > 390 || e.getBoundingClientRect().left < 0 || e.scrollWidth > e.clientWidth + 1).slice(0, 5).map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().left) + '..' + Math.round(e.getBoundingClientRect().right) + ' sw=' + e.scrollWidth + ' cw=' + e.clientWidth + ' ' + e.textContent.slice(0, 40))`))
	p.call("Emulation.clearDeviceMetricsOverride", nil, nil)
}

// axe runs axe-core (testdata/axe, pinned, MPL-2.0) on the page and returns its
// serious and critical violations, one line each.
func (p *tab) axe(t *testing.T) []string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "axe", "axe.min.js"))
	require.NoError(t, err)
	if ok, _ := p.eval(`typeof window.axe === 'object'`).(bool); !ok {
		p.eval(string(src) + "\n;true")
	}
	v := p.eval(`axe.run(document).then(function (r) {
		return { passes: r.passes.length, bad: r.violations.filter(function (v) { return v.impact === 'serious' || v.impact === 'critical'; })
			.map(function (v) { return v.id + ' (' + v.impact + '): ' + v.help + ' at ' + v.nodes.map(function (n) { return n.target.join(' '); }).join(', '); }) };
	})`).(map[string]any)
	require.Greater(t, v["passes"].(float64), float64(10), "axe-core ran its rules")
	var out []string
	for _, s := range v["bad"].([]any) {
		out = append(out, s.(string))
	}
	return out
}
