package chipauth

import (
	"errors"
)

// sodTag is the ICAO application tag [APPLICATION 23] that wraps EF.SOD on the chip.
const sodTag = 0x77

// unwrapSOD strips the 0x77 wrapper if present and returns the CMS ContentInfo bytes.
func unwrapSOD(b []byte) ([]byte, error) {
	if len(b) == 0 {
		return nil, errors.New("empty SOD")
	}
	if b[0] != sodTag {
		return b, nil
	}
	e, rest, err := readElement(b)
	if err != nil {
		return nil, err
	}
	if len(rest) > 0 {
		return nil, errors.New("trailing data after the SOD")
	}
	if !e.is(classApplication, 23) || !e.constructed {
		return nil, errors.New("malformed SOD wrapper")
	}
	return e.content, nil
}
