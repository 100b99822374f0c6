package plan

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
)

// Labels are the words of a drawing, in the reader's language.
type Labels struct {
	// Title names the drawing for screen readers ("Drawing of the parcel").
	Title string
	// North is the letter under the north arrow ("N").
	North string
	// Scale is the scale bar's label, already formatted ("50 m").
	Scale string
	// Description says what is drawn, for screen readers ("Boundary with 5 corners,
	// 1,250 m²").
	Description string
}

// Colours of the drawing: ink #1a1a1a and the parcel's outline #1b5e20 have a
// contrast of 17.4:1 and 7.9:1 on white; the fill is a light tint under no text.
const (
	inkColour     = "#1a1a1a"
	outlineColour = "#1b5e20"
	fillColour    = "#dcedc8"
	frameColour   = "#767676"
)

// SVG returns the drawing as an inline <svg> element with its own viewBox (it
// scales with its container), role img, a title and a description. Every value in
// it is a number this package computed or an escaped label.
func (p *Plan) SVG(l Labels) string {
	var b strings.Builder
	f := func(v float64) string { return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64) }
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %s %s" role="img" aria-labelledby="plan-title plan-desc" class="plan" data-units-per-metre="%s">`,
		f(p.Width), f(p.Height), strconv.FormatFloat(p.UnitsPerMetre, 'g', 12, 64))
	fmt.Fprintf(&b, `<title id="plan-title">%s</title><desc id="plan-desc">%s</desc>`, html.EscapeString(l.Title), html.EscapeString(l.Description))
	fmt.Fprintf(&b, `<rect x="0.5" y="0.5" width="%s" height="%s" fill="#ffffff" stroke="%s" stroke-width="1"/>`, f(p.Width-1), f(p.Height-1), frameColour)
	switch {
	case len(p.Outline) > 0:
		b.WriteString(`<polygon id="plan-boundary" points="`)
		for i, q := range p.Outline {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(f(q.X) + "," + f(q.Y))
		}
		fmt.Fprintf(&b, `" fill="%s" stroke="%s" stroke-width="2" stroke-linejoin="round"/>`, fillColour, outlineColour)
	case p.Area != nil:
		fmt.Fprintf(&b, `<circle id="plan-area" cx="%s" cy="%s" r="%s" fill="%s" stroke="%s" stroke-width="2" stroke-dasharray="6 4"/>`,
			f(p.Area.Center.X), f(p.Area.Center.Y), f(p.Area.R), fillColour, outlineColour)
	}
	if p.MarkerShown {
		fmt.Fprintf(&b, `<circle id="plan-gps" cx="%s" cy="%s" r="4" fill="%s" stroke="#ffffff" stroke-width="1.5"/>`, f(p.Marker.X), f(p.Marker.Y), inkColour)
	}
	// The scale bar: a bar with end ticks, its label centred above it.
	s := p.Scale
	x0, x1, y := s.Start.X, s.Start.X+s.Length, s.Start.Y
	fmt.Fprintf(&b, `<g id="plan-scale" data-metres="%s" stroke="%s" stroke-width="2">`, strconv.FormatFloat(s.Metres, 'g', -1, 64), inkColour)
	fmt.Fprintf(&b, `<line id="plan-scale-bar" x1="%s" y1="%s" x2="%s" y2="%s"/>`, f(x0), f(y), f(x1), f(y))
	fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s"/><line x1="%s" y1="%s" x2="%s" y2="%s"/></g>`,
		f(x0), f(y-5), f(x0), f(y+1), f(x1), f(y-5), f(x1), f(y+1))
	fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle" font-size="13" font-family="system-ui, sans-serif" fill="%s">%s</text>`,
		f((x0+x1)/2), f(y-9), inkColour, html.EscapeString(l.Scale))
	// The north arrow: a tall triangle, the letter under it.
	a := p.North
	w := a.Size / 2.5
	fmt.Fprintf(&b, `<g id="plan-north"><polygon points="%s,%s %s,%s %s,%s %s,%s" fill="%s"/>`,
		f(a.Tip.X), f(a.Tip.Y), f(a.Tip.X+w/2), f(a.Tip.Y+a.Size*0.75), f(a.Tip.X), f(a.Tip.Y+a.Size*0.6), f(a.Tip.X-w/2), f(a.Tip.Y+a.Size*0.75), inkColour)
	fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="middle" font-size="13" font-weight="700" font-family="system-ui, sans-serif" fill="%s">%s</text></g>`,
		f(a.Tip.X), f(a.Tip.Y+a.Size+6), inkColour, html.EscapeString(l.North))
	b.WriteString(`</svg>`)
	return b.String()
}
