package httpserver

import (
	"context"
	"crypto/ecdsa"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/dashboard"
	"github.com/veriland/veriland/internal/catalogue"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/internal/testenv"
	"github.com/veriland/veriland/parcel"
)

// TestDashboardServedWithItsPolicy checks the page's route: public, HTML, with the
// hash-based Content-Security-Policy, no cookie, the same for every caller, in the
// language of the ?lang= or the Accept-Language of the request (else English).
func TestDashboardServedWithItsPolicy(t *testing.T) {
	h := newHarness(t)
	admin := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
	for _, tc := range []struct {
		name, token string
	}{
		{"anonymous", ""},
		{"with a token", admin},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := h.do(request{method: "GET", path: "/dashboard", token: tc.token, header: map[string]string{"Accept": "text/html"}})
			require.Equal(t, http.StatusOK, r.status)
			require.Equal(t, dashboard.MediaType, r.header.Get("Content-Type"))
			require.Equal(t, dashboard.ContentSecurityPolicy(), r.header.Get("Content-Security-Policy"))
			require.Equal(t, "no-store", r.header.Get("Cache-Control"))
			require.Equal(t, "no-referrer", r.header.Get("Referrer-Policy"))
			require.Equal(t, "nosniff", r.header.Get("X-Content-Type-Options"))
			require.Empty(t, r.header.Values("Set-Cookie"))
			require.Empty(t, r.header.Get("RateLimit"), "never rate limited")
			require.Equal(t, dashboard.Page("en"), r.body)
		})
	}
	r := h.do(request{method: "POST", path: "/dashboard", body: `{}`, skipSpec: true})
	require.Equal(t, http.StatusMethodNotAllowed, r.status)

	// The route serves the page in the reader's language, as every page chooses it.
	for _, tc := range []struct{ query, accept, want string }{
		{"", "", "en"},
		{"", "fr-CA,fr;q=0.9,en;q=0.8", "fr"},
		{"", "ja, zh;q=0.8", "en"},
		{"?lang=ar", "pt-BR", "ar"},
		{"?lang=klingon", "es-MX", "es"},
	} {
		hdr := map[string]string{"Accept": "text/html"}
		if tc.accept != "" {
			hdr["Accept-Language"] = tc.accept
		}
		r := h.do(request{method: "GET", path: "/dashboard" + tc.query, header: hdr})
		require.Equal(t, http.StatusOK, r.status)
		require.Equal(t, tc.want, r.header.Get("Content-Language"), "%q %q", tc.query, tc.accept)
		require.Contains(t, r.header.Values("Vary"), "Accept-Language")
		require.Contains(t, string(r.body), `<html lang="`+tc.want+`" dir="`+catalogue.Dir(tc.want)+`">`)
		require.Equal(t, dashboard.Page(tc.want), r.body)
	}
}

