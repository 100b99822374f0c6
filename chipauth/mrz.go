package chipauth

import (
	"crypto/hmac"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/veriland/veriland/chipauth/internal/mrzcheck"
)

// MRZFormat is the ICAO Doc 9303 machine-readable zone layout.
type MRZFormat string

// MRZ layouts: TD1 (ID cards, 3×30), TD2 (2×36), TD3 (passports, 2×44).
const (
	TD1 MRZFormat = "TD1"
	TD2 MRZFormat = "TD2"
	TD3 MRZFormat = "TD3"
)

// MRZ is what chipauth keeps of a machine-readable zone. Names and sex are checked
// but never kept. The document number and the date of birth are kept unexported:
// the number leaves the package only inside DocumentKey's HMAC, the date of birth
// only as an age in whole years (AgeAt). Printed (String, GoString, every fmt verb)
// or logged (LogValue), an MRZ shows format, document type, issuing state and
// expiry, with nationality, document number and date of birth as "[redacted]".
// (MRZ cannot implement fmt.Formatter: its Format field takes the method's name;
// verbs that bypass String see the personal fields only as a pointer address.)
type MRZ struct {
	Format       MRZFormat // TD1, TD2 or TD3
	DocumentType string    // e.g. "P", "ID", "I" (filler '<' removed)
	IssuingState string    // ICAO code, e.g. "D", "FRA", "UTO" (filler '<' removed)
	Nationality  string    // ICAO code of the holder's nationality, e.g. "D", "UTO"; "" if blank
	Expiry       time.Time // date of expiry, UTC midnight

	stateField string // the three-character issuing state field, '<'-padded
	// pii is behind a pointer to a string so that fmt, which cannot call String on an
	// MRZ held in an unexported field, prints an address there, never the value.
	pii *mrzPersonal
}

// mrzPersonal holds the personal fields an MRZ keeps: the six-character date of
// birth field (YYMMDD, '<' where unknown) followed by the document number. It is
// never modified after parsing, so copies of an MRZ may share it.
type mrzPersonal string

// newPersonal packs a birth field and a document number.
func newPersonal(birth, number string) *mrzPersonal {
	p := mrzPersonal(birth + number)
	return &p
}

// number is the document number, "" for the zero MRZ.
func (m MRZ) number() string {
	if m.pii == nil || len(*m.pii) < 6 {
		return ""
	}
	return string(*m.pii)[6:]
}

// birthField is the six-character date of birth field, "" for the zero MRZ.
func (m MRZ) birthField() string {
	if m.pii == nil || len(*m.pii) < 6 {
		return ""
	}
	return string(*m.pii)[:6]
}

// ParseDG1 reads the MRZ from an LDS DG1 file (tag 0x61 holding tag 0x5F1F).
func ParseDG1(dg1 []byte) (MRZ, error) {
	e, rest, err := readElement(dg1)
	if err != nil || len(rest) > 0 || !e.is(classApplication, 1) || !e.constructed {
		return MRZ{}, errors.New("DG1 is not an LDS DG1 (tag 0x61)")
	}
	kids, err := e.children()
	if err != nil {
		return MRZ{}, errors.New("DG1 is malformed")
	}
	for _, k := range kids {
		if k.is(classApplication, 0x1f) && !k.constructed {
			return ParseMRZ(string(k.content))
		}
	}
	return MRZ{}, errors.New("DG1 has no MRZ (tag 0x5F1F)")
}

// ParseMRZ parses a TD1, TD2 or TD3 MRZ, given as one string with or without
// line breaks, and verifies every check digit. Errors never quote the input.
func ParseMRZ(s string) (MRZ, error) {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r", ""), "\n", "")
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '<') {
			return MRZ{}, fmt.Errorf("MRZ has an invalid character at position %d", i)
		}
	}
	switch len(s) {
	case 90:
		return parseTD1(s)
	case 72:
		return parseTD2(s)
	case 88:
		return parseTD3(s)
	}
	return MRZ{}, fmt.Errorf("MRZ length %d is not TD1 (90), TD2 (72) or TD3 (88)", len(s))
}

