package mrzcheck

// Digit returns the check digit of an MRZ field: weights 7, 3, 1 repeating;
// digits count as themselves, A–Z as 10–35, '<' (and anything else) as 0.
func Digit(field string) byte {
	weights := [3]int{7, 3, 1}
	sum := 0
	for i := 0; i < len(field); i++ {
		c, v := field[i], 0
		switch {
		case c >= '0' && c <= '9':
			v = int(c - '0')
		case c >= 'A' && c <= 'Z':
			v = int(c-'A') + 10
		}
		sum += v * weights[i%3]
	}
	return byte('0' + sum%10)
}
