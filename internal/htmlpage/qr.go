package htmlpage

import (
	"fmt"
	"strings"

	"github.com/boombuler/barcode/qr"
)

// QuietZone is the light margin around a QR code, in modules (ISO/IEC 18004 asks for
// four).
const QuietZone = 4

// QRPath returns the SVG path data of the QR code of text (error correction level M),
// one unit square per dark module, offset by the quiet zone, and the side of the
// whole square in modules (the viewBox). It fails when text does not fit a QR code.
func QRPath(text string) (string, int, error) {
	code, err := qr.Encode(text, qr.M, qr.Auto)
	if err != nil {
		return "", 0, fmt.Errorf("QR code: %w", err)
	}
	b := code.Bounds()
	n := b.Dx()
	dark := func(x, y int) bool {
		r, g, bl, _ := code.At(b.Min.X+x, b.Min.Y+y).RGBA()
		return r+g+bl < 3*0x8000
	}
	var d strings.Builder
	for y := range b.Dy() {
		for x := 0; x < n; {
			if !dark(x, y) {
				x++
				continue
			}
			start := x
			for x < n && dark(x, y) {
				x++
			}
			fmt.Fprintf(&d, "M%d %dh%dv1h-%dz", start+QuietZone, y+QuietZone, x-start, x-start)
		}
	}
	return d.String(), n + 2*QuietZone, nil
}
