package dashboard

import (
	"bytes"
	_ "embed"
	"fmt"
	"net/http"

	"github.com/veriland/veriland/internal/htmlpage"
)

//go:embed index.html
var page []byte

// MediaType is the content type the page is served with.
const MediaType = htmlpage.MediaType

var (
	scriptHash = mustHash(page, "<script>", "</script>")
	styleHash  = mustHash(page, "<style>", "</style>")
	csp        = "default-src 'none'; " +
		"script-src '" + scriptHash + "'; " +
		"style-src '" + styleHash + "'; " +
		"connect-src 'self'; img-src 'self' data:; " +
		"base-uri 'none'; form-action 'none'; frame-ancestors 'none'; " +
		"require-trusted-types-for 'script'; trusted-types 'none'"
)

// mustHash returns the CSP source expression ("sha256-<base64>") of the content of
// the only element delimited by open and close in doc; it panics when there is not
// exactly one (a broken embed is a build error, not a runtime condition).
func mustHash(doc []byte, open, close string) string {
	h, err := htmlpage.ElementHash(doc, open, close)
	if err == nil && bytes.Count(doc, []byte(close)) != 1 {
		err = fmt.Errorf("the page must hold exactly one %s", close)
	}
	if err != nil {
		panic("dashboard: index.html: " + err.Error())
	}
	return h
}

// Page returns a copy of the page's bytes.
func Page() []byte { return bytes.Clone(page) }

// ContentSecurityPolicy returns the policy the page is served with: nothing is
// allowed but its own inline script and style (by hash), fetches to its own origin
// and data: images (the empty favicon); no base URI, no form targets, no framing,
// and Trusted Types enforced so that no string can reach an HTML sink.
func ContentSecurityPolicy() string { return csp }

// Handler serves the page (GET and HEAD) with its security headers.
func Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		Write(w)
	})
}

// Write answers with the page and its security headers: the Content-Security-
// Policy, nosniff, no referrer, no caching and no framing.
func Write(w http.ResponseWriter) {
	w.Header().Set("Cross-Origin-Opener-Policy", "same-origin")
	_ = htmlpage.Write(w, http.StatusOK, csp, page)
}