// TestDashboardInChromium drives the operator dashboard in headless Chromium against
// the real test server, over the consent page's CDP harness: sign in with an API key,
// replay a FAILED delivery and see its new attempt, filter the audit log and verify
// its chain, create and revoke a key (its token shown once), certify a pending parcel
// and approve a transfer as their notary — the notary page showing how each transfer's
// owner consented (signed with the owner's wallet, or witnessed by the notary) and the
// transfers still waiting for their owner, with the deadline — and reset the sandbox.
// Every step checks
// that the browser reported no script error and no CSP violation; every page is
// checked for labels, accessible names, contrast and sideways scrolling at 390 px, and
// photographed at desktop (1280×800) and phone (390×844) sizes into
// $VERILAND_SCREENSHOT_DIR (else a temp dir).
func TestDashboardInChromium(t *testing.T) {
	bin, err := findChromium()
	require.NoError(t, err)
	if bin == "" {
		testenv.Require(t, "Chromium (browser test of the dashboard)", "set VERILAND_CHROMIUM, or put chromium on PATH; on Debian: apt-get install -y chromium")
	}
	h := newHarness(t)

	// A delivery that FAILED: a callback URL ending in /fail, retried for 24 hours.
	f := newConsentFlow(t, h)
	reqID, _ := f.approve(t, map[string]any{"callbackUrl": f.rc.srv.URL + "/hooks/fail"})
	require.Equal(t, 1, h.runOutbox(t))
	d := h.deliveryForRequest(t, f.verifierTok, reqID, "verification.approved")
	msgID := d["id"].(string)
	for range 10 {
		if d["status"] != "PENDING" {
			break
		}
		h.advanceTo(jsonTime(t, d["nextAttemptAt"]))
		require.Equal(t, 1, h.runOutbox(t))
		d = h.delivery(t, f.verifierTok, msgID)
	}
	require.Equal(t, "FAILED", d["status"])
	failedAttempts := len(d["attempts"].([]any))

	// Tokens are minted after the clock moved: they are valid for an hour from now.
	admin := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
	pf := newParcelFlow(h, veriland.Sandbox)
	pending := pf.create(t, parcelNotary)["id"].(string)
	sold := pf.create(t, parcelNotary)["id"].(string)
	pf.post(t, "/v1/parcels/"+sold+"/certify", pf.notary, nil, 200)
	transferID := pf.post(t, "/v1/parcels/"+sold+"/transfer", pf.agent, transferBody(parcelNotary), 202)["id"].(string)

	// SPEC S13: a transfer whose owner signed with the parcel's wallet, one still
	// waiting for its owner, and one an admin requested (so that admin may not approve it).
	signer, err := crypto.GenerateKey()
	require.NoError(t, err)
	signerWallet := strings.ToLower(crypto.PubkeyToAddress(signer.PublicKey).Hex())
	signed := dashboardWalletParcel(t, pf, signerWallet)
	signedTr := pf.post(t, "/v1/parcels/"+signed+"/transfer", pf.agent, transferBody(parcelNotary), 202)
	require.Equal(t, "PENDING_OWNER", signedTr["status"])
	signedID := signedTr["id"].(string)
	signedAt := h.clock.Now()
	ok := h.do(request{method: "POST", path: ownerConsentPath(signedID), body: map[string]any{"decision": "APPROVED",
		"ownerSignature": dashboardOwnerSignature(t, h, pf.agent, signedID, signer), "ownerAddress": signerWallet}})
	require.Equal(t, http.StatusOK, ok.status, string(ok.body))
	require.Equal(t, "PENDING_NOTARY", attrs(t, ok)["status"])
	waiting, err := crypto.GenerateKey()
	require.NoError(t, err)
	waitingWallet := strings.ToLower(crypto.PubkeyToAddress(waiting.PublicKey).Hex())
	waitingTr := pf.post(t, "/v1/parcels/"+dashboardWalletParcel(t, pf, waitingWallet)+"/transfer", pf.agent, transferBody(parcelNotary), 202)
	require.Equal(t, "PENDING_OWNER", waitingTr["status"])
	waitingID := waitingTr["id"].(string)
	deadline := jsonTime(t, waitingTr["ownerConsent"].(map[string]any)["deadline"])
	byAdminParcel := pf.create(t, parcelNotary)["id"].(string)
	pf.post(t, "/v1/parcels/"+byAdminParcel+"/certify", pf.notary, nil, 200)
	byAdmin := pf.post(t, "/v1/parcels/"+byAdminParcel+"/transfer", admin, transferBody(parcelNotary), 202)["id"].(string)

	shots := screenshotDir(t)
	b := launchBrowser(t, bin)

	t.Run("sign in and out", func(t *testing.T) {
		p := b.newPage(t, nil)
		p.navigate(h.ts.URL + "/dashboard")
		require.Equal(t, "Operator dashboard", p.text("h1"))
		require.False(t, p.eval(`document.getElementById('signin').hidden`).(bool))
		p.checkAccessible(t)
		p.screenshots(t, shots, "dashboard-signin")

		// Something that is not a token is refused on the page.
		p.eval(`document.getElementById('apikey').value = 'not a key'`)
		p.click("#signin-button")
		p.waitFor(`document.getElementById('signin-status').textContent.indexOf('not an API key') >= 0`)
		require.True(t, p.eval(`document.getElementById('app').hidden`).(bool))

		p.signIn(h.ts.URL, admin)
		require.Equal(t, "Signed in as admin · role admin · SANDBOX · account acct_test", p.text("#who"))
		require.Equal(t, admin, p.eval(`sessionStorage.getItem('veriland.dashboard.apiKey')`))
		require.Equal(t, "", p.eval(`document.cookie`), "never a cookie")
		require.Equal(t, "page", p.eval(`document.getElementById('tab-deliveries').getAttribute('aria-current')`))

		// Keyboard: a focused section button opens its section with Enter, and focus
		// moves to the section's heading.
		p.eval(`document.getElementById('tab-audit').focus()`)
		p.key("Enter")
		p.waitFor(`!document.getElementById('audit').hidden && document.activeElement.id === 'audit-title'`)
		require.True(t, p.eval(`document.getElementById('deliveries').hidden`).(bool))

		// A reload keeps the session (sessionStorage); signing out forgets the key.
		p.navigate(h.ts.URL + "/dashboard")
		p.waitFor(`!document.getElementById('app').hidden`)
		p.click("#signout")
		p.waitFor(`!document.getElementById('signin').hidden`)
		require.Nil(t, p.eval(`sessionStorage.getItem('veriland.dashboard.apiKey')`))
		require.Equal(t, "apikey", p.eval(`document.activeElement.id`))

		// A notary sees only the sections its role may use.
		p.signIn(h.ts.URL, pf.notary)
		require.Equal(t, []any{"tab-sandbox", "tab-notary", "tab-parcels"},
			p.eval(`Array.from(document.querySelectorAll('nav li:not([hidden]) button'), b => b.id)`))
		p.noProblems()
	})

	t.Run("replay a FAILED delivery", func(t *testing.T) {
		p := b.newPage(t, nil)
		p.signIn(h.ts.URL, admin)
		p.eval(`document.getElementById('delivery-status').value = 'FAILED'`)
		p.click(`#deliveries-form button[type=submit]`)
		card := `document.querySelector('#delivery-list li[data-id="` + msgID + `"]')`
		p.waitFor(card + ` && ` + card + `.querySelector('.tag').textContent === 'FAILED'`)
		require.EqualValues(t, 1, p.eval(`document.querySelectorAll('#delivery-list > li').length`), "only FAILED ones")
		require.Equal(t, "verification.approved", p.eval(card+`.querySelector('h3').firstChild.textContent`))

		p.eval(card + `.querySelector('.show-attempts').click()`)
		p.waitFor(card + `.querySelector('.show-attempts').getAttribute('aria-expanded') === 'true' && ` + card + `.querySelectorAll('li.attempt').length === ` + strconv.Itoa(failedAttempts))
		require.False(t, p.eval(card+`.querySelector('ol.attempts').hidden`).(bool))
		require.Contains(t, p.eval(card+`.querySelector('li.attempt').textContent`), "HTTP 500")
		p.checkAccessible(t)
		p.screenshots(t, shots, "dashboard-deliveries")

		h.clock.Advance(60_000_000_000) // a minute later
		p.eval(card + `.querySelector('.replay').click()`)
		p.waitFor(card + `.querySelector('.tag').textContent === 'PENDING'`)
		require.Contains(t, p.text("#status"), "Replay queued")
		require.Equal(t, "PENDING", h.delivery(t, admin, msgID)["status"])

		// The outbox sends it; the page shows the new attempt.
		require.Equal(t, 1, h.runOutbox(t))
		p.eval(card + `.querySelector('.show-attempts').click()`) // hide
		p.waitFor(card + `.querySelector('.show-attempts').getAttribute('aria-expanded') === 'false'`)
		p.eval(card + `.querySelector('.show-attempts').click()`) // show, fresh
		p.waitFor(card + `.querySelector('.show-attempts').getAttribute('aria-expanded') === 'true' && ` + card + `.querySelectorAll('li.attempt').length === ` + strconv.Itoa(failedAttempts+1))
		require.Contains(t, p.eval(card+`.querySelector('li.attempt:last-child').textContent`), "(latest)")
		require.Equal(t, "1", p.eval(card+`.querySelector('dl dd:nth-of-type(4)').textContent`), "one replay")
		p.noProblems()
	})

	t.Run("filter the audit log and verify its chain", func(t *testing.T) {
		p := b.newPage(t, nil)
		p.signIn(h.ts.URL, admin)
		p.click("#tab-audit")
		p.waitFor(`document.querySelectorAll('#audit-list li').length > 0`)
		all := p.eval(`document.querySelectorAll('#audit-list li').length`).(float64)

		p.eval(`document.getElementById('audit-severity').value = 'WARNING'`)
		p.eval(`document.getElementById('audit-action').value = 'webhook.delivery_failed'`)
		p.click(`#audit-form button[type=submit]`)
		p.waitFor(`document.getElementById('status').textContent === '1 entry shown.'`)
		require.Equal(t, []any{"webhook.delivery_failed"}, p.eval(`Array.from(document.querySelectorAll('#audit-list li'), li => li.dataset.action)`))
		require.Contains(t, p.text("#audit-list li"), msgID)
		require.Less(t, 1.0, all)

		p.eval(`document.getElementById('audit-severity').value = ''`)
		p.eval(`document.getElementById('audit-action').value = 'api_key.create'`)
		p.click(`#audit-form button[type=submit]`)
		p.waitFor(`document.querySelectorAll('#audit-list li').length > 0 && Array.from(document.querySelectorAll('#audit-list li')).every(li => li.dataset.action === 'api_key.create')`)

		p.click("#audit-verify")
		p.waitFor(`document.getElementById('audit-verify-result').textContent.indexOf('intact') >= 0`)
		require.Contains(t, p.text("#audit-verify-result"), "INTACT The chain is intact")
		p.checkAccessible(t)
		p.screenshots(t, shots, "dashboard-audit")
		p.noProblems()
	})

	t.Run("create and revoke a key", func(t *testing.T) {
		p := b.newPage(t, nil)
		p.signIn(h.ts.URL, admin)
		p.click("#tab-keys")
		p.waitFor(`document.getElementById('status').textContent.indexOf('shown') >= 0`)
		p.eval(`document.getElementById('key-role').value = 'verifier'`)
		p.eval(`document.getElementById('key-sub').value = 'verifier-dashboard'`)
		p.eval(`document.getElementById('key-name').value = 'Made in the dashboard'`)
		p.click(`#key-form button[type=submit]`)
		p.waitFor(`!document.getElementById('new-key').hidden && document.getElementById('new-key-token').value !== ''`)
		tok := p.eval(`document.getElementById('new-key-token').value`).(string)
		keyID := p.text("#new-key-id")
		require.Equal(t, "new-key-title", p.eval(`document.activeElement.id`))
		p.waitFor(`document.querySelector('#key-list li[data-id="` + keyID + `"]') !== null`)
		require.Equal(t, http.StatusOK, h.do(request{method: "GET", path: "/v1/webhooks/deliveries", token: tok}).status, "the token works")
		p.checkAccessible(t)
		p.screenshots(t, shots, "dashboard-keys")

		// Shown once: stored away, it is gone from the page.
		p.click("#new-key-done")
		require.True(t, p.eval(`document.getElementById('new-key').hidden`).(bool))
		require.NotContains(t, p.eval(`document.documentElement.outerHTML + document.getElementById('new-key-token').value`), tok)

		p.eval(`document.querySelector('#key-list li[data-id="` + keyID + `"] button.revoke').click()`)
		p.waitFor(`document.querySelector('#key-list li[data-id="` + keyID + `"] .tag').textContent === 'REVOKED'`)
		require.Contains(t, p.text("#status"), "is revoked")
		require.Equal(t, http.StatusUnauthorized, h.do(request{method: "GET", path: "/v1/webhooks/deliveries", token: tok}).status)
		p.noProblems()
	})

	t.Run("certify a pending parcel and approve a transfer as their notary", func(t *testing.T) {
		p := b.newPage(t, nil)
		p.signIn(h.ts.URL, pf.notary)
		card := func(list, id string) string {
			return `document.querySelector('#` + list + ` li[data-id="` + id + `"]')`
		}
		p.waitFor(card("pending-list", pending) + ` !== null && ` + card("transfer-list", transferID) + ` !== null && ` +
			card("transfer-list", signedID) + ` !== null && ` + card("owner-list", waitingID) + ` !== null`)
		require.Contains(t, p.text("#notary-note"), parcelNotary)
		require.Contains(t, p.text("#status"), "1 transfer waits for the owner’s signature")

		// How each owner consented: witnessed by the notary (no wallet), or signed with
		// the parcel's wallet, by whom and when.
		witnessed := card("transfer-list", transferID)
		require.Equal(t, "NOTARY_WITNESSED", p.eval(witnessed+`.dataset.consent`))
		require.Equal(t, "Notary-witnessed (owner has no wallet)", p.eval(witnessed+`.querySelector('.consent').textContent`))
		require.Contains(t, p.eval(witnessed+`.textContent`), "Approving attests that the owner appeared before you")
		ownerSigned := card("transfer-list", signedID)
		require.Equal(t, "OWNER_SIGNATURE", p.eval(ownerSigned+`.dataset.consent`))
		require.Equal(t, "Owner signed with wallet "+signerWallet+" at "+dashboardTime("en", signedAt),
			p.eval(ownerSigned+`.querySelector('.consent').textContent`))
		require.Equal(t, "ok", p.eval(ownerSigned+`.querySelector('.consent .tag').classList[1]`))
		require.EqualValues(t, 1, p.eval(ownerSigned+`.querySelectorAll('button.approve').length`), "the named notary decides")

		// Waiting for the owner: the deadline, the owner's wallet and page; nothing to decide.
		owner := card("owner-list", waitingID)
		require.Equal(t, "PENDING_OWNER", p.eval(owner+`.querySelector('.tag').textContent`))
		require.Contains(t, p.eval(owner+`.textContent`), dashboardTime("en", deadline))
		require.Equal(t, deadline.UTC().Format(time.RFC3339), p.eval(owner+`.querySelector('time[datetime]:not([datetime=""])').getAttribute('datetime')`))
		require.Contains(t, p.eval(owner+`.textContent`), waitingWallet)
		require.Equal(t, "http://veriland.test/v1/transfers/"+waitingID+"/owner-consent", p.eval(owner+`.querySelector('a').getAttribute('href')`))
		require.EqualValues(t, 0, p.eval(owner+`.querySelectorAll('button').length`))
		require.Nil(t, p.eval(card("transfer-list", waitingID)), "not among those awaiting a notary")
		require.Nil(t, p.eval(card("owner-list", signedID)))
		p.checkAccessible(t)
		p.screenshots(t, shots, "dashboard-notary")

		p.eval(card("pending-list", pending) + `.querySelector('button.certify').click()`)
		p.waitFor(`document.getElementById('status').textContent.indexOf('is CERTIFIED') >= 0`)
		require.Equal(t, "CERTIFIED", attrs(t, h.do(request{method: "GET", path: "/v1/parcels/" + pending, token: pf.agent}))["status"])
		p.waitFor(card("pending-list", pending) + ` === null`)

		p.eval(card("transfer-list", transferID) + `.querySelector('button.approve').click()`)
		p.waitFor(`document.getElementById('status').textContent.indexOf('is COMPLETED') >= 0`)
		require.Equal(t, "COMPLETED", attrs(t, h.do(request{method: "GET", path: "/v1/transfers/" + transferID, token: pf.agent}))["status"])
		p.waitFor(card("transfer-list", transferID) + ` === null`)

		// The transfer the owner signed completes the same way.
		p.eval(`document.getElementById('status').textContent = ''`)
		p.eval(card("transfer-list", signedID) + `.querySelector('button.approve').click()`)
		p.waitFor(`document.getElementById('status').textContent.indexOf('` + signedID + ` is COMPLETED') >= 0`)
		p.waitFor(card("transfer-list", signedID) + ` === null`)
		require.Equal(t, "OWNER_SIGNATURE", attrs(t, h.do(request{method: "GET", path: "/v1/transfers/" + signedID, token: pf.agent}))["ownerConsent"].(map[string]any)["method"])

		// Another notary may not decide: no button offers it.
		other := b.newPage(t, nil)
		other.signIn(h.ts.URL, pf.otherNotary)
		other.waitFor(`document.getElementById('status').textContent.indexOf('certification;') >= 0`)
		require.EqualValues(t, 0, other.eval(`document.querySelectorAll('button.certify, button.approve, button.reject').length`))

		// The admin that requested a transfer is told it may not approve it; it sees the
		// owner's wait too.
		adm := b.newPage(t, nil)
		adm.signIn(h.ts.URL, admin)
		adm.click("#tab-notary")
		adm.waitFor(card("transfer-list", byAdmin) + ` !== null && ` + card("owner-list", waitingID) + ` !== null`)
		require.EqualValues(t, 0, adm.eval(card("transfer-list", byAdmin)+`.querySelectorAll('button').length`))
		require.Contains(t, adm.eval(card("transfer-list", byAdmin)+`.querySelector('.note.own').textContent`), "You requested this transfer")
		p.noProblems()
		other.noProblems()
		adm.noProblems()
	})

	t.Run("reset the sandbox", func(t *testing.T) {
		// The harness's server has a sandbox (WithDefaultServices): the routes must be
		// there, and this subtest never skips.
		require.Contains(t, h.srv.Routes(), "POST /v1/sandbox/reset")
		require.Contains(t, h.srv.Routes(), "GET /v1/sandbox/scenarios")
		p := b.newPage(t, nil)
		p.signIn(h.ts.URL, admin)
		p.click("#tab-sandbox")
		p.waitFor(`!document.getElementById('sandbox-body').hidden && document.querySelectorAll('#scenario-rows tr').length > 0`)
		before := h.do(request{method: "GET", path: "/v1/sandbox/scenarios", token: admin}).json(t)["data"].(map[string]any)["attributes"].(map[string]any)
		seeded := before["seeded"].(map[string]any)
		certified := seeded["parcels"].(map[string]any)["certified"].(string)
		require.Contains(t, p.text("#sandbox-seeded"), certified)
		walletOwned := seeded["walletOwnedParcel"].(map[string]any)
		require.Contains(t, p.text("#sandbox-seeded"), walletOwned["id"].(string))
		require.Contains(t, p.text("#sandbox-seeded"), walletOwned["ownerWallet"].(string))
		require.Contains(t, p.text("#sandbox-seeded"), "Its owner wallet (IDENTITY_VERIFIED)")
		require.EqualValues(t, len(before["scenarios"].([]any)), p.eval(`document.querySelectorAll('#scenario-rows tr').length`))
		p.checkAccessible(t)
		p.screenshots(t, shots, "dashboard-sandbox")

		// Reset asks first; Cancel does nothing.
		p.click("#sandbox-reset")
		require.False(t, p.eval(`document.getElementById('sandbox-confirm').hidden`).(bool))
		require.Equal(t, "sandbox-reset-no", p.eval(`document.activeElement.id`))
		p.click("#sandbox-reset-no")
		require.True(t, p.eval(`document.getElementById('sandbox-confirm').hidden`).(bool))

		p.click("#sandbox-reset")
		p.click("#sandbox-reset-yes")
		p.waitFor(`document.getElementById('status').textContent.indexOf('was reset') >= 0`)
		after := h.do(request{method: "GET", path: "/v1/sandbox/scenarios", token: admin}).json(t)["data"].(map[string]any)["attributes"].(map[string]any)
		newCertified := after["seeded"].(map[string]any)["parcels"].(map[string]any)["certified"].(string)
		require.NotEqual(t, certified, newCertified, "re-seeded with new records")
		require.Contains(t, p.text("#sandbox-seeded"), newCertified)
		require.NotContains(t, p.text("#sandbox-seeded"), certified)
		p.noProblems()
	})
}

