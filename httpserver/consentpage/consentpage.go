// Package consentpage is the hosted consent page of SPEC S5.1: one dependency-free
// HTML document, embedded in the binary, that GET /consent/{requestId} serves to
// browsers (Accept preferring text/html over application/json).
//
// The server renders the parts that do not depend on the request's live state: the
// page's language and direction (from Accept-Language, or the ?lang= the language
// switcher sets), its static labels in that language, the QR code of the page's own
// address and the wallets' "open in wallet browser" links, or a 404 page for an
// unknown id. The page's script then reads the consent context from its own URL with
// Accept: application/json, shows who asks, what and why with human labels, keeps
// the status live, connects an EIP-1193 wallet (window.ethereum) to sign the Consent
// typed data, and signs the holder in (EIP-4361) to withdraw an approval or to check
// a liveness requirement. Every label of every language is in the table of
// the message catalogue (internal/catalogue/consent.json), embedded in the page as a JSON data block.
//
// The page has one inline script and one inline style; the Content-Security-Policy
// allows exactly those two by their SHA-256 hashes, computed here from the embedded
// template, whose script and style hold no template action: every rendering has the
// same script and style bytes (hashed from a rendering at start-up), so the page
// cannot drift from its policy.
package consentpage

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strings"

	"github.com/veriland/veriland/internal/catalogue"
	"github.com/veriland/veriland/internal/htmlpage"
)

//go:embed index.html
var source []byte

// MediaType is the content type the page is served with.
const MediaType = htmlpage.MediaType

// DefaultLanguage is the language of the page when the reader's preferences name
// none of Languages.
const DefaultLanguage = catalogue.Default

// Languages are the page's languages, as BCP 47 primary language subtags, in the
// order of the language switcher: the message catalogue's.
var Languages = catalogue.Languages

var (
	sample     = mustRender(Params{Lang: DefaultLanguage, URL: "https://example.com/consent/x"})
	scriptHash = mustHash(sample, "<script>", "</script>")
	styleHash  = mustHash(sample, "<style>", "</style>")
	csp        = "default-src 'none'; " +
		"script-src '" + scriptHash + "'; " +
		"style-src '" + styleHash + "'; " +
		"connect-src 'self'; img-src 'self' data:; " +
		"base-uri 'none'; form-action 'none'; frame-ancestors 'none'; " +
		"require-trusted-types-for 'script'; trusted-types 'none'"
	labels = catalogue.Page("consent")
	tmpl   = template.Must(template.New("index.html").Funcs(template.FuncMap{"t": func(lang, key string) string { return label(lang, key) }}).Parse(string(source)))
)

// mustHash returns the CSP source expression ("sha256-<base64>") of the content of
// the only element opened by exactly open in doc, up to the first close after it; it
// panics when there is not exactly one, or when it holds a template action (a broken
// embed is a build error, not a runtime condition). The page's JSON data block opens
// with a longer tag and is not counted.
func mustHash(doc []byte, open, close string) string {
	h, err := htmlpage.ElementHash(doc, open, close)
	if err == nil {
		_, rest, _ := bytes.Cut(doc, []byte(open))
		if body, _, _ := bytes.Cut(rest, []byte(close)); bytes.Contains(body, []byte("{{")) {
			err = fmt.Errorf("the %s element holds a template action", open)
		}
	}
	if err != nil {
		panic("consentpage: index.html: " + err.Error())
	}
	return h
}

// mustRender renders the page for p or panics. The policy hashes a rendering, not the
// template: html/template drops the comments of scripts and styles.
func mustRender(p Params) []byte {
	b, err := Render(p)
	if err != nil {
		panic(err)
	}
	return b
}

// label returns the label key in lang.
func label(lang, key string) string { return labels.Text(lang, key) }

// Label returns the page's label key in lang (one of Languages; another falls back
// to DefaultLanguage), "" for an unknown key. Scope items are labelled "scope.<item>".
func Label(lang, key string) string { return label(lang, key) }

// Source returns a copy of the page's template, as embedded.
func Source() []byte { return bytes.Clone(source) }

// ContentSecurityPolicy returns the policy the page is served with: nothing is
// allowed but its own inline script and style (by hash), fetches to its own origin,
// and data: images (the empty favicon); no base URI, no form targets, no framing,
// and Trusted Types enforced so that no HTML string can reach a DOM sink.
func ContentSecurityPolicy() string { return csp }

