package pdf

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/boombuler/barcode"
	"github.com/boombuler/barcode/qr"
	"github.com/go-pdf/fpdf"
)

// AttachmentName is the file name of the certificate JSON embedded in every PDF.
const AttachmentName = "certificate.json"

// Input is what one certificate page shows. CertificateJSON is embedded byte for byte;
// the other fields are printed and must describe the same certificate version.
type Input struct {
	// CertificateJSON is the document embedded as certificate.json: the signed
	// certificate (json.Marshal of a *parcel.SignedCertificate: certificate, hash,
	// typedData, signature, issuer), which is what examples/verify-certificate needs to
	// verify the PDF offline. It must be a JSON object.
	CertificateJSON []byte
	// Hash is the certificate hash, 0x + 64 hex.
	Hash string
	// VerifyURL is the public verification page's URL, encoded in the QR code.
	VerifyURL string
	// ParcelID and Version name the certificate version.
	ParcelID string
	Version  uint64
	// OwnerName is the owner's full name; IDDocLast4 the last four characters of the
	// owner's identity document (never the whole number).
	OwnerName, IDDocLast4 string
	// OwnerWallet is the owner's wallet that the notary bound ("" for none), and
	// OwnerBinding how: NOTARY_VERIFIED or IDENTITY_VERIFIED.
	OwnerWallet, OwnerBinding string
	City, Notary, TokenID     string
	// Lat and Lon are WGS84 degrees; AreaM2 square metres.
	Lat, Lon, AreaM2 float64
	// CertifiedAt is the certification time; it is also the PDF's creation date.
	CertifiedAt time.Time
	// Status is the certificate's status when the PDF is made (CURRENT, SUPERSEDED or
	// REVOKED); the QR code leads to the live status.
	Status string
}

// Errors returned by Render for an Input it cannot print truthfully.
var (
	ErrNoCertificate = errors.New("pdf: certificate JSON is missing or not a JSON object")
	ErrNoVerifyURL   = errors.New("pdf: verification URL is missing")
	ErrNoCertifiedAt = errors.New("pdf: certification time is missing")
)

// Page geometry in millimetres (A4 portrait).
const (
	pageW       = 210.0
	margin      = 20.0
	contentW    = pageW - 2*margin
	labelW      = 42.0
	valueW      = contentW - labelW
	rowH        = 6.5
	qrSize      = 42.0
	qrQuietZone = 4 // modules of white around the symbol, as ISO/IEC 18004 asks
)

// palette: text and status colours with contrast ≥ 4.5:1 on white (STYLE §6); status
// is always spelt out too, never colour alone.
var (
	inkRGB   = [3]int{11, 12, 12}
	mutedRGB = [3]int{80, 90, 92}
	ruleRGB  = [3]int{177, 180, 182}
)

func statusColour(status string) [3]int {
	switch status {
	case "CURRENT":
		return [3]int{0, 112, 60} // green
	case "SUPERSEDED":
		return [3]int{148, 77, 0} // dark amber
	case "REVOKED":
		return [3]int{170, 33, 24} // red
	default:
		return mutedRGB
	}
}

func statusSentence(status string) string {
	switch status {
	case "CURRENT":
		return "This certificate was CURRENT when this document was produced."
	case "SUPERSEDED":
		return "This certificate is SUPERSEDED: a later version replaces it."
	case "REVOKED":
		return "This certificate is REVOKED: it no longer proves ownership."
	default:
		return "Status: " + status
	}
}

