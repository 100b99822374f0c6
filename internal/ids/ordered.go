package ids

import (
	"fmt"
	"io"
	"time"
)

// orderedAlphabet is the character set of ids (a–z, 2–7) in ASCII order, so that
// comparing two ordered ids byte by byte compares the numbers they encode.
const orderedAlphabet = "234567abcdefghijklmnopqrstuvwxyz"

// Widths of an ordered id's two parts, in characters.
const (
	timeChars   = 10 // 50 bits: the 48-bit Unix milliseconds, two leading zero bits
	randomChars = Length - timeChars
)

// maxMillis is the largest time an ordered id encodes: 2^48-1 ms after 1970, in the
// year 10889.
const maxMillis = 1<<48 - 1

// NewOrdered returns prefix + "_" + 26 characters, like New, whose first 10 encode
// now's Unix milliseconds and whose last 16 are 80 bits read from rand. Because its
// alphabet is the ids' character set in ASCII order, byte order is time order, to the
// millisecond; within one millisecond the order is random. Valid accepts the result.
//
// It is for records whose store keys are their ids and that are written as they are
// created: a B+tree then appends them to its last pages instead of dirtying a random
// page per record. The id reveals when it was made, to the millisecond, so use it
// only where that time is no secret. Times before 1970 encode as 1970, and times
// after the 48 bits (the year 10889) as their last millisecond: the order holds, not
// strictly, rather than an id failing on a wrong clock. Errors: rand could not give
// 10 bytes.
func NewOrdered(rand io.Reader, prefix string, now time.Time) (string, error) {
	var r [randomChars * 5 / 8]byte
	if _, err := io.ReadFull(rand, r[:]); err != nil {
		return "", fmt.Errorf("ids: reading randomness: %w", err)
	}
	ms := min(max(now.UnixMilli(), 0), maxMillis)
	b := make([]byte, 0, len(prefix)+1+Length)
	b = append(append(b, prefix...), '_')
	for i := timeChars - 1; i >= 0; i-- {
		b = append(b, orderedAlphabet[ms>>(5*i)&31])
	}
	// 80 bits are two 40-bit groups of 8 characters.
	for g := 0; g < 2; g++ {
		var v uint64
		for _, x := range r[5*g : 5*g+5] {
			v = v<<8 | uint64(x)
		}
		for i := 7; i >= 0; i-- {
			b = append(b, orderedAlphabet[v>>(5*i)&31])
		}
	}
	return string(b), nil
}