// TestDashboardLandTitlesInChromium: the Parcels section shows each parcel's land
// title (SPEC S14) on a simulated chain — its status in a coloured tag and in words,
// who holds it (the owner's wallet, or the registry's custody account) with the short
// address and the full one in its title, and the mint and burn transactions likewise
// — and, in PRODUCTION without a chain, the registry's record only. Photographed at
// desktop and phone sizes.
func TestDashboardLandTitlesInChromium(t *testing.T) {
	bin, err := findChromium()
	require.NoError(t, err)
	if bin == "" {
		testenv.Require(t, "Chromium (browser test of the dashboard)", "set VERILAND_CHROMIUM, or put chromium on PATH; on Debian: apt-get install -y chromium")
	}
	h := newHarness(t)
	sim := titleChain(t, h)
	custody := sim.Registry().Hex()
	pf := newParcelFlow(h, veriland.Sandbox)
	pending := pf.create(t, parcelNotary)["id"].(string)
	custodyParcel := pf.create(t, parcelNotary)["id"].(string)
	pf.post(t, "/v1/parcels/"+custodyParcel+"/certify", pf.notary, nil, 200)
	wallet := strings.ToLower("0x" + strings.Repeat("5a", 20))
	walletParcel := dashboardWalletParcel(t, pf, wallet)
	revoked := pf.create(t, parcelNotary)["id"].(string)
	pf.post(t, "/v1/parcels/"+revoked+"/certify", pf.notary, nil, 200)
	h.runChainJobs(t)
	pf.post(t, "/v1/parcels/"+revoked+"/revoke", pf.admin, `{"reason":"court order"}`, 200)
	h.runChainJobs(t)
	token := func(id string) map[string]any {
		return attrs(t, h.do(request{method: "GET", path: "/v1/parcels/" + id, token: pf.agent}))["token"].(map[string]any)
	}
	custodyTok, walletTok, revokedTok := token(custodyParcel), token(walletParcel), token(revoked)
	require.Equal(t, "MINTED", custodyTok["status"])
	require.Equal(t, "MINTED", walletTok["status"])
	require.Equal(t, "BURNED", revokedTok["status"])
	// PRODUCTION has no chain here: its titles are the registry's record only.
	prod := newParcelFlow(h, veriland.Production)
	disabled := prod.create(t, parcelNotary)["id"].(string)
	prod.post(t, "/v1/parcels/"+disabled+"/certify", prod.notary, nil, 200)

	shots := screenshotDir(t)
	b := launchBrowser(t, bin)
	p := b.newPage(t, nil)
	p.signIn(h.ts.URL, pf.admin)
	p.click("#tab-parcels")
	card := func(id string) string { return `document.querySelector('#parcel-list li[data-id="` + id + `"]')` }
	// (The account's sandbox holds its seeded parcels too.)
	p.waitFor(`/parcels shown\.$/.test(document.getElementById('status').textContent) && ` + card(pending) + ` && ` + card(revoked))
	require.Equal(t, "parcels-title", p.eval(`document.activeElement.id`))
	fact := func(id, label string) string {
		return `(() => { const dt = Array.from(` + card(id) + `.querySelectorAll('dt')).find(d => d.textContent === '` + label + `'); return dt ? dt.nextElementSibling : null; })()`
	}
	full := func(expr string) any { return p.eval(expr + `.querySelector('code').getAttribute('title')`) }
	shortText := func(expr string) any { return p.eval(expr + `.querySelector('code').textContent`) }

	// Held by the registry's custody account: an owner without a wallet.
	require.Equal(t, "MINTED", p.eval(card(custodyParcel)+`.dataset.tokenStatus`))
	require.Equal(t, "MINTED On chain, held by the registry’s custody account", p.eval(fact(custodyParcel, "Land title")+`.textContent`))
	require.Equal(t, "ok", p.eval(fact(custodyParcel, "Land title")+`.querySelector('.tag').classList[1]`))
	require.Equal(t, "REGISTRY_CUSTODY", p.eval(fact(custodyParcel, "Held by")+`.querySelector('.holder').dataset.kind`))
	require.Contains(t, p.eval(fact(custodyParcel, "Held by")+`.textContent`), "the registry’s custody account (owner without a wallet)")
	require.Equal(t, custody, full(fact(custodyParcel, "Held by")))
	require.Equal(t, custody[:6]+"…"+custody[len(custody)-4:], shortText(fact(custodyParcel, "Held by")))
	mintTx := custodyTok["mintTx"].(string)
	require.Equal(t, mintTx, full(fact(custodyParcel, "Mint tx")))
	require.Equal(t, mintTx[:6]+"…"+mintTx[len(mintTx)-4:], shortText(fact(custodyParcel, "Mint tx")))
	require.Equal(t, sim.Address().Hex(), full(fact(custodyParcel, "Contract")))
	require.Contains(t, p.eval(fact(custodyParcel, "Contract")+`.textContent`), "chain 1337")
	require.Nil(t, p.eval(fact(custodyParcel, "Burn tx")))

	// Held by the owner's wallet.
	require.Equal(t, "MINTED On chain, held by the owner’s wallet", p.eval(fact(walletParcel, "Land title")+`.textContent`))
	require.Equal(t, "OWNER_WALLET", p.eval(fact(walletParcel, "Held by")+`.querySelector('.holder').dataset.kind`))
	require.Equal(t, wallet, strings.ToLower(full(fact(walletParcel, "Held by")).(string)))
	require.Equal(t, walletTok["mintTx"], full(fact(walletParcel, "Mint tx")))

	// Revoked: burned on chain, with both transactions.
	require.Equal(t, "BURNED Burned", p.eval(fact(revoked, "Land title")+`.textContent`))
	require.Equal(t, "burned", p.eval(fact(revoked, "Land title")+`.querySelector('.tag').classList[1]`))
	require.NotNil(t, p.eval(fact(revoked, "Was held by")))
	require.Equal(t, revokedTok["mintTx"], full(fact(revoked, "Mint tx")))
	require.Equal(t, revokedTok["burnTx"], full(fact(revoked, "Burn tx")))

	// Not certified yet: no title.
	require.Contains(t, p.eval(card(pending)+`.textContent`), "No land title: a title is issued only when the parcel is certified.")
	p.checkAccessible(t)
	p.screenshots(t, shots, "dashboard-parcels")
	p.noProblems()

	// PRODUCTION without a chain: the registry's record only, no holder, no transaction.
	q := b.newPage(t, nil)
	q.signIn(h.ts.URL, prod.admin)
	q.click("#tab-parcels")
	q.waitFor(`document.getElementById('status').textContent === '1 parcel shown.'`)
	require.Equal(t, "DISABLED Registry record only (no chain configured)", q.eval(`document.querySelector('#parcel-list .title-state').textContent`))
	require.Equal(t, "plain", q.eval(`document.querySelector('#parcel-list .title-state .tag').classList[1]`))
	require.EqualValues(t, 0, q.eval(`document.querySelectorAll('#parcel-list .holder').length`))
	q.checkAccessible(t)
	q.screenshots(t, shots, "dashboard-parcels-disabled")
	q.noProblems()
}

