package httpserver

import (
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/httpserver/consentpage"
)

// The harness validates every exchange against the OpenAPI document; kin-openapi
// decodes no text/html bodies by default, so the page is checked as the string its
// schema says it is.
func init() {
	openapi3filter.RegisterBodyDecoder("text/html", func(body io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
		b, err := io.ReadAll(body)
		return string(b), err
	})
}

// cspSource returns the CSP source expression of the page's only inline script.
func cspSource(t *testing.T, page, open, close string) string {
	t.Helper()
	require.Equal(t, 1, strings.Count(page, open))
	_, rest, _ := strings.Cut(page, open)
	body, _, ok := strings.Cut(rest, close)
	require.True(t, ok)
	sum := sha256.Sum256([]byte(body))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

func TestConsentPageNegotiation(t *testing.T) {
	h := newHarness(t)
	f := newConsentFlow(t, h)
	id := f.request(t, nil)

	for _, accept := range []string{
		"text/html",
		"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", // a browser's navigation
		"application/json;q=0.5, text/html",
	} {
		r := h.do(request{method: "GET", path: "/consent/" + id, header: map[string]string{"Accept": accept}})
		require.Equal(t, http.StatusOK, r.status, accept)
		require.Equal(t, "text/html; charset=utf-8", r.header.Get("Content-Type"), accept)
		want, err := consentpage.Render(consentpage.Params{Lang: "en", URL: "http://veriland.test/consent/" + id, Origin: "http://veriland.test", Environment: "SANDBOX"})
		require.NoError(t, err)
		require.Equal(t, string(want), string(r.body), "the page rendered for this request")
		require.Equal(t, "nosniff", r.header.Get("X-Content-Type-Options"))
		require.Equal(t, "no-referrer", r.header.Get("Referrer-Policy"))
		require.Equal(t, "no-store", r.header.Get("Cache-Control"))
		require.Contains(t, r.header.Values("Vary"), "Accept")
		require.Contains(t, r.header.Values("Vary"), "Accept-Language")
		require.Equal(t, "en", r.header.Get("Content-Language"))

		csp := r.header.Get("Content-Security-Policy")
		page := string(r.body)
		for _, directive := range []string{
			"default-src 'none'",
			"script-src " + cspSource(t, page, "<script>", "</script>"),
			"style-src " + cspSource(t, page, "<style>", "</style>"),
			"connect-src 'self'",
			"img-src 'self' data:",
			"base-uri 'none'",
			"form-action 'none'",
			"frame-ancestors 'none'",
		} {
			require.Contains(t, strings.Split(csp, "; "), directive, "CSP %q", csp)
		}
		// The page carries the request's address (QR code, wallet links), never its
		// content: it reads that from its URL.
		require.Contains(t, page, "https://metamask.app.link/dapp/veriland.test/consent/"+id)
		require.Contains(t, page, "https://go.cb-w.com/dapp?cb_url=http%3A%2F%2Fveriland.test%2Fconsent%2F"+id)
		require.NotContains(t, page, "account opening")
		require.NotContains(t, page, f.did)
	}

	// The language: ?lang= (the switcher), else Accept-Language, else English.
	for _, tc := range []struct{ query, acceptLanguage, lang, dir, title string }{
		{"", "fr-FR,fr;q=0.9,en;q=0.5", "fr", "ltr", "Demande de consentement"},
		{"", "ar", "ar", "rtl", "طلب موافقة"},
		{"", "ja", "en", "ltr", "Consent request"},
		{"?lang=de", "fr", "de", "ltr", "Einwilligungsanfrage"},
		{"?lang=zz", "it", "it", "ltr", "Richiesta di consenso"},
	} {
		r := h.do(request{method: "GET", path: "/consent/" + id + tc.query, header: map[string]string{"Accept": "text/html", "Accept-Language": tc.acceptLanguage}})
		require.Equal(t, http.StatusOK, r.status)
		require.Contains(t, string(r.body), `<html lang="`+tc.lang+`" dir="`+tc.dir+`">`, tc)
		require.Contains(t, string(r.body), `<h1 data-i18n="title">`+tc.title+`</h1>`, tc)
		require.Equal(t, tc.lang, r.header.Get("Content-Language"))
	}

	// An unknown id is a 404 page, in the reader's language.
	unknown := h.do(request{method: "GET", path: "/consent/vrq_aaaaaaaaaaaaaaaaaaaaaaaaaa", header: map[string]string{"Accept": "text/html", "Accept-Language": "es"}})
	require.Equal(t, http.StatusNotFound, unknown.status)
	require.Equal(t, "text/html; charset=utf-8", unknown.header.Get("Content-Type"))
	require.Equal(t, consentpage.ContentSecurityPolicy(), unknown.header.Get("Content-Security-Policy"))
	require.Contains(t, string(unknown.body), "Solicitud de consentimiento no encontrada")
	require.NotContains(t, string(unknown.body), "<svg")

	// JSON stays the default, and wins ties.
	for _, accept := range []string{"", "application/json", "*/*", "application/json, text/html", "text/html;q=0.4, application/json;q=0.6"} {
		hdr := map[string]string{}
		if accept != "" {
			hdr["Accept"] = accept
		}
		r := h.do(request{method: "GET", path: "/consent/" + id, header: hdr})
		require.Equal(t, http.StatusOK, r.status, accept)
		require.Equal(t, "application/json", r.header.Get("Content-Type"), accept)
		require.Empty(t, r.header.Get("Content-Security-Policy"))
		require.Contains(t, r.header.Values("Vary"), "Accept")
		ctx := r.json(t)
		require.Equal(t, id, ctx["requestId"])
		require.Equal(t, "Acme Bank", ctx["verifier"].(map[string]any)["name"])
	}
	// An unknown id as JSON is still a 404 error document.
	nf := h.do(request{method: "GET", path: "/consent/vrq_aaaaaaaaaaaaaaaaaaaaaaaaaa", header: map[string]string{"Accept": "application/json"}})
	require.Equal(t, http.StatusNotFound, nf.status)
	require.Equal(t, "not_found", nf.errorCode(t))
}

// The presets the page signs with are exactly what POST /consent takes: the
// approve-all preset discloses the whole scope in order, the reject one nothing.
func TestConsentPagePresets(t *testing.T) {
	h := newHarness(t)
	f := newConsentFlow(t, h)
	id := f.request(t, nil)
	ctx := h.do(request{method: "GET", path: "/consent/" + id}).json(t)
	presets := ctx["presets"].([]any)
	require.Len(t, presets, 2)
	approve, reject := presets[0].(map[string]any), presets[1].(map[string]any)
	require.Equal(t, "APPROVED", approve["decision"])
	require.Equal(t, ctx["scope"], approve["disclosedScope"])
	require.Equal(t, "REJECTED", reject["decision"])
	require.Equal(t, []any{}, reject["disclosedScope"])
	msg := ctx["typedData"].(map[string]any)["message"].(map[string]any)
	require.NotContains(t, msg, "decision")
	require.NotContains(t, msg, "disclosedScopeHash")
}
