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
	"unicode"

	"github.com/boombuler/barcode"
	"github.com/boombuler/barcode/qr"
	"github.com/go-pdf/fpdf"

	"github.com/veriland/veriland/internal/catalogue"
	"github.com/veriland/veriland/parcel/plan"
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
	// Lang is the page's language, one of catalogue.Languages (another, or "", prints
	// English). Arabic lays the page out right to left.
	Lang string
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
	// Boundary is the parcel's surveyed boundary, its exterior ring as [longitude,
	// latitude] positions (GeoJSON order); nil for a parcel without one, which is
	// drawn as a circle of its area around its GPS point.
	Boundary [][2]float64
	// CertifiedAt is the certification time; it is also the PDF's creation date.
	CertifiedAt time.Time
	// Status is the certificate's status when the PDF is made (CURRENT, SUPERSEDED or
	// REVOKED); the QR code leads to the live status.
	Status string
	// Title is the version's land title token (nil: none is printed but TokenID).
	Title *LandTitle
}

// LandTitle is the land title token of a certificate version, as the registry knows
// it when the PDF is made (parcel.Token): public chain facts, no personal data.
type LandTitle struct {
	// Status is PENDING, MINTED, BURNED, FAILED or DISABLED (no chain).
	Status string
	// Standard is the token standard, ERC-5192 (soulbound) when "".
	Standard string
	// Contract and ChainID name the LandTitle contract; "" and 0 without a chain.
	Contract string
	ChainID  uint64
	// Holder is the address that holds the token and HolderKind whose it is:
	// OWNER_WALLET (the owner's bound wallet) or REGISTRY_CUSTODY (the registry's
	// custody account, for an owner without a wallet).
	Holder, HolderKind string
}

// Errors returned by Render for an Input it cannot print truthfully.
var (
	ErrNoCertificate = errors.New("pdf: certificate JSON is missing or not a JSON object")
	ErrNoVerifyURL   = errors.New("pdf: verification URL is missing")
	ErrNoCertifiedAt = errors.New("pdf: certification time is missing")
)

// Page geometry in millimetres (A4 portrait). Offsets are from the start margin: the
// left one in left-to-right languages, the right one in Arabic.
const (
	pageW     = 210.0
	pageH     = 297.0
	margin    = 18.0
	contentW  = pageW - 2*margin
	labelW    = 48.0
	valueW    = contentW - labelW
	rowH      = 5.0
	monoH     = 4.3
	noteH     = 3.7
	rowGap    = 0.9
	planW     = 84.0
	planH     = 68.0
	bandGap   = 7.0
	qrSize    = 36.0
	footerPad = 12.0 // from the bottom edge to the footer's last line

	qrQuietZone = 4 // modules of white around the symbol, as ISO/IEC 18004 asks

	labelPt = 9.0
	valuePt = 10.5
	monoPt  = 8.5
	notePt  = 8.0
)

