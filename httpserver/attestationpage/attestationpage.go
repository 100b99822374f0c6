package attestationpage

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"net/http"

	"github.com/veriland/veriland/httpserver/consentpage"
	"github.com/veriland/veriland/internal/catalogue"
	"github.com/veriland/veriland/internal/htmlpage"
)

//go:embed page.html
var source string

// MediaType is the content type the page is served with.
const MediaType = htmlpage.MediaType

var (
	labels = catalogue.Page("attestation")
	tmpl   = template.Must(template.New("page").Funcs(template.FuncMap{"t": Label}).Parse(source))
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
	// Lang is the page's language, one of consentpage.Languages (see
	// catalogue.Negotiate); another is served as consentpage.DefaultLanguage.
	Lang string
}

// pageData is View with its QR code, its direction, its language switcher and the
// labels of its language for the script.
type pageData struct {
	View
	QR        template.HTML
	Dir       string
	Languages []htmlpage.Language
	Labels    map[string]string
}

// Label returns the page's label key in lang (one of consentpage.Languages; another
// falls back to consentpage.DefaultLanguage), "" for an unknown key. Claim labels
// are "scope.<item>" (consent), "liveness.<claim>" and "chip.<claim>".
func Label(lang, key string) string { return labels.Text(lang, key) }

// Render returns the page for v. It fails when v is found but its StatusURL cannot
// be encoded as a QR code (longer than a QR code holds).
func Render(v View) ([]byte, error) {
	v.Lang = catalogue.Lang(v.Lang)
	d := pageData{View: v, Dir: Label(v.Lang, "dir"), Labels: labels[v.Lang],
		Languages: htmlpage.Switcher(consentpage.Languages, v.Lang, catalogue.Name, func(code string) string { return Label(code, "dir") })}
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

// Write answers with the page for v and its headers (Content-Language, the
// Content-Security-Policy, nosniff, no referrer, no caching, no framing): 200 when
// the attestation exists, 404 when it does not. The caller adds Vary.
func Write(w http.ResponseWriter, v View) error {
	body, err := Render(v)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if !v.Found {
		status = http.StatusNotFound
	}
	w.Header().Set("Content-Language", catalogue.Lang(v.Lang))
	return htmlpage.Write(w, status, csp, body)
}

// ContentSecurityPolicy returns the policy the page is served with: nothing is
// allowed but its own inline script and style (by hash), fetches to its own origin
// and data: images (the empty favicon); no base URI, no form targets, no framing,
// and Trusted Types enforced.
func ContentSecurityPolicy() string { return csp }

// QRCode returns an SVG image of a QR code (error correction level M) that encodes
// text: black modules on a white ground with its quiet zone, whatever the page's
// colour scheme, as one path of unit squares, sized by its container. It has no
// title of its own: the page labels it. It fails when text does not fit a QR code.
func QRCode(text string) (string, error) {
	path, size, err := htmlpage.QRPath(text)
	if err != nil {
		return "", fmt.Errorf("attestationpage: %w", err)
	}
	return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" shape-rendering="crispEdges" aria-hidden="true" focusable="false">`+
		`<rect width="%d" height="%d" fill="#ffffff"/><path fill="#000000" d="%s"/></svg>`,
		size, size, size, size, path), nil
}

// mustRender renders the page of an unknown id, for its script and style.
func mustRender() string {
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, pageData{View: View{Lang: consentpage.DefaultLanguage}, Dir: "ltr", Labels: labels[consentpage.DefaultLanguage]}); err != nil {
		panic(fmt.Sprintf("attestationpage: page.html: %v", err))
	}
	return buf.String()
}

// mustHash returns the CSP source expression ("sha256-<base64>") of the content of
// the only element opened by exactly open in doc, up to the first close after it; it
// panics when there is not exactly one (a broken embed is a build error, not a
// runtime condition). The labels' JSON data block opens with a longer tag and is
// not counted; a rendering's script and style are the same in every language.
func mustHash(doc, open, close string) string {
	h, err := htmlpage.ElementHash([]byte(doc), open, close)
	if err != nil {
		panic("attestationpage: page.html: " + err.Error())
	}
	return h
}
