package ownerconsentpage_test

import (
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/veriland/veriland/httpserver/ownerconsentpage"
)

// The page carries no data of the transfer: its script reads that from the page's
// own URL. The server renders the language (here Arabic, right to left), the QR code
// of the page's address and the sandbox notice.
func ExampleWrite() {
	rec := httptest.NewRecorder()
	err := ownerconsentpage.Write(rec, ownerconsentpage.Params{
		Lang:        "ar",
		URL:         "https://veriland.example/v1/transfers/trf_abcdefghijklmnopqrstuvwxyz/owner-consent",
		Origin:      "https://veriland.example",
		Environment: "SANDBOX",
	})
	body := rec.Body.String()
	fmt.Println(err, rec.Code, rec.Header().Get("Content-Language"))
	fmt.Println(strings.Contains(body, `<html lang="ar" dir="rtl">`), strings.Contains(body, `<svg`))
	fmt.Println(ownerconsentpage.Label("ar", "title"))

	rec = httptest.NewRecorder()
	_ = ownerconsentpage.Write(rec, ownerconsentpage.Params{Lang: "fr", NotFound: true})
	fmt.Println(rec.Code, ownerconsentpage.Label("fr", "nf.title"))
	// Output:
	// <nil> 200 ar
	// true true
	// نقل ملكية قطعة أرضك
	// 404 Transfert introuvable
}
