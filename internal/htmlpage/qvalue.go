package htmlpage

import (
	"strconv"
	"strings"
)

// QValue returns the weight of one range of an Accept or Accept-Language header
// from its parameters (the text after the range's first ";"): 1 without a q, and
// false for a malformed q or one outside [0, 1] (RFC 9110 §12.4.2).
func QValue(params string) (float64, bool) {
	for p := range strings.SplitSeq(params, ";") {
		k, v, _ := strings.Cut(p, "=")
		if !strings.EqualFold(strings.TrimSpace(k), "q") {
			continue
		}
		q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || !(q >= 0 && q <= 1) { // also refuses NaN
			return 0, false
		}
		return q, true
	}
	return 1, true
}
