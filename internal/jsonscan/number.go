package jsonscan

import (
	"encoding/binary"
	"math"
	"strconv"
)

// Number skips white space and reads a number of the JSON grammar
// (-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?), returning its text (aliasing the
// data) without converting it.
func (s *Scanner) Number() ([]byte, bool) {
	start := s.Space()
	end, ok := numberEnd(s.data, start)
	if !ok {
		return nil, false
	}
	s.pos = end
	return s.data[start:end], true
}

// Float skips white space and reads a number as encoding/json decodes it into a
// float64: strconv.ParseFloat of its text. It reports false for anything but a
// number, and for a number out of float64's range, which encoding/json refuses.
func (s *Scanner) Float() (float64, bool) {
	// Small enough to inline, so that a loop over numbers keeps the position in a
	// register.
	f, end, ok := parseFloat(s.data, s.pos)
	s.pos = end
	return f, ok
}

// numberEnd returns the index after the JSON number that starts at data[i], and
// whether there is one.
func numberEnd(data []byte, i int) (int, bool) {
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && data[i] >= '1' && data[i] <= '9':
		i = digitsEnd(data, i)
	default:
		return i, false
	}
	if i < len(data) && data[i] == '.' {
		j := digitsEnd(data, i+1)
		if j == i+1 {
			return j, false
		}
		i = j
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		j := digitsEnd(data, i)
		if j == i {
			return j, false
		}
		i = j
	}
	return i, true
}

// digitsEnd returns the index after the decimal digits that start at data[i].
func digitsEnd(data []byte, i int) int {
	for i < len(data) && data[i] >= '0' && data[i] <= '9' {
		i++
	}
	return i
}

// pow10 holds the powers of ten a float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseFloat skips the white space at data[i:], reads the JSON number after it and
// returns its float64 value, rounded as strconv.ParseFloat (and so encoding/json)
// rounds it, with the index after it. It refuses anything else, and numbers out of
// float64's range.
//
// The common number in a request (all its digits, the fraction's included, making
// an integer m ≤ 2^53, at most 22 of them after the point, no exponent) takes
// Clinger's fast path: m and 10^k are both exact float64s, so m / 10^k is one
// correctly rounded division, the value ParseFloat returns. Anything else goes
// through strconv.ParseFloat.
func parseFloat(data []byte, i int) (float64, int, bool) {
	i = spaceEnd(data, i)
	start := i
	neg := i < len(data) && data[i] == '-'
	if neg {
		i++
	}
	var m uint64 // every digit read, the fraction's included
	nd := 0      // how many: at most 19 cannot overflow m
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && data[i] >= '1' && data[i] <= '9':
		// The first eight digits at once when there are eight (a millisecond
		// timestamp has thirteen): a fifth less CPU for 10,000 timestamps.
		if len(data)-i >= 8 {
			if v, ok := eightDigits(data[i:]); ok {
				m, nd, i = v, 8, i+8
			}
		}
		i, m, nd = mantissaDigits(data, i, m, nd)
	default:
		return 0, i, false
	}
	frac := 0
	if i < len(data) && data[i] == '.' {
		i++
		fs := i
		i, m, nd = mantissaDigits(data, i, m, nd)
		if i == fs {
			return 0, i, false
		}
		frac = i - fs
	}
	exact := nd <= 19 && m <= 1<<53 && frac < len(pow10)
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		exact = false
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		es := i
		i = digitsEnd(data, i)
		if i == es {
			return 0, i, false
		}
	}
	if exact {
		f := float64(m)
		if frac > 0 {
			f /= pow10[frac]
		}
		if neg {
			f = -f
		}
		return f, i, true
	}
	f, err := strconv.ParseFloat(string(data[start:i]), 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, i, false
	}
	return f, i, true
}

// eightDigits returns the value of the eight bytes at b[:8] read as decimal digits,
// and whether they all are digits. A byte is a digit when its high nibble is 3 and
// adding 6 to it leaves that nibble 3; adding 6 to each byte at once carries from
// one byte into the next only out of a byte above 0xF9, which fails the first test
// itself. The digits then combine in three multiplications (the first byte is the
// most significant digit).
func eightDigits(b []byte) (uint64, bool) {
	x := binary.LittleEndian.Uint64(b)
	if x&0xF0F0F0F0F0F0F0F0|(x+0x0606060606060606)&0xF0F0F0F0F0F0F0F0>>4 != 0x3333333333333333 {
		return 0, false
	}
	x -= 0x3030303030303030
	x = x*10 + x>>8 // each even byte: two digits
	return ((x&0x000000FF000000FF)*(100+1000000<<32) + (x>>16&0x000000FF000000FF)*(1+10000<<32)) >> 32, true
}

// mantissaDigits appends the decimal digits at data[i:] to m, which holds nd digits,
// and returns the index after them with the new m and count. m wraps past 19
// digits, which the count tells.
func mantissaDigits(data []byte, i int, m uint64, nd int) (int, uint64, int) {
	for ; i < len(data); i++ {
		c := data[i] - '0'
		if c > 9 {
			break
		}
		m = m*10 + uint64(c)
		nd++
	}
	return i, m, nd
}