func parseTD3(s string) (MRZ, error) {
	l1, l2 := s[:44], s[44:]
	m := MRZ{Format: TD3, DocumentType: trimFiller(l1[0:2]), stateField: l1[2:5],
		Nationality: trimFiller(l2[10:13]), pii: newPersonal(l2[13:19], trimFiller(l2[0:9]))}
	checks := []struct{ field, digit, what string }{
		{l2[0:9], l2[9:10], "document number"},
		{l2[13:19], l2[19:20], "date of birth"},
		{l2[21:27], l2[27:28], "date of expiry"},
		{l2[0:10] + l2[13:20] + l2[21:43], l2[43:44], "composite"},
	}
	// The personal number check digit may be '<' when the field is empty.
	if !(l2[42] == '<' && strings.Trim(l2[28:42], "<") == "") {
		checks = append(checks, struct{ field, digit, what string }{l2[28:42], l2[42:43], "optional data"})
	}
	for _, c := range checks {
		if err := verifyCheckDigit(c.field, c.digit, c.what); err != nil {
			return MRZ{}, err
		}
	}
	return m.finish(l2[21:27])
}

func parseTD2(s string) (MRZ, error) {
	l1, l2 := s[:36], s[36:]
	m := MRZ{Format: TD2, DocumentType: trimFiller(l1[0:2]), stateField: l1[2:5],
		Nationality: trimFiller(l2[10:13]), pii: newPersonal(l2[13:19], "")}
	number, err := longDocumentNumber(l2[0:9], l2[9], l2[28:35])
	if err != nil {
		return MRZ{}, err
	}
	m.pii = newPersonal(m.birthField(), number)
	for _, c := range []struct{ field, digit, what string }{
		{l2[13:19], l2[19:20], "date of birth"},
		{l2[21:27], l2[27:28], "date of expiry"},
		{l2[0:10] + l2[13:20] + l2[21:35], l2[35:36], "composite"},
	} {
		if err := verifyCheckDigit(c.field, c.digit, c.what); err != nil {
			return MRZ{}, err
		}
	}
	return m.finish(l2[21:27])
}

func parseTD1(s string) (MRZ, error) {
	l1, l2 := s[:30], s[30:60]
	m := MRZ{Format: TD1, DocumentType: trimFiller(l1[0:2]), stateField: l1[2:5],
		Nationality: trimFiller(l2[15:18]), pii: newPersonal(l2[0:6], "")}
	number, err := longDocumentNumber(l1[5:14], l1[14], l1[15:30])
	if err != nil {
		return MRZ{}, err
	}
	m.pii = newPersonal(m.birthField(), number)
	for _, c := range []struct{ field, digit, what string }{
		{l2[0:6], l2[6:7], "date of birth"},
		{l2[8:14], l2[14:15], "date of expiry"},
		{l1[5:30] + l2[0:7] + l2[8:15] + l2[18:29], l2[29:30], "composite"},
	} {
		if err := verifyCheckDigit(c.field, c.digit, c.what); err != nil {
			return MRZ{}, err
		}
	}
	return m.finish(l2[8:14])
}

// longDocumentNumber reads a TD1/TD2 document number. Numbers longer than nine
// characters put '<' in the check digit position and continue in the optional
// data, ending with their check digit before the first filler.
func longDocumentNumber(first string, check byte, optional string) (string, error) {
	if check != '<' {
		if err := verifyCheckDigit(first, string(check), "document number"); err != nil {
			return "", err
		}
		return trimFiller(first), nil
	}
	tail, _, _ := strings.Cut(optional, "<")
	if len(tail) < 1 {
		return "", errors.New("MRZ long document number has no check digit")
	}
	number := first + tail[:len(tail)-1]
	if err := verifyCheckDigit(number, tail[len(tail)-1:], "document number"); err != nil {
		return "", err
	}
	return number, nil
}

