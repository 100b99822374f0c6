package consentpage

import (
	"fmt"
	"html"
	"image/color"
	"strconv"
	"strings"

	"github.com/boombuler/barcode/qr"
)

// qrQuietZone is the light margin around the code, in modules (ISO/IEC 18004 asks
// for four).
const qrQuietZone = 4

// QRSVG returns an inline SVG image of the QR code of text (error correction level M),
// dark modules on a white square with a four-module quiet zone, one path per image,
// titled title for assistive technologies. It uses presentation attributes only (no
// style attribute), so the page's style-src hash covers it.
func QRSVG(text, title string) (string, error) {
	code, err := qr.Encode(text, qr.M, qr.Auto)
	if err != nil {
		return "", fmt.Errorf("consentpage: QR code: %w", err)
	}
	b := code.Bounds()
	n := b.Dx()
	size := n + 2*qrQuietZone
	var d strings.Builder
	for row := 0; row < n; row++ {
		for col := 0; col < n; {
			if !dark(code.At(b.Min.X+col, b.Min.Y+row)) {
				col++
				continue
			}
			start := col
			for col < n && dark(code.At(b.Min.X+col, b.Min.Y+row)) {
				col++
			}
			fmt.Fprintf(&d, "M%d %dh%dv1h-%dz", start+qrQuietZone, row+qrQuietZone, col-start, col-start)
		}
	}
	s := strconv.Itoa(size)
	return `<svg xmlns="http://www.w3.org/2000/svg" id="qr" class="qr" role="img" aria-labelledby="qr-title" viewBox="0 0 ` + s + ` ` + s +
		`" width="200" height="200" shape-rendering="crispEdges"><title id="qr-title" data-i18n="handoff.qr">` + html.EscapeString(title) +
		`</title><rect width="` + s + `" height="` + s + `" fill="#ffffff"/><path fill="#000000" d="` + d.String() + `"/></svg>`, nil
}

func dark(c color.Color) bool {
	r, g, b, _ := c.RGBA()
	return r+g+b < 3*0x8000
}