// Render returns the certificate as a one-page A4 PDF. The same Input always gives the
// same bytes.
func Render(in Input) ([]byte, error) {
	if len(bytes.TrimSpace(in.CertificateJSON)) == 0 || !json.Valid(in.CertificateJSON) ||
		bytes.TrimSpace(in.CertificateJSON)[0] != '{' {
		return nil, ErrNoCertificate
	}
	if in.VerifyURL == "" {
		return nil, ErrNoVerifyURL
	}
	if in.CertifiedAt.IsZero() {
		return nil, ErrNoCertifiedAt
	}
	code, err := qr.Encode(in.VerifyURL, qr.M, qr.Auto)
	if err != nil {
		return nil, fmt.Errorf("pdf: QR code of the verification URL: %w", err)
	}

	at := in.CertifiedAt.UTC()
	f := fpdf.NewCustom(&fpdf.InitType{OrientationStr: "P", UnitStr: "mm", SizeStr: "A4"})
	f.SetCatalogSort(true)
	f.SetCreationDate(at)
	f.SetModificationDate(at)
	f.SetProducer("veriland parcel/pdf", true)
	f.SetCreator("veriland land registry", true)
	f.SetTitle("Land parcel certificate "+in.ParcelID+" version "+strconv.FormatUint(in.Version, 10), true)
	f.SetSubject("Certificate hash "+in.Hash, true)
	f.SetLang("en")
	f.SetMargins(margin, margin, margin)
	f.SetAutoPageBreak(false, margin)
	f.SetAttachments([]fpdf.Attachment{{
		Content:     in.CertificateJSON,
		Filename:    AttachmentName,
		Description: "Signed certificate (JSON) for offline verification",
	}})
	tr := cp1252(f)
	f.AddPage()

	setRGB := func(set func(r, g, b int), c [3]int) { set(c[0], c[1], c[2]) }
	rule := func(y float64) {
		setRGB(f.SetDrawColor, ruleRGB)
		f.SetLineWidth(0.3)
		f.Line(margin, y, pageW-margin, y)
	}

	// Heading: what the page is for.
	setRGB(f.SetTextColor, mutedRGB)
	f.SetFont("Helvetica", "", 10)
	f.CellFormat(contentW, 5, tr("Land registry"), "", 1, "L", false, 0, "")
	setRGB(f.SetTextColor, inkRGB)
	f.SetFont("Helvetica", "B", 22)
	f.CellFormat(contentW, 11, tr("Land parcel certificate"), "", 1, "L", false, 0, "")
	f.SetFont("Helvetica", "", 11)
	setRGB(f.SetTextColor, mutedRGB)
	f.CellFormat(contentW, 6, tr("Parcel "+in.ParcelID+", certificate version "+strconv.FormatUint(in.Version, 10)), "", 1, "L", false, 0, "")
	f.Ln(3)

	// The important fact first: the status, in words and colour.
	sc := statusColour(in.Status)
	y := f.GetY()
	f.SetXY(margin+6, y+0.5)
	setRGB(f.SetTextColor, sc)
	f.SetFont("Helvetica", "B", 15)
	f.CellFormat(contentW-6, 7, tr("Status: "+in.Status), "", 2, "L", false, 0, "")
	setRGB(f.SetTextColor, inkRGB)
	f.SetFont("Helvetica", "", 10)
	f.MultiCell(contentW-6, 5, tr(statusSentence(in.Status)+" Scan the QR code for the status today."), "", "L", false)
	end := f.GetY() + 0.5
	setRGB(f.SetFillColor, sc)
	f.Rect(margin, y, 2.5, end-y, "F")
	f.SetY(end + 4)
	rule(f.GetY())
	f.Ln(4)

	// The facts, one per row.
	row := func(label, value string, mono bool) {
		y := f.GetY()
		setRGB(f.SetTextColor, mutedRGB)
		f.SetFont("Helvetica", "", 10)
		f.SetXY(margin, y)
		f.CellFormat(labelW, rowH, tr(label), "", 0, "L", false, 0, "")
		setRGB(f.SetTextColor, inkRGB)
		if mono {
			f.SetFont("Courier", "", 9)
			f.SetXY(margin+labelW, y+0.9)
			for _, line := range chunk(value, monoChars(valueW, 9)) {
				f.CellFormat(valueW, 4.6, tr(line), "", 2, "L", false, 0, "")
			}
			f.SetY(math.Max(f.GetY()+1.2, y+rowH))
		} else {
			f.SetFont("Helvetica", "B", 11)
			f.SetXY(margin+labelW, y)
			f.MultiCell(valueW, rowH, tr(value), "", "L", false)
		}
		f.Ln(1)
	}
	row("Owner", in.OwnerName, false)
	if !printable(in.OwnerName) {
		// Say so rather than let "?" pass for the name.
		setRGB(f.SetTextColor, mutedRGB)
		f.SetFont("Helvetica", "", 8.5)
		f.SetX(margin + labelW)
		f.MultiCell(valueW, 4, tr("Some characters of the name cannot be shown in this PDF's fonts (shown as ?); "+
			"the exact name is in the attached "+AttachmentName+"."), "", "L", false)
		f.Ln(1.5)
	}
	row("Identity document", "ending in "+in.IDDocLast4, false)
	if in.OwnerWallet != "" {
		how := "verified by the notary"
		if in.OwnerBinding == "IDENTITY_VERIFIED" {
			how = "verified by the notary; the wallet of a verified identity"
		}
		row("Owner's wallet", in.OwnerWallet, true)
		setRGB(f.SetTextColor, mutedRGB)
		f.SetFont("Helvetica", "", 8.5)
		f.SetX(margin + labelW)
		f.MultiCell(valueW, 4, tr(how+": a transfer of this parcel needs this wallet's signature."), "", "L", false)
		f.Ln(1.5)
	}
	row("Parcel", in.ParcelID, false)
	row("Certificate version", strconv.FormatUint(in.Version, 10), false)
	row("City", in.City, false)
	row("Area", formatArea(in.AreaM2), false)
	row("GPS (WGS84)", formatGPS(in.Lat, in.Lon), false)
	row("Notary", in.Notary, false)
	row("Certified", at.Format("2 January 2006, 15:04:05 UTC"), false)
	row("Token (ERC-5192)", in.TokenID, true)
	row("Certificate hash", in.Hash, true)
	f.Ln(2)
	rule(f.GetY())
	f.Ln(5)

	// Verification block: QR code on the left, how to check on the right.
	top := f.GetY()
	drawQR(f, code, margin, top, qrSize)
	tx := margin + qrSize + 8
	tw := contentW - qrSize - 8
	f.SetXY(tx, top)
	setRGB(f.SetTextColor, inkRGB)
	f.SetFont("Helvetica", "B", 13)
	f.CellFormat(tw, 7, tr("Check this certificate"), "", 2, "L", false, 0, "")
	f.SetFont("Helvetica", "", 10)
	f.MultiCell(tw, 5, tr("Scan the QR code, or type the address below, to see this certificate's status "+
		"in the public registry today. The page shows the parcel, never the owner's name or identity document."), "", "L", false)
	f.SetX(tx)
	f.Ln(2)
	f.SetX(tx)
	f.MultiCell(tw, 5, tr("This PDF carries the signed certificate as the attachment "+AttachmentName+
		". Its keccak256 hash over the canonical JSON (RFC 8785) is the certificate hash above; "+
		"the issuer's EIP-712 signature can be checked offline."), "", "L", false)

	// The URL under the QR code, in full, for readers who cannot scan.
	f.SetY(math.Max(f.GetY(), top+qrSize) + 3)
	setRGB(f.SetTextColor, mutedRGB)
	f.SetFont("Helvetica", "", 9)
	f.CellFormat(contentW, 4.5, tr("Verification address:"), "", 1, "L", false, 0, "")
	setRGB(f.SetTextColor, inkRGB)
	f.SetFont("Courier", "", 9)
	for _, line := range chunk(in.VerifyURL, monoChars(contentW, 9)) {
		f.CellFormat(contentW, 4.2, tr(line), "", 1, "L", false, 0, "")
	}
	urlTop := top + qrSize + 7.5
	f.LinkString(margin, top, qrSize, qrSize, in.VerifyURL)
	f.LinkString(margin, urlTop, contentW, f.GetY()-urlTop, in.VerifyURL)

	// Footer.
	setRGB(f.SetTextColor, mutedRGB)
	f.SetFont("Helvetica", "", 8)
	f.SetXY(margin, 297-margin-8)
	f.MultiCell(contentW, 4, tr("Produced from the registry's records for certificate version "+
		strconv.FormatUint(in.Version, 10)+" of parcel "+in.ParcelID+". Printed statuses do not update; "+
		"the registry's answer for the hash is authoritative."), "", "L", false)

	var out bytes.Buffer
	if err := f.Output(&out); err != nil {
		return nil, fmt.Errorf("pdf: %w", err)
	}
	return out.Bytes(), nil
}

