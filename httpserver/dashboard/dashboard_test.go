package dashboard

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/internal/catalogue"
)

// inline returns the content of the only element opened by exactly open, up to the
// first close after it (the labels' data block opens with a longer tag).
func inline(t *testing.T, doc, open, close string) string {
	t.Helper()
	require.Equal(t, 1, strings.Count(doc, open), open)
	_, rest, _ := strings.Cut(doc, open)
	body, _, found := strings.Cut(rest, close)
	require.True(t, found, close)
	return body
}

func sha256Source(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// TestDashboardCSPHashesMatchThePage: in every language, the page's one script and
// one style are those the one policy allows by hash.
func TestDashboardCSPHashesMatchThePage(t *testing.T) {
	for _, lang := range catalogue.Languages {
		doc := string(Page(lang))
		directives := map[string]string{}
		for d := range strings.SplitSeq(ContentSecurityPolicy(), ";") {
			name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
			directives[name] = value
		}
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
		require.Equal(t, 1, strings.Count(doc, `<script type="application/json" id="i18n">`), "the labels' data block")
		require.Equal(t, 2, strings.Count(doc, "</script>"), "the data block and the script, nothing else")
	}
}

// TestDashboardPageHasNoForbiddenConstructs reads the page's source, and each
// rendering, for what its policy would block or what would leak: external
// resources, inline event handlers, HTML sinks, cookies, storage other than
// sessionStorage.
func TestDashboardPageHasNoForbiddenConstructs(t *testing.T) {
	docs := map[string]string{"index.html": source}
	for _, lang := range catalogue.Languages {
		docs[lang] = string(Page(lang))
	}
	for name, doc := range docs {
		for _, tc := range []struct {
			name    string
			pattern string
		}{
			{"external resource", `(?i)(src|href)\s*=\s*["']?(https?:)?//`},
			{"inline event handler", `(?i)<[^>]+\son[a-z]+\s*=`},
			{"innerHTML sink", `innerHTML|outerHTML|insertAdjacentHTML|document\.write`},
			{"eval", `\beval\(|new Function\(`},
			{"cookie", `document\.cookie`},
			{"localStorage", `localStorage`},
			{"javascript: URL", `(?i)["'=]\s*javascript:`},
			{"style attribute", `(?i)<[^>]+\sstyle\s*=`},
		} {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				require.Empty(t, regexp.MustCompile(tc.pattern).FindAllString(doc, -1))
			})
		}
		require.Contains(t, doc, `sessionStorage`)
		require.Contains(t, doc, `'Authorization': 'Bearer ' + token`)
		require.Contains(t, doc, `credentials: 'omit'`)
	}
	_, style, _ := strings.Cut(source, "<style>")
	style, _, _ = strings.Cut(style, "</style>")
	require.NotRegexp(t, `(?i)(margin|padding|border)-(left|right)|(left|right)\s*:|text-align:\s*(left|right)|float:`, style,
		"the layout mirrors in Arabic: logical properties only")
}

func TestDashboardHandler(t *testing.T) {
	for _, tc := range []struct {
		method string
		status int
		body   bool
	}{
		{http.MethodGet, http.StatusOK, true},
		{http.MethodHead, http.StatusOK, false},
		{http.MethodPost, http.StatusMethodNotAllowed, false},
		{http.MethodDelete, http.StatusMethodNotAllowed, false},
	} {
		t.Run(tc.method, func(t *testing.T) {
			rec := httptest.NewRecorder()
			Handler().ServeHTTP(rec, httptest.NewRequest(tc.method, "/dashboard", nil))
			require.Equal(t, tc.status, rec.Code)
			if tc.status != http.StatusOK {
				require.Equal(t, "GET, HEAD", rec.Header().Get("Allow"))
				return
			}
			h := rec.Header()
			require.Equal(t, MediaType, h.Get("Content-Type"))
			require.Equal(t, ContentSecurityPolicy(), h.Get("Content-Security-Policy"))
			require.Equal(t, "nosniff", h.Get("X-Content-Type-Options"))
			require.Equal(t, "no-referrer", h.Get("Referrer-Policy"))
			require.Equal(t, "no-store", h.Get("Cache-Control"))
			require.Equal(t, "DENY", h.Get("X-Frame-Options"))
			require.Equal(t, "en", h.Get("Content-Language"))
			require.Equal(t, "Accept-Language", h.Get("Vary"))
			require.Empty(t, h.Values("Set-Cookie"))
			if tc.body {
				require.Equal(t, Page("en"), rec.Body.Bytes())
			}
		})
	}
}

