// Package attestationpage is the attestation page of issue 14: what a holder or a
// verifier sees when a browser opens GET /attestation/{id} (Accept preferring
// text/html to application/json).
//
// The page is the same for everyone who asks for one id: it carries no data of the
// attestation, only its id, its public status URL and a QR code of that URL, all
// derived from the request path. Its one inline script reads the reader's access
// token from the URL fragment (#token=…, which browsers never send to a server),
// removes it from the address bar, fetches GET /attestation/{id} as JSON with
// Authorization: Bearer, and GET /attestation/{id}/status for the live status, and
// shows what the attestation says in words. Every value from the server goes into
// the page through textContent only.
//
// The page has one inline script and one inline style; the Content-Security-Policy
// allows exactly those two by their SHA-256 hashes, computed here from the embedded
// template, so the page cannot drift from its policy. Trusted Types are enforced so
// that no HTML string can reach a DOM sink.
//
// What it never does: put the token in a query or a cookie, send it anywhere but to
// its own origin's attestation route, or show data before that route has answered
// for the token.
package attestationpage

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"github.com/boombuler/barcode/qr"
)

//go:embed page.html
var source string

// MediaType is the content type the page is served with.
const MediaType = "text/html; charset=utf-8"

var (
	tmpl = template.Must(template.New("page").Parse(source))
	// html/template drops the script's comments, so the hashes are those of a
	// rendering: the script and the style hold no action, so every rendering has
	// the same two elements (a test checks the served pages against the policy).
	rendered = mustRender()
	csp      = "default-src 'none'; " +
		"script-src '" + mustHash(rendered, "<script>", "</script>") + "'; " +
		"style-src '" + mustHash(rendered, "<style>", "</style>") + "'; " +
		"connect-src 'self'; img-src data:; " +
		"base-uri 'none'; form-action 'none'; frame-ancestors 'none'; " +
		"require-trusted-types-for 'script'; trusted-types 'none'"
)

// View is what the server puts in the page before its script runs.
type View struct {
	// ID is the attestation id from the request path.
	ID string
	// Found reports whether an attestation has this id. The page of an unknown id is
	// served with 404 and has no QR code.
	Found bool
	// StatusURL is the attestation's public status URL
	// (<public origin>/attestation/{id}/status), the content of the QR code.
	StatusURL string
}

// pageData is View with its QR code.
type pageData struct {
	View
	QR template.HTML
}

// Render returns the page for v. It fails when v is found but its StatusURL cannot
// be encoded as a QR code (longer than a QR code holds).
func Render(v View) ([]byte, error) {
	d := pageData{View: v}
	if v.Found {
		svg, err := QRCode(v.StatusURL)
		if err != nil {
			return nil, err
		}
		d.QR = template.HTML(svg) // built here from numbers only; see QRCode
	}
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, d); err != nil {
		return nil, fmt.Errorf("attestationpage: %w", err)
	}
	return buf.Bytes(), nil
}

// Write answers with the page for v and its security headers (the Content-Security-
// Policy, nosniff, no referrer, no caching, no framing): 200 when the attestation
// exists, 404 when it does not.
func Write(w http.ResponseWriter, v View) error {
	body, err := Render(v)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if !v.Found {
		status = http.StatusNotFound
	}
	h := w.Header()
	h.Set("Content-Type", MediaType)
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, err = w.Write(body)
	return err
}

// ContentSecurityPolicy returns the policy the page is served with: nothing is
// allowed but its own inline script and style (by hash), fetches to its own origin
// and data: images (the empty favicon); no base URI, no form targets, no framing,
// and Trusted Types enforced.
func ContentSecurityPolicy() string { return csp }

// quietZone is the white margin around the symbol, in modules (ISO/IEC 18004).
const quietZone = 4

// QRCode returns an SVG image of a QR code (error correction level M) that encodes
// text: black modules on a white ground with its quiet zone, whatever the page's
// colour scheme, as one path of unit squares, sized by its container. It has no
// title of its own: the page labels it. It fails when text does not fit a QR code.
func QRCode(text string) (string, error) {
	code, err := qr.Encode(text, qr.M, qr.Auto)
	if err != nil {
		return "", fmt.Errorf("attestationpage: QR code: %w", err)
	}
	b := code.Bounds()
	n := b.Dx()
	size := n + 2*quietZone
	var path strings.Builder
	for y := range b.Dy() {
		for x := 0; x < n; {
			if !dark(code.At(b.Min.X+x, b.Min.Y+y)) {
				x++
				continue
			}
			run := 1
			for x+run < n && dark(code.At(b.Min.X+x+run, b.Min.Y+y)) {
				run++
			}
			fmt.Fprintf(&path, "M%d %dh%dv1h-%dz", x+quietZone, y+quietZone, run, run)
			x += run
		}
	}
	return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" shape-rendering="crispEdges" aria-hidden="true" focusable="false">`+
		`<rect width="%d" height="%d" fill="#ffffff"/><path fill="#000000" d="%s"/></svg>`,
		size, size, size, size, path.String()), nil
}

// dark reports whether a module's colour is dark (the barcode package answers black
// or white).
func dark(c interface{ RGBA() (r, g, b, a uint32) }) bool {
	r, _, _, _ := c.RGBA()
	return r < 0x8000
}

// mustRender renders the page of an unknown id, for its script and style.
func mustRender() string {
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, pageData{}); err != nil {
		panic(fmt.Sprintf("attestationpage: page.html: %v", err))
	}
	return buf.String()
}

// mustHash returns the CSP source expression ("sha256-<base64>") of the content of
// the only element delimited by open and close in doc; it panics when there is not
// exactly one (a broken embed is a build error, not a runtime condition).
func mustHash(doc, open, close string) string {
	if n := strings.Count(doc, open); n != 1 || strings.Count(doc, close) != 1 {
		panic(fmt.Sprintf("attestationpage: page.html must hold exactly one %s element, has %d", open, n))
	}
	_, rest, _ := strings.Cut(doc, open)
	body, _, _ := strings.Cut(rest, close)
	sum := sha256.Sum256([]byte(body))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}
