package dashboard

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// inline returns the content of the only element delimited by open and close.
func inline(t *testing.T, doc, open, close string) string {
	t.Helper()
	require.Equal(t, 1, strings.Count(doc, open), open)
	require.Equal(t, 1, strings.Count(doc, close), close)
	_, rest, _ := strings.Cut(doc, open)
	body, _, _ := strings.Cut(rest, close)
	return body
}

func sha256Source(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

func TestDashboardCSPHashesMatchThePage(t *testing.T) {
	doc := string(Page())
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
	}, directives)
}

// TestDashboardPageHasNoForbiddenConstructs reads the page's source for what its
// policy would block or what would leak: external resources, inline event handlers,
// HTML sinks, cookies, storage other than sessionStorage.
func TestDashboardPageHasNoForbiddenConstructs(t *testing.T) {
	doc := string(Page())
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
		t.Run(tc.name, func(t *testing.T) {
			require.Empty(t, regexp.MustCompile(tc.pattern).FindAllString(doc, -1))
		})
	}
	require.Contains(t, doc, `sessionStorage`)
	require.Contains(t, doc, `'Authorization': 'Bearer ' + token`)
	require.Contains(t, doc, `credentials: 'omit'`)
	require.Contains(t, doc, `<html lang="en" dir="ltr">`)
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
			require.Empty(t, h.Values("Set-Cookie"))
			if tc.body {
				require.Equal(t, Page(), rec.Body.Bytes())
			}
		})
	}
}

func TestDashboardMustHash(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		panics    bool
	}{
		{"one element", "<style>a{}</style>", false},
		{"none", "<p>no style</p>", true},
		{"two", "<style>a{}</style><style>b{}</style>", true},
		{"unclosed", "<style>a{}", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := func() { mustHash([]byte(tc.doc), "<style>", "</style>") }
			if tc.panics {
				require.Panics(t, f)
				return
			}
			require.Equal(t, sha256Source("a{}"), mustHash([]byte(tc.doc), "<style>", "</style>"))
		})
	}
}

// TestDashboardHasLandTitles: the Parcels section lists every parcel's land title
// (SPEC S14): a colour for each token status, the holder kinds in words, and short
// addresses and hashes whose full value is their title.
func TestDashboardHasLandTitles(t *testing.T) {
	doc := string(Page())
	for _, want := range []string{
		`<button type="button" id="tab-parcels" data-section="parcels" aria-controls="parcels">Parcels</button>`,
		`<section id="parcels" class="page" aria-labelledby="parcels-title" hidden>`,
		`<ul id="parcel-list" class="cards"`,
		`parcels: { roles: ['holder', 'verifier', 'notary', 'admin'], load: loadParcels }`,
		`MINTED: 'ok', BURNED: 'burned', DISABLED: 'plain'`,
		`OWNER_WALLET: 'the owner’s wallet'`,
		`REGISTRY_CUSTODY: 'the registry’s custody account (owner without a wallet)'`,
		`make('code', { title: s, 'data-full': s, text: s.length > 14 ? s.slice(0, 6) + '…' + s.slice(-4) : s })`,
		`['Mint tx', txFact(tk.mintTx, tk.mintBlock, tk.mintedAt)]`,
		`['Burn tx', txFact(tk.burnTx, 0, tk.burnedAt)]`,
		`'parcel-list'`, // cleared on sign-out
	} {
		require.Contains(t, doc, want)
	}
	style := inline(t, doc, "<style>", "</style>")
	require.Contains(t, style, ".burned { background: #37474f; color: #ffffff; }")
	require.Contains(t, style, ".plain { background: var(--panel); color: var(--fg);")
}