// palette: text and status colours with contrast ≥ 4.5:1 on white (STYLE §6); status
// is always spelt out too, never colour alone. The drawing's outline is #1b5e20 (7.9:1)
// on a light fill under no text, its frame #767676 (4.5:1), as parcel/plan's SVG.
var (
	inkRGB     = [3]int{11, 12, 12}
	mutedRGB   = [3]int{80, 90, 92}
	ruleRGB    = [3]int{177, 180, 182}
	outlineRGB = [3]int{27, 94, 32}
	fillRGB    = [3]int{220, 237, 200}
	frameRGB   = [3]int{118, 118, 118}
	planInkRGB = [3]int{26, 26, 26}
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

// page is one Render call's drawing state.
type page struct {
	f    *fpdf.Fpdf
	t    *typesetter
	c    catalogue.Table
	lang string
	rtl  bool
}

func (p *page) text(key string) string { return p.c.Text(p.lang, key) }

func (p *page) format(key string, args map[string]string) string {
	return p.c.Format(p.lang, key, args)
}

// x returns the page x of a box w wide whose start edge is off mm from the start
// margin: mirrored in a right-to-left language.
func (p *page) x(off, w float64) float64 {
	if p.rtl {
		return pageW - margin - off - w
	}
	return margin + off
}

func (p *page) ink(c [3]int)  { p.f.SetTextColor(c[0], c[1], c[2]) }
func (p *page) draw(c [3]int) { p.f.SetDrawColor(c[0], c[1], c[2]) }
func (p *page) fill(c [3]int) { p.f.SetFillColor(c[0], c[1], c[2]) }

// para sets s in lines at most w mm wide, lh mm apart, aligned to the start edge of
// the box at offset off, from the top y; it returns the y under the last line.
func (p *page) para(off, y, w, lh float64, s string, st style, size float64, col [3]int) float64 {
	p.ink(col)
	for _, l := range p.t.lines(s, st, size, w) {
		p.t.drawLine(l, st, size, p.x(off, l.w), baseline(y, lh, size))
		y += lh
	}
	return y
}

// monoLines sets a code (hash, address, id, URL) in monospace lines of at most w mm,
// split evenly, from the top y; it returns the y under the last line.
func (p *page) monoLines(off, y, w, lh float64, s string, size float64, col [3]int) float64 {
	for _, line := range chunk(s, monoChars(w, size)) {
		y = p.para(off, y, 0, lh, line, mono, size, col)
	}
	return y
}

// centred draws s on one line centred on page x cx, its baseline at y.
func (p *page) centred(cx, y float64, s string, st style, size float64, col [3]int) {
	p.ink(col)
	l := p.t.lines(s, st, size, 0)[0]
	p.t.drawLine(l, st, size, cx-l.w/2, y)
}

// baseline is the baseline of a line of size pt centred in a box lh mm tall at y.
func baseline(y, lh, size float64) float64 { return y + lh/2 + 0.3*size*ptToMM }

// layout records where the content ended, for the tests: the facts, the drawing and
// the verification block must end above the footer.
type layout struct {
	contentEnd, footerTop float64
	plan                  *plan.Plan
	planX, planY          float64
}

// Render returns the certificate as a one-page A4 PDF in in.Lang. The same Input
// always gives the same bytes.
func Render(in Input) ([]byte, error) {
	doc, _, err := render(in)
	return doc, err
}

func render(in Input) ([]byte, *layout, error) {
	if len(bytes.TrimSpace(in.CertificateJSON)) == 0 || !json.Valid(in.CertificateJSON) ||
		bytes.TrimSpace(in.CertificateJSON)[0] != '{' {
		return nil, nil, ErrNoCertificate
	}
	if in.VerifyURL == "" {
		return nil, nil, ErrNoVerifyURL
	}
	if in.CertifiedAt.IsZero() {
		return nil, nil, ErrNoCertifiedAt
	}
	code, err := qr.Encode(in.VerifyURL, qr.M, qr.Auto)
	if err != nil {
		return nil, nil, fmt.Errorf("pdf: QR code of the verification URL: %w", err)
	}

	// Text from the request (names, city, notary, ids) loses any bidi control: an
	// override (U+202E) would print a name reversed, or an id in another order than
	// the one the certificate holds.
	for _, v := range []*string{&in.OwnerName, &in.IDDocLast4, &in.City, &in.Notary, &in.ParcelID, &in.TokenID} {
		*v = stripBidiControls(*v)
	}
	lang := catalogue.Lang(in.Lang)
	c := catalogue.Page("certificate")
	version := strconv.FormatUint(in.Version, 10)
	at := in.CertifiedAt.UTC()
	f := fpdf.NewCustom(&fpdf.InitType{OrientationStr: "P", UnitStr: "mm", SizeStr: "A4"})
	f.SetCatalogSort(true)
	f.SetCreationDate(at)
	f.SetModificationDate(at)
	f.SetProducer("veriland parcel/pdf", true)
	f.SetCreator("veriland land registry", true)
	f.SetTitle(c.Format(lang, "pdfTitle", map[string]string{"parcel": in.ParcelID, "version": version}), true)
	f.SetSubject(c.Format(lang, "pdfSubject", map[string]string{"hash": in.Hash}), true)
	f.SetLang(lang)
	f.SetMargins(margin, margin, margin)
	f.SetAutoPageBreak(false, margin)
	f.SetAttachments([]fpdf.Attachment{{
		Content:     in.CertificateJSON,
		Filename:    AttachmentName,
		Description: c.Text(lang, "attachment"),
	}})
	rtl := catalogue.Dir(lang) == "rtl"
	ts, err := newTypesetter(f, lang, rtl)
	if err != nil {
		return nil, nil, err
	}
	p := &page{f: f, t: ts, c: c, lang: lang, rtl: rtl}
	lay := &layout{}
	f.AddPage()

	rule := func(y float64) {
		p.draw(ruleRGB)
		f.SetLineWidth(0.3)
		f.Line(margin, y, pageW-margin, y)
	}

	// Heading: what the page is for.
	y := margin - 2
	y = p.para(0, y, contentW, 5, p.text("registry"), regular, 10, mutedRGB)
	y = p.para(0, y, contentW, 9, p.text("title"), bold, 18, inkRGB)
	y = p.para(0, y, contentW, 6, p.format("subtitle", map[string]string{"parcel": in.ParcelID, "version": version}), regular, 11, mutedRGB)
	y += 2.5

	// The important fact first: the status, in words and colour.
	sc := statusColour(in.Status)
	word := in.Status
	if w := p.text("status." + in.Status); w != "" {
		word = w
	}
	top := y
	y = p.para(6, y+0.5, contentW-6, 7, p.format("status", map[string]string{"status": word}), bold, 14, sc)
	sentence := p.text("sentence." + in.Status)
	if sentence != "" {
		sentence += " "
	}
	y = p.para(6, y, contentW-6, 4.8, sentence+p.text("scanToday"), regular, 10, inkRGB)
	y += 0.5
	p.fill(sc)
	f.Rect(p.x(0, 2.5), top, 2.5, y-top, "F")
	y += 3
	rule(y)
	y += 3

	// The facts, one per row: the label at the start, the value after it.
	label := func(y float64, s string) float64 {
		return p.para(0, y, labelW-3, rowH, s, regular, labelPt, mutedRGB)
	}
	row := func(name, value string) {
		ly := label(y, name)
		vy := p.para(labelW, y, valueW, rowH, value, bold, valuePt, inkRGB)
		y = math.Max(ly, vy) + rowGap
	}
	codeRow := func(name, value string) {
		ly := label(y, name)
		vy := p.monoLines(labelW, y+(rowH-monoH)/2, valueW, monoH, value, monoPt, inkRGB)
		y = math.Max(ly, vy+(rowH-monoH)/2) + rowGap
	}
	note := func(s string) {
		y = p.para(labelW, y-0.3, valueW, noteH, s, regular, notePt, mutedRGB) + rowGap + 0.4
	}
	row(p.text("label.owner"), in.OwnerName)
	if !ts.covers(in.OwnerName, bold) {
		// Say so rather than let a blank box pass for a letter of the name.
		note(p.format("nameUnprintable", map[string]string{"file": AttachmentName}))
	}
	row(p.text("label.idDoc"), p.format("idDoc.value", map[string]string{"last4": in.IDDocLast4}))
	if in.OwnerWallet != "" {
		codeRow(p.text("label.wallet"), in.OwnerWallet)
		how := "wallet.NOTARY_VERIFIED"
		if in.OwnerBinding == "IDENTITY_VERIFIED" {
			how = "wallet.IDENTITY_VERIFIED"
		}
		note(p.text(how))
	}
	row(p.text("label.parcel"), in.ParcelID)
	row(p.text("label.city"), in.City)
	row(p.text("label.area"), areaText(lang, in.AreaM2))
	row(p.text("label.gps"), p.gpsText(in.Lat, in.Lon))
	row(p.text("label.notary"), in.Notary)
	row(p.text("label.certified"), catalogue.DateTime(lang, at))
	if t := in.Title; t != nil {
		status := p.text("token." + t.Status)
		if status == "" {
			status = t.Status
		}
		row(p.text("label.title"), status)
		standard := t.Standard
		if standard == "" {
			standard = "ERC-5192"
		}
		note(p.format("token.kind", map[string]string{"standard": standard}))
	}
	codeRow(p.text("label.tokenId"), in.TokenID)
	if t := in.Title; t != nil {
		if t.Contract != "" {
			codeRow(p.text("label.contract"), t.Contract)
			if t.ChainID != 0 {
				note(p.format("chain.value", map[string]string{"chain": strconv.FormatUint(t.ChainID, 10)}))
			}
		}
		if holder := p.text("holder." + t.HolderKind); holder != "" || t.Holder != "" {
			if holder == "" {
				holder = t.HolderKind
			}
			row(p.text("label.holder"), holder)
			if t.Holder != "" {
				y = p.monoLines(labelW, y-0.3, valueW, monoH, t.Holder, monoPt, inkRGB) + rowGap
			}
		}
	}
	codeRow(p.text("label.hash"), in.Hash)
	y += 1.5
	rule(y)
	y += 4

	// The drawing of the parcel at the start, the verification block after it.
	bandTop := y
	planEnd := p.drawPlan(in, bandTop, lay)
	colOff := planW + bandGap
	colW := contentW - colOff
	cy := p.para(colOff, bandTop, colW, 6, p.text("check.title"), bold, 12, inkRGB) + 1
	qx := p.x(colOff, qrSize)
	drawQR(f, code, qx, cy, qrSize)
	f.LinkString(qx, cy, qrSize, qrSize, in.VerifyURL)
	ty := p.para(colOff+qrSize+3, cy, colW-qrSize-3, noteH, p.text("check.scan"), regular, notePt, inkRGB)
	// The URL in full under the QR code, for readers who cannot scan.
	cy = math.Max(cy+qrSize, ty) + 1.5
	cy = p.para(colOff, cy, colW, 4.2, p.text("address"), regular, notePt, mutedRGB)
	urlTop := cy
	cy = p.monoLines(colOff, cy, colW, 3.8, in.VerifyURL, 7.5, inkRGB)
	f.LinkString(p.x(colOff, colW), urlTop, colW, cy-urlTop, in.VerifyURL)

	// How the paper verifies offline, under the band.
	y = math.Max(planEnd, cy) + 3
	y = p.para(0, y, contentW, noteH, p.format("check.offline", map[string]string{"file": AttachmentName}), regular, notePt, inkRGB)
	lay.contentEnd = y

	// Footer.
	footer := p.format("footer", map[string]string{"version": version, "parcel": in.ParcelID})
	n := len(ts.lines(footer, regular, 7.5, contentW))
	lay.footerTop = pageH - footerPad - float64(n)*3.6
	p.para(0, lay.footerTop, contentW, 3.6, footer, regular, 7.5, mutedRGB)

	var out bytes.Buffer
	if err := f.Output(&out); err != nil {
		return nil, nil, fmt.Errorf("pdf: %w", err)
	}
	return out.Bytes(), lay, nil
}

// drawPlan draws the parcel in a framed box planW × planH at the start of the band
// at y: its title, the drawing (north up, east right, in every language: a map is
// not mirrored) and what it shows. It returns the y under the box.
func (p *page) drawPlan(in Input, y float64, lay *layout) float64 {
	f := p.f
	bx := p.x(0, planW)
	p.draw(frameRGB)
	f.SetLineWidth(0.3)
	f.Rect(bx, y, planW, planH, "D")
	title := catalogue.Page(catalogue.Common).Text(p.lang, "plan.title")
	ty := p.para(2.5, y+1.5, planW-5, 5, title, bold, 9.5, inkRGB)
	pin := plan.Input{Lat: in.Lat, Lon: in.Lon, AreaM2: in.AreaM2, Boundary: in.Boundary}
	// The description (the boundary's corners and the area, not the scale) is measured
	// first; the drawing takes the rest of the box.
	probe, err := plan.Draw(pin, planW, planH)
	if err != nil {
		p.para(2.5, ty+4, planW-5, noteH, p.text("plan.unavailable"), regular, notePt, inkRGB)
		return y + planH
	}
	const descH, descPt = 3.4, 7.0
	descLines := len(p.t.lines(probe.LabelsFor(p.lang, in.AreaM2).Description, regular, descPt, planW-5))
	drawH := planH - (ty - y) - float64(descLines)*descH - 2.5
	pl, err := plan.Draw(pin, planW, drawH)
	if err != nil {
		p.para(2.5, ty+4, planW-5, noteH, p.text("plan.unavailable"), regular, notePt, inkRGB)
		return y + planH
	}
	labels := pl.LabelsFor(p.lang, in.AreaM2)
	lay.plan, lay.planX, lay.planY = pl, bx, ty
	at := func(q plan.Point) fpdf.PointType { return fpdf.PointType{X: bx + q.X, Y: ty + q.Y} }

	p.draw(outlineRGB)
	p.fill(fillRGB)
	f.SetLineWidth(0.6)
	f.SetLineJoinStyle("round")
	switch {
	case len(pl.Outline) > 0:
		pts := make([]fpdf.PointType, len(pl.Outline))
		for i, q := range pl.Outline {
			pts[i] = at(q)
		}
		f.Polygon(pts, "DF")
	case pl.Area != nil:
		f.SetDashPattern([]float64{1.6, 1.1}, 0)
		ctr := at(pl.Area.Center)
		f.Circle(ctr.X, ctr.Y, pl.Area.R, "DF")
		f.SetDashPattern([]float64{}, 0)
	}
	if pl.MarkerShown {
		m := at(pl.Marker)
		p.fill(planInkRGB)
		f.SetDrawColor(255, 255, 255)
		f.SetLineWidth(0.4)
		f.Circle(m.X, m.Y, 1.1, "FD")
	}
	// The scale bar: a bar with end ticks, its length above it.
	s := pl.Scale
	a, b := at(s.Start), at(plan.Point{X: s.Start.X + s.Length, Y: s.Start.Y})
	p.draw(planInkRGB)
	f.SetLineWidth(0.5)
	f.SetLineCapStyle("butt")
	f.Line(a.X, a.Y, b.X, b.Y)
	f.Line(a.X, a.Y-1.6, a.X, a.Y+0.3)
	f.Line(b.X, b.Y-1.6, b.X, b.Y+0.3)
	p.centred((a.X+b.X)/2, a.Y-2.4, labels.Scale, regular, 7.5, planInkRGB)
	// The north arrow: a tall triangle, the letter under it.
	n := pl.North
	tip := at(n.Tip)
	w := n.Size / 2.5
	p.fill(planInkRGB)
	f.Polygon([]fpdf.PointType{
		{X: tip.X, Y: tip.Y}, {X: tip.X + w/2, Y: tip.Y + n.Size*0.75},
		{X: tip.X, Y: tip.Y + n.Size*0.6}, {X: tip.X - w/2, Y: tip.Y + n.Size*0.75},
	}, "F")
	p.centred(tip.X, tip.Y+n.Size+1.2, labels.North, bold, 8, planInkRGB)
	p.para(2.5, ty+drawH, planW-5, descH, labels.Description, regular, descPt, mutedRGB)
	return y + planH
}

// stripBidiControls removes the Unicode bidi formatting characters (embeddings,
// overrides, isolates, marks) from s.
func stripBidiControls(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Bidi_Control, r) {
			return -1
		}
		return r
	}, s)
}

