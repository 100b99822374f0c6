package plan

import (
	"math"
	"strconv"

	"github.com/veriland/veriland/internal/catalogue"
)

// LabelsFor returns the drawing's words in lang (one of catalogue.Languages; another
// reads as English): its title, the north letter, the scale bar's length and a
// description of what is drawn with the parcel's area.
func (p *Plan) LabelsFor(lang string, areaM2 float64) Labels {
	c := catalogue.Page(catalogue.Common)
	l := Labels{Title: c.Text(lang, "plan.title"), North: c.Text(lang, "plan.north"), Scale: LengthText(lang, p.Scale.Metres)}
	area := AreaText(lang, areaM2)
	if len(p.Outline) > 0 {
		l.Description = c.Format(lang, "plan.boundary", map[string]string{"n": strconv.Itoa(len(p.Outline)), "area": area})
	} else {
		l.Description = c.Format(lang, "plan.circle", map[string]string{"area": area})
	}
	return l
}

// LengthText prints a length in lang: metres below 1 km ("500 m"), kilometres from
// there ("1 km", "2,5 km" in French).
func LengthText(lang string, metres float64) string {
	c := catalogue.Page(catalogue.Common)
	if metres >= 1000 {
		return c.Format(lang, "unit.km", map[string]string{"n": catalogue.Number(lang, metres/1000, decimals(metres/1000))})
	}
	return c.Format(lang, "unit.m", map[string]string{"n": catalogue.Number(lang, metres, decimals(metres))})
}

// AreaText prints an area in square metres in lang ("1,250 m²", "1 250,5 m²").
func AreaText(lang string, m2 float64) string {
	return catalogue.Page(catalogue.Common).Format(lang, "unit.m2", map[string]string{"n": catalogue.Number(lang, m2, decimals(m2))})
}

// decimals is how many decimals v needs, up to 2: none for a whole number.
func decimals(v float64) int {
	whole := func(x float64) bool { return math.Abs(x-math.Round(x)) < 1e-9*math.Max(1, math.Abs(x)) }
	switch {
	case whole(v):
		return 0
	case whole(v * 10):
		return 1
	}
	return 2
}
