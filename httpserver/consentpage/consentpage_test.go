package consentpage

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"image"
	"image/color"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/makiuchi-d/gozxing"
	gzqr "github.com/makiuchi-d/gozxing/qrcode"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/consent"
)

func TestConsentPagePrefersHTML(t *testing.T) {
	for _, tc := range []struct {
		accept string
		html   bool
	}{
		{"", false},
		{"   ", false},
		{"*/*", false},
		{"application/json", false},
		{"application/json, text/html", false}, // a tie keeps JSON
		{"text/html", true},
		{"TEXT/HTML", true},
		{"text/*", true},
		{"text/html;q=0.5, application/json", false},
		{"text/html, application/json;q=0.9", true},
		{"application/json;q=0.9, text/html", true},
		{"text/html;q=0", false},
		{"text/html, */*;q=0.1", true},
		{"application/*, text/html;q=0.9", false},
		{"text/*;q=0.3, text/html;q=0.7, application/json;q=0.5", true},
		{"text/html;q=0.2, text/*;q=0.9, application/json;q=0.5", false}, // most specific range wins
		{"text/html;q=NaN", false},
		{"text/html;q=2", false},
		{"text/html;q=abc, application/json;q=0.1", false},
		{"text/html;level=1;q=0.8, application/json;q=0.5", true},
		{"garbage", false},
		// Browsers' navigation Accept headers.
		{"text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7", true},
		{"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", true},
	} {
		require.Equal(t, tc.html, PrefersHTML(tc.accept), "Accept: %q", tc.accept)
	}
}

const testURL = "https://veriland.example/consent/vrq_abcdefghijklmnopqrstuvwxyz"

func render(t *testing.T, p Params) string {
	t.Helper()
	if p.URL == "" && !p.NotFound {
		p.URL = testURL
	}
	b, err := Render(p)
	require.NoError(t, err)
	return string(b)
}

// inline returns the content of the only element opened by exactly open, up to the
// first close after it.
func inline(t *testing.T, doc, open, close string) string {
	t.Helper()
	require.Equal(t, 1, strings.Count(doc, open), open)
	_, rest, _ := strings.Cut(doc, open)
	body, _, ok := strings.Cut(rest, close)
	require.True(t, ok, close)
	return body
}

