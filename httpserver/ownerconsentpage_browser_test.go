package httpserver

import (
	"crypto/ecdsa"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/ownerconsentpage"
	"github.com/veriland/veriland/internal/testenv"
)

// ownerFlow makes transfers of certified parcels whose owner holds a wallet (SPEC
// S13), in PRODUCTION: the requester is an API key with a display name, the parcel
// is certified by the named notary with its own token.
type ownerFlow struct {
	h                 *harness
	owner, newOwner   *ecdsa.PrivateKey
	requester, notary string
}

func newOwnerFlow(t *testing.T, h *harness) *ownerFlow {
	o := &ownerFlow{h: h, notary: h.token(veriland.RoleNotary, veriland.Production, parcelNotary)}
	o.owner, _ = crypto.GenerateKey()
	o.newOwner, _ = crypto.GenerateKey()
	admin := h.token(veriland.RoleAdmin, veriland.Production, "admin")
	_, o.requester = createNamedKey(t, h, admin, "verifier", "agency-abuja", "Abuja Land Agency")
	return o
}

func (o *ownerFlow) ownerAddress() string { return crypto.PubkeyToAddress(o.owner.PublicKey).Hex() }

// transfer creates and certifies a parcel of the owner and asks for its transfer,
// with extra's members added to the request; it returns the transfer id,
// PENDING_OWNER.
func (o *ownerFlow) transfer(t *testing.T, extra map[string]any) string {
	t.Helper()
	r := o.h.do(request{method: "POST", path: "/v1/parcels", token: o.requester, body: map[string]any{
		"owner":  map[string]any{"fullName": ownerName, "id_doc": ownerIDDoc, "walletAddress": o.ownerAddress()},
		"parcel": map[string]any{"gps": []float64{9.0765, 7.3986}, "area_m2": 1200, "city": "Abuja"},
		"notary": parcelNotary,
	}})
	require.Equal(t, http.StatusCreated, r.status, string(r.body))
	parcelID := attrs(t, r)["id"].(string)
	r = o.h.do(request{method: "POST", path: "/v1/parcels/" + parcelID + "/certify", token: o.notary})
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	body := map[string]any{
		"newOwner": map[string]any{"fullName": buyerName, "id_doc": buyerIDDoc, "walletAddress": crypto.PubkeyToAddress(o.newOwner.PublicKey).Hex()},
		"notary":   parcelNotary,
	}
	maps.Copy(body, extra)
	r = o.h.do(request{method: "POST", path: "/v1/parcels/" + parcelID + "/transfer", token: o.requester, body: body})
	require.Equal(t, http.StatusAccepted, r.status, string(r.body))
	a := attrs(t, r)
	require.Equal(t, "PENDING_OWNER", a["status"])
	return a["id"].(string)
}

// status reads a transfer's status as its requester.
func (o *ownerFlow) status(t *testing.T, id string) string {
	t.Helper()
	r := o.h.do(request{method: "GET", path: "/v1/transfers/" + id, token: o.requester})
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	return attrs(t, r)["status"].(string)
}

// wallet is a test wallet with key that signs only this transfer's TransferConsent
// with decision.
func (o *ownerFlow) wallet(t *testing.T, key *ecdsa.PrivateKey, id, decision string) *testWallet {
	return &testWallet{t: t, key: key, checkTyped: func(td apitypes.TypedData) {
		require.Equal(t, "TransferConsent", td.PrimaryType)
		require.Equal(t, "Land Transfer", td.Domain.Name)
		require.Equal(t, id, td.Message["transferId"])
		require.Equal(t, decision, td.Message["decision"], "the page adds the decision to the served message")
	}}
}

