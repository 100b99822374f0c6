package ownerconsentpage

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"net/http"
	"net/url"

	"github.com/veriland/veriland/httpserver/consentpage"
	"github.com/veriland/veriland/internal/catalogue"
	"github.com/veriland/veriland/internal/htmlpage"
)

//go:embed index.html
var source []byte

// MediaType is the content type the page is served with.
const MediaType = htmlpage.MediaType

var (
	labels = catalogue.Page("ownerconsent")
	tmpl   = template.Must(template.New("index.html").Funcs(template.FuncMap{"t": Label}).Parse(string(source)))
	csp    = mustPolicy(Params{Lang: consentpage.DefaultLanguage, URL: "https://example.com/v1/transfers/x/owner-consent"})
)

// mustPolicy returns the policy of the page rendered for p, or panics (a broken
// embed is a build error, not a runtime condition). The template's script and style
// hold no template action, so every rendering has the same two elements; the
// policy hashes a rendering because html/template drops their comments.
func mustPolicy(p Params) string {
	for _, el := range [][2]string{{"<script>", "</script>"}, {"<style>", "</style>"}} {
		_, rest, _ := bytes.Cut(source, []byte(el[0]))
		if body, _, _ := bytes.Cut(rest, []byte(el[1])); bytes.Contains(body, []byte("{{")) {
			panic("ownerconsentpage: index.html: the " + el[0] + " element holds a template action")
		}
	}
	page, err := Render(p)
	if err == nil {
		var policy string
		if policy, err = htmlpage.InlinePolicy(page); err == nil {
			return policy
		}
	}
	panic("ownerconsentpage: index.html: " + err.Error())
}

// Label returns the page's label key in lang (one of consentpage.Languages; another
// falls back to consentpage.DefaultLanguage), "" for an unknown key. Statuses are
// labelled "state.<STATUS>", error codes "e.<code>".
func Label(lang, key string) string { return labels.Text(lang, key) }

// ContentSecurityPolicy returns the policy the page is served with: nothing is
// allowed but its own inline script and style (by hash), fetches to its own origin,
// and data: images (the empty favicon); no base URI, no form targets, no framing,
// and Trusted Types enforced.
func ContentSecurityPolicy() string { return csp }

// Params is what one rendering of the page depends on: the consent page's
// (consentpage.Params), built the same way by the route. None of it is data of the
// transfer, which the page reads itself from its own URL. For this page, URL is the
// transfer's ownerConsent.url (what the QR code and the wallet links open, required
// unless NotFound); Origin, when set, is the site the page asks the owner to find in
// the address bar before signing; and a SANDBOX Environment makes the page say that
// it moves no real land.
type Params = consentpage.Params

// view is the template's data.
type view struct {
	Params
	Dir       string
	Sandbox   bool
	Languages []htmlpage.Language
	Labels    map[string]map[string]string
	QR        template.HTML
	MetaMask  string
	Coinbase  string
}

// language returns p's language if the page has it, else the default.
func language(p Params) string {
	if _, ok := labels[p.Lang]; ok {
		return p.Lang
	}
	return consentpage.DefaultLanguage
}

// Render returns the page for p. It fails when p is not NotFound and its URL is not
// an absolute http(s) URL that fits a QR code.
func Render(p Params) ([]byte, error) {
	p.Lang = language(p)
	v := view{Params: p, Dir: Label(p.Lang, "dir"), Sandbox: p.Environment == "SANDBOX", Labels: labels,
		Languages: htmlpage.Switcher(consentpage.Languages, p.Lang,
			catalogue.Name,
			func(code string) string { return Label(code, "dir") })}
	if !p.NotFound {
		u, err := url.Parse(p.URL)
		if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
			return nil, fmt.Errorf("ownerconsentpage: the page URL %q is not an absolute http(s) URL", p.URL)
		}
		qr, err := consentpage.QRSVG(p.URL, Label(p.Lang, "handoff.qr"))
		if err != nil {
			return nil, fmt.Errorf("ownerconsentpage: %w", err)
		}
		v.QR = template.HTML(qr) // numbers and an escaped title only
		v.MetaMask, v.Coinbase = consentpage.WalletLinks(p.URL)
	}
	var b bytes.Buffer
	if err := tmpl.Execute(&b, v); err != nil {
		return nil, fmt.Errorf("ownerconsentpage: %w", err)
	}
	return b.Bytes(), nil
}

// Write answers with the page rendered for p and its headers: Content-Language, the
// Content-Security-Policy, nosniff, no referrer, no caching and no framing; status
// 404 for a NotFound page, else 200. It fails only when p cannot be rendered,
// before anything is written; a client gone while the page is written is not an
// error of the handler. The caller adds Vary (Accept, Accept-Language).
func Write(w http.ResponseWriter, p Params) error {
	page, err := Render(p)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if p.NotFound {
		status = http.StatusNotFound
	}
	w.Header().Set("Content-Language", language(p))
	_ = htmlpage.Write(w, status, csp, page)
	return nil
}