// drawQR draws the QR code as filled squares (runs of dark modules merged per row) inside
// a white square of side size at (x, y), quiet zone included.
func drawQR(f *fpdf.Fpdf, code barcode.Barcode, x, y, size float64) {
	b := code.Bounds()
	n := b.Dx()
	module := size / float64(n+2*qrQuietZone)
	f.SetFillColor(255, 255, 255)
	f.Rect(x, y, size, size, "F")
	f.SetFillColor(0, 0, 0)
	ox, oy := x+qrQuietZone*module, y+qrQuietZone*module
	for row := 0; row < b.Dy(); row++ {
		for col := 0; col < n; {
			if !isDark(code.At(b.Min.X+col, b.Min.Y+row)) {
				col++
				continue
			}
			start := col
			for col < n && isDark(code.At(b.Min.X+col, b.Min.Y+row)) {
				col++
			}
			f.Rect(ox+float64(start)*module, oy+float64(row)*module, float64(col-start)*module, module, "F")
		}
	}
}

func isDark(c color.Color) bool {
	r, g, b, _ := c.RGBA()
	return r+g+b < 3*0x8000
}

// cp1252 returns a translator from UTF-8 to the code page of the core fonts, with "?"
// for what the code page cannot show.
func cp1252(f *fpdf.Fpdf) func(string) string {
	tr := f.UnicodeTranslatorFromDescriptor("cp1252")
	return func(s string) string {
		var b strings.Builder
		for _, r := range s {
			switch {
			case r < 0x20 || r == 0x7f:
				b.WriteByte(' ')
			case r < 0x80:
				b.WriteRune(r)
			default:
				t := tr(string(r))
				if len(t) != 1 || t == "." {
					t = "?"
				}
				b.WriteString(t)
			}
		}
		return b.String()
	}
}

