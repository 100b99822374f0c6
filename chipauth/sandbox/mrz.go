package sandbox

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/veriland/veriland/chipauth/internal/mrzcheck"
)

// MRZFields are the printed fields of a TD3 (passport) machine-readable zone.
type MRZFields struct {
	DocumentType   string // "P" by default
	IssuingState   string // ICAO code, e.g. "UTO"
	Surname        string
	GivenNames     string
	DocumentNumber string // up to 9 characters
	Nationality    string // default IssuingState
	BirthDate      time.Time
	Sex            string // "M", "F" or "<"
	Expiry         time.Time
	PersonalNumber string // optional data, up to 14 characters
}

// BuildMRZ returns the 88-character TD3 MRZ (two lines of 44, no line break)
// with every check digit computed.
func BuildMRZ(f MRZFields) (string, error) {
	if f.DocumentType == "" {
		f.DocumentType = "P"
	}
	if f.Nationality == "" {
		f.Nationality = f.IssuingState
	}
	if f.Sex == "" {
		f.Sex = "<"
	}
	if f.IssuingState == "" || f.DocumentNumber == "" || f.BirthDate.IsZero() || f.Expiry.IsZero() {
		return "", errors.New("sandbox: MRZ needs issuing state, document number, birth date and expiry")
	}
	if len(f.DocumentNumber) > 9 || len(f.PersonalNumber) > 14 || len(f.IssuingState) > 3 || len(f.DocumentType) > 2 {
		return "", errors.New("sandbox: MRZ field too long")
	}
	name := mrzText(f.Surname) + "<<" + mrzText(f.GivenNames)
	l1 := pad(pad(f.DocumentType, 2)+pad(f.IssuingState, 3)+name, 44)[:44]
	number := pad(f.DocumentNumber, 9)
	birth, expiry := f.BirthDate.Format("060102"), f.Expiry.Format("060102")
	personal := pad(f.PersonalNumber, 14)
	personalCheck := string(mrzcheck.Digit(personal))
	if strings.Trim(personal, "<") == "" {
		personalCheck = "<"
	}
	l2 := number + string(mrzcheck.Digit(number)) + pad(f.Nationality, 3) +
		birth + string(mrzcheck.Digit(birth)) + f.Sex + expiry + string(mrzcheck.Digit(expiry)) +
		personal + personalCheck
	l2 += string(mrzcheck.Digit(l2[0:10] + l2[13:20] + l2[21:43]))
	if len(l1) != 44 || len(l2) != 44 {
		return "", fmt.Errorf("sandbox: MRZ lines have lengths %d and %d", len(l1), len(l2))
	}
	return l1 + l2, nil
}

// BuildDG1 returns an LDS DG1 file (tag 0x61 holding the MRZ in tag 0x5F1F).
func BuildDG1(f MRZFields) ([]byte, error) {
	mrz, err := BuildMRZ(f)
	if err != nil {
		return nil, err
	}
	inner := append([]byte{0x5f}, tlv(0x1f, []byte(mrz))...)
	return tlv(0x61, inner), nil
}

func pad(s string, n int) string {
	if len(s) >= n {
		return s
	}
	return s + strings.Repeat("<", n-len(s))
}

func mrzText(s string) string {
	s = strings.ToUpper(s)
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('<')
		}
	}
	return b.String()
}
