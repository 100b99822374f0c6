package ownerconsentpage

import (
	"crypto/sha256"
	"encoding/base64"
	"github.com/veriland/veriland/internal/catalogue"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/httpserver/consentpage"
)

const pageURL = "https://veriland.example/v1/transfers/trf_abcdefghijklmnopqrstuvwxyz/owner-consent"

// statuses are the statuses of a transfer (SPEC S13), each shown in words and colour.
var statuses = []string{"PENDING_OWNER", "PENDING_NOTARY", "COMPLETED", "REJECTED", "CANCELLED", "EXPIRED"}

// page renders p, at pageURL unless it is a 404 page.
func page(t *testing.T, p Params) string {
	t.Helper()
	if !p.NotFound {
		p.URL = pageURL
	}
	doc, err := Render(p)
	require.NoError(t, err)
	return string(doc)
}

// inlineScript and inlineStyle match the page's one executable script and one style
// (the label table's <script type=…> does not match).
var (
	inlineScript = regexp.MustCompile(`(?s)<script>(.*?)</script>`)
	inlineStyle  = regexp.MustCompile(`(?s)<style>(.*?)</style>`)
)

// script is the page's executable script, as embedded.
func script(t *testing.T) string {
	m := inlineScript.FindAllStringSubmatch(string(source), -1)
	require.Len(t, m, 1)
	return m[0][1]
}

func TestOwnerConsentPageRendersEveryLanguage(t *testing.T) {
	for _, tc := range []struct {
		lang, dir, heading string
	}{
		{"en", "ltr", "Transfer of your land parcel"},
		{"fr", "ltr", "Transfert de votre parcelle"},
		{"es", "ltr", "Transferencia de su parcela"},
		{"pt", "ltr", "Transferência do seu terreno"},
		{"ar", "rtl", "نقل ملكية قطعة أرضك"},
		{"de", "ltr", "Übertragung Ihres Grundstücks"},
		{"it", "ltr", "Trasferimento del tuo terreno"},
		{"xx", "ltr", "Transfer of your land parcel"}, // an unknown language is served in English
		{"", "ltr", "Transfer of your land parcel"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			doc := page(t, Params{Lang: tc.lang})
			lang := tc.lang
			if !slices.Contains(consentpage.Languages, lang) {
				lang = consentpage.DefaultLanguage
			}
			require.Equal(t, tc.heading, Label(lang, "title"))
			for _, want := range []string{
				`<html lang="` + lang + `" dir="` + tc.dir + `">`,
				`<meta charset="utf-8">`,
				`<meta name="viewport" content="width=device-width, initial-scale=1">`,
				`<title>` + tc.heading + `</title>`,
				`<h1 data-i18n="title">` + tc.heading + `</h1>`,
				`<label for="lang" data-i18n="language">` + Label(lang, "language") + `</label>`,
				`<option value="` + lang + `" lang="` + lang + `" dir="` + tc.dir + `" selected>`,
				`<li data-i18n="signing.money">` + Label(lang, "signing.money") + `</li>`,
				`<li data-i18n="signing.notary">` + Label(lang, "signing.notary") + `</li>`,
				`<button type="button" id="approve" class="go" data-i18n="approve">` + Label(lang, "approve") + `</button>`,
				`<button type="button" id="reject" data-i18n="reject">` + Label(lang, "reject") + `</button>`,
				`<button type="button" id="connect" data-i18n="wallet.connect">`,
				`role="status" aria-live="polite"`,
				`<h2 id="result-title" tabindex="-1">`,
				`role="img" aria-labelledby="qr-title"`,
				`<title id="qr-title" data-i18n="handoff.qr">` + Label(lang, "handoff.qr") + `</title>`,
				`<code id="page-url" dir="ltr">` + pageURL + `</code>`,
			} {
				require.Contains(t, doc, want)
			}
			// Every language is offered, each named in itself and written its own way.
			require.Equal(t, len(consentpage.Languages), strings.Count(doc, "<option "))
			require.Contains(t, doc, `<option value="ar" lang="ar" dir="rtl"`)
			require.Contains(t, doc, `>العربية</option>`)
			require.Contains(t, doc, `>Deutsch</option>`)
			require.Equal(t, 1, strings.Count(doc, " selected"))
			require.NotContains(t, doc, `role="button"`)
		})
	}
}

