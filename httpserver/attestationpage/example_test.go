package attestationpage_test

import (
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/veriland/veriland/httpserver/attestationpage"
)

// The page carries no data of the attestation: its id, its public status URL and a QR
// code of that URL, in the reader's language.
func ExampleWrite() {
	rec := httptest.NewRecorder()
	err := attestationpage.Write(rec, attestationpage.View{ID: "att_abcdefghijklmnopqrstuvwxyz", Found: true, Lang: "ar",
		StatusURL: "https://veriland.example/attestation/att_abcdefghijklmnopqrstuvwxyz/status"})
	body := rec.Body.String()
	fmt.Println(err, rec.Code, rec.Header().Get("Content-Language"))
	fmt.Println(strings.Contains(body, `dir="rtl"`), strings.Contains(body, "<svg"))
	// Output:
	// <nil> 200 ar
	// true true
}