// signIn opens the dashboard and signs in with tok as a person would: typing the key
// into its labelled field and pressing the Sign in button.
func (p *tab) signIn(origin, tok string) {
	p.t.Helper()
	p.signInAt(origin+"/dashboard", tok)
}

// signInAt is signIn on the dashboard at u (with its ?lang=, say), waiting until the
// first section has loaded (every "Loading…" message, in every language, ends with
// an ellipsis).
func (p *tab) signInAt(u, tok string) {
	p.t.Helper()
	p.navigate(u)
	p.eval(`document.getElementById('apikey').value = ` + jsString(tok))
	p.click("#signin-button")
	p.waitFor(`!document.getElementById('app').hidden && ` + dashboardLoaded)
}

// dashboardLoaded holds when the dashboard's status line says something other than
// that it is loading.
const dashboardLoaded = `document.getElementById('status').textContent !== '' && !/…$/.test(document.getElementById('status').textContent)`

// checkAccessible asserts, for what is visible now, what axe-core would check first
// (axe-core is not available offline): every form field has a label, every button an
// accessible name, every text a contrast of at least 4.5:1; and, at a phone's width,
// that nothing scrolls sideways.
func (p *tab) checkAccessible(t *testing.T) {
	t.Helper()
	require.Empty(t, p.eval(`Array.from(document.querySelectorAll('input, select, textarea')).filter(e =>
		e.labels.length === 0 && !e.getAttribute('aria-label') && !e.getAttribute('aria-labelledby')).map(e => e.id)`), "fields without a label")
	require.Empty(t, p.eval(`Array.from(document.querySelectorAll('button')).filter(b =>
		!b.textContent.trim() && !b.getAttribute('aria-label')).map(b => b.outerHTML)`), "buttons without a name")
	require.Empty(t, p.eval(contrastScript), "low-contrast elements")
	lang := p.eval(`document.documentElement.lang`).(string)
	require.Contains(t, catalogue.Languages, lang)
	require.Equal(t, catalogue.Dir(lang), p.eval(`document.documentElement.dir`))
	p.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": true}, nil)
	require.LessOrEqual(t, p.eval(`document.documentElement.scrollWidth`).(float64), float64(390), "horizontal scroll at 390px: %v",
		p.eval(`Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > 390).slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right) + ' ' + e.textContent.slice(0, 60))`))
	p.call("Emulation.clearDeviceMetricsOverride", nil, nil)
}