// Every rendering (every language, both environments, with and without an origin,
// the page and the 404 page) has the script and style the policy hashes, and
// nothing else the policy would have to allow.
func TestOwnerConsentPageCSPHashesMatchEveryRendering(t *testing.T) {
	hash := func(s string) string {
		sum := sha256.Sum256([]byte(s))
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	doc := page(t, Params{Lang: "en"})
	require.Equal(t, "default-src 'none'; script-src "+hash(inlineScript.FindStringSubmatch(doc)[1])+"; style-src "+hash(inlineStyle.FindStringSubmatch(doc)[1])+"; "+
		"connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; "+
		"require-trusted-types-for 'script'; trusted-types 'none'", ContentSecurityPolicy())
	for _, lang := range consentpage.Languages {
		for _, p := range []Params{
			{Lang: lang},
			{Lang: lang, Origin: "https://veriland.example", Environment: "SANDBOX"},
			{Lang: lang, Origin: "https://veriland.example", Environment: "PRODUCTION"},
			{Lang: lang, NotFound: true},
		} {
			doc := page(t, p)
			scripts, styles := inlineScript.FindAllStringSubmatch(doc, -1), inlineStyle.FindAllStringSubmatch(doc, -1)
			require.Len(t, scripts, 1)
			require.Len(t, styles, 1)
			require.Contains(t, ContentSecurityPolicy(), "script-src "+hash(scripts[0][1])+";", "%s %+v", lang, p)
			require.Contains(t, ContentSecurityPolicy(), "style-src "+hash(styles[0][1])+";", "%s %+v", lang, p)
			require.Equal(t, 2, strings.Count(doc, "<script"), "the script and the label table")
			require.Equal(t, 1, strings.Count(doc, `<script type="application/json" id="i18n">`))
			require.Equal(t, 1, strings.Count(doc, "<style"))
			require.NotContains(t, doc, " style=", "no style attribute (the policy allows none)")
		}
	}
}

// The script and the style of the template hold no template action: what the
// policy hashes cannot depend on a rendering.
func TestOwnerConsentPageScriptAndStyleAreStatic(t *testing.T) {
	for _, re := range []*regexp.Regexp{inlineScript, inlineStyle} {
		m := re.FindAllStringSubmatch(string(source), -1)
		require.Len(t, m, 1, re)
		require.NotContains(t, m[0][1], "{{", re)
		require.NotContains(t, m[0][1], "}}", re)
	}
	// The label table is the one data block, and it is all the template puts in a script.
	require.Equal(t, 1, strings.Count(string(source), "{{.Labels}}"))
	require.Contains(t, string(source), `<script type="application/json" id="i18n">{{.Labels}}</script>`)
}

func TestOwnerConsentPageSourceIsSelfContainedAndSafe(t *testing.T) {
	lower := strings.ToLower(string(source))
	for _, banned := range []string{
		"http://", "https://", "//", // no external resources, no protocol-relative URLs (and no // comments that could hide one)
		"innerhtml", "outerhtml", "insertadjacenthtml", "document.write", "eval(", "new function", "settimeout('", `settimeout("`,
		" src=", "@import", "url(", // no loaded resources at all
		"localstorage", "sessionstorage", "document.cookie", "indexeddb", // nothing kept in the browser
		"personal_sign", "eth_sendtransaction", "eth_sign'", // the page signs the typed data and nothing else
	} {
		require.NotContains(t, lower, banned)
	}
	require.False(t, regexp.MustCompile(`(?i)<[^>]*\son[a-z]+\s*=`).MatchString(string(source)), "inline event handler")
	require.Equal(t, 1, strings.Count(lower, "<link"))
	require.Contains(t, string(source), `<link rel="icon" href="data:,">`)

	// Rendered, the only absolute URLs are the page's own address (QR, shown), the
	// wallets' deep links (navigation, not resources), the origin to check, and the
	// SVG namespace.
	doc := page(t, Params{Lang: "en", Origin: "https://veriland.example"})
	metaMask, coinbase := consentpage.WalletLinks(pageURL)
	require.ElementsMatch(t, []string{"http://www.w3.org/2000/svg", metaMask, coinbase, pageURL, "https://veriland.example"},
		regexp.MustCompile(`https?://[^"<\s]+`).FindAllString(doc, -1))
	require.Contains(t, doc, `<a id="metamask" href="`+metaMask+`"`)
	require.Contains(t, doc, `<a id="coinbase" href="`+strings.ReplaceAll(coinbase, "&", "&amp;")+`"`)
}

// The page has no slot for a name: it serves none, and its script reads none of
// the transfer's names (the context carries none; a server that sent one anyway
// would not see it shown). The one name it shows is the requester's, an API key's.
func TestOwnerConsentPageShowsNoName(t *testing.T) {
	s := script(t)
	require.NotContains(t, strings.ToLower(string(source)), "fullname")
	var reads []string
	for _, m := range regexp.MustCompile(`\b(\w+)\.name\b`).FindAllStringSubmatch(s, -1) {
		reads = append(reads, m[1])
	}
	require.ElementsMatch(t, []string{"who", "who", "domain"}, reads, "requester.name (shown, with its id) and typedData.domain.name (checked)")
	for _, p := range []Params{{Lang: "en"}, {Lang: "ar", Environment: "SANDBOX"}, {Lang: "fr", NotFound: true}} {
		doc := page(t, p)
		require.NotContains(t, strings.ToLower(doc), "fullname")
		require.NotContains(t, doc, `id="new-owner-name"`)
		require.NotContains(t, doc, `id="owner-name"`)
	}
}

// What the script asks of the server and the wallet is exactly the contract: the
// JSON:API document of its own URL, eth_requestAccounts, eth_signTypedData_v4 with
// [account, JSON string], and a POST of {decision, ownerSignature, ownerAddress}.
func TestOwnerConsentPageScriptSpeaksTheContract(t *testing.T) {
	s := script(t)
	for _, want := range []string{
		`var API = 'application/vnd.api+json';`,
		`headers: { Accept: API }`,
		`init.headers['Content-Type'] = 'application/json';`,
		`fetch(here, init)`,
		`window.location.pathname`,
		`credentials: 'omit'`,
		`data.attributes`,
		`method: 'eth_requestAccounts'`,
		`method: 'eth_signTypedData_v4', params: [addr, JSON.stringify(td)]`,
		`td.message.decision = decision;`,
		`exchange('POST', { decision: decision, ownerSignature: signature, ownerAddress: signer })`,
		`decide('APPROVED')`,
		`decide('REJECTED')`,
		`td.primaryType === 'TransferConsent'`,
		`td.domain.name === 'Land Transfer'`,
		`td.message.transferId === a.transferId`,
		`!same(account, tr.ownerWallet)`,
		`.textContent`,
		`.focus()`,
		`history.replaceState(null, '', '?lang=' + encodeURIComponent(code))`,
	} {
		require.Contains(t, s, want)
	}
	// Every status has its colour and its icon; the words are in the labels.
	for _, st := range statuses {
		require.Regexp(t, `\b`+st+`: \['(wait|ok|bad)', '\\u[0-9A-F]{4}'\]`, s)
	}
	require.Contains(t, string(source), ":focus-visible")
}

// Every label the page uses exists, and every label exists for a use: the static
// ones by data-i18n or the template, the script's by t('…') or val({k: '…'}), and
// the families the script builds (state., stateText., decision., e.) for exactly
// the values they name.
func TestOwnerConsentPageLabelsAreUsed(t *testing.T) {
	src := string(source)
	used := map[string]bool{}
	for _, re := range []string{
		`data-i18n="([\w.]+)"`,
		`\{\{t \.Lang "([\w.]+)"\}\}`,
		`\bt\('([\w.]+)'`,
		`\{ k: '([\w.]+)'`,
		`say\('([\w.]+)'`,
		`conclude\('([\w.]+)'`,
		`\['(st\.[\w.]+)'`,
		`t\(account \? '([\w.]+)' : '([\w.]+)'\)`,
		`'(wallet\.connect(?:ed)?)'`,
		`t\(next\.walletAddress \? '([\w.]+)' : '([\w.]+)'\)`,
		`say\(same\(addr, tr\.ownerWallet\) \? '([\w.]+)' : '([\w.]+)'\)`,
		`\? '(st\.wrongWallet)' : '(st\.connected)'`,
		`t\(notFound \? '([\w.]+)' : '([\w.]+)'\)`,
	} {
		for _, m := range regexp.MustCompile(re).FindAllStringSubmatch(src, -1) {
			for _, k := range m[1:] {
				if !strings.HasSuffix(k, ".") { // a family, below
					used[k] = true
				}
			}
		}
	}
	used["dir"] = true        // the page's and each option's direction, read by Render
	used["handoff.qr"] = true // the QR code's title (consentpage.QRSVG, data-i18n too), by Render
	for _, st := range statuses {
		used["state."+st], used["stateText."+st] = true, true
	}
	for _, d := range []string{"APPROVED", "REJECTED"} {
		used["decision."+d] = true
	}
	for _, code := range []string{"invalid_signature", "invalid_state", "liveness_required"} {
		used["e."+code] = true
	}
	for k := range used {
		require.NotEmpty(t, Label("en", k), "the page uses %q, which the catalogue lacks", k)
	}
	for k := range labels["en"] {
		require.True(t, used[k], "the catalogue has %q, which the page never uses", k)
	}
	require.Contains(t, src, `known('state.' + s)`)
	require.Contains(t, src, `known('stateText.' + s)`)
	require.Contains(t, src, `'decision.' + made.decision`)
	require.Contains(t, src, `known('e.' + code)`)
}

// Every language has exactly the labels of English, none empty, and is translated;
// a table that lacks a label or has one too many does not build.
func TestOwnerConsentPageLabelsAreComplete(t *testing.T) {
	require.Len(t, labels, len(consentpage.Languages))
	for _, lang := range consentpage.Languages {
		require.ElementsMatch(t, keys(labels[consentpage.DefaultLanguage]), keys(labels[lang]), lang)
		for k, v := range labels[lang] {
			require.NotEmpty(t, strings.TrimSpace(v), "%s: %s", lang, k)
			require.Equal(t, placeholders(Label("en", k)), placeholders(v), "%s: %s keeps the placeholders of English", lang, k)
		}
		if lang != consentpage.DefaultLanguage {
			for _, k := range []string{"title", "intro", "signing.money", "approve", "reject", "state.PENDING_OWNER", "e.invalid_signature", "nf.title"} {
				require.NotEqual(t, Label(consentpage.DefaultLanguage, k), Label(lang, k), "%s: %s is not translated", lang, k)
			}
		}
	}
	require.Equal(t, "rtl", Label("ar", "dir"))
	require.Equal(t, "ltr", Label("de", "dir"))
	require.Equal(t, Label("en", "title"), Label("xx", "title"), "an unknown language falls back to English")
	require.Empty(t, Label("en", "no.such.key"))

	table := catalogue.Page("ownerconsent")
	for name, change := range map[string]func(m map[string]map[string]string){
		"fr lacks a label":       func(m map[string]map[string]string) { delete(m["fr"], "approve") },
		"ar has an extra label":  func(m map[string]map[string]string) { m["ar"]["extra"] = "x" },
		"de has an empty label":  func(m map[string]map[string]string) { m["de"]["reject"] = "" },
		"a language is missing":  func(m map[string]map[string]string) { delete(m, "it") },
		"a language is too many": func(m map[string]map[string]string) { m["ja"] = m["en"] },
	} {
		t.Run(name, func(t *testing.T) {
			m := catalogue.Table{}
			for lang, l := range table {
				m[lang] = map[string]string{}
				for k, v := range l {
					m[lang][k] = v
				}
			}
			change(m)
			require.Error(t, catalogue.Check(m))
		})
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// placeholders lists the {name}s of a label, sorted.
func placeholders(s string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`\{(\w+)\}`).FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return out
}

func TestOwnerConsentPageNotFound(t *testing.T) {
	for _, lang := range consentpage.Languages {
		doc := page(t, Params{Lang: lang, NotFound: true, Origin: "https://veriland.example", Environment: "SANDBOX"})
		require.Contains(t, doc, `<title>`+Label(lang, "nf.title")+`</title>`)
		require.Contains(t, doc, `<h1 data-i18n="nf.title">`+Label(lang, "nf.title")+`</h1>`)
		require.Contains(t, doc, `data-page="not-found"`)
		require.Contains(t, doc, Label(lang, "nf.help"))
		for _, absent := range []string{`id="approve"`, `id="details"`, `<svg`, `id="page-url"`, `metamask.app.link`, `class="sandbox"`, `id="origin"`} {
			require.False(t, strings.Contains(doc, absent), "%s: %s", lang, absent)
		}
	}
}

func TestOwnerConsentPageSandboxAndOrigin(t *testing.T) {
	for _, tc := range []struct {
		p               Params
		sandbox, origin bool
	}{
		{Params{Lang: "fr", Environment: "SANDBOX", Origin: "https://veriland.example"}, true, true},
		{Params{Lang: "fr", Environment: "PRODUCTION", Origin: "https://veriland.example"}, false, true},
		{Params{Lang: "fr"}, false, false},
	} {
		doc := page(t, tc.p)
		require.Equal(t, tc.sandbox, strings.Contains(doc, `<p class="sandbox" data-i18n="sandbox">`+Label("fr", "sandbox")+`</p>`), "%+v", tc.p)
		require.Equal(t, tc.origin, strings.Contains(doc, `<code id="origin" dir="ltr">https://veriland.example</code>`), "%+v", tc.p)
	}
}

func TestOwnerConsentPageRenderRefusesABadPageURL(t *testing.T) {
	for _, u := range []string{"", "/v1/transfers/trf_x/owner-consent", "javascript:alert(1)", "ftp://x/y", "https://x/" + strings.Repeat("a", 5000)} {
		_, err := Render(Params{Lang: "en", URL: u})
		require.Error(t, err, u)
		require.Error(t, Write(httptest.NewRecorder(), Params{Lang: "en", URL: u}))
	}
	_, err := Render(Params{Lang: "en", NotFound: true})
	require.NoError(t, err, "the 404 page needs no URL")
}

func TestOwnerConsentPageWrite(t *testing.T) {
	for _, tc := range []struct {
		p        Params
		status   int
		language string
	}{
		{Params{Lang: "fr", URL: pageURL}, http.StatusOK, "fr"},
		{Params{Lang: "ar", URL: pageURL, Environment: "SANDBOX"}, http.StatusOK, "ar"},
		{Params{Lang: "de", NotFound: true}, http.StatusNotFound, "de"},
		{Params{Lang: "xx", URL: pageURL}, http.StatusOK, "en"},
	} {
		rec := httptest.NewRecorder()
		require.NoError(t, Write(rec, tc.p))
		res := rec.Result()
		require.Equal(t, tc.status, res.StatusCode)
		require.Equal(t, MediaType, res.Header.Get("Content-Type"))
		require.Equal(t, ContentSecurityPolicy(), res.Header.Get("Content-Security-Policy"))
		require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))
		require.Equal(t, "no-referrer", res.Header.Get("Referrer-Policy"))
		require.Equal(t, "no-store", res.Header.Get("Cache-Control"))
		require.Equal(t, "DENY", res.Header.Get("X-Frame-Options"))
		require.Equal(t, tc.language, res.Header.Get("Content-Language"))
		want, err := Render(tc.p)
		require.NoError(t, err)
		require.Equal(t, want, rec.Body.Bytes())
		require.Equal(t, strconv.Itoa(len(want)), res.Header.Get("Content-Length"))
		require.Contains(t, rec.Body.String(), `<html lang="`+tc.language+`"`)
	}
}
