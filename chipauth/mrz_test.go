package chipauth

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// ICAO Doc 9303 specimens (parts 4, 5 and 6).
const (
	specimenTD3 = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<" + "L898902C36UTO7408122F1204159ZE184226B<<<<<10"
	specimenTD2 = "I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<" + "D231458907UTO7408122F1204159<<<<<<<6"
	specimenTD1 = "I<UTOD231458907<<<<<<<<<<<<<<<" + "7408122F1204159UTO<<<<<<<<<<<6" + "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"
)

func TestParseMRZ(t *testing.T) {
	tests := []struct {
		mrz            string
		format         MRZFormat
		docType, state string
		number         string
		expiry         time.Time
	}{
		{specimenTD3, TD3, "P", "UTO", "L898902C3", time.Date(2012, 4, 15, 0, 0, 0, 0, time.UTC)},
		{specimenTD2, TD2, "I", "UTO", "D23145890", time.Date(2012, 4, 15, 0, 0, 0, 0, time.UTC)},
		{specimenTD1, TD1, "I", "UTO", "D23145890", time.Date(2012, 4, 15, 0, 0, 0, 0, time.UTC)},
		// TD3 with line breaks, as some readers return it.
		{specimenTD3[:44] + "\n" + specimenTD3[44:] + "\n", TD3, "P", "UTO", "L898902C3", time.Date(2012, 4, 15, 0, 0, 0, 0, time.UTC)},
		// TD1 long document number (Doc 9303-5 4.2.4): 12 characters, check digit in the optional data.
		{"I<UTOD23145890<7349<<<<<<<<<<<" + "3407127M9507122UTO<<<<<<<<<<<2" + "STEVENSON<<PETER<JOHN<<<<<<<<<", TD1, "I", "UTO", "D23145890734", time.Date(2095, 7, 12, 0, 0, 0, 0, time.UTC)},
	}
	for _, tc := range tests {
		m, err := ParseMRZ(tc.mrz)
		if err != nil {
			t.Errorf("%q: %v", tc.mrz, err)
			continue
		}
		if m.Format != tc.format || m.DocumentType != tc.docType || m.IssuingState != tc.state ||
			m.number() != tc.number || !m.Expiry.Equal(tc.expiry) {
			t.Errorf("%q: got %+v", tc.mrz, m)
		}
	}
}

func TestParseMRZInvalid(t *testing.T) {
	bad := map[string]string{
		"document number check": strings.Replace(specimenTD3, "L898902C36", "L898902C35", 1),
		"birth date check":      strings.Replace(specimenTD3, "7408122F", "7408121F", 1),
		"expiry check":          strings.Replace(specimenTD3, "1204159Z", "1204158Z", 1),
		"composite check":       specimenTD3[:87] + "1",
		"optional data check":   strings.Replace(specimenTD3, "B<<<<<10", "B<<<<<20", 1),
		"TD1 composite":         specimenTD1[:59] + "7" + specimenTD1[60:],
		"TD2 document number":   strings.Replace(specimenTD2, "D231458907", "D231458906", 1),
		"bad expiry date":       strings.Replace(specimenTD3, "1204159", "1213319", 1),
		"lower case":            strings.ToLower(specimenTD3),
		"short":                 specimenTD3[:80],
		"empty":                 "",
	}
	for name, mrz := range bad {
		m, err := ParseMRZ(mrz)
		if err == nil {
			t.Errorf("%s: accepted %+v", name, m)
			continue
		}
		if strings.Contains(err.Error(), "L898902C3") {
			t.Errorf("%s: error quotes the document number: %v", name, err)
		}
	}
}

func TestParseDG1(t *testing.T) {
	dg1 := append([]byte{0x61, 0x5b, 0x5f, 0x1f, 0x58}, specimenTD3...)
	m, err := ParseDG1(dg1)
	if err != nil || m.number() != "L898902C3" {
		t.Fatalf("ParseDG1: %+v %v", m, err)
	}
	for _, bad := range [][]byte{nil, {0x61}, {0x61, 0x00}, dg1[:40], append(dg1, 0), {0x62, 0x03, 0x5f, 0x1f, 0x00}} {
		if _, err := ParseDG1(bad); err == nil {
			t.Errorf("ParseDG1(%x) accepted", bad)
		}
	}
}

func TestDocumentKey(t *testing.T) {
	m, err := ParseMRZ(specimenTD3)
	if err != nil {
		t.Fatal(err)
	}
	k1 := DocumentKey([]byte("pepper-1"), m)
	k2 := DocumentKey([]byte("pepper-2"), m)
	if k1 == k2 {
		t.Error("the key does not depend on the pepper")
	}
	other := m
	other.pii = newPersonal(m.birthField(), "L898902C4")
	if DocumentKey([]byte("pepper-1"), other) == k1 {
		t.Error("the key does not depend on the document number")
	}
	// "D<<" + "EU1" must not collide with "DEU" + "1".
	a, b := MRZ{stateField: "D<<", pii: newPersonal("<<<<<<", "EU1")}, MRZ{stateField: "DEU", pii: newPersonal("<<<<<<", "1")}
	if DocumentKey(nil, a) == DocumentKey(nil, b) {
		t.Error("issuing state and number run together")
	}
	if bytes.Contains(k1[:], []byte("L898902C3")) {
		t.Error("key holds the number")
	}
}

func TestMRZNationalityAndAge(t *testing.T) {
	at := time.Date(2026, 8, 12, 10, 0, 0, 0, time.UTC)
	for _, s := range []string{specimenTD3, specimenTD2, specimenTD1} {
		m, err := ParseMRZ(s)
		if err != nil {
			t.Fatal(err)
		}
		if m.Nationality != "UTO" {
			t.Errorf("%s nationality %q", m.Format, m.Nationality)
		}
		// Born 1974-08-12: 52 on the birthday itself, 51 the day before.
		if age, ok := m.AgeAt(at); !ok || age != 52 {
			t.Errorf("%s age %d %v", m.Format, age, ok)
		}
		if age, _ := m.AgeAt(at.AddDate(0, 0, -1)); age != 51 {
			t.Errorf("%s age the day before %d", m.Format, age)
		}
	}
	tests := []struct {
		birth string
		at    time.Time
		age   int
		ok    bool
	}{
		{"080812", at, 18, true}, // 2008: the most recent century
		{"080813", at, 17, true}, // the day before the 18th birthday
		{"260812", at, 0, true},  // born today
		{"261231", at, 99, true}, // 2026-12-31 is after at: 1926
		{"26<<<<", at, 0, true},  // unknown month: 2026 may be past, so 2026 (never 1926)
		{"270101", at, 99, true}, // 2027 is after at: 1927
		{"74<<<<", at, 51, true}, // unknown month and day: 31 December 1974
		{"7408<<", at, 51, true}, // unknown day: 31 August 1974
		{"080229", time.Date(2026, 2, 28, 0, 0, 0, 0, time.UTC), 17, true}, // leap-day birth
		{"080229", time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), 18, true},
		{"<<<<<<", at, 0, false},
		{"741312", at, 0, false}, // month 13
		{"740231", at, 0, false}, // 31 February
		{"7402", at, 0, false},
	}
	for _, tt := range tests {
		age, ok := MRZ{pii: newPersonal(tt.birth, "")}.AgeAt(tt.at)
		if age != tt.age || ok != tt.ok {
			t.Errorf("%q at %s: %d %v, want %d %v", tt.birth, tt.at.Format(time.DateOnly), age, ok, tt.age, tt.ok)
		}
	}
}