// printable reports whether the core fonts can show every character of s.
func printable(s string) bool {
	for _, r := range s {
		if r >= 0x80 && !strings.ContainsRune(cp1252Extras, r) && !(r >= 0xa0 && r <= 0xff) {
			return false
		}
	}
	return true
}

// cp1252Extras are the characters Windows-1252 has in 0x80–0x9f (above that it is Latin-1).
const cp1252Extras = "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ"

// chunk splits s into as few lines of at most n bytes as it can, of even length
// (monospace text with no spaces: hashes, token ids, URLs).
func chunk(s string, n int) []string {
	if n < 1 {
		n = 1
	}
	if s == "" {
		return []string{""}
	}
	count := (len(s) + n - 1) / n
	n = (len(s) + count - 1) / count
	var lines []string
	for len(s) > n {
		lines = append(lines, s[:n])
		s = s[n:]
	}
	return append(lines, s)
}

// monoChars is how many Courier characters (0.6 em wide) of size pt fit in w mm.
func monoChars(w, pt float64) int {
	return int(w / (0.6 * pt * 25.4 / 72))
}

// formatArea prints square metres with thousands separators, and hectares when large.
func formatArea(m2 float64) string {
	s := groupThousands(strconv.FormatFloat(m2, 'f', -1, 64)) + " m²"
	if m2 >= 10000 {
		s += " (" + groupThousands(strconv.FormatFloat(m2/10000, 'f', -1, 64)) + " ha)"
	}
	return s
}

func groupThousands(num string) string {
	intPart, frac, hasFrac := strings.Cut(num, ".")
	var b strings.Builder
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if hasFrac {
		b.WriteString("." + frac)
	}
	return b.String()
}

// formatGPS prints latitude and longitude as signed decimal degrees (the order of the
// request's gps member) with hemispheres spelt out.
func formatGPS(lat, lon float64) string {
	ns, ew := "N", "E"
	if lat < 0 {
		ns = "S"
	}
	if lon < 0 {
		ew = "W"
	}
	return fmt.Sprintf("%s, %s  (%s° %s, %s° %s)",
		strconv.FormatFloat(lat, 'f', -1, 64), strconv.FormatFloat(lon, 'f', -1, 64),
		strconv.FormatFloat(math.Abs(lat), 'f', 6, 64), ns, strconv.FormatFloat(math.Abs(lon), 'f', 6, 64), ew)
}
