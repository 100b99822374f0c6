package httpserver

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/attestationpage"
	"github.com/veriland/veriland/httpserver/consentpage"
	"github.com/veriland/veriland/internal/testenv"
)

// TestAttestationPageServed checks the content negotiation of GET /attestation/{id}:
// a browser gets the page without a token (the same page with or without one, and
// 404 for an unknown id), while the JSON still needs the token of its subject
// holder, its verifier or an admin; both answers vary on Accept.
func TestAttestationPageServed(t *testing.T) {
	h := newHarness(t)
	f := newConsentFlow(t, h)
	_, attID := f.approve(t, nil)
	_, otherVerifier := createKey(t, h, f.adminTok, "verifier", "verifier-other")
	const browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
	page := func(id string) []byte {
		b, err := attestationpage.Render(attestationpage.View{ID: id, Found: true,
			StatusURL: "http://veriland.test/attestation/" + id + "/status"})
		require.NoError(t, err)
		return b
	}
	for _, tc := range []struct {
		name, id, accept, token string
		wantStatus              int
		wantHTML                bool
		wantCode                string // error code of a JSON error
	}{
		{name: "a browser without a token gets the page", id: attID, accept: browserAccept, wantStatus: 200, wantHTML: true},
		{name: "the same page with a token", id: attID, accept: "text/html", token: f.verifierTok, wantStatus: 200, wantHTML: true},
		{name: "the same page for anyone", id: attID, accept: "text/html", token: otherVerifier, wantStatus: 200, wantHTML: true},
		{name: "an unknown id is a 404 page", id: "att_aaaaaaaaaaaaaaaaaaaaaaaaaa", accept: browserAccept, wantStatus: 404, wantHTML: true},
		{name: "JSON needs a token", id: attID, accept: "application/json", wantStatus: 401, wantCode: "unauthenticated"},
		{name: "JSON is the default", id: attID, accept: "*/*", wantStatus: 401, wantCode: "unauthenticated"},
		{name: "a tie is JSON", id: attID, accept: "text/html, application/json", wantStatus: 401, wantCode: "unauthenticated"},
		{name: "JSON for another verifier is forbidden", id: attID, accept: "application/json", token: otherVerifier, wantStatus: 403, wantCode: "forbidden"},
		{name: "JSON for its verifier", id: attID, accept: "application/json", token: f.verifierTok, wantStatus: 200},
		{name: "JSON of an unknown id", id: "att_aaaaaaaaaaaaaaaaaaaaaaaaaa", token: f.verifierTok, wantStatus: 404, wantCode: "not_found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hdr := map[string]string{}
			if tc.accept != "" {
				hdr["Accept"] = tc.accept
			}
			r := h.do(request{method: "GET", path: "/attestation/" + tc.id, token: tc.token, header: hdr})
			require.Equal(t, tc.wantStatus, r.status, string(r.body))
			require.Contains(t, r.header.Values("Vary"), "Accept")
			if !tc.wantHTML {
				require.NotContains(t, r.header.Get("Content-Type"), "html")
				if tc.wantCode != "" {
					require.Equal(t, tc.wantCode, r.errorCode(t))
				} else {
					require.Equal(t, attID, r.json(t)["id"])
				}
				return
			}
			require.Equal(t, attestationpage.MediaType, r.header.Get("Content-Type"))
			require.Equal(t, attestationpage.ContentSecurityPolicy(), r.header.Get("Content-Security-Policy"))
			require.Equal(t, "no-store", r.header.Get("Cache-Control"))
			require.Equal(t, "no-referrer", r.header.Get("Referrer-Policy"))
			if tc.wantStatus == 200 {
				require.Equal(t, string(page(tc.id)), string(r.body), "no data of the attestation, whoever asks")
			} else {
				require.Contains(t, string(r.body), "NOT FOUND")
			}
		})
	}
}

