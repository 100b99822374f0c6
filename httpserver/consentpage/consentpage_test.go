package consentpage

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPrefersHTML(t *testing.T) {
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

func TestCSPHashesMatchTheEmbeddedPage(t *testing.T) {
	doc := string(Page())
	csp := ContentSecurityPolicy()
	directives := map[string]string{}
	for d := range strings.SplitSeq(csp, ";") {
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
	require.Equal(t, 1, strings.Count(doc, "<script"), "one script element, inline")
	require.Equal(t, 1, strings.Count(doc, "<style"), "one style element, inline")
}

func TestPageIsSelfContainedAndSafe(t *testing.T) {
	doc := Page()
	lower := bytes.ToLower(doc)
	for _, banned := range []string{
		"http://", "https://", "//", // no external resources, no protocol-relative URLs (and no // comments that could hide one)
		"innerhtml", "outerhtml", "insertadjacenthtml", "document.write", "eval(", "new function", "settimeout('", `settimeout("`,
		" src=", "@import", "url(", // no loaded resources at all
	} {
		require.NotContains(t, string(lower), banned)
	}
	// No inline event handlers (the CSP would block them anyway): on...= attributes.
	require.False(t, regexp.MustCompile(`(?i)<[^>]*\son[a-z]+\s*=`).Match(doc), "inline event handler")
	// The one link is the empty data: favicon.
	require.Equal(t, 1, bytes.Count(lower, []byte("<link")))
	require.Contains(t, string(doc), `<link rel="icon" href="data:,">`)
}

func TestPageIsAccessible(t *testing.T) {
	doc := string(Page())
	for _, want := range []string{
		`<html lang="en">`,
		`<meta name="viewport" content="width=device-width, initial-scale=1">`,
		`<meta charset="utf-8">`,
		`<title>`,
		`<main>`,
		`<h1>`,
		`role="status" aria-live="polite"`,
		`<button type="button" id="approve"`,
		`<button type="button" id="reject"`,
		`<button type="button" id="connect"`,
		`<h2 id="result-title" tabindex="-1">`,
		`.focus()`,
		`:focus-visible`,
		`textContent`,
		`eth_requestAccounts`,
		`eth_signTypedData_v4`,
		`'Content-Type': 'application/json'`,
		`Accept: 'application/json'`,
	} {
		require.Contains(t, doc, want)
	}
	// Buttons are buttons: nothing clickable is made of a div or span.
	require.NotContains(t, doc, `role="button"`)
	// The page posts exactly the decision the server takes.
	require.Contains(t, doc, `holderAddress: signer, decision: p.decision, disclosedScope: p.disclosedScope, holderSignature: signature`)
}

func TestWrite(t *testing.T) {
	rec := httptest.NewRecorder()
	Write(rec)
	res := rec.Result()
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, "text/html; charset=utf-8", res.Header.Get("Content-Type"))
	require.Equal(t, ContentSecurityPolicy(), res.Header.Get("Content-Security-Policy"))
	require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))
	require.Equal(t, "no-referrer", res.Header.Get("Referrer-Policy"))
	require.Equal(t, "no-store", res.Header.Get("Cache-Control"))
	require.Equal(t, "DENY", res.Header.Get("X-Frame-Options"))
	require.Equal(t, Page(), rec.Body.Bytes())
}

func TestPageReturnsACopy(t *testing.T) {
	p := Page()
	p[0] = 'X'
	require.NotEqual(t, p[0], Page()[0])
}
