package pdf

import (
	"bytes"
	_ "embed"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/go-pdf/fpdf"
	"github.com/go-text/typesetting/di"
	"github.com/go-text/typesetting/font"
	ot "github.com/go-text/typesetting/font/opentype"
	"github.com/go-text/typesetting/language"
	"github.com/go-text/typesetting/shaping"
	"golang.org/x/image/math/fixed"
)

// The page's fonts: DejaVu Sans (regular and bold) for words, DejaVu Sans Mono for
// hashes, addresses and URLs. They are embedded in the binary (the server depends on
// no installed font) and subset into each PDF by fpdf. Licence: fonts/LICENSE.
var (
	//go:embed fonts/DejaVuSans.ttf
	sansTTF []byte
	//go:embed fonts/DejaVuSans-Bold.ttf
	sansBoldTTF []byte
	//go:embed fonts/DejaVuSansMono.ttf
	monoTTF []byte
)

// Font styles of the page, each one font file.
type style int

const (
	regular style = iota
	bold
	mono
)

// pdf family and style names of each style, as registered with fpdf.
var fontNames = [...]struct{ family, style string }{
	regular: {"DejaVu", ""},
	bold:    {"DejaVu", "B"},
	mono:    {"DejaVuMono", ""},
}

// parsedFont is a font file parsed for shaping, with its cmap reversed so that a
// shaped glyph can be written back as the code point that selects it.
type parsedFont struct {
	font *font.Font
	// rev maps a glyph to the lowest code point the font's cmap maps to it.
	rev map[font.GID]rune
}

var (
	parseOnce sync.Once
	parsed    [3]*parsedFont
	parseErr  error
)

func fonts() ([3]*parsedFont, error) {
	parseOnce.Do(func() {
		for i, data := range [][]byte{sansTTF, sansBoldTTF, monoTTF} {
			face, err := font.ParseTTF(bytes.NewReader(data))
			if err != nil {
				parseErr = fmt.Errorf("pdf: font %s %s: %w", fontNames[i].family, fontNames[i].style, err)
				return
			}
			p := &parsedFont{font: face.Font, rev: map[font.GID]rune{}}
			for it := face.Font.Cmap.Iter(); it.Next(); {
				r, g := it.Char()
				if old, ok := p.rev[g]; !ok || r < old {
					p.rev[g] = r
				}
			}
			parsed[i] = p
		}
	})
	return parsed, parseErr
}

// typesetter shapes text with HarfBuzz (go-text/typesetting): Unicode bidi splits a
// paragraph into runs of one direction and script, each run is shaped with its font
// (Arabic letters take their initial, medial, final or isolated forms and lam-alef
// its ligature), the lines are broken at UAX #14 opportunities and their runs put in
// visual order. Each shaped glyph is then written as the code point the font's cmap
// maps to it (DejaVu maps every Arabic contextual form to its Presentation Forms-B
// code point), in visual order, through fpdf's UTF-8 font: the PDF carries real text
// that stays selectable and searchable. A typesetter belongs to one Render call
// (go-text faces are not safe for concurrent use).
type typesetter struct {
	f       *fpdf.Fpdf
	fonts   [3]*parsedFont
	faces   [3]*font.Face
	shaper  shaping.HarfbuzzShaper
	seg     shaping.Segmenter
	wrapper shaping.LineWrapper
	lang    language.Language
	rtl     bool
}

func newTypesetter(f *fpdf.Fpdf, lang string, rtl bool) (*typesetter, error) {
	fs, err := fonts()
	if err != nil {
		return nil, err
	}
	t := &typesetter{f: f, fonts: fs, lang: language.NewLanguage(lang), rtl: rtl}
	for i, p := range fs {
		t.faces[i] = font.NewFace(p.font)
	}
	f.AddUTF8FontFromBytes(fontNames[regular].family, fontNames[regular].style, sansTTF)
	f.AddUTF8FontFromBytes(fontNames[bold].family, fontNames[bold].style, sansBoldTTF)
	f.AddUTF8FontFromBytes(fontNames[mono].family, fontNames[mono].style, monoTTF)
	return t, f.Error()
}

// oneFace is a shaping.Fontmap of a single face: DejaVu has the page's scripts.
type oneFace struct{ face *font.Face }

func (o oneFace) ResolveFace(rune) *font.Face { return o.face }

// textRun is a piece of a line in one direction and font, its text in visual order.
type textRun struct {
	text string
	x, w float64 // mm from the line's left end
}

// textLine is one line of a paragraph, its runs from left to right.
type textLine struct {
	runs []textRun
	w    float64
}

// ptToMM converts points to millimetres.
const ptToMM = 25.4 / 72

// shapeSize is the size text is shaped at, then scaled to its point size: go-text
// rounds a fractional size (10.5 pt would be shaped as 11), and at 1000 units per em
// the advances stay exact to well under a micrometre.
const shapeSize = 1000