// TestAttestationPageLanguage checks the language negotiation of the attestation
// page over HTTP: ?lang= wins over Accept-Language, which is matched on its primary
// subtag and q values, else English; Content-Language names the page's language and
// the answer varies on Accept and Accept-Language, for a known and an unknown id.
func TestAttestationPageLanguage(t *testing.T) {
	h := newHarness(t)
	f := newConsentFlow(t, h)
	_, attID := f.approve(t, nil)
	for _, tc := range []struct {
		name, id, query, acceptLanguage, want string
		wantStatus                            int
	}{
		{name: "no preference is English", id: attID, want: "en", wantStatus: 200},
		{name: "fr-CA picks French", id: attID, acceptLanguage: "fr-CA,fr;q=0.9,en;q=0.8", want: "fr", wantStatus: 200},
		{name: "q values order the languages", id: attID, acceptLanguage: "de;q=0.4, it;q=0.7, xx", want: "it", wantStatus: 200},
		{name: "an unsupported language is English", id: attID, acceptLanguage: "ja, zh;q=0.8", want: "en", wantStatus: 200},
		{name: "?lang= wins", id: attID, query: "?lang=ar", acceptLanguage: "pt-BR", want: "ar", wantStatus: 200},
		{name: "an unknown ?lang= is ignored", id: attID, query: "?lang=klingon", acceptLanguage: "es-MX", want: "es", wantStatus: 200},
		{name: "the 404 page too", id: "att_aaaaaaaaaaaaaaaaaaaaaaaaaa", query: "?lang=de", want: "de", wantStatus: 404},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hdr := map[string]string{"Accept": "text/html"}
			if tc.acceptLanguage != "" {
				hdr["Accept-Language"] = tc.acceptLanguage
			}
			r := h.do(request{method: "GET", path: "/attestation/" + tc.id + tc.query, header: hdr})
			require.Equal(t, tc.wantStatus, r.status)
			require.Equal(t, tc.want, r.header.Get("Content-Language"))
			require.Contains(t, r.header.Values("Vary"), "Accept")
			require.Contains(t, r.header.Values("Vary"), "Accept-Language")
			dir := "ltr"
			if tc.want == "ar" {
				dir = "rtl"
			}
			require.Contains(t, string(r.body), `<html lang="`+tc.want+`" dir="`+dir+`">`)
			b, err := attestationpage.Render(attestationpage.View{ID: tc.id, Found: tc.wantStatus == 200, Lang: tc.want,
				StatusURL: "http://veriland.test/attestation/" + tc.id + "/status"})
			require.NoError(t, err)
			require.Equal(t, string(b), string(r.body))
		})
	}
}