// TestDashboardLanguage: the page's language is the switcher's ?lang= when it is
// one of the catalogue's, else the first of Accept-Language's preferences the
// catalogue has (by primary subtag), else English; Arabic is right to left. The
// page says so in <html>, in Content-Language, in its switcher and in its words.
func TestDashboardLanguage(t *testing.T) {
	for _, tc := range []struct {
		name, query, accept string
		lang, dir           string
	}{
		{"no preference", "", "", "en", "ltr"},
		{"Accept-Language", "", "fr-FR,fr;q=0.9,en;q=0.5", "fr", "ltr"},
		{"a region picks its language", "", "pt-BR", "pt", "ltr"},
		{"Arabic is right to left", "", "ar-MA,ar;q=0.9", "ar", "rtl"},
		{"the first language the catalogue has", "", "ja, de;q=0.8, it;q=0.9", "it", "ltr"},
		{"an unknown language falls back to English", "", "ja,zh;q=0.9", "en", "ltr"},
		{"?lang= wins over Accept-Language", "?lang=es", "de", "es", "ltr"},
		{"?lang=ar", "?lang=ar", "en", "ar", "rtl"},
		{"?lang= in capitals", "?lang=DE", "", "de", "ltr"},
		{"an unknown ?lang= is ignored", "?lang=xx", "it", "it", "ltr"},
		{"an unknown ?lang= and no preference", "?lang=klingon", "", "en", "ltr"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/dashboard"+tc.query, nil)
			if tc.accept != "" {
				r.Header.Set("Accept-Language", tc.accept)
			}
			require.Equal(t, tc.lang, Language(r))
			rec := httptest.NewRecorder()
			Handler().ServeHTTP(rec, r)
			require.Equal(t, http.StatusOK, rec.Code)
			require.Equal(t, tc.lang, rec.Header().Get("Content-Language"))
			require.Equal(t, "Accept-Language", rec.Header().Get("Vary"))
			body := rec.Body.String()
			require.Contains(t, body, `<html lang="`+tc.lang+`" dir="`+tc.dir+`">`)
			require.Contains(t, body, `<option value="`+tc.lang+`" lang="`+tc.lang+`" dir="`+tc.dir+`" selected>`+catalogue.Name(tc.lang)+`</option>`)
			require.Equal(t, 1, strings.Count(body, " selected>"))
			require.Contains(t, body, `<h1 id="title">`+Label(tc.lang, "title")+`</h1>`)
			require.Equal(t, Page(tc.lang), rec.Body.Bytes())
		})
	}
	// The switcher names every language in itself, in the catalogue's order.
	doc := string(Page("ar"))
	var names []string
	for _, m := range regexp.MustCompile(`<option value="(\w+)" lang="(\w+)" dir="(\w+)"(?: selected)?>([^<]+)</option>`).FindAllStringSubmatch(doc, -1) {
		if m[1] == m[2] {
			names = append(names, m[1]+"="+m[4]+"/"+m[3])
		}
	}
	require.Equal(t, []string{"en=English/ltr", "fr=Français/ltr", "es=Español/ltr", "pt=Português/ltr", "ar=العربية/rtl", "de=Deutsch/ltr", "it=Italiano/ltr"}, names)
	require.Equal(t, Page("en"), Page("xx"), "an unknown language is served as English")
}

// TestDashboardFormats: the script prints dates and numbers with the catalogue's
// common patterns, as the server does; Arabic keeps Western digits.
func TestDashboardFormats(t *testing.T) {
	fr := FormatsOf("fr")
	require.Equal(t, "janvier", fr.Months[0])
	require.Equal(t, "décembre", fr.Months[11])
	require.Equal(t, "{date} à {time} UTC", fr.DateTime)
	require.Equal(t, ",", fr.Decimal)
	de := FormatsOf("de")
	require.Equal(t, "{d}. {month} {y}", de.Date)
	require.Equal(t, ".", de.Group)
	ar := FormatsOf("ar")
	require.Equal(t, ",", ar.Group)
	require.Equal(t, ".", ar.Decimal)
	require.Contains(t, string(Page("fr")), `"months":["janvier","février"`)
}

// TestDashboardMustPolicy: one policy for every rendering, or a panic at start-up.
func TestDashboardMustPolicy(t *testing.T) {
	same := func(script, style string) []byte {
		return []byte("<style>" + style + "</style><script type=\"application/json\" id=\"i18n\">{}</script><script>" + script + "</script>")
	}
	all := func(f func(lang string) []byte) map[string][]byte {
		out := map[string][]byte{}
		for _, l := range catalogue.Languages {
			out[l] = f(l)
		}
		return out
	}
	require.Contains(t, mustPolicy(all(func(string) []byte { return same("a()", "b{}") })), "'"+sha256Source("a()")+"'")
	for name, pages := range map[string]map[string][]byte{
		"a script differs": all(func(l string) []byte { return same("a('"+l+"')", "b{}") }),
		"a style differs":  all(func(l string) []byte { return same("a()", "b{"+l+"}") }),
		"no style":         all(func(string) []byte { return []byte("<script>a()</script>") }),
		"two scripts":      all(func(string) []byte { return append(same("a()", "b{}"), "<script>c()</script>"...) }),
	} {
		t.Run(name, func(t *testing.T) {
			require.Panics(t, func() { mustPolicy(pages) })
		})
	}
}