func (m MRZ) finish(expiry string) (MRZ, error) {
	t, err := parseMRZDate(expiry)
	if err != nil {
		return MRZ{}, fmt.Errorf("MRZ date of expiry: %w", err)
	}
	m.Expiry = t
	m.IssuingState = trimFiller(m.stateField)
	if m.number() == "" || m.IssuingState == "" || m.DocumentType == "" {
		return MRZ{}, errors.New("MRZ lacks document type, issuing state or document number")
	}
	return m, nil
}

// parseMRZDate reads YYMMDD as 20YY: dates of expiry are never in the 1900s for
// documents whose chips can be read today.
func parseMRZDate(s string) (time.Time, error) {
	var v [3]int
	for i := range v {
		a, b := s[2*i], s[2*i+1]
		if a < '0' || a > '9' || b < '0' || b > '9' {
			return time.Time{}, errors.New("not a date")
		}
		v[i] = int(a-'0')*10 + int(b-'0')
	}
	t := time.Date(2000+v[0], time.Month(v[1]), v[2], 0, 0, 0, 0, time.UTC)
	if t.Month() != time.Month(v[1]) || t.Day() != v[2] {
		return time.Time{}, errors.New("not a date")
	}
	return t, nil
}

// AgeAt returns the holder's age in whole years on the date of at, from the MRZ
// date of birth; ok is false when the MRZ holds no usable year of birth.
//
// The MRZ writes the year with two digits. The century is the most recent one that
// does not put the birth after at: YY is 20YY unless that year's earliest possible
// date is later than at, else 19YY. An unknown day or month ('<' filler, as ICAO
// allows) is taken as the latest possible one (the last day of the month, December),
// so that an incomplete date never makes anyone older than they can be. Every error
// of this rule (a holder over 100 read as a child) understates the age, never
// overstates it. A birth date after at gives 0.
func (m MRZ) AgeAt(at time.Time) (age int, ok bool) {
	b := m.birthField()
	if len(b) != 6 || !isDigits(b[0:2]) {
		return 0, false
	}
	yy := int(b[0]-'0')*10 + int(b[1]-'0')
	month, monthKnown := 12, false
	if isDigits(b[2:4]) {
		month, monthKnown = int(b[2]-'0')*10+int(b[3]-'0'), true
		if month < 1 || month > 12 {
			return 0, false
		}
	}
	at = at.UTC()
	year := 2000 + yy
	earliest := time.Date(year, time.January, 1, 0, 0, 0, 0, time.UTC)
	if monthKnown {
		earliest = time.Date(year, time.Month(month), 1, 0, 0, 0, 0, time.UTC)
	}
	if earliest.After(at) {
		year -= 100
	}
	lastDay := time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
	day := lastDay
	if isDigits(b[4:6]) {
		day = int(b[4]-'0')*10 + int(b[5]-'0')
		if day < 1 || day > lastDay {
			return 0, false
		}
	}
	age = at.Year() - year
	if at.Month() < time.Month(month) || (at.Month() == time.Month(month) && at.Day() < day) {
		age--
	}
	return max(age, 0), true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// verifyCheckDigit checks an ICAO 7-3-1 check digit.
func verifyCheckDigit(field, digit, what string) error {
	if len(digit) != 1 || mrzcheck.Digit(field) != digit[0] {
		return fmt.Errorf("MRZ %s check digit does not match", what)
	}
	return nil
}

func trimFiller(s string) string { return strings.Trim(s, "<") }

// DocumentKey returns HMAC-SHA256(pepper, issuingState || documentNumber): the
// only form in which a document number leaves chipauth. The issuing state is the
// three-character MRZ field with its '<' filler, so state and number cannot run
// into each other ("D<<" + number).
func DocumentKey(pepper []byte, mrz MRZ) [32]byte {
	mac := hmac.New(sha256.New, pepper)
	mac.Write([]byte(mrz.stateField))
	mac.Write([]byte(mrz.number()))
	var out [32]byte
	copy(out[:], mac.Sum(nil))
	return out
}
