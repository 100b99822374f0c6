package pdf

import (
	"bytes"
	"image"
	"image/color"
	_ "image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/go-pdf/fpdf"
	"github.com/makiuchi-d/gozxing"
	gzqr "github.com/makiuchi-d/gozxing/qrcode"
	"golang.org/x/text/unicode/norm"

	"github.com/veriland/veriland/internal/catalogue"
	"github.com/veriland/veriland/internal/testenv"
)

// tool returns the path of a poppler-utils program; without it the test skips (fails
// under CI=true).
func tool(t *testing.T, name string) string {
	t.Helper()
	bin, err := exec.LookPath(name)
	if err != nil {
		testenv.Require(t, name+" (poppler-utils)", "apt-get install -y poppler-utils")
	}
	return bin
}

// pdfText is the text pdftotext extracts from doc, normalised for comparison: bidi
// controls (pdftotext marks right-to-left lines with them) dropped, Arabic
// presentation forms and ligatures folded to their letters (NFKC), no-break spaces as
// spaces, runs of white space as one space.
func pdfText(t *testing.T, doc []byte) string {
	t.Helper()
	bin := tool(t, "pdftotext")
	path := filepath.Join(t.TempDir(), "c.pdf")
	if err := os.WriteFile(path, doc, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, path, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	return normText(string(out))
}

func normText(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Bidi_Control, r) {
			return -1
		}
		return r
	}, s)
	return strings.Join(strings.Fields(norm.NFKC.String(s)), " ")
}

// TestEveryLanguageRenders: each language's page carries that language's words (the
// title, labels, status, the land title's status, the drawing's title), its date,
// and the codes a reader compares (hash, parcel id).
func TestEveryLanguageRenders(t *testing.T) {
	c := catalogue.Page("certificate")
	for _, lang := range catalogue.Languages {
		t.Run(lang, func(t *testing.T) {
			in := fullInput(t, lang)
			doc, err := Render(in)
			if err != nil {
				t.Fatal(err)
			}
			text := pdfText(t, doc)
			words := []string{
				c.Text(lang, "title"), c.Text(lang, "registry"), c.Text(lang, "label.owner"), c.Text(lang, "label.hash"),
				c.Text(lang, "status.CURRENT"), c.Text(lang, "token.MINTED"), c.Text(lang, "check.title"),
				c.Text(lang, "label.holder"), catalogue.Page(catalogue.Common).Text(lang, "plan.title"),
				catalogue.Page(catalogue.Common).Text(lang, "month.11"), in.Hash, in.ParcelID, in.OwnerWallet,
			}
			for _, w := range words {
				if !strings.Contains(text, normText(w)) {
					t.Errorf("the %s page lacks %q:\n%s", lang, w, text)
				}
			}
			// No other language's title.
			for _, other := range catalogue.Languages {
				if other != lang && c.Text(other, "title") != c.Text(lang, "title") && strings.Contains(text, normText(c.Text(other, "title"))) {
					t.Errorf("the %s page shows the %s title", lang, other)
				}
			}
		})
	}
}

// TestDeterministicInEveryLanguage: the same Input gives the same bytes in each
// language, with and without a boundary (the embedded font subsets included).
func TestDeterministicInEveryLanguage(t *testing.T) {
	for _, lang := range catalogue.Languages {
		for _, circle := range []bool{false, true} {
			in := fullInput(t, lang)
			if circle {
				in.Boundary = nil
			}
			a, err := Render(in)
			if err != nil {
				t.Fatal(err)
			}
			b, err := Render(in)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a, b) {
				t.Errorf("%s (circle %v): two renderings differ", lang, circle)
			}
		}
	}
}

// TestArabicShaping: the glyphs the page writes are the contextual forms of each
// letter, in visual (left-to-right) order: initial, medial and final forms joined,
// isolated forms after a letter that does not join to the left, lam-alef as its
// ligature.
func TestArabicShaping(t *testing.T) {
	ts, err := newTypesetter(fpdf.New("P", "mm", "A4", ""), "ar", true)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ logical, visual string }{
		// شهادة قطعة أرض: shin initial, heh medial, alef final, dal and teh marbuta
		// isolated (alef and dal do not join to the left); qaf initial, tah and ain
		// medial, teh marbuta final; alef with hamza, reh and dad isolated.
		{"شهادة قطعة أرض", "\u0636\u0631\u0623 \uFE94\uFECC\uFEC4\uFED7 \u0629\u062F\uFE8E\uFEEC\uFEB7"},
		// السلام: alef isolated, lam initial, seen medial, lam-alef final ligature, meem
		// isolated.
		{"السلام", "\u0645\uFEFC\uFEB4\uFEDF\u0627"},
	}
	for _, tt := range tests {
		if got := visual(ts.lines(tt.logical, regular, 10, 0)[0]); got != tt.visual {
			t.Errorf("%s: visual %q (%U), want %q", tt.logical, got, []rune(got), tt.visual)
		}
	}
}