// TestAttestationPageInChromium drives the attestation page in headless Chromium
// against the real test server, over the consent page's CDP harness: a VALID
// consent attestation opened by its verifier, the same REVOKED opened by its holder,
// a LIVENESS attestation, a missing, a malformed and a foreign token (a clear message and no data), and an
// unknown id. Each state is checked for script errors and CSP violations, with
// axe-core (zero serious or critical violations), for labels, contrast and sideways
// scrolling at 390 px, and photographed at desktop and
// phone sizes into $VERILAND_SCREENSHOT_DIR (else a temp dir).
func TestAttestationPageInChromium(t *testing.T) {
	bin, err := findChromium()
	require.NoError(t, err)
	if bin == "" {
		testenv.Require(t, "Chromium (browser test of the attestation page)", "set VERILAND_CHROMIUM, or put chromium on PATH; on Debian: apt-get install -y chromium")
	}
	h := newHarness(t)
	f := newConsentFlow(t, h)
	_, attID := f.approve(t, nil)
	holderTok, _ := h.login(t, f.wallet, veriland.Sandbox)
	_, otherVerifier := createKey(t, h, f.adminTok, "verifier", "verifier-other")
	issuer := h.do(request{method: "GET", path: "/attestation/issuer"}).json(t)["address"].(string)
	pagePath := "/attestation/" + attID

	shots := screenshotDir(t)
	b := launchBrowser(t, bin)

	// noData checks that nothing of the attestation is on the page.
	noData := func(t *testing.T, p *tab) {
		t.Helper()
		require.True(t, p.eval(`['verdict', 'details', 'verify'].every(id => document.getElementById(id).hidden)`).(bool))
		require.EqualValues(t, 0, p.eval(`document.querySelectorAll('#claims dt').length`))
		require.Equal(t, "", p.text("#raw"))
		require.Equal(t, "", p.text("#subject"))
		require.False(t, p.eval(`document.getElementById('token-form').hidden`).(bool), "the token can be pasted")
	}
	// tokenNeverInAURL checks that no request the page made carried the token in its URL.
	tokenNeverInAURL := func(t *testing.T, p *tab, tok string) {
		t.Helper()
		urls := p.eval(`performance.getEntriesByType('resource').map(e => e.name).concat([location.href])`).([]any)
		require.NotEmpty(t, urls)
		for _, u := range urls {
			require.NotContains(t, u, tok)
			require.NotContains(t, u, "token")
		}
	}

	t.Run("VALID, opened by its verifier", func(t *testing.T) {
		p := b.newPage(t, nil)
		p.open(h.ts.URL+pagePath+"#token="+f.verifierTok, pagePath)
		p.waitFor(`!document.getElementById('verdict').hidden`)
		require.Equal(t, "VALID", p.text("#verdict-word"))
		require.Equal(t, "valid", p.eval(`document.getElementById('verdict').className.split(' ')[1]`))
		require.Equal(t, "Attestation loaded: VALID.", p.text("#status"))
		require.Equal(t, "Consent attestation", p.text("h1"))
		require.Equal(t, "Attestation VALID", p.eval(`document.title`))
		require.Equal(t, []any{"Is an adult", "Yes", "Nationality", "Verified (the value itself is not shared)", "Verification request"},
			p.eval(`Array.from(document.querySelectorAll('#claims dt, #claims dd'), e => e.textContent).slice(0, 5)`))
		require.Contains(t, p.text("#claims-intro"), "never its value")
		require.Equal(t, "Consent to share facts with a verifier", p.text("#kind"))
		require.Equal(t, f.did, p.text("#subject"))
		require.Equal(t, "verifier-acme-bank", p.text("#verifier"))
		require.Equal(t, strings.ToLower(issuer), p.text("#issuer"))
		require.Equal(t, strings.ToLower(issuer), p.text("#issuer-flag"), "the offline command names the issuer")
		require.Equal(t, "VALID", p.text("#live-status"))
		require.NotEmpty(t, p.eval(`document.getElementById('issued-at').dateTime`))
		require.Equal(t, attID, p.text("#att-id"))
		require.NotEmpty(t, p.text("#anchor"))
		require.Equal(t, "http://veriland.test/attestation/"+attID+"/status", p.text("#status-url"))
		require.EqualValues(t, 1, p.eval(`document.querySelectorAll('#verify .qr svg path').length`))
		require.True(t, strings.HasPrefix(p.eval(`document.getElementById('download').href`).(string), "blob:"))
		require.Contains(t, p.text("#raw"), `"signature"`)
		require.Equal(t, "", p.eval(`location.hash`), "the token left the address bar")
		tokenNeverInAURL(t, p, f.verifierTok)
		p.checkConsentPage(t, "en")
		p.screenshots(t, shots, "attestation-valid")

		// Reloaded in the same tab, the page still reads it (the token is kept for
		// this tab only).
		p.open(h.ts.URL+pagePath, pagePath)
		p.waitFor(`!document.getElementById('verdict').hidden`)
		require.Equal(t, "VALID", p.text("#verdict-word"))
		p.noProblems()
	})

	t.Run("REVOKED, opened by its holder", func(t *testing.T) {
		rv := h.do(request{method: "POST", path: pagePath + "/revoke", token: holderTok, body: map[string]any{"reason": "changed my mind"}})
		require.Equal(t, http.StatusOK, rv.status, string(rv.body))
		p := b.newPage(t, nil)
		p.open(h.ts.URL+pagePath+"#token="+holderTok, pagePath)
		p.waitFor(`!document.getElementById('verdict').hidden`)
		require.Equal(t, "REVOKED", p.text("#verdict-word"))
		require.Equal(t, "revoked", p.eval(`document.getElementById('verdict').className.split(' ')[1]`))
		require.Contains(t, p.text("#verdict-text"), "was revoked on ")
		require.Contains(t, p.text("#verdict-text"), "Do not rely on it.")
		require.True(t, strings.HasPrefix(p.text("#live-status"), "REVOKED since "))
		require.Equal(t, f.did, p.text("#subject"))
		tokenNeverInAURL(t, p, holderTok)
		p.checkConsentPage(t, "en")
		p.screenshots(t, shots, "attestation-revoked")
		p.noProblems()
	})

	t.Run("a LIVENESS attestation, in words", func(t *testing.T) {
		liveID := h.livenessAttestation(t, f.did, "L2")
		livePath := "/attestation/" + liveID
		p := b.newPage(t, nil)
		p.open(h.ts.URL+livePath+"#token="+holderTok, livePath)
		p.waitFor(`!document.getElementById('verdict').hidden`)
		require.Equal(t, "VALID", p.text("#verdict-word"))
		require.Equal(t, "Liveness check attestation", p.text("h1"))
		require.Equal(t, "Liveness check: a live person was present", p.text("#kind"))
		require.Equal(t, []any{"Liveness level passed", "L2", "Policy version", "test"},
			p.eval(`Array.from(document.querySelectorAll('#claims dt, #claims dd'), e => e.textContent)`))
		require.Equal(t, "None named: any verifier it is shown to", p.text("#verifier"), "a liveness attestation names no verifier")
		p.checkConsentPage(t, "en")
		p.screenshots(t, shots, "attestation-liveness")
		p.noProblems()
	})

	for _, tc := range []struct {
		name, fragment, want, shot string
	}{
		{"no token", "", "No access token came with this link", "attestation-no-token"},
		{"a malformed token", "#token=not-a-token", "Your access token was not accepted", "attestation-bad-token"},
		{"another verifier's token", "#token=" + otherVerifier, "may not read this attestation", "attestation-forbidden"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := b.newPage(t, nil)
			p.open(h.ts.URL+pagePath+tc.fragment, pagePath)
			p.waitFor(`document.getElementById('status').textContent.indexOf(` + jsString(tc.want) + `) >= 0`)
			noData(t, p)
			p.checkConsentPage(t, "en")
			p.screenshots(t, shots, tc.shot)
			p.noProblems()
		})
	}

	t.Run("a token pasted into the form", func(t *testing.T) {
		p := b.newPage(t, nil)
		p.open(h.ts.URL+pagePath, pagePath)
		p.waitFor(`!document.getElementById('token-form').hidden`)
		p.click("#token-submit")
		p.waitFor(`document.getElementById('status').textContent.indexOf('Enter your access token first') >= 0`)
		require.Equal(t, "token", p.eval(`document.activeElement.id`))
		p.eval(`document.getElementById('token').value = ` + jsString(f.verifierTok))
		p.key("Enter")
		p.waitFor(`!document.getElementById('verdict').hidden`)
		require.Equal(t, "REVOKED", p.text("#verdict-word"))
		require.True(t, p.eval(`document.getElementById('token-form').hidden`).(bool))
		require.Equal(t, "", p.eval(`document.getElementById('token').value`), "the field is cleared")
		tokenNeverInAURL(t, p, f.verifierTok)
		p.noProblems()
	})

	t.Run("unknown id", func(t *testing.T) {
		unknown := "/attestation/att_aaaaaaaaaaaaaaaaaaaaaaaaaa"
		p := b.newPage(t, nil)
		p.open(h.ts.URL+unknown+"#token="+f.verifierTok, unknown)
		require.Equal(t, "NOT FOUND", p.text("#verdict-word"))
		require.Equal(t, "Attestation not found", p.text("h1"))
		require.Contains(t, p.text("#verdict-text"), "att_aaaaaaaaaaaaaaaaaaaaaaaaaa")
		require.EqualValues(t, 0, p.eval(`document.querySelectorAll('svg, form').length`))
		p.checkConsentPage(t, "en")
		p.screenshots(t, shots, "attestation-unknown")
		p.noProblems()
	})
}

