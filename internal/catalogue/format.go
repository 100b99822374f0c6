package catalogue

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// Date prints t's day (in UTC) in lang: "2 January 2026", "2 janvier 2026",
// "2. Januar 2026", "2 de enero de 2026". The zero time prints as "".
func Date(lang string, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	t = t.UTC()
	c := Page(Common)
	return Fill(c.Text(lang, "date"), map[string]string{
		"d":     strconv.Itoa(t.Day()),
		"month": c.Text(lang, "month."+strconv.Itoa(int(t.Month()))),
		"y":     strconv.Itoa(t.Year()),
	})
}

// DateTime prints t (in UTC) to the minute in lang: "2 January 2026, 14:05 UTC",
// "2 janvier 2026 à 14:05 UTC". The zero time prints as "".
func DateTime(lang string, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return Fill(Page(Common).Text(lang, "dateTime"), map[string]string{
		"date": Date(lang, t),
		"time": t.UTC().Format("15:04"),
	})
}

// Number prints v with decimals digits after the separator of lang, its integer
// part grouped by thousands: 1234.5 with 1 decimal is "1,234.5" in English,
// "1 234,5" in French (a no-break space) and "1.234,5" in German. NaN and the
// infinities print as Go prints them.
func Number(lang string, v float64, decimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	c := Page(Common)
	s := strconv.FormatFloat(math.Abs(v), 'f', max(decimals, 0), 64)
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	if v < 0 && strings.Trim(s, "0.") != "" {
		b.WriteByte('-')
	}
	group := c.Text(lang, "number.group")
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteString(group)
		}
		b.WriteRune(r)
	}
	if frac != "" {
		b.WriteString(c.Text(lang, "number.decimal"))
		b.WriteString(frac)
	}
	return b.String()
}
