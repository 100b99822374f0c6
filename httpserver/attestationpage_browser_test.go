package httpserver

import (
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/attestationpage"
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

// TestAttestationPageInChromium drives the attestation page in headless Chromium
// against the real test server, over the consent page's CDP harness: a VALID
// consent attestation opened by its verifier, the same REVOKED opened by its holder,
// a LIVENESS attestation, a missing, a malformed and a foreign token (a clear message and no data), and an
// unknown id. Each state is checked for script errors and CSP violations, for
// labels, contrast and sideways scrolling at 390 px, and photographed at desktop and
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

	shots := os.Getenv("VERILAND_SCREENSHOT_DIR")
	if shots == "" {
		shots = t.TempDir()
	}
	require.NoError(t, os.MkdirAll(shots, 0o755))
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
		p.checkAccessible(t)
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
		p.checkAccessible(t)
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
		p.checkAccessible(t)
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
			p.checkAccessible(t)
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
		p.checkAccessible(t)
		p.screenshots(t, shots, "attestation-unknown")
		p.noProblems()
	})
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
