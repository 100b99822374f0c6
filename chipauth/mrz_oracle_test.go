package chipauth

import (
	"encoding/asn1"
	"fmt"
	"strings"
)

// This file is an independent reading of ICAO Doc 9303 (part 3 §4.9, parts 4 to 6):
// the fuzz targets compare what ParseMRZ and ParseDG1 accept with it. It shares no
// code with mrz.go or internal/mrzcheck.

// icaoCheckDigit is the ICAO 9303 check digit of field: values 0-9 for digits, 10-35
// for A-Z, 0 for the filler '<', weighted 7, 3, 1 repeatedly, summed modulo 10.
func icaoCheckDigit(field string) byte {
	weight := []int{7, 3, 1}
	total := 0
	for i, r := range field {
		var value int
		switch {
		case '0' <= r && r <= '9':
			value = int(r) - '0'
		case 'A' <= r && r <= 'Z':
			value = int(r) - 'A' + 10
		case r == '<':
			value = 0
		default:
			return '?'
		}
		total += value * weight[i%3]
	}
	return byte('0' + total%10)
}

// mrzOracle is what ICAO 9303 says of one MRZ: its check digits hold, and its fields.
type mrzOracle struct {
	format                              MRZFormat
	docType, state, nationality, number string
	birth, expiry                       string
}

// checkMRZ reads s (an MRZ without line breaks) as ICAO 9303 lays out its format, and
// returns an error naming the first check digit that does not hold.
func checkMRZ(s string) (mrzOracle, error) {
	check := func(what, field string, digit byte) error {
		if got := icaoCheckDigit(field); got != digit {
			return fmt.Errorf("%s check digit is %q, ICAO 7-3-1 gives %q", what, digit, got)
		}
		return nil
	}
	filler := func(f string) string { return strings.Trim(f, "<") }
	// docNumber reads a TD1/TD2 document number: nine characters and their check
	// digit, or, with '<' as the check digit, continued in the optional data up to
	// the first filler, whose last character is the check digit (9303-5 note j).
	docNumber := func(first string, digit byte, optional string) (string, error) {
		if digit != '<' {
			return filler(first), check("document number", first, digit)
		}
		i := strings.IndexByte(optional, '<')
		if i < 0 {
			i = len(optional)
		}
		if i == 0 {
			return "", fmt.Errorf("long document number without its check digit")
		}
		n := first + optional[:i-1]
		return n, check("document number", n, optional[i-1])
	}
	var o mrzOracle
	var errs []error
	switch len(s) {
	case 88: // TD3: two lines of 44
		a, b := s[:44], s[44:]
		o = mrzOracle{format: TD3, docType: filler(a[0:2]), state: filler(a[2:5]), nationality: filler(b[10:13]),
			number: filler(b[0:9]), birth: b[13:19], expiry: b[21:27]}
		errs = append(errs, check("document number", b[0:9], b[9]), check("date of birth", b[13:19], b[19]),
			check("date of expiry", b[21:27], b[27]),
			check("composite", b[0:10]+b[13:20]+b[21:43], b[43]))
		if b[42] != '<' || filler(b[28:42]) != "" {
			errs = append(errs, check("personal number", b[28:42], b[42]))
		}
	case 72: // TD2: two lines of 36
		a, b := s[:36], s[36:]
		n, err := docNumber(b[0:9], b[9], b[28:35])
		o = mrzOracle{format: TD2, docType: filler(a[0:2]), state: filler(a[2:5]), nationality: filler(b[10:13]),
			number: n, birth: b[13:19], expiry: b[21:27]}
		errs = append(errs, err, check("date of birth", b[13:19], b[19]), check("date of expiry", b[21:27], b[27]),
			check("composite", b[0:10]+b[13:20]+b[21:35], b[35]))
	case 90: // TD1: three lines of 30
		a, b := s[:30], s[30:60]
		n, err := docNumber(a[5:14], a[14], a[15:30])
		o = mrzOracle{format: TD1, docType: filler(a[0:2]), state: filler(a[2:5]), nationality: filler(b[15:18]),
			number: n, birth: b[0:6], expiry: b[8:14]}
		errs = append(errs, err, check("date of birth", b[0:6], b[6]), check("date of expiry", b[8:14], b[14]),
			check("composite", a[5:30]+b[0:7]+b[8:15]+b[18:29], b[29]))
	default:
		return o, fmt.Errorf("length %d is no ICAO format", len(s))
	}
	for _, err := range errs {
		if err != nil {
			return o, err
		}
	}
	return o, nil
}

// agreesWithICAO returns an error unless m is what ICAO 9303 reads in s.
func agreesWithICAO(m MRZ, s string) error {
	s = strings.NewReplacer("\r", "", "\n", "").Replace(s)
	o, err := checkMRZ(s)
	if err != nil {
		return fmt.Errorf("accepted an MRZ ICAO 9303 refuses: %v", err)
	}
	got := mrzOracle{format: m.Format, docType: m.DocumentType, state: m.IssuingState, nationality: m.Nationality,
		number: m.number(), birth: m.birthField(), expiry: m.Expiry.Format("060102")}
	if got != o {
		return fmt.Errorf("parsed %+v, ICAO 9303 reads %+v", got, o)
	}
	return nil
}

// dg1MRZ reads the MRZ of an LDS DG1 file with encoding/asn1 (DER only): the
// application 1 constructed wrapper holding the application 31 (0x5F1F) string; ok is
// false when encoding/asn1 cannot read it so.
func dg1MRZ(b []byte) (string, bool) {
	var outer asn1.RawValue
	rest, err := asn1.Unmarshal(b, &outer)
	if err != nil || len(rest) != 0 || outer.Class != asn1.ClassApplication || outer.Tag != 1 || !outer.IsCompound {
		return "", false
	}
	for in := outer.Bytes; len(in) > 0; {
		var k asn1.RawValue
		in, err = asn1.Unmarshal(in, &k)
		if err != nil {
			return "", false
		}
		if k.Class == asn1.ClassApplication && k.Tag == 31 && !k.IsCompound {
			return string(k.Bytes), true
		}
	}
	return "", false
}