// TestOwnerConsentPageInChromium drives the hosted owner-consent page (SPEC S13) in
// headless Chromium against the real server, with the consent page's harness: a
// test EIP-1193 wallet injected before the page's script (testWallet), which signs
// the TransferConsent typed data the page built with go-ethereum. It approves (→
// PENDING_NOTARY), refuses (→ REJECTED), tries the wrong wallet (the warning, then
// the registry's 422 in words), runs without a wallet, reads every closed status, the
// languages (Arabic right to left) and the 404 page; no page shows a name of the
// owner or of the new owner. Each view is checked with axe-core and the contrast,
// label and phone-width checks, and saved as desktop and phone screenshots in
// $VERILAND_SCREENSHOT_DIR (else a temp dir). Without Chromium it fails under
// CI=true and skips elsewhere.
func TestOwnerConsentPageInChromium(t *testing.T) {
	bin, err := findChromium()
	require.NoError(t, err)
	if bin == "" {
		testenv.Require(t, "Chromium (browser test of the owner-consent page)", "set VERILAND_CHROMIUM, or put chromium, chromium-browser or google-chrome on PATH; on Debian: apt-get install -y chromium")
	}
	h := newHarness(t)
	o := newOwnerFlow(t, h)
	shots := screenshotDir(t)
	b := launchBrowser(t, bin)
	path := func(id string) string { return "/v1/transfers/" + id + "/owner-consent" }
	open := func(t *testing.T, w *testWallet, id, query string) *tab {
		p := b.newPage(t, w)
		p.navigate(h.ts.URL + path(id) + query)
		p.waitFor(`!document.getElementById('state-box').hidden`)
		return p
	}
	// noName checks that the page, as shown and as served, holds no name of the
	// owner or of the new owner (nor their document numbers).
	noName := func(t *testing.T, p *tab) {
		t.Helper()
		html := p.eval(`document.documentElement.outerHTML`).(string)
		for _, secret := range []string{ownerName, buyerName, ownerIDDoc, buyerIDDoc, "Amina", "Chukwuemeka"} {
			require.NotContains(t, html, secret)
		}
	}

	// look checks what the page shows now as a person needs it (no name, axe-core,
	// labels, contrast, phone width, no script error or policy violation) and saves
	// it as desktop and phone screenshots.
	look := func(t *testing.T, p *tab, lang, name string) {
		t.Helper()
		noName(t, p)
		p.checkConsentPage(t, lang)
		p.screenshots(t, shots, "owner-consent-"+name)
		p.noProblems()
	}

	t.Run("approve", func(t *testing.T) {
		id := o.transfer(t, nil)
		ctx := attrs(t, h.do(request{method: "GET", path: path(id)}))
		w := o.wallet(t, o.owner, id, "APPROVED")
		p := open(t, w, id, "")
		p.waitFor(`!document.getElementById('decide').hidden && !document.getElementById('approve').disabled`)

		// What the owner is shown, the important fact first.
		require.Equal(t, "Transfer of your land parcel", p.text("h1"))
		require.Equal(t, "Waiting for your answer", p.text("#state-name"))
		require.Equal(t, "state state-wait", p.eval(`document.getElementById('state-box').className`))
		require.Contains(t, p.text("#status"), "Transfer loaded")
		parcel := ctx["parcel"].(map[string]any)
		require.Equal(t, parcel["id"], p.text("#parcel-id"))
		require.Equal(t, "Abuja", p.text("#city"))
		require.Equal(t, "1,200 m²", p.text("#area"))
		require.Equal(t, fmt.Sprint(parcel["version"]), p.text("#version"))
		require.Equal(t, "Identity document ending in 8374", p.text("#new-owner-doc"))
		require.Equal(t, "Wallet:", p.text("#new-owner-wallet-label"))
		require.True(t, strings.EqualFold(crypto.PubkeyToAddress(o.newOwner.PublicKey).Hex(), p.text("#new-owner-wallet")))
		require.Equal(t, "Abuja Land Agency", p.text("#requester-name"))
		require.Equal(t, parcelNotary, p.text("#notary"))
		require.Equal(t, ctx["deadline"], p.eval(`document.getElementById('deadline').dateTime`))
		require.NotEmpty(t, p.text("#deadline"))
		require.Equal(t, "Not required", p.text("#liveness"))
		require.Equal(t, "Not given yet", p.text("#decision"))
		require.Equal(t, id, p.text("#transfer-id"))
		require.True(t, strings.EqualFold(o.ownerAddress(), p.text("#owner-wallet")))
		require.Contains(t, p.text("#signing"), "It sends no transaction and moves no money.")
		require.Contains(t, p.text("#signing"), "the notary still has to check the transfer")
		pageURL := "http://veriland.test" + path(id)
		require.Equal(t, pageURL, p.text("#page-url"))
		require.Equal(t, "https://metamask.app.link/dapp/veriland.test"+path(id), p.eval(`document.getElementById('metamask').href`))
		require.Equal(t, "https://go.cb-w.com/dapp?cb_url="+url.QueryEscape(pageURL), p.eval(`document.getElementById('coinbase').href`))
		require.Greater(t, p.eval(`document.getElementById('qr').getBoundingClientRect().width`).(float64), float64(150))
		look(t, p, "en", "pending")

		p.click("#approve")
		p.waitFor(`document.getElementById('result-title').textContent === 'Approved'`)
		require.Equal(t, "result-title", p.eval(`document.activeElement.id`), "focus moves to the result")
		require.Equal(t, 2, w.calls(), "eth_requestAccounts, then eth_signTypedData_v4")
		require.Equal(t, "PENDING_NOTARY", o.status(t, id))
		require.Equal(t, "Waiting for the notary", p.text("#state-name"))
		require.Contains(t, p.text("#result-text"), "The notary now has to approve the transfer too")
		require.True(t, p.eval(`document.getElementById('decide').hidden && document.getElementById('handoff').hidden`).(bool), "nothing more to sign")
		require.True(t, strings.HasPrefix(p.text("#decision"), "Approved on "), p.text("#decision"))
		require.True(t, strings.EqualFold(o.ownerAddress(), p.text("#decision-signer-address")))
		look(t, p, "en", "approved")

		// Reloaded, the decided transfer offers nothing to sign.
		p.navigate(h.ts.URL + path(id))
		p.waitFor(`!document.getElementById('state-box').hidden`)
		require.Equal(t, "Waiting for the notary", p.text("#state-name"))
		require.Contains(t, p.text("#status"), "There is nothing to sign")
		require.True(t, strings.HasPrefix(p.text("#decision"), "Approved on "))

		// The notary approves: seen live, in words and colour.
		r := h.do(request{method: "POST", path: "/v1/transfers/" + id + "/approve", token: o.notary})
		require.Equal(t, http.StatusOK, r.status, string(r.body))
		require.Equal(t, "COMPLETED", attrs(t, r)["status"])
		p.waitFor(`document.getElementById('state-name').textContent === 'Transfer completed'`)
		require.Equal(t, "The status of this transfer changed: Transfer completed.", p.text("#status"))
		require.Equal(t, "state state-ok", p.eval(`document.getElementById('state-box').className`))
		require.Contains(t, p.text("#state-text"), "The parcel now belongs to the new owner.")
		look(t, p, "en", "completed")
	})

	t.Run("refuse, from the keyboard", func(t *testing.T) {
		id := o.transfer(t, nil)
		p := open(t, o.wallet(t, o.owner, id, "REJECTED"), id, "")
		p.waitFor(`!document.getElementById('decide').hidden && !document.getElementById('reject').disabled`)
		p.eval(`document.getElementById('reject').focus()`)
		p.key("Enter")
		p.waitFor(`document.getElementById('result-title').textContent === 'Refused'`)
		require.Equal(t, "REJECTED", o.status(t, id))
		require.Equal(t, "Transfer refused", p.text("#state-name"))
		require.Equal(t, "state state-bad", p.eval(`document.getElementById('state-box').className`))
		require.True(t, strings.HasPrefix(p.text("#decision"), "Refused on "), p.text("#decision"))
		look(t, p, "en", "refused")
	})

	t.Run("the wrong wallet: warned, then refused by the registry", func(t *testing.T) {
		id := o.transfer(t, nil)
		other, _ := crypto.GenerateKey()
		p := open(t, o.wallet(t, other, id, "APPROVED"), id, "")
		p.waitFor(`!document.getElementById('connect').disabled`)
		p.click("#connect")
		p.waitFor(`!document.getElementById('wrong-wallet').hidden`)
		require.Contains(t, p.text("#wrong-wallet"), "This is not the owner’s wallet")
		require.Contains(t, strings.ToLower(p.text("#wrong-wallet")), strings.ToLower(o.ownerAddress()))
		require.Equal(t, "Wallet connected, but it is not the owner’s wallet.", p.text("#status"))
		p.click("#approve")
		p.waitFor(`document.getElementById('result-title').textContent === 'Error'`)
		require.Equal(t, ownerconsentpage.Label("en", "e.invalid_signature"), p.text("#result-text"))
		require.NotEmpty(t, p.text("#result-detail"), "the registry's own detail")
		require.Equal(t, "PENDING_OWNER", o.status(t, id))
		require.False(t, p.eval(`document.getElementById('approve').disabled`).(bool), "the owner may switch wallets and try again")
		look(t, p, "en", "wrong-wallet")
	})

	t.Run("a liveness requirement: said, then the registry's refusal in words", func(t *testing.T) {
		id := o.transfer(t, map[string]any{"requireLiveness": map[string]any{"minLevel": "L2", "maxAgeDays": 30}})
		p := open(t, o.wallet(t, o.owner, id, "APPROVED"), id, "")
		p.waitFor(`!document.getElementById('approve').disabled`)
		require.Equal(t, "Required before you approve: level L2 or higher, at most 30 days old", p.text("#liveness"))
		p.click("#approve")
		p.waitFor(`document.getElementById('result-title').textContent === 'Error'`)
		require.Equal(t, ownerconsentpage.Label("en", "e.liveness_required"), p.text("#result-text"))
		require.NotEmpty(t, p.text("#result-detail"))
		require.Equal(t, "PENDING_OWNER", o.status(t, id))
		look(t, p, "en", "liveness-required")
	})

	t.Run("cancelled while open: the answer is refused, then the page says why", func(t *testing.T) {
		id := o.transfer(t, nil)
		p := open(t, o.wallet(t, o.owner, id, "APPROVED"), id, "")
		p.waitFor(`!document.getElementById('approve').disabled`)
		r := h.do(request{method: "POST", path: "/v1/transfers/" + id + "/cancel", token: o.requester})
		require.Equal(t, http.StatusOK, r.status, string(r.body))
		p.click("#approve") // before the page's next read
		p.waitFor(`document.getElementById('result-title').textContent === 'Error'`)
		require.Equal(t, "This transfer can no longer be answered: Transfer cancelled.", p.text("#result-text"))
		p.waitFor(`document.getElementById('state-name').textContent === 'Transfer cancelled'`)
		require.True(t, p.eval(`document.getElementById('decide').hidden`).(bool))
		require.Contains(t, p.text("#state-text"), "The parcel stays with its owner.")
		look(t, p, "en", "cancelled")
	})

	t.Run("declined in the wallet", func(t *testing.T) {
		id := o.transfer(t, nil)
		p := open(t, &testWallet{t: t, key: o.owner, decline: true}, id, "")
		p.waitFor(`!document.getElementById('approve').disabled`)
		p.click("#approve")
		p.waitFor(`document.getElementById('result-title').textContent === 'Cancelled'`)
		require.Equal(t, "PENDING_OWNER", o.status(t, id))
	})

	t.Run("no wallet", func(t *testing.T) {
		id := o.transfer(t, nil)
		p := open(t, nil, id, "")
		p.waitFor(`!document.getElementById('wallet-missing').hidden`)
		require.True(t, p.eval(`document.getElementById('approve').disabled && document.getElementById('reject').disabled`).(bool))
		require.Contains(t, p.text("#status"), "No Ethereum wallet was found")
		require.False(t, p.eval(`document.getElementById('handoff').hidden`).(bool), "the phone hand-off is offered")
		p.noProblems()
	})

	t.Run("every language", func(t *testing.T) {
		id := o.transfer(t, nil)
		for _, tc := range []struct {
			acceptLanguage, lang, dir, heading, pending string
		}{
			{"en-GB,en;q=0.9", "en", "ltr", "Transfer of your land parcel", "Waiting for your answer"},
			{"fr-FR,fr;q=0.9,en;q=0.5", "fr", "ltr", "Transfert de votre parcelle", "En attente de votre réponse"},
			{"es-ES", "es", "ltr", "Transferencia de su parcela", "Esperando su respuesta"},
			{"pt-BR,pt;q=0.9", "pt", "ltr", "Transferência do seu terreno", "À espera da sua resposta"},
			{"ar-NG,ar;q=0.9", "ar", "rtl", "نقل ملكية قطعة أرضك", "بانتظار ردك"},
			{"de-CH,de;q=0.9", "de", "ltr", "Übertragung Ihres Grundstücks", "Wartet auf Ihre Antwort"},
			{"it", "it", "ltr", "Trasferimento del tuo terreno", "In attesa della tua risposta"},
		} {
			t.Run(tc.lang, func(t *testing.T) {
				p := b.newPage(t, o.wallet(t, o.owner, id, "APPROVED"))
				p.call("Network.enable", nil, nil)
				p.call("Network.setExtraHTTPHeaders", map[string]any{"headers": map[string]string{"Accept-Language": tc.acceptLanguage}}, nil)
				p.navigate(h.ts.URL + path(id))
				p.waitFor(`!document.getElementById('decide').hidden && !document.getElementById('connect').disabled`)
				require.Equal(t, tc.lang, p.eval(`document.documentElement.lang`))
				require.Equal(t, tc.dir, p.eval(`document.documentElement.dir`))
				require.Equal(t, tc.heading, p.text("h1"))
				require.Equal(t, tc.heading, p.eval(`document.title`))
				require.Equal(t, tc.pending, p.text("#state-name"))
				require.Equal(t, ownerconsentpage.Label(tc.lang, "approve"), p.text("#approve"))
				require.Equal(t, ownerconsentpage.Label(tc.lang, "signing.money"), p.text("#signing li"))
				require.Equal(t, tc.lang, p.eval(`document.getElementById('lang').value`))
				if tc.lang == "en" || tc.lang == "fr" || tc.lang == "ar" {
					p.click("#connect") // the connected view, as the owner sees it before signing
					p.waitFor(`!document.getElementById('account').hidden`)
					look(t, p, tc.lang, "lang-"+tc.lang)
				}
				noName(t, p)
				p.noProblems()
			})
		}
	})

	t.Run("the language switcher", func(t *testing.T) {
		id := o.transfer(t, nil)
		p := open(t, o.wallet(t, o.owner, id, "REJECTED"), id, "")
		p.waitFor(`!document.getElementById('reject').disabled`)
		p.eval(`(function () { var s = document.getElementById('lang'); s.value = 'ar'; s.dispatchEvent(new Event('change')); }())`)
		require.Equal(t, "rtl", p.eval(`document.documentElement.dir`))
		require.Equal(t, "نقل ملكية قطعة أرضك", p.text("h1"))
		require.Equal(t, "بانتظار ردك", p.text("#state-name"))
		require.Equal(t, ownerconsentpage.Label("ar", "st.loaded"), p.text("#status"))
		require.Equal(t, "وثيقة هوية تنتهي بـ 8374", p.text("#new-owner-doc"))
		require.Equal(t, "?lang=ar", p.eval(`location.search`), "a reload keeps the choice")
		p.click("#reject")
		p.waitFor(`document.getElementById('result-title').textContent === ` + jsString(ownerconsentpage.Label("ar", "r.rejected")))
		require.Equal(t, ownerconsentpage.Label("ar", "state.REJECTED"), p.text("#state-name"))
		p.eval(`(function () { var s = document.getElementById('lang'); s.value = 'de'; s.dispatchEvent(new Event('change')); }())`)
		require.Equal(t, "ltr", p.eval(`document.documentElement.dir`))
		require.Equal(t, "Übertragung abgelehnt", p.text("#state-name"))
		require.Equal(t, "Abgelehnt", p.text("#result-title"))
		p.navigate(h.ts.URL + path(id) + "?lang=de")
		p.waitFor(`!document.getElementById('state-box').hidden`)
		require.Contains(t, p.text("#status"), "Es gibt nichts zu signieren")
		p.noProblems()
	})

	t.Run("EXPIRED", func(t *testing.T) { // last: it moves the clock past every deadline
		id := o.transfer(t, nil)
		h.clock.Advance(7*24*time.Hour + time.Second)
		p := open(t, nil, id, "?lang=fr")
		require.Equal(t, "Transfert expiré", p.text("#state-name"))
		require.Equal(t, "state state-bad", p.eval(`document.getElementById('state-box').className`))
		require.True(t, p.eval(`document.getElementById('decide').hidden && document.getElementById('handoff').hidden`).(bool))
		require.Contains(t, p.text("#status"), "Il n’y a rien à signer")
		look(t, p, "fr", "expired")
	})

	t.Run("404 page", func(t *testing.T) {
		for _, lang := range []string{"en", "fr", "ar"} {
			p := b.newPage(t, nil)
			p.navigate(h.ts.URL + path("trf_aaaaaaaaaaaaaaaaaaaaaaaaaa") + "?lang=" + lang)
			require.Equal(t, ownerconsentpage.Label(lang, "nf.title"), p.text("h1"))
			require.Equal(t, 404, p.status(), "served as a 404")
			require.Nil(t, p.eval(`document.getElementById('details')`), "nothing of a transfer")
			look(t, p, lang, "404-"+lang)
		}
	})
}