// TestDashboardHasLandTitles: the Parcels section lists every parcel's land title
// (SPEC S14): a colour for each token status, the holder kinds in words, and short
// addresses and hashes whose full value is their title.
func TestDashboardHasLandTitles(t *testing.T) {
	doc := source
	for _, want := range []string{
		`<button type="button" id="tab-parcels" data-section="parcels" aria-controls="parcels">{{t .Lang "parcels.tab"}}</button>`,
		`<section id="parcels" class="page" aria-labelledby="parcels-title" hidden>`,
		`<ul id="parcel-list" class="cards"`,
		`parcels: { roles: ['holder', 'verifier', 'notary', 'admin'], load: loadParcels }`,
		`MINTED: 'ok', BURNED: 'burned', DISABLED: 'plain'`,
		`known('holder.' + tk.holderKind) ? t('holder.' + tk.holderKind)`,
		`make('code', { title: s, 'data-full': s, dir: 'ltr', text: s.length > 14 ? s.slice(0, 6) + '…' + s.slice(-4) : s })`,
		`[t('fact.mintTx'), txFact(tk.mintTx, tk.mintBlock, tk.mintedAt)]`,
		`[t('fact.burnTx'), txFact(tk.burnTx, 0, tk.burnedAt)]`,
		`'parcel-list'`, // cleared on sign-out
	} {
		require.Contains(t, doc, want)
	}
	require.Equal(t, "the owner’s wallet", Label("en", "holder.OWNER_WALLET"))
	require.Equal(t, "the registry’s custody account (owner without a wallet)", Label("en", "holder.REGISTRY_CUSTODY"))
	style := inline(t, doc, "<style>", "</style>")
	require.Contains(t, style, ".burned { background: #37474f; color: #ffffff; }")
	require.Contains(t, style, ".plain { background: var(--panel); color: var(--fg);")
}

// TestDashboardColoursContrast computes, from the page's style, the contrast of
// every text colour on every ground it is written on, in the light and the dark
// colour scheme: at least 4.5:1 (WCAG 2.2 AA for text), and 3:1 for the borders of
// fields, cards and warnings.
func TestDashboardColoursContrast(t *testing.T) {
	style := inline(t, source, "<style>", "</style>")
	roots := regexp.MustCompile(`:root \{([^}]*)\}`).FindAllStringSubmatch(style, -1)
	require.Len(t, roots, 2, "the light and the dark scheme")
	for i, root := range roots {
		scheme := []string{"light", "dark"}[i]
		v := map[string]string{}
		for _, m := range regexp.MustCompile(`--(\w+): (#[0-9a-f]{6})`).FindAllStringSubmatch(root[1], -1) {
			v[m[1]] = m[2]
		}
		for _, p := range []struct {
			what, fg, bg string
			min          float64
		}{
			{"text", "fg", "bg", 4.5}, {"text on a panel", "fg", "panel", 4.5},
			{"notes", "muted", "bg", 4.5}, {"notes on a panel", "muted", "panel", 4.5},
			{"links", "accent", "bg", 4.5}, {"a primary button", "bg", "accent", 4.5},
			{"the current section's button", "bg", "fg", 4.5},
			{"a danger button", "danger", "bg", 4.5},
			{"field and card borders", "line", "bg", 3}, {"warning borders", "danger", "bg", 3},
		} {
			require.NotEmpty(t, v[p.fg], "%s: --%s", scheme, p.fg)
			require.NotEmpty(t, v[p.bg], "%s: --%s", scheme, p.bg)
			require.GreaterOrEqual(t, contrast(v[p.fg], v[p.bg]), p.min, "%s: %s (%s on %s)", scheme, p.what, v[p.fg], v[p.bg])
		}
	}
	tags := regexp.MustCompile(`\.(\w+) \{ background: (#[0-9a-f]{6}); color: (#[0-9a-f]{6}); \}`).FindAllStringSubmatch(style, -1)
	require.Len(t, tags, 5, "ok, wait, bad, other, burned")
	for _, m := range tags {
		require.GreaterOrEqual(t, contrast(m[3], m[2]), 4.5, "the %s tag", m[1])
	}
}

// contrast returns the WCAG contrast ratio of two #rrggbb colours.
func contrast(a, b string) float64 {
	lum := func(hex string) float64 {
		var rgb [3]float64
		for i := range rgb {
			var c int
			fmt.Sscanf(hex[1+2*i:3+2*i], "%02x", &c)
			s := float64(c) / 255
			if s <= 0.03928 {
				rgb[i] = s / 12.92
			} else {
				rgb[i] = math.Pow((s+0.055)/1.055, 2.4)
			}
		}
		return 0.2126*rgb[0] + 0.7152*rgb[1] + 0.0722*rgb[2]
	}
	la, lb := lum(a), lum(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}
