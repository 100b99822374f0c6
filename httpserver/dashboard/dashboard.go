package dashboard

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"net/http"
	"strconv"

	"github.com/veriland/veriland/internal/catalogue"
	"github.com/veriland/veriland/internal/htmlpage"
)

//go:embed index.html
var source string

// MediaType is the content type the page is served with.
const MediaType = htmlpage.MediaType

var (
	labels = catalogue.Page("dashboard")
	tmpl   = template.Must(template.New("index.html").Funcs(template.FuncMap{"t": Label}).Parse(source))
	// The page is the same for everyone in a language: each rendering is made once.
	pages = mustRenderAll()
	csp   = mustPolicy(pages)
)

// Label returns the page's label key in lang (one of catalogue.Languages; another
// falls back to catalogue.Default), "" for a key the catalogue's dashboard table
// lacks.
func Label(lang, key string) string { return labels.Text(lang, key) }

// Formats is how the page's script prints dates and numbers in a language, the
// same way the server does (catalogue.DateTime, catalogue.Number): the patterns
// and month names of the catalogue's common table.
type Formats struct {
	// Months are the month names, January first.
	Months []string `json:"months"`
	// Date and DateTime are the patterns of a day ({d} {month} {y}) and of an
	// instant ({date} {time}).
	Date     string `json:"date"`
	DateTime string `json:"dateTime"`
	// Group and Decimal are the separators of thousands and of decimals.
	Group   string `json:"group"`
	Decimal string `json:"decimal"`
}

// Script is the page's data block for its script: the dashboard table of its
// language and its formats.
type Script struct {
	Labels  map[string]string `json:"labels"`
	Formats Formats           `json:"formats"`
}

// view is the template's data.
type view struct {
	Lang, Dir string
	Languages []htmlpage.Language
	Script    Script
}

// FormatsOf returns the formats of lang (another language reads as catalogue.Default).
func FormatsOf(lang string) Formats {
	c := catalogue.Page(catalogue.Common)
	f := Formats{Date: c.Text(lang, "date"), DateTime: c.Text(lang, "dateTime"),
		Group: c.Text(lang, "number.group"), Decimal: c.Text(lang, "number.decimal")}
	for m := 1; m <= 12; m++ {
		f.Months = append(f.Months, c.Text(lang, "month."+strconv.Itoa(m)))
	}
	return f
}

// render returns the page in lang, one of catalogue.Languages.
func render(lang string) ([]byte, error) {
	v := view{Lang: lang, Dir: catalogue.Dir(lang),
		Languages: htmlpage.Switcher(catalogue.Languages, lang, catalogue.Name, catalogue.Dir),
		Script:    Script{Labels: labels[lang], Formats: FormatsOf(lang)}}
	var b bytes.Buffer
	if err := tmpl.Execute(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// mustRenderAll renders the page in every language, or panics (a broken embed is a
// build error, not a runtime condition).
func mustRenderAll() map[string][]byte {
	out := make(map[string][]byte, len(catalogue.Languages))
	for _, lang := range catalogue.Languages {
		page, err := render(lang)
		if err != nil {
			panic("dashboard: index.html: " + err.Error())
		}
		out[lang] = page
	}
	return out
}

// mustPolicy returns the policy of the renderings, or panics: each must have
// exactly one inline script and one inline style, the same in every language (the
// language is in the markup and in the JSON data block, never in the script or the
// style), so that one policy allows them all by hash. html/template drops the
// comments of the script and the style, so the hashes are those of a rendering.
func mustPolicy(pages map[string][]byte) string {
	var policy string
	for _, lang := range catalogue.Languages {
		p, err := htmlpage.InlinePolicy(pages[lang])
		if err == nil && (bytes.Count(pages[lang], []byte("<script>")) != 1 || bytes.Count(pages[lang], []byte("<style>")) != 1) {
			err = fmt.Errorf("the page must hold exactly one <script> and one <style>")
		}
		if err == nil && policy != "" && p != policy {
			err = fmt.Errorf("the script or the style of the %s page differs from the others", lang)
		}
		if err != nil {
			panic("dashboard: index.html: " + err.Error())
		}
		policy = p
	}
	return policy
}

// Page returns a copy of the page in lang (one of catalogue.Languages; another is
// served as catalogue.Default).
func Page(lang string) []byte { return bytes.Clone(pages[catalogue.Lang(lang)]) }

// Language returns the language of the page for r, as every page chooses it
// (catalogue.Negotiate): the ?lang= of the language switcher, else the
// Accept-Language header's preference, else English.
func Language(r *http.Request) string {
	return catalogue.FromRequest(r)
}

// ContentSecurityPolicy returns the policy the page is served with: nothing is
// allowed but its own inline script and style (by hash), fetches to its own origin
// and its own and data: images (the empty favicon); no base URI, no form targets,
// no framing, and Trusted Types enforced so that no string can reach an HTML sink.
func ContentSecurityPolicy() string { return csp }

// Handler serves the page (GET and HEAD) in the language of the request (Language)
// with its security headers.
func Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		Write(w, Language(r))
	})
}

// Write answers with the page in lang and its headers: Content-Language, Vary:
// Accept-Language, the Content-Security-Policy, nosniff, no referrer, no caching
// and no framing.
func Write(w http.ResponseWriter, lang string) {
	lang = catalogue.Lang(lang)
	h := w.Header()
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Content-Language", lang)
	h.Add("Vary", "Accept-Language")
	_ = htmlpage.Write(w, http.StatusOK, csp, pages[lang])
}