// screenshotDir is where a browser test saves its screenshots:
// $VERILAND_SCREENSHOT_DIR (made if missing), else a temporary directory.
func screenshotDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("VERILAND_SCREENSHOT_DIR")
	if dir == "" {
		return t.TempDir()
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	return dir
}

// screenshots saves the page at desktop (1280×800) and phone (390×844) sizes.
func (p *tab) screenshots(t *testing.T, dir, name string) {
	t.Helper()
	for _, size := range []struct {
		suffix        string
		width, height int
		mobile        bool
	}{
		{"desktop", 1280, 800, false},
		{"phone", 390, 844, true},
	} {
		p.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": size.width, "height": size.height, "deviceScaleFactor": 1, "mobile": size.mobile}, nil)
		var shot struct {
			Data string `json:"data"`
		}
		p.call("Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": true}, &shot)
		png, err := base64.StdEncoding.DecodeString(shot.Data)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name+"-"+size.suffix+".png"), png, 0o644))
	}
	p.call("Emulation.clearDeviceMetricsOverride", nil, nil)
}

// dashboardWalletParcel creates, as pf's agent, a parcel whose owner holds wallet, and
// has pf's notary certify it (which binds the wallet): a transfer of it waits for the
// owner's signature.
func dashboardWalletParcel(t *testing.T, pf *parcelFlow, wallet string) string {
	t.Helper()
	body := fmt.Sprintf(`{"owner":{"fullName":%q,"id_doc":%q,"walletAddress":%q},"parcel":{"gps":[9.0765,7.3986],"area_m2":1200,"city":"Abuja"},"notary":%q}`,
		ownerName, ownerIDDoc, wallet, parcelNotary)
	id := pf.post(t, "/v1/parcels", pf.agent, body, 201)["id"].(string)
	prc := pf.post(t, "/v1/parcels/"+id+"/certify", pf.notary, nil, 200)
	require.Equal(t, wallet, prc["owner"].(map[string]any)["walletAddress"])
	require.Equal(t, "NOTARY_VERIFIED", prc["owner"].(map[string]any)["binding"])
	return id
}