// TestAttestationPageLanguagesInChromium opens the attestation page in each of its
// seven languages in each of its states (VALID, REVOKED, a bad token, an unknown
// id) in headless Chromium: the heading and the status words in that language,
// <html lang dir> (right to left for Arabic), axe-core with zero serious or critical
// violations, the labels, contrast and phone-width checks, no script error or CSP
// violation. The language comes from ?lang=, from Accept-Language, or from the
// switcher, which reloads the page without losing the attestation. Arabic and
// French are photographed at desktop and phone sizes into $VERILAND_SCREENSHOT_DIR.
func TestAttestationPageLanguagesInChromium(t *testing.T) {
	bin, err := findChromium()
	require.NoError(t, err)
	if bin == "" {
		testenv.Require(t, "Chromium (browser test of the attestation page)", "set VERILAND_CHROMIUM, or put chromium on PATH; on Debian: apt-get install -y chromium")
	}
	h := newHarness(t)
	f := newConsentFlow(t, h)
	_, attID := f.approve(t, nil)
	holderTok, _ := h.login(t, f.wallet, veriland.Sandbox)
	pagePath := "/attestation/" + attID
	shots := screenshotDir(t)
	b := launchBrowser(t, bin)

	// check checks the page's language and direction, then what every state needs.
	check := func(t *testing.T, p *tab, lang string) {
		t.Helper()
		dir := "ltr"
		if lang == "ar" {
			dir = "rtl"
		}
		require.Equal(t, dir, p.eval(`document.documentElement.dir`))
		require.Equal(t, lang, p.eval(`document.getElementById('lang').value`), "the switcher shows the language")
		require.Equal(t, attestationpage.Label(lang, "language"), p.eval(`document.getElementById('lang').labels[0].textContent`))
		p.checkConsentPage(t, lang)
		p.noProblems()
	}
	shoot := func(t *testing.T, p *tab, lang, name string) {
		if lang == "ar" || lang == "fr" {
			p.screenshots(t, shots, name+"-"+lang)
		}
	}
	loaded := func(t *testing.T, lang, tok, state string) *tab {
		p := b.newPage(t, nil)
		p.open(h.ts.URL+pagePath+"?lang="+lang+"#token="+tok, pagePath)
		p.waitFor(`document.getElementById('verdict').getAttribute('data-state') === ` + jsString(state))
		require.Equal(t, attestationpage.Label(lang, "state."+state), p.text("#verdict-word"))
		require.Equal(t, attestationpage.Label(lang, "h1.CONSENT"), p.text("h1"))
		require.Equal(t, attestationpage.Label(lang, "kind.CONSENT"), p.text("#kind"))
		require.Equal(t, strings.Replace(attestationpage.Label(lang, "loaded"), "{word}", attestationpage.Label(lang, "state."+state), 1), p.text("#status"))
		require.Equal(t, strings.Replace(attestationpage.Label(lang, "doc.title"), "{word}", attestationpage.Label(lang, "state."+state), 1), p.eval(`document.title`))
		require.Equal(t, attestationpage.Label(lang, "scope.is_adult"), p.text("#claims dt"), "claim labels in the language")
		require.Equal(t, attestationpage.Label(lang, "v.yes"), p.text("#claims dd"))
		return p
	}

	for _, lang := range consentpage.Languages {
		t.Run("VALID in "+lang, func(t *testing.T) {
			p := loaded(t, lang, f.verifierTok, "VALID")
			require.Equal(t, attestationpage.Label(lang, "text.VALID"), p.text("#verdict-text"))
			check(t, p, lang)
			shoot(t, p, lang, "attestation-valid")
		})
	}

	t.Run("Accept-Language picks the language; the switcher changes it", func(t *testing.T) {
		p := b.newPage(t, nil)
		p.call("Network.enable", map[string]any{}, nil)
		p.call("Network.setExtraHTTPHeaders", map[string]any{"headers": map[string]string{"Accept-Language": "de-CH, en;q=0.5"}}, nil)
		p.open(h.ts.URL+pagePath+"#token="+f.verifierTok, pagePath)
		p.waitFor(`document.getElementById('verdict').getAttribute('data-state') === 'VALID'`)
		require.Equal(t, "de", p.eval(`document.documentElement.lang`))
		require.Equal(t, "GÜLTIG", p.text("#verdict-word"))
		p.eval(`(function () { var s = document.getElementById('lang'); s.value = 'ar'; s.dispatchEvent(new Event('change')); return true; }())`)
		p.waitFor(`location.search === '?lang=ar' && document.readyState === 'complete' && document.getElementById('verdict').getAttribute('data-state') === 'VALID'`)
		require.Equal(t, "rtl", p.eval(`document.documentElement.dir`))
		require.Equal(t, attestationpage.Label("ar", "state.VALID"), p.text("#verdict-word"), "the token was kept for this tab")
		require.Equal(t, "", p.eval(`location.hash`))
		check(t, p, "ar")
	})

	rv := h.do(request{method: "POST", path: pagePath + "/revoke", token: holderTok, body: map[string]any{"reason": "changed my mind"}})
	require.Equal(t, http.StatusOK, rv.status, string(rv.body))
	for _, lang := range consentpage.Languages {
		t.Run("REVOKED in "+lang, func(t *testing.T) {
			p := loaded(t, lang, holderTok, "REVOKED")
			require.Equal(t, "revoked", p.eval(`document.getElementById('verdict').className.split(' ')[1]`))
			before, _, _ := strings.Cut(attestationpage.Label(lang, "text.REVOKED_AT"), "{date}")
			require.True(t, strings.HasPrefix(p.text("#verdict-text"), before), p.text("#verdict-text"))
			require.True(t, strings.HasPrefix(p.text("#live-status"), attestationpage.Label(lang, "state.REVOKED")))
			check(t, p, lang)
			shoot(t, p, lang, "attestation-revoked")
		})
	}

	for _, lang := range consentpage.Languages {
		t.Run("a bad token in "+lang, func(t *testing.T) {
			p := b.newPage(t, nil)
			p.open(h.ts.URL+pagePath+"?lang="+lang+"#token=not-a-token", pagePath)
			p.waitFor(`document.getElementById('status').textContent === ` + jsString(attestationpage.Label(lang, "err.401")))
			require.Equal(t, attestationpage.Label(lang, "title"), p.text("h1"))
			require.True(t, p.eval(`['verdict', 'details', 'verify'].every(id => document.getElementById(id).hidden)`).(bool), "nothing is shown")
			require.Equal(t, attestationpage.Label(lang, "token.label"), p.eval(`document.getElementById('token').labels[0].textContent`))
			check(t, p, lang)
			shoot(t, p, lang, "attestation-bad-token")
		})
	}

	for _, lang := range consentpage.Languages {
		t.Run("unknown id in "+lang, func(t *testing.T) {
			unknown := "/attestation/att_aaaaaaaaaaaaaaaaaaaaaaaaaa"
			p := b.newPage(t, nil)
			p.open(h.ts.URL+unknown+"?lang="+lang, unknown)
			require.Equal(t, 404, p.status())
			require.Equal(t, attestationpage.Label(lang, "nf.title"), p.text("h1"))
			require.Equal(t, attestationpage.Label(lang, "nf.title"), p.eval(`document.title`))
			require.Equal(t, attestationpage.Label(lang, "nf.word"), p.text("#verdict-word"))
			require.Contains(t, p.text("#verdict-text"), "att_aaaaaaaaaaaaaaaaaaaaaaaaaa")
			check(t, p, lang)
			shoot(t, p, lang, "attestation-unknown")
		})
	}
}

// open navigates to u and waits until the document at path has loaded; unlike
// navigate it allows the page to rewrite its URL (the attestation page drops its
// fragment).
func (p *tab) open(u, path string) {
	p.t.Helper()
	var res struct {
		ErrorText string `json:"errorText"`
	}
	p.eval(`window.__veriStale = true`) // the new document has no such mark
	p.call("Page.navigate", map[string]any{"url": u}, &res)
	require.Empty(p.t, res.ErrorText, "navigating to %s", u)
	p.waitFor(`!window.__veriStale && document.readyState === 'complete' && location.pathname === ` + jsString(path))
}