func sha256Source(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

func TestConsentPageNegotiate(t *testing.T) {
	for _, tc := range []struct{ override, accept, want string }{
		{"", "", "en"},
		{"", "fr", "fr"},
		{"", "fr-CA,fr;q=0.9,en;q=0.8", "fr"},
		{"", "ja, de;q=0.5", "de"},
		{"", "ja", "en"},
		{"", "en;q=0.2, ar;q=0.9", "ar"},
		{"", "es;q=0.5, pt;q=0.5", "es"}, // equal q: the header's order
		{"", "PT-br", "pt"},
		{"", "it;q=0, de", "de"},
		{"", "it;q=abc, es", "es"},
		{"", "*", "en"},
		{"", "ja, *;q=0.1", "en"},
		{"de", "fr", "de"},    // the switcher's choice wins
		{"DE", "fr", "de"},    // case-insensitive
		{"xx", "fr", "fr"},    // an unknown override is ignored
		{"fr-CA", "it", "it"}, // the override is an exact code
		{"", "garbage;;;,", "en"},
	} {
		require.Equal(t, tc.want, Negotiate(tc.override, tc.accept), "lang=%q Accept-Language: %q", tc.override, tc.accept)
	}
}

// Every rendering (every language, the consent page and the 404 page) has the
// script and style the policy hashes, and exactly one executable script.
func TestConsentPageCSPHashesMatchEveryRendering(t *testing.T) {
	csp := ContentSecurityPolicy()
	directives := map[string]string{}
	for d := range strings.SplitSeq(csp, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		directives[name] = value
	}
	for _, lang := range Languages {
		for _, nf := range []bool{false, true} {
			doc := render(t, Params{Lang: lang, NotFound: nf, Origin: "https://veriland.example", Environment: "SANDBOX"})
			require.Equal(t, map[string]string{
				"default-src":               "'none'",
				"script-src":                "'" + sha256Source(inline(t, doc, "<script>", "</script>")) + "'",
				"style-src":                 "'" + sha256Source(inline(t, doc, "<style>", "</style>")) + "'",
				"connect-src":               "'self'",
				"img-src":                   "'self' data:",
				"base-uri":                  "'none'",
				"form-action":               "'none'",
				"frame-ancestors":           "'none'",
				"require-trusted-types-for": "'script'",
				"trusted-types":             "'none'",
			}, directives, lang)
			require.Equal(t, 2, strings.Count(doc, "<script"), "the script and the label table")
			require.Equal(t, 1, strings.Count(doc, `<script type="application/json" id="i18n">`))
			require.Equal(t, 1, strings.Count(doc, "<style"), "one style element, inline")
			require.NotContains(t, doc, " style=", "no style attribute (the policy allows none)")
		}
	}
}

func TestConsentPageSourceIsSelfContainedAndSafe(t *testing.T) {
	doc := Source()
	lower := bytes.ToLower(doc)
	for _, banned := range []string{
		"http://", "https://", "//", // no external resources, no protocol-relative URLs (and no // comments that could hide one)
		"innerhtml", "outerhtml", "insertadjacenthtml", "document.write", "eval(", "new function", "settimeout('", `settimeout("`,
		" src=", "@import", "url(", // no loaded resources at all
		"localstorage", "sessionstorage", "document.cookie", // the holder token stays in memory
	} {
		require.NotContains(t, string(lower), banned)
	}
	// No inline event handlers (the CSP would block them anyway): on...= attributes.
	require.False(t, regexp.MustCompile(`(?i)<[^>]*\son[a-z]+\s*=`).Match(doc), "inline event handler")
	// The one link is the empty data: favicon.
	require.Equal(t, 1, bytes.Count(lower, []byte("<link")))
	require.Contains(t, string(doc), `<link rel="icon" href="data:,">`)

	// Rendered, the only absolute URLs are the page's own address (QR, shown), the
	// wallets' deep links (navigation, not resources) and the SVG namespace.
	page := render(t, Params{Lang: "en", Origin: "https://veriland.example"})
	var urls []string
	for _, m := range regexp.MustCompile(`https?://[^"<\s]+`).FindAllString(page, -1) {
		urls = append(urls, m)
	}
	require.ElementsMatch(t, []string{
		"http://www.w3.org/2000/svg",
		"https://metamask.app.link/dapp/veriland.example/consent/vrq_abcdefghijklmnopqrstuvwxyz",
		"https://go.cb-w.com/dapp?cb_url=https%3A%2F%2Fveriland.example%2Fconsent%2Fvrq_abcdefghijklmnopqrstuvwxyz",
		testURL,
		"https://veriland.example", // data-origin, the wallet login's domain
	}, urls)
}

func TestConsentPageIsAccessible(t *testing.T) {
	for _, lang := range Languages {
		doc := render(t, Params{Lang: lang})
		dir := "ltr"
		if lang == "ar" {
			dir = "rtl"
		}
		for _, want := range []string{
			`<html lang="` + lang + `" dir="` + dir + `">`,
			`<meta name="viewport" content="width=device-width, initial-scale=1">`,
			`<meta charset="utf-8">`,
			`<title>` + Label(lang, "title") + `</title>`,
			`<main id="main"`,
			`<h1 data-i18n="title">` + Label(lang, "title") + `</h1>`,
			`<label for="lang" data-i18n="language">` + Label(lang, "language") + `</label>`,
			`<select id="lang">`,
			`<option value="` + lang + `" lang="` + lang + `" dir="` + dir + `" selected>`,
			`role="status" aria-live="polite"`,
			`<button type="button" id="approve"`,
			`<button type="button" id="reject"`,
			`<button type="button" id="connect"`,
			`<button type="button" id="withdraw-button"`,
			`<h2 id="result-title" tabindex="-1">`,
			`role="img" aria-labelledby="qr-title"`,
			`.focus()`,
			`:focus-visible`,
			`textContent`,
			`eth_requestAccounts`,
			`eth_signTypedData_v4`,
			`personal_sign`,
			`'Content-Type': 'application/json'`,
			`Accept: 'application/json'`,
		} {
			require.Contains(t, doc, want, lang)
		}
		// Every language is offered, each named in itself.
		require.Equal(t, len(Languages), strings.Count(doc, "<option "))
		require.Contains(t, doc, `>العربية</option>`)
		require.NotContains(t, doc, `role="button"`)
		// The page posts exactly the decision the server takes.
		require.Contains(t, doc, `holderAddress: signer, decision: p.decision, disclosedScope: p.disclosedScope, holderSignature: signature`)
	}
	nf := render(t, Params{Lang: "de", NotFound: true})
	require.Contains(t, nf, `<h1 data-i18n="nf.title">Einwilligungsanfrage nicht gefunden</h1>`)
	require.NotContains(t, nf, `id="approve"`)
	require.NotContains(t, nf, `<svg`)
}

// Every item of the scope vocabulary has a human label in every language, and the
// languages are translated, not copies of English.
func TestConsentPageLabels(t *testing.T) {
	items := consent.Vocabulary(nil)
	require.Contains(t, items, "is_adult")
	for _, lang := range Languages {
		for _, item := range items {
			l := Label(lang, "scope."+item)
			require.NotEmpty(t, l, "%s: scope item %s", lang, item)
			require.NotEqual(t, item, l)
		}
		if lang != DefaultLanguage {
			for _, key := range []string{"title", "state.PENDING", "scope.is_adult", "approve", "nf.title"} {
				require.NotEqual(t, Label(DefaultLanguage, key), Label(lang, key), "%s: %s is not translated", lang, key)
			}
		}
	}
	require.Equal(t, "That you are an adult", Label("en", "scope.is_adult"))
	require.Equal(t, "Que vous êtes majeur", Label("fr", "scope.is_adult"))
	require.Equal(t, Label("en", "title"), Label("xx", "title"), "an unknown language falls back to English")
	require.Empty(t, Label("en", "no.such.key"))
}

// The QR code is an SVG that decodes back to the page's address.
func TestConsentPageQRSVG(t *testing.T) {
	for _, u := range []string{testURL, "http://veriland.test/consent/vrq_aaaaaaaaaaaaaaaaaaaaaaaaaa"} {
		svg, err := QRSVG(u, `a <title> & "more"`)
		require.NoError(t, err)
		require.Contains(t, svg, `<title id="qr-title" data-i18n="handoff.qr">a &lt;title&gt; &amp; &#34;more&#34;</title>`)
		require.NotContains(t, svg, "style")
		size, err := strconv.Atoi(regexp.MustCompile(`viewBox="0 0 (\d+) `).FindStringSubmatch(svg)[1])
		require.NoError(t, err)
		// Rasterise the path (M x y h w v1 h-w z runs) at 4 pixels a module.
		const scale = 4
		img := image.NewGray(image.Rect(0, 0, size*scale, size*scale))
		for i := range img.Pix {
			img.Pix[i] = 0xff
		}
		runs := regexp.MustCompile(`M(\d+) (\d+)h(\d+)v1h-(\d+)z`).FindAllStringSubmatch(svg, -1)
		require.NotEmpty(t, runs)
		for _, r := range runs {
			x, _ := strconv.Atoi(r[1])
			y, _ := strconv.Atoi(r[2])
			w, _ := strconv.Atoi(r[3])
			require.Equal(t, r[3], r[4])
			for px := x * scale; px < (x+w)*scale; px++ {
				for py := y * scale; py < (y+1)*scale; py++ {
					img.SetGray(px, py, color.Gray{})
				}
			}
		}
		bmp, err := gozxing.NewBinaryBitmapFromImage(img)
		require.NoError(t, err)
		res, err := gzqr.NewQRCodeReader().Decode(bmp, nil)
		require.NoError(t, err)
		require.Equal(t, u, res.GetText())
	}
}

func TestConsentPageWalletLinks(t *testing.T) {
	mm, cb := WalletLinks("https://id.example.com:8443/consent/vrq_x?lang=fr")
	require.Equal(t, "https://metamask.app.link/dapp/id.example.com:8443/consent/vrq_x?lang=fr", mm)
	require.Equal(t, "https://go.cb-w.com/dapp?cb_url=https%3A%2F%2Fid.example.com%3A8443%2Fconsent%2Fvrq_x%3Flang%3Dfr", cb)
}

func TestConsentPageRenderRefusesABadPageURL(t *testing.T) {
	for _, u := range []string{"", "/consent/vrq_x", "javascript:alert(1)", "ftp://x/consent"} {
		_, err := Render(Params{Lang: "en", URL: u})
		require.Error(t, err, u)
	}
	// The 404 page needs no URL.
	_, err := Render(Params{Lang: "en", NotFound: true})
	require.NoError(t, err)
}

func TestConsentPageWrite(t *testing.T) {
	for _, tc := range []struct {
		p      Params
		status int
	}{
		{Params{Lang: "fr", URL: testURL}, http.StatusOK},
		{Params{Lang: "ar", NotFound: true}, http.StatusNotFound},
	} {
		rec := httptest.NewRecorder()
		require.NoError(t, Write(rec, tc.p))
		res := rec.Result()
		require.Equal(t, tc.status, res.StatusCode)
		require.Equal(t, "text/html; charset=utf-8", res.Header.Get("Content-Type"))
		require.Equal(t, ContentSecurityPolicy(), res.Header.Get("Content-Security-Policy"))
		require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))
		require.Equal(t, "no-referrer", res.Header.Get("Referrer-Policy"))
		require.Equal(t, "no-store", res.Header.Get("Cache-Control"))
		require.Equal(t, "DENY", res.Header.Get("X-Frame-Options"))
		require.Equal(t, tc.p.Lang, res.Header.Get("Content-Language"))
		want, err := Render(tc.p)
		require.NoError(t, err)
		require.Equal(t, want, rec.Body.Bytes())
		require.Equal(t, strconv.Itoa(len(want)), res.Header.Get("Content-Length"))
	}
	require.Error(t, Write(httptest.NewRecorder(), Params{Lang: "en", URL: "not a url"}))
}

func TestConsentPageSourceReturnsACopy(t *testing.T) {
	p := Source()
	p[0] = 'X'
	require.NotEqual(t, p[0], Source()[0])
}
