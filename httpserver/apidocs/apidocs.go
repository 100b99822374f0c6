package apidocs

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha512"
	_ "embed"
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// The vendored renderer (see vendor/README.md).
const (
	// RendererVersion is the pinned Redoc release.
	RendererVersion = "2.5.2"
	// RendererSHA256 is the hex SHA-256 of the vendored standalone bundle.
	RendererSHA256 = "6beb5aea23b71d09122ee35de8f326e38aec050e774f3bfba1f34e5c36608986"
	// RendererPath is where the server serves the bundle.
	RendererPath = "/docs/redoc-" + RendererVersion + ".standalone.js"
	// PagePath is where the server serves the page.
	PagePath = "/docs"
)

// Media types of the two responses.
const (
	MediaTypeHTML       = "text/html; charset=utf-8"
	MediaTypeJavaScript = "text/javascript; charset=utf-8"
)

//go:embed vendor/redoc-2.5.2.standalone.js
var renderer []byte

//go:embed index.html
var pageTemplate []byte

// Style sources of the pinned bundle. styled-components starts each sheet as an empty
// style element and fills it with insertRule (the CSSOM, which CSP does not govern):
// the hash of the empty string admits those elements. The bundle's one style element
// with text is its perfect-scrollbar stylesheet, admitted by its hash; the Chromium
// test fails on any other inline style, so a new bundle cannot slip one in.
const (
	emptyStyleHash     = "sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="
	scrollbarStyleHash = "sha256-QMIg+bpjm3JdElJ388KYke01izlUW0UoNOeKjpMxdgc="
)

var (
	integrity = func() string {
		sum := sha512.Sum384(renderer)
		return "sha384-" + base64.StdEncoding.EncodeToString(sum[:])
	}()
	page = []byte(strings.NewReplacer(
		"{{renderer}}", RendererPath,
		"{{integrity}}", integrity,
	).Replace(string(pageTemplate)))
	csp = "default-src 'none'; " +
		"script-src 'self' '" + mustInlineHash(page) + "'; " +
		"style-src '" + emptyStyleHash + "' '" + scrollbarStyleHash + "'; " +
		"connect-src 'self'; img-src 'self' data:; worker-src blob:; " +
		"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)

// mustInlineHash returns the CSP source expression of the page's only inline script
// (the only "<script>" without attributes); it panics when there is not exactly one,
// which is a broken embed, found by the package's tests.
func mustInlineHash(doc []byte) string {
	const open, close = "<script>", "</script>"
	if n := bytes.Count(doc, []byte(open)); n != 1 {
		panic(fmt.Sprintf("apidocs: index.html must hold exactly one inline %s, has %d", open, n))
	}
	_, rest, _ := bytes.Cut(doc, []byte(open))
	body, _, ok := bytes.Cut(rest, []byte(close))
	if !ok {
		panic("apidocs: the inline script is not closed")
	}
	sum := sha256.Sum256(body)
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// Page returns a copy of the page's bytes.
func Page() []byte { return bytes.Clone(page) }

// Renderer returns a copy of the vendored Redoc bundle.
func Renderer() []byte { return bytes.Clone(renderer) }

// Integrity returns the Subresource Integrity value ("sha384-…") of the bundle, as
// the page's script element carries it.
func Integrity() string { return integrity }

// ContentSecurityPolicy returns the policy the page is served with.
func ContentSecurityPolicy() string { return csp }

// WritePage writes the page with its security headers. The page is the same for
// everyone and changes only with the binary: it may be cached briefly.
func WritePage(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", MediaTypeHTML)
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-cache")
	h.Set("Content-Length", strconv.Itoa(len(page)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(page)
}

// WriteRenderer writes the bundle. Its URL names its version, so it is immutable.
func WriteRenderer(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", MediaTypeJavaScript)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("Content-Length", strconv.Itoa(len(renderer)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(renderer)
}