// dashboardOwnerSignature signs transfer id's TransferConsent (APPROVED) with the
// owner's key, over the transfer as tok reads it.
func dashboardOwnerSignature(t *testing.T, h *harness, tok, id string, key *ecdsa.PrivateKey) string {
	t.Helper()
	r := h.do(request{method: "GET", path: "/v1/transfers/" + id, token: tok})
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	raw, err := json.Marshal(attrs(t, r))
	require.NoError(t, err)
	var tr parcel.Transfer
	require.NoError(t, json.Unmarshal(raw, &tr))
	sig, err := ethsig.Sign(key, parcel.TransferConsentOf(&tr, parcel.DecisionApproved).Digest(h.srv.cfg.ChainID))
	require.NoError(t, err)
	return hexutil.Encode(sig)
}

// dashboardTime is how the dashboard prints an instant in lang: the catalogue's
// dateTime pattern (catalogue.DateTime) to the second.
func dashboardTime(lang string, at time.Time) string {
	return catalogue.Fill(catalogue.Page(catalogue.Common).Text(lang, "dateTime"),
		map[string]string{"date": catalogue.Date(lang, at), "time": at.UTC().Format("15:04:05")})
}

// TestDashboardLanguagesInChromium reads the dashboard in each of the catalogue's
// languages (?lang=) over a server with something in every list: the notary's
// section (a parcel to certify, a transfer witnessed by the notary, one the owner
// signed, one waiting for its owner) and the land titles of a simulated chain. In
// each language the page is in that language (<html lang dir>, its heading, its
// dates with the language's month names, its counts) with no English label left in
// what it shows, and passes the accessibility checks (labels, names, contrast of at
// least 4.5:1 in the light and the dark scheme, nothing wider than a 390 px phone).
// In English, French, Arabic and Portuguese it is photographed at desktop and phone
// sizes into $VERILAND_SCREENSHOT_DIR: dashboard-<lang>-<size>.png (the notary's
// section), dashboard-<lang>-signin-…, -parcels-…, -audit-… and -sandbox-…. Accept-Language picks the language when there is no
// ?lang=, and the switcher reloads the page in another language, signed in still,
// on the same section.
func TestDashboardLanguagesInChromium(t *testing.T) {
	bin, err := findChromium()
	require.NoError(t, err)
	if bin == "" {
		testenv.Require(t, "Chromium (browser test of the dashboard)", "set VERILAND_CHROMIUM, or put chromium on PATH; on Debian: apt-get install -y chromium")
	}
	h := newHarness(t)
	titleChain(t, h)
	pf := newParcelFlow(h, veriland.Sandbox)
	pf.create(t, parcelNotary) // awaits certification
	witnessed := pf.create(t, parcelNotary)["id"].(string)
	pf.post(t, "/v1/parcels/"+witnessed+"/certify", pf.notary, nil, 200)
	pf.post(t, "/v1/parcels/"+witnessed+"/transfer", pf.agent, transferBody(parcelNotary), 202)
	signer, err := crypto.GenerateKey()
	require.NoError(t, err)
	signedTr := pf.post(t, "/v1/parcels/"+dashboardWalletParcel(t, pf, strings.ToLower(crypto.PubkeyToAddress(signer.PublicKey).Hex()))+"/transfer",
		pf.agent, transferBody(parcelNotary), 202)["id"].(string)
	ok := h.do(request{method: "POST", path: ownerConsentPath(signedTr), body: map[string]any{"decision": "APPROVED",
		"ownerSignature": dashboardOwnerSignature(t, h, pf.agent, signedTr, signer), "ownerAddress": strings.ToLower(crypto.PubkeyToAddress(signer.PublicKey).Hex())}})
	require.Equal(t, http.StatusOK, ok.status, string(ok.body))
	waiting := pf.post(t, "/v1/parcels/"+dashboardWalletParcel(t, pf, strings.ToLower("0x"+strings.Repeat("5a", 20)))+"/transfer", pf.agent, transferBody(parcelNotary), 202)
	deadline := jsonTime(t, waiting["ownerConsent"].(map[string]any)["deadline"])
	revoked := pf.create(t, parcelNotary)["id"].(string)
	pf.post(t, "/v1/parcels/"+revoked+"/certify", pf.notary, nil, 200)
	h.runChainJobs(t)
	pf.post(t, "/v1/parcels/"+revoked+"/revoke", pf.admin, `{"reason":"court order"}`, 200)
	h.runChainJobs(t)

	shots := screenshotDir(t)
	b := launchBrowser(t, bin)
	photographed := map[string]bool{"en": true, "fr": true, "ar": true, "pt": true}
	for _, lang := range catalogue.Languages {
		t.Run(lang, func(t *testing.T) {
			label := func(key string) string { return dashboard.Label(lang, key) }
			p := b.newPage(t, nil)
			p.navigate(h.ts.URL + "/dashboard?lang=" + lang)
			require.Equal(t, label("signin.title"), p.text("#signin-title"))
			p.noEnglish(t, lang)
			p.checkAccessible(t)
			if photographed[lang] {
				p.screenshots(t, shots, "dashboard-"+lang+"-signin")
			}
			p.signInAt(h.ts.URL+"/dashboard?lang="+lang, pf.admin)
			require.Equal(t, lang, p.eval(`document.documentElement.lang`))
			require.Equal(t, catalogue.Dir(lang), p.eval(`document.documentElement.dir`))
			require.Equal(t, label("title"), p.text("h1"))
			require.Equal(t, lang, p.eval(`document.getElementById('lang').value`))
			require.Equal(t, label("deliveries.title"), p.text("#tab-deliveries"))
			require.Equal(t, catalogue.Fill(label("who"), map[string]string{"sub": "admin", "role": label("role.admin"), "env": "SANDBOX"})+
				" · "+catalogue.Fill(label("who.account"), map[string]string{"acct": "acct_test"}), p.text("#who"))

			p.click("#tab-notary")
			// (The account's sandbox holds its seeded parcels and transfers too.)
			p.waitFor(`document.querySelectorAll('#owner-list li.card').length > 0 && document.querySelectorAll('#transfer-list li.card').length >= 2 && ` + dashboardLoaded)
			plural := func(key, list string) string {
				n := int(p.eval(`document.querySelectorAll('#` + list + ` li.card').length`).(float64))
				if n == 1 {
					return catalogue.Fill(label(key+".one"), map[string]string{"n": "1"})
				}
				return catalogue.Fill(label(key+".other"), map[string]string{"n": catalogue.Number(lang, float64(n), 0)})
			}
			require.Equal(t, catalogue.Fill(label("notary.summary"), map[string]string{
				"parcels":   plural("notary.parcels", "pending-list"),
				"transfers": plural("notary.transfers", "transfer-list"),
				"owner":     plural("notary.waiting", "owner-list"),
			}), p.text("#status"))
			require.Contains(t, p.text("#owner-list"), dashboardTime(lang, deadline), "the deadline, in the language's words")
			require.Equal(t, label("consent.witnessed")+" "+label("consent.noWallet"),
				p.eval(`document.querySelector('#transfer-list li[data-consent="NOTARY_WITNESSED"] .consent').textContent`))
			p.noEnglish(t, lang)
			p.checkAccessible(t)
			if photographed[lang] {
				p.screenshots(t, shots, "dashboard-"+lang)
			}
			// The dark colour scheme is as legible.
			p.call("Emulation.setEmulatedMedia", map[string]any{"features": []map[string]string{{"name": "prefers-color-scheme", "value": "dark"}}}, nil)
			require.True(t, p.eval(`matchMedia('(prefers-color-scheme: dark)').matches`).(bool))
			require.Empty(t, p.eval(contrastScript), "low-contrast elements in the dark scheme")
			p.call("Emulation.setEmulatedMedia", map[string]any{"features": []map[string]string{{"name": "prefers-color-scheme", "value": "light"}}}, nil)

			p.click("#tab-parcels")
			p.waitFor(`document.querySelector('#parcel-list li[data-id="` + revoked + `"]') && ` + dashboardLoaded)
			require.Equal(t, "BURNED "+label("title.BURNED"), p.eval(`document.querySelector('#parcel-list li[data-id="`+revoked+`"] .title-state').textContent`))
			require.Contains(t, p.text("#parcel-list"), label("heldBy.REGISTRY_CUSTODY"))
			p.noEnglish(t, lang)
			p.checkAccessible(t)
			if photographed[lang] {
				p.screenshots(t, shots, "dashboard-"+lang+"-parcels")
			}

			p.click("#tab-audit")
			p.waitFor(`document.querySelectorAll('#audit-list li').length > 0 && ` + dashboardLoaded)
			n := int(p.eval(`document.querySelectorAll('#audit-list li').length`).(float64))
			require.Equal(t, catalogue.Fill(label("audit.shown.other"), map[string]string{"n": catalogue.Number(lang, float64(n), 0)}), p.text("#status"))
			p.click("#audit-verify")
			p.waitFor(`document.querySelector('#audit-verify-result .tag') !== null`)
			before, _, _ := strings.Cut(label("audit.intact"), "{n}")
			require.Contains(t, p.text("#audit-verify-result"), "INTACT "+before)
			p.checkAccessible(t)
			if photographed[lang] {
				p.screenshots(t, shots, "dashboard-"+lang+"-audit")
			}

			p.click("#tab-deliveries")
			p.waitFor(dashboardLoaded)
			require.Equal(t, label("deliveries.anyStatus"), p.eval(`document.querySelector('#delivery-status option[value=""]').textContent`))
			p.noEnglish(t, lang)
			p.checkAccessible(t)

			// A key made in lang: the confirmation and the key's card in its words.
			p.click("#tab-keys")
			p.waitFor(dashboardLoaded)
			require.Equal(t, label("fact.role"), p.eval(`document.querySelector('label[for="key-role"]').textContent`))
			require.Equal(t, label("role.verifier"), p.eval(`document.querySelector('#key-role option[value="verifier"]').textContent`))
			p.eval(`document.getElementById('key-sub').value = 'v-` + lang + `-1'`)
			p.eval(`document.getElementById('key-name').value = 'K-` + lang + `'`)
			p.click(`#key-form button[type=submit]`)
			p.waitFor(`!document.getElementById('new-key').hidden && document.querySelector('#key-list li .revoke') !== null`)
			require.Equal(t, catalogue.Fill(label("keys.created"), map[string]string{"name": "K-" + lang, "sub": "v-" + lang + "-1", "role": label("role.verifier")}), p.text("#status"))
			p.click("#new-key-done")
			p.noEnglish(t, lang)
			p.checkAccessible(t)

			// The sandbox: its words in lang, its scenarios the server's (English).
			p.click("#tab-sandbox")
			p.waitFor(`document.querySelectorAll('#scenario-rows tr').length > 0 && ` + dashboardLoaded)
			require.Contains(t, p.text("#sandbox-seeded"), label("seeded.parcels.certified"))
			require.Equal(t, label("col.family"), p.eval(`document.querySelector('#scenario-rows td').dataset.label`))
			require.Equal(t, "en", p.eval(`document.querySelector('#scenario-rows strong').lang`))
			p.checkAccessible(t)
			if photographed[lang] {
				p.screenshots(t, shots, "dashboard-"+lang+"-sandbox")
			}
			p.noProblems()
		})
	}

	t.Run("Accept-Language picks the language; the switcher changes it", func(t *testing.T) {
		p := b.newPage(t, nil)
		p.call("Network.enable", map[string]any{}, nil)
		p.call("Network.setExtraHTTPHeaders", map[string]any{"headers": map[string]string{"Accept-Language": "pt-BR,pt;q=0.9,en;q=0.5"}}, nil)
		p.signIn(h.ts.URL, pf.admin)
		require.Equal(t, "pt", p.eval(`document.documentElement.lang`))
		require.Equal(t, dashboard.Label("pt", "title"), p.text("h1"))
		p.click("#tab-parcels")
		p.waitFor(`document.querySelectorAll('#parcel-list li').length > 0 && ` + dashboardLoaded)
		// The switcher reloads the page: the change is made after this evaluation
		// returns, and the page is polled across the navigation.
		p.eval(`(function () { var s = document.getElementById('lang'); s.value = 'ar'; setTimeout(function () { s.dispatchEvent(new Event('change')); }, 0); return true; }())`)
		p.waitAcrossNavigation(`location.search === '?lang=ar' && document.readyState === 'complete' && !document.getElementById('app').hidden && ` + dashboardLoaded)
		require.Equal(t, "rtl", p.eval(`document.documentElement.dir`))
		require.Equal(t, dashboard.Label("ar", "title"), p.text("h1"))
		require.False(t, p.eval(`document.getElementById('parcels').hidden`).(bool), "the same section, signed in still")
		require.Equal(t, "page", p.eval(`document.getElementById('tab-parcels').getAttribute('aria-current')`))
		// Mirrored: the section buttons start at the right.
		require.Greater(t, p.eval(`document.getElementById('tab-deliveries').getBoundingClientRect().left`).(float64),
			p.eval(`document.getElementById('tab-audit').getBoundingClientRect().left`).(float64))
		p.checkAccessible(t)
		p.noProblems()
	})
}