// visual is a line's text from left to right.
func visual(l textLine) string {
	var b strings.Builder
	for _, r := range l.runs {
		b.WriteString(r.text)
	}
	return b.String()
}

// logical reads a right-to-left visual string back: its characters from right to
// left, each folded from its presentation form (a lam-alef ligature to lam, alef).
func logical(s string) string {
	r := []rune(s)
	slices.Reverse(r)
	var b strings.Builder
	for _, c := range r {
		b.WriteString(norm.NFKC.String(string(c)))
	}
	return b.String()
}

// TestArabicCatalogueReadsBack: every Arabic string of the certificate that has no
// left-to-right text, shaped, reads back as itself from right to left: no letter lost,
// none out of order, every one joined (no base Arabic letter left where a joining form
// exists, checked by the forms test above).
func TestArabicCatalogueReadsBack(t *testing.T) {
	ts, err := newTypesetter(fpdf.New("P", "mm", "A4", ""), "ar", true)
	if err != nil {
		t.Fatal(err)
	}
	ltr := regexp.MustCompile(`[A-Za-z0-9{}()\[\]«»]`)
	n := 0
	for key, s := range catalogue.Page("certificate")["ar"] {
		if ltr.MatchString(s) {
			continue
		}
		n++
		got := logical(visual(ts.lines(s, regular, 10, 0)[0]))
		if got != s {
			t.Errorf("%s: reads back as %q, want %q", key, got, s)
		}
	}
	if n < 20 {
		t.Fatalf("only %d Arabic strings checked", n)
	}
}

// TestArabicMixedOrder: a line mixing Arabic and left-to-right runs (an id, a number)
// keeps each left-to-right run readable left to right, and puts the runs in the
// order of right-to-left reading: the first words of the sentence at the right.
func TestArabicMixedOrder(t *testing.T) {
	ts, err := newTypesetter(fpdf.New("P", "mm", "A4", ""), "ar", true)
	if err != nil {
		t.Fatal(err)
	}
	s := catalogue.Page("certificate").Format("ar", "subtitle", map[string]string{"parcel": "prc_01JD4Z", "version": "27"})
	l := ts.lines(s, regular, 10, 0)[0]
	v := visual(l)
	id, ver := strings.Index(v, "prc_01JD4Z"), strings.Index(v, "27")
	if id < 0 || ver < 0 {
		t.Fatalf("visual %q lacks the id or the version read left to right", v)
	}
	// القطعة (first word) at the right end, then the id, then النسخة, the version, من الشهادة.
	first := []rune(v)[len([]rune(v))-1]
	if norm.NFKC.String(string(first)) != "ا" {
		t.Errorf("the line does not end (at the right) with the first word's alef: %q", v)
	}
	if !(ver < id) {
		t.Errorf("the version (read later) is not left of the id: %q", v)
	}
	if got := logical(v); !strings.HasPrefix(got, "القطعة ") || !strings.HasSuffix(got, " من الشهادة") {
		t.Errorf("reads back as %q", got)
	}
	// Runs sit side by side, left to right, without overlap.
	for i := 1; i < len(l.runs); i++ {
		if l.runs[i].x < l.runs[i-1].x+l.runs[i-1].w-1e-9 {
			t.Errorf("run %d overlaps run %d", i, i-1)
		}
	}
	// Degrees keep their sign on the right of the number after an Arabic word.
	var p page
	p.c, p.lang = catalogue.Page("certificate"), "ar"
	gps := visual(ts.lines(p.gpsText(-7.797068, 110.370529), regular, 10, 0)[0])
	for _, want := range []string{"7.797068°", "110.370529°"} {
		if !strings.Contains(gps, want) {
			t.Errorf("GPS %q lacks %q", gps, want)
		}
	}
}

