package consentpage

import (
	"fmt"
	"html"
	"strconv"

	"github.com/veriland/veriland/internal/htmlpage"
)

// QRSVG returns an inline SVG image of the QR code of text (error correction level M),
// dark modules on a white square with a four-module quiet zone, one path per image,
// titled title for assistive technologies. It uses presentation attributes only (no
// style attribute), so the page's style-src hash covers it.
func QRSVG(text, title string) (string, error) {
	d, size, err := htmlpage.QRPath(text)
	if err != nil {
		return "", fmt.Errorf("consentpage: %w", err)
	}
	s := strconv.Itoa(size)
	return `<svg xmlns="http://www.w3.org/2000/svg" id="qr" class="qr" role="img" aria-labelledby="qr-title" viewBox="0 0 ` + s + ` ` + s +
		`" width="200" height="200" shape-rendering="crispEdges"><title id="qr-title" data-i18n="handoff.qr">` + html.EscapeString(title) +
		`</title><rect width="` + s + `" height="` + s + `" fill="#ffffff"/><path fill="#000000" d="` + d + `"/></svg>`, nil
}