// kernOff turns pair kerning and Latin ligatures off: a run drawn by fpdf (which
// advances by the font's horizontal metrics) is then exactly as wide as the shaper
// measured it, and "ff" stays two letters in the text a reader copies. Arabic's
// required lam-alef ligature is the rlig feature, which stays on.
var kernOff = []shaping.FontFeature{{Tag: ot.MustNewTag("kern"), Value: 0}, {Tag: ot.MustNewTag("liga"), Value: 0}}

// lines shapes s in st at size pt and breaks it into lines at most maxW mm wide
// (0: one line). The paragraph's direction is the page's, whatever the script of
// its first letter: a Latin name in an Arabic row still reads from the right.
func (t *typesetter) lines(s string, st style, size, maxW float64) []textLine {
	runes := []rune(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s))
	if len(runes) == 0 {
		return []textLine{{}}
	}
	dir := di.DirectionLTR
	if t.rtl {
		dir = di.DirectionRTL
	}
	face := t.faces[st]
	in := shaping.Input{
		Text: runes, RunStart: 0, RunEnd: len(runes), Direction: dir, Face: face,
		Size: fixed.I(shapeSize), Language: t.lang, FontFeatures: kernOff,
	}
	// toMM converts a shaped length (at shapeSize) to mm at size pt.
	toMM := func(v fixed.Int26_6) float64 { return float64(v) / 64 / shapeSize * size * ptToMM }
	var outs []shaping.Output
	for _, part := range t.seg.Split(in, oneFace{face}) {
		part.FontFeatures = kernOff
		outs = append(outs, t.shaper.Shape(part))
	}
	width := fixed.Int26_6(math.MaxInt32)
	if maxW > 0 {
		width = fixed.Int26_6(math.Round(maxW / ptToMM / size * shapeSize * 64))
	}
	wrapped, _ := t.wrapper.WrapParagraphF(shaping.WrapConfig{Direction: dir}, width, runes, shaping.NewSliceIterator(outs))
	var res []textLine
	for _, l := range wrapped {
		runs := slices.Clone([]shaping.Output(l))
		slices.SortStableFunc(runs, func(a, b shaping.Output) int { return int(a.VisualIndex - b.VisualIndex) })
		var line textLine
		for _, o := range runs {
			txt, adv := t.visualText(st, runes, o)
			w := toMM(adv)
			if txt != "" {
				line.runs = append(line.runs, textRun{text: txt, x: line.w, w: w})
			}
			line.w += w
		}
		res = append(res, line)
	}
	if len(res) == 0 {
		res = []textLine{{}}
	}
	return res
}

// visualText writes a shaped run's glyphs, left to right, as the code points that
// select them in the font, and returns the run's advance. Whitespace the line
// breaker trimmed (zero advance) and format characters (bidi isolates and marks,
// which HarfBuzz hides) are left out.
func (t *typesetter) visualText(st style, runes []rune, o shaping.Output) (string, fixed.Int26_6) {
	p := t.fonts[st]
	glyphs := o.Glyphs
	// go-text keeps HarfBuzz's order: glyphs of a right-to-left run are already in
	// visual order (left to right).
	var b strings.Builder
	var adv fixed.Int26_6
	for i, g := range glyphs {
		adv += g.Advance
		idx := g.TextIndex()
		if idx < 0 || idx >= len(runes) {
			continue
		}
		orig := runes[idx]
		if (unicode.IsSpace(orig) || unicode.Is(unicode.Cf, orig)) && g.Advance == 0 {
			continue
		}
		if unicode.IsSpace(orig) {
			// Any space (a no-break space too) as U+0020: one glyph, the same width.
			if gid, ok := p.font.NominalGlyph(orig); ok && gid == g.GlyphID {
				b.WriteRune(orig)
			} else {
				b.WriteRune(' ')
			}
			continue
		}
		if gid, ok := p.font.NominalGlyph(orig); ok && gid == g.GlyphID && g.RunesCount() == 1 {
			b.WriteRune(orig)
			continue
		}
		if r, ok := p.rev[g.GlyphID]; ok && g.GlyphID != 0 {
			b.WriteRune(r)
			continue
		}
		// A glyph no code point selects: write its cluster's text once, at the first
		// glyph of the cluster, so that nothing is lost from the text.
		first := i == 0 || glyphs[i-1].TextIndex() != idx
		if first {
			end := min(idx+max(g.RunesCount(), 1), len(runes))
			b.WriteString(string(runes[idx:end]))
		}
	}
	return b.String(), adv
}

// width is the width of s in mm on one line.
func (t *typesetter) width(s string, st style, size float64) float64 {
	return t.lines(s, st, size, 0)[0].w
}

// covers reports whether the font of st has a glyph for every letter of s.
func (t *typesetter) covers(s string, st style) bool {
	for _, r := range s {
		if unicode.IsControl(r) {
			continue
		}
		if _, ok := t.fonts[st].font.NominalGlyph(r); !ok {
			return false
		}
	}
	return true
}

// drawLine draws a shaped line with its left end at x and its baseline at y.
func (t *typesetter) drawLine(l textLine, st style, size, x, y float64) {
	t.f.SetFont(fontNames[st].family, fontNames[st].style, size)
	for _, r := range l.runs {
		t.f.Text(x+r.x, y, r.text)
	}
}