// Params is what one rendering of the page depends on.
type Params struct {
	// Lang is the page's language, one of Languages (see Negotiate); another is
	// served as DefaultLanguage.
	Lang string
	// NotFound renders the page of an unknown request, served with status 404.
	NotFound bool
	// URL is the page's public address (the consent URL): what its QR code and the
	// wallet links open. Required unless NotFound.
	URL string
	// Origin is the server's public origin, the domain and URI of the wallet login
	// (EIP-4361) the page asks the holder to sign.
	Origin string
	// Environment is the request's environment (SANDBOX or PRODUCTION): the one the
	// holder's wallet login is for.
	Environment string
}

// view is the template's data.
type view struct {
	Params
	Dir       string
	Languages []htmlpage.Language
	Labels    map[string]map[string]string
	QR        template.HTML
	MetaMask  string
	Coinbase  string
}

// Render returns the page for p.
func Render(p Params) ([]byte, error) {
	p.Lang = catalogue.Lang(p.Lang)
	v := view{Params: p, Dir: catalogue.Dir(p.Lang), Labels: labels,
		Languages: htmlpage.Switcher(Languages, p.Lang, catalogue.Name, catalogue.Dir)}
	if !p.NotFound {
		u, err := url.Parse(p.URL)
		if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
			return nil, fmt.Errorf("consentpage: the page URL %q is not an absolute http(s) URL", p.URL)
		}
		qr, err := QRSVG(p.URL, label(p.Lang, "handoff.qr"))
		if err != nil {
			return nil, err
		}
		v.QR = template.HTML(qr) // built from numbers and an escaped title only
		v.MetaMask, v.Coinbase = WalletLinks(p.URL)
	}
	var b bytes.Buffer
	if err := tmpl.Execute(&b, v); err != nil {
		return nil, fmt.Errorf("consentpage: %w", err)
	}
	return b.Bytes(), nil
}

// WalletLinks returns the links that open pageURL in the MetaMask and the Coinbase
// Wallet in-app browsers, in the wallets' own deep-link formats:
// https://metamask.app.link/dapp/<host/path> and
// https://go.cb-w.com/dapp?cb_url=<URL, query-escaped>.
func WalletLinks(pageURL string) (metaMask, coinbase string) {
	rest := pageURL
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
	}
	return "https://metamask.app.link/dapp/" + rest, "https://go.cb-w.com/dapp?cb_url=" + url.QueryEscape(pageURL)
}

// Write answers with the page rendered for p and its security headers: the
// Content-Security-Policy, nosniff, no referrer, no caching and no framing; status
// 404 for a NotFound page, else 200.
func Write(w http.ResponseWriter, p Params) error {
	if _, ok := labels[p.Lang]; !ok {
		p.Lang = DefaultLanguage
	}
	page, err := Render(p)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Language", p.Lang)
	status := http.StatusOK
	if p.NotFound {
		status = http.StatusNotFound
	}
	_ = htmlpage.Write(w, status, csp, page)
	return nil
}

// PrefersHTML reports whether an Accept header value prefers text/html to
// application/json: the quality the header gives text/html (from its most specific
// matching range: text/html, then text/*, then */*) is higher than the one it gives
// application/json. An absent header, */*, or a tie answers false: JSON is the
// default.
func PrefersHTML(accept string) bool {
	if strings.TrimSpace(accept) == "" {
		return false
	}
	html, _ := AcceptQuality(accept, "text", "html")
	js, _ := AcceptQuality(accept, "application", "json")
	return html > js
}

// AcceptQuality returns the q value an Accept header gives typ/sub (RFC 9110
// §12.5.1): that of the most specific media range that matches (typ/sub, then
// typ/*, then */*), 0 when none does, and whether that range named typ/sub exactly.
// Ranges with a malformed q are ignored. The server's other content negotiations
// (the parcel certificate's PDF) use it too.
func AcceptQuality(accept, typ, sub string) (q float64, exact bool) {
	best, specificity := 0.0, -1
	for part := range strings.SplitSeq(accept, ",") {
		mediaRange, params, _ := strings.Cut(part, ";")
		t, s, ok := strings.Cut(strings.ToLower(strings.TrimSpace(mediaRange)), "/")
		if !ok {
			continue
		}
		t, s = strings.TrimSpace(t), strings.TrimSpace(s)
		var sp int
		switch {
		case t == typ && s == sub:
			sp = 2
		case t == typ && s == "*":
			sp = 1
		case t == "*" && s == "*":
			sp = 0
		default:
			continue
		}
		q, ok := htmlpage.QValue(params)
		if !ok {
			continue
		}
		if sp > specificity || (sp == specificity && q > best) {
			best, specificity = q, sp
		}
	}
	return best, specificity == 2
}