// TestArabicPageLayout: the Arabic page is mirrored: labels end at the right margin,
// values (the hash) end at the right edge of the value column, to their left.
func TestArabicPageLayout(t *testing.T) {
	bin := tool(t, "pdftotext")
	doc, err := Render(fullInput(t, "ar"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "ar.pdf")
	if err := os.WriteFile(path, doc, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-bbox", path, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	// <word xMin="…" yMin="…" xMax="…" yMax="…">text</word>, in points.
	re := regexp.MustCompile(`<word xMin="([0-9.]+)" yMin="([0-9.]+)" xMax="([0-9.]+)" yMax="([0-9.]+)">([^<]*)</word>`)
	type box struct{ x0, x1 float64 }
	words := map[string]box{}
	for _, m := range re.FindAllStringSubmatch(string(out), -1) {
		var b box
		b.x0, b.x1 = atof(m[1]), atof(m[3])
		// -bbox gives each word's glyphs in visual order: an Arabic word reversed. The
		// first occurrence (from the top) counts.
		for _, w := range []string{normText(m[5]), logical(m[5])} {
			if _, seen := words[w]; !seen {
				words[w] = b
			}
		}
	}
	c := catalogue.Page("certificate")
	label, ok := words[normText(c.Text("ar", "label.owner"))]
	if !ok {
		t.Fatalf("no word %q on the page: %v", c.Text("ar", "label.owner"), words)
	}
	hash, ok := words[sampleHash]
	if !ok {
		t.Fatal("no certificate hash on the page")
	}
	const pt = 72 / 25.4
	if right := (pageW - margin) * pt; math.Abs(label.x1-right) > 1.5 {
		t.Errorf("the label ends at %.1f pt, not at the right margin %.1f pt", label.x1, right)
	}
	if valueRight := (pageW - margin - labelW) * pt; math.Abs(hash.x1-valueRight) > 1.5 {
		t.Errorf("the hash ends at %.1f pt, not at the value column's right edge %.1f pt", hash.x1, valueRight)
	}
}

func atof(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

// rasterise renders page 1 of doc at dpi with pdftoppm.
func rasterise(t *testing.T, doc []byte, dpi int) image.Image {
	t.Helper()
	bin := tool(t, "pdftoppm")
	dir := t.TempDir()
	file := filepath.Join(dir, "c.pdf")
	if err := os.WriteFile(file, doc, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "-png", "-r", strconv.Itoa(dpi), "-singlefile", file, filepath.Join(dir, "page")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v\n%s", err, out)
	}
	f, err := os.Open(filepath.Join(dir, "page.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// near reports whether a pixel within r pixels of (x, y) has colour want (within tol
// per channel).
func near(img image.Image, x, y, r int, want [3]int, tol int) bool {
	for dy := -r; dy <= r; dy++ {
		for dx := -r; dx <= r; dx++ {
			c := color.NRGBAModel.Convert(img.At(x+dx, y+dy)).(color.NRGBA)
			if abs(int(c.R)-want[0]) <= tol && abs(int(c.G)-want[1]) <= tol && abs(int(c.B)-want[2]) <= tol {
				return true
			}
		}
	}
	return false
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// TestPlanIsDrawn rasterises the page and finds the parcel where parcel/plan put it:
// the outline's colour at the middle of every edge of the boundary, the fill inside,
// and for a parcel without a boundary the fill inside the area circle; in Arabic the
// box sits at the right, the drawing itself unmirrored.
func TestPlanIsDrawn(t *testing.T) {
	const dpi = 100
	px := func(mm float64) int { return int(math.Round(mm / 25.4 * dpi)) }
	for _, lang := range []string{"en", "ar"} {
		t.Run(lang, func(t *testing.T) {
			in := fullInput(t, lang)
			doc, lay, err := render(in)
			if err != nil {
				t.Fatal(err)
			}
			if lay.plan == nil || len(lay.plan.Outline) != len(sampleBoundary)-1 {
				t.Fatalf("no outline drawn: %+v", lay.plan)
			}
			if lang == "ar" && lay.planX < pageW/2 || lang == "en" && lay.planX > pageW/2 {
				t.Errorf("the drawing's box is at x %.1f mm in %s", lay.planX, lang)
			}
			img := rasterise(t, doc, dpi)
			o := lay.plan.Outline
			var cx, cy float64
			for i, a := range o {
				b := o[(i+1)%len(o)]
				x, y := lay.planX+(a.X+b.X)/2, lay.planY+(a.Y+b.Y)/2
				if !near(img, px(x), px(y), 1, outlineRGB, 40) {
					t.Errorf("edge %d: no outline at (%.1f, %.1f) mm", i, x, y)
				}
				cx, cy = cx+a.X/float64(len(o)), cy+a.Y/float64(len(o))
			}
			// Inside, between the centre and the first vertex (clear of the GPS marker).
			ix, iy := lay.planX+(cx+o[0].X)/2, lay.planY+(cy+o[0].Y)/2
			if !near(img, px(ix), px(iy), 0, fillRGB, 12) {
				t.Errorf("no fill inside the boundary at (%.1f, %.1f) mm", ix, iy)
			}

			in.Boundary = nil
			doc, lay, err = render(in)
			if err != nil {
				t.Fatal(err)
			}
			if lay.plan == nil || lay.plan.Area == nil {
				t.Fatal("no area circle drawn")
			}
			img = rasterise(t, doc, dpi)
			a := lay.plan.Area
			x, y := lay.planX+a.Center.X+a.R/2, lay.planY+a.Center.Y
			if !near(img, px(x), px(y), 0, fillRGB, 12) {
				t.Errorf("no fill inside the area circle at (%.1f, %.1f) mm", x, y)
			}
		})
	}
}

// TestQRCodeDecodesInEveryDirection: the QR code of the Arabic (mirrored) and French
// pages decodes to the verification URL.
func TestQRCodeDecodesInEveryDirection(t *testing.T) {
	for _, lang := range []string{"ar", "fr"} {
		t.Run(lang, func(t *testing.T) {
			in := fullInput(t, lang)
			doc, err := Render(in)
			if err != nil {
				t.Fatal(err)
			}
			bmp, err := gozxing.NewBinaryBitmapFromImage(rasterise(t, doc, 150))
			if err != nil {
				t.Fatal(err)
			}
			res, err := gzqr.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]interface{}{gozxing.DecodeHintType_TRY_HARDER: true})
			if err != nil {
				t.Fatalf("no QR code found: %v", err)
			}
			if res.GetText() != in.VerifyURL {
				t.Fatalf("QR code = %q, want %q", res.GetText(), in.VerifyURL)
			}
			if got, err := ExtractCertificate(doc); err != nil || !bytes.Equal(got, in.CertificateJSON) {
				t.Fatalf("the embedded certificate does not come back: %v", err)
			}
		})
	}
}

// contrast is the WCAG 2 contrast ratio of two sRGB colours.
func contrast(a, b [3]int) float64 {
	lum := func(c [3]int) float64 {
		var l [3]float64
		for i, v := range c {
			s := float64(v) / 255
			if s <= 0.04045 {
				l[i] = s / 12.92
			} else {
				l[i] = math.Pow((s+0.055)/1.055, 2.4)
			}
		}
		return 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
	}
	la, lb := lum(a), lum(b)
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

// TestTextContrast: every colour text is printed in has a contrast of at least 4.5:1
// with white, and the drawing's ink (the scale and north letters) with the parcel's
// fill, which it may overlap.
func TestTextContrast(t *testing.T) {
	white := [3]int{255, 255, 255}
	for name, c := range map[string][3]int{
		"ink": inkRGB, "muted": mutedRGB, "plan ink": planInkRGB, "frame": frameRGB,
		"CURRENT": statusColour("CURRENT"), "SUPERSEDED": statusColour("SUPERSEDED"),
		"REVOKED": statusColour("REVOKED"), "other status": statusColour("UNKNOWN"),
	} {
		if r := contrast(c, white); r < 4.5 {
			t.Errorf("%s %v on white: %.2f:1", name, c, r)
		}
	}
	if r := contrast(planInkRGB, fillRGB); r < 4.5 {
		t.Errorf("plan ink on the fill: %.2f:1", r)
	}
}

// TestBidiControlsInNamesAreIgnored: an override in a requested name cannot reverse it
// on paper.
func TestBidiControlsInNamesAreIgnored(t *testing.T) {
	in := sampleInput(t)
	in.OwnerName = "Amina \u202eolleB\u202c Zainab"
	text := pdfText(t, mustRender(t, in))
	if !strings.Contains(text, "Amina olleB Zainab") {
		t.Errorf("the name is not printed as its letters' order: %s", text)
	}
}

func mustRender(t *testing.T, in Input) []byte {
	t.Helper()
	doc, err := Render(in)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}
