package dashboard_test

import (
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/veriland/veriland/httpserver/dashboard"
)

// The dashboard is one page, served with a policy that allows its own inline script
// and style by hash and nothing from elsewhere.
func ExampleHandler() {
	rec := httptest.NewRecorder()
	dashboard.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/dashboard", nil))
	csp := rec.Header().Get("Content-Security-Policy")
	fmt.Println(rec.Code, rec.Header().Get("Content-Type"))
	fmt.Println(strings.Contains(csp, "default-src 'none'"), strings.Contains(csp, "'sha256-"), strings.Contains(csp, "unsafe-inline"))
	// Output:
	// 200 text/html; charset=utf-8
	// true true false
}

// The page speaks the reader's language: the switcher's ?lang= first, then
// Accept-Language, then English; Arabic is written right to left.
func ExampleLanguage() {
	for _, tc := range []struct{ target, accept string }{
		{"/dashboard", ""},
		{"/dashboard", "fr-CA,fr;q=0.9,en;q=0.5"},
		{"/dashboard?lang=ar", "fr"},
		{"/dashboard?lang=xx", "pt-BR"},
	} {
		r := httptest.NewRequest("GET", tc.target, nil)
		r.Header.Set("Accept-Language", tc.accept)
		rec := httptest.NewRecorder()
		dashboard.Handler().ServeHTTP(rec, r)
		body := rec.Body.String()
		html := body[strings.Index(body, "<html"):strings.Index(body, ">\n<head>")]
		fmt.Println(rec.Header().Get("Content-Language"), html, dashboard.Label(dashboard.Language(r), "title"))
	}
	// Output:
	// en <html lang="en" dir="ltr" Operator dashboard
	// fr <html lang="fr" dir="ltr" Tableau de bord de l’opérateur
	// ar <html lang="ar" dir="rtl" لوحة تحكم المشغّل
	// pt <html lang="pt" dir="ltr" Painel do operador
}