// areaText prints an area in square metres, and in hectares too from one hectare.
func areaText(lang string, m2 float64) string {
	s := plan.AreaText(lang, m2)
	if m2 < 10000 {
		return s
	}
	c := catalogue.Page("certificate")
	ha := c.Format(lang, "unit.ha", map[string]string{"n": catalogue.Number(lang, m2/10000, 2)})
	return c.Format(lang, "area.value", map[string]string{"m2": s, "ha": ha})
}

// gpsText prints the GPS point as degrees with their hemispheres, latitude first
// (the order of the request's gps member), six decimals (about 0.1 m).
func (p *page) gpsText(lat, lon float64) string {
	ns, ew := "gps.N", "gps.E"
	if lat < 0 {
		ns = "gps.S"
	}
	if lon < 0 {
		ew = "gps.W"
	}
	// Each coordinate is a left-to-right isolate (LRI … PDI, UAX #9): after an Arabic
	// word a number is an Arabic number, and the degree sign after it would otherwise
	// go to its left.
	deg := func(v float64) string { return "\u2066" + catalogue.Number(p.lang, math.Abs(v), 6) + "°\u2069" }
	return p.format("gps.value", map[string]string{"lat": deg(lat), "ns": p.text(ns), "lon": deg(lon), "ew": p.text(ew)})
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

// monoChars is how many DejaVu Sans Mono characters (1233/2048 em wide) of size pt
// fit in w mm.
func monoChars(w, pt float64) int {
	return int(w / (1233.0 / 2048 * pt * ptToMM))
}
