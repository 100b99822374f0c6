package mrzcheck

import "testing"

// The ICAO Doc 9303 part 3 specimen values and their published check digits.
func TestDigit(t *testing.T) {
	for field, want := range map[string]byte{
		"L898902C3": '6', // document number of the TD3 specimen
		"740812":    '2', // its date of birth
		"120415":    '9', // its expiry
		"D23145890": '7', // the TD1 specimen's document number
		"":          '0',
		"<<<<<":     '0',
	} {
		if got := Digit(field); got != want {
			t.Errorf("Digit(%q) = %c, want %c", field, got, want)
		}
	}
}