// noEnglish asserts that no English label of the dashboard is left in what the
// page shows in lang (the chrome and the open section; a label that lang writes
// the same way, a code or a unit, does not count).
func (p *tab) noEnglish(t *testing.T, lang string) {
	t.Helper()
	if lang == catalogue.Default {
		return
	}
	table := catalogue.Page("dashboard")
	// A label lang writes as English does, or that is part of one of lang's ("GPS"
	// in "إحداثيات GPS"), is no trace of English.
	inLang := strings.Join(slices.Collect(maps.Values(table[lang])), "\n")
	var english []string
	for _, v := range table[catalogue.Default] {
		if !strings.Contains(inLang, v) && !strings.Contains(v, "{") {
			english = append(english, v)
		}
	}
	raw, err := json.Marshal(english)
	require.NoError(t, err)
	require.Empty(t, p.eval(`(function (labels) {
		// Who is signed in is data (a subject may be "admin"), not a label.
		var text = document.body.innerText.split(document.getElementById('who').innerText).join('\n');
		return labels.filter(function (l) {
			var re = new RegExp('(^|[^\\p{L}])' + l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '($|[^\\p{L}])', 'u');
			return re.test(text);
		});
	}(`+string(raw)+`))`), "English labels shown in %s", lang)
}

// waitAcrossNavigation polls a JavaScript condition until it holds, like waitFor,
// but through a navigation: an evaluation the navigation interrupts ("Inspected
// target navigated or closed") is tried again rather than failing the test.
func (p *tab) waitAcrossNavigation(cond string) {
	p.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		raw, err := p.b.cdp.call(ctx, p.session, "Runtime.evaluate", map[string]any{
			"expression": `(function () { try { return !!(` + cond + `); } catch (e) { return false; } }())`, "returnByValue": true})
		cancel()
		var res struct {
			Result struct {
				Value bool `json:"value"`
			} `json:"result"`
		}
		if err == nil && json.Unmarshal(raw, &res) == nil && res.Result.Value {
			p.drain()
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("timed out waiting for %s (last error: %v)", cond, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
