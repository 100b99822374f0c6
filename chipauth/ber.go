package chipauth

import (
	"errors"
	"fmt"
)

// maxBERDepth bounds the nesting the BER reader follows. Real SODs nest about ten
// levels deep; the bound keeps hostile input from recursing without end.
const maxBERDepth = 32

// ASN.1 universal tags and classes used by the readers in this package.
const (
	classUniversal   = 0
	classApplication = 1
	classContext     = 2

	tagInteger     = 2
	tagBitString   = 3
	tagOctetString = 4
	tagNull        = 5
	tagOID         = 6
	tagSequence    = 16
	tagSet         = 17
)

// element is one BER TLV read from the caller's bytes. full and content are
// sub-slices of the original input, so signed data can be verified over the exact
// bytes that were signed.
type element struct {
	class       int
	constructed bool
	tag         int
	indefinite  bool
	idLen       int    // number of identifier octets
	full        []byte // header, content and (for indefinite lengths) end-of-contents
	content     []byte // content octets only
	// definite is set when e is known to hold no indefinite length at any
	// depth: markDefinite sets it and children() passes it on, so that der()
	// need not walk the subtree again for every field of a DER document.
	definite bool
}

// markDefinite sets e.definite when nothing in e has an indefinite length.
func (e *element) markDefinite() {
	e.definite = !hasIndefinite(*e, 0)
}

var errTruncated = errors.New("asn1: truncated element")

// readElement reads one TLV from the front of b and returns it with the bytes after it.
func readElement(b []byte) (element, []byte, error) {
	return readElementDepth(b, 0)
}

func readElementDepth(b []byte, depth int) (element, []byte, error) {
	var e element
	if depth > maxBERDepth {
		return e, nil, errors.New("asn1: nesting too deep")
	}
	if len(b) < 2 {
		return e, nil, errTruncated
	}
	id := b[0]
	e.class = int(id >> 6)
	e.constructed = id&0x20 != 0
	e.tag = int(id & 0x1f)
	off := 1
	if e.tag == 0x1f {
		e.tag = 0
		for {
			if off >= len(b) {
				return e, nil, errTruncated
			}
			c := b[off]
			off++
			if e.tag > 1<<20 {
				return e, nil, errors.New("asn1: tag number too large")
			}
			e.tag = e.tag<<7 | int(c&0x7f)
			if c&0x80 == 0 {
				break
			}
		}
	}
	if off >= len(b) {
		return e, nil, errTruncated
	}
	e.idLen = off
	l := b[off]
	off++
	switch {
	case l < 0x80:
		end := off + int(l)
		if end > len(b) {
			return e, nil, errTruncated
		}
		e.content, e.full = b[off:end], b[:end]
		return e, b[end:], nil
	case l == 0x80:
		if !e.constructed {
			return e, nil, errors.New("asn1: indefinite length on a primitive element")
		}
		e.indefinite = true
		rest := b[off:]
		for {
			if len(rest) >= 2 && rest[0] == 0 && rest[1] == 0 {
				end := len(b) - len(rest)
				e.content, e.full = b[off:end], b[:end+2]
				return e, rest[2:], nil
			}
			var err error
			if _, rest, err = readElementDepth(rest, depth+1); err != nil {
				return e, nil, err
			}
		}
	default:
		n := int(l & 0x7f)
		if n > 4 {
			return e, nil, errors.New("asn1: length too long")
		}
		if off+n > len(b) {
			return e, nil, errTruncated
		}
		length := 0
		for _, c := range b[off : off+n] {
			length = length<<8 | int(c)
		}
		off += n
		if length < 0 || length > len(b)-off {
			return e, nil, errTruncated
		}
		end := off + length
		e.content, e.full = b[off:end], b[:end]
		return e, b[end:], nil
	}
}

// children reads the elements inside a constructed element.
func (e element) children() ([]element, error) {
	if !e.constructed {
		return nil, errors.New("asn1: expected a constructed element")
	}
	n := 0
	for rest := e.content; len(rest) > 0; n++ {
		_, r, err := readElement(rest)
		if err != nil {
			return nil, err
		}
		rest = r
	}
	if n == 0 {
		return nil, nil
	}
	out := make([]element, 0, n)
	for rest := e.content; len(rest) > 0; {
		c, r, _ := readElement(rest)
		// A child of an element without indefinite lengths has none either
		// (hasIndefinite looks into every child once all of them parse).
		c.definite = e.definite
		out = append(out, c)
		rest = r
	}
	return out, nil
}

// is reports whether e has the given class and tag number.
func (e element) is(class, tag int) bool { return e.class == class && e.tag == tag }

// expect checks class, tag and form and names what was expected in the error.
func (e element) expect(class, tag int, constructed bool, what string) error {
	if e.class != class || e.tag != tag || e.constructed != constructed {
		return fmt.Errorf("asn1: expected %s", what)
	}
	return nil
}

// octets returns the value of an OCTET STRING, joining the segments of a BER
// constructed OCTET STRING.
func (e element) octets() ([]byte, error) {
	if e.class != classUniversal || e.tag != tagOctetString {
		return nil, errors.New("asn1: expected an OCTET STRING")
	}
	if !e.constructed {
		return e.content, nil
	}
	parts, err := e.children()
	if err != nil {
		return nil, err
	}
	var out []byte
	for _, p := range parts {
		v, err := p.octets()
		if err != nil {
			return nil, err
		}
		out = append(out, v...)
	}
	return out, nil
}

// der returns the element's bytes in definite-length form, re-encoding the
// headers of indefinite-length elements (content bytes are kept) so that
// encoding/asn1 can read them. Elements that are already definite are returned as is.
func (e element) der() ([]byte, error) {
	if e.definite || !hasIndefinite(e, 0) {
		return e.full, nil
	}
	return toDefinite(e, 0)
}

// hasIndefinite reports whether e or anything inside it has an indefinite
// length. Past maxBERDepth it answers true so that toDefinite reports the depth.
// Contents that do not parse as elements answer false (encoding/asn1 then
// reports them). It walks the bytes in place: certificates are checked this
// way on every document, and almost all are DER.
func hasIndefinite(e element, depth int) bool {
	if e.indefinite || depth > maxBERDepth {
		return true
	}
	if !e.constructed {
		return false
	}
	// As children() would: when any child fails to parse, e's contents are not
	// elements and the answer is false, whatever an earlier child holds. So every
	// child is read, in one pass, and looked into only until one answers true.
	found := false
	for rest := e.content; len(rest) > 0; {
		k, r, err := readElement(rest)
		if err != nil {
			return false
		}
		if !found {
			found = hasIndefinite(k, depth+1)
		}
		rest = r
	}
	return found
}

func toDefinite(e element, depth int) ([]byte, error) {
	if depth > maxBERDepth {
		return nil, errors.New("asn1: nesting too deep")
	}
	if !e.constructed {
		return e.full, nil
	}
	kids, err := e.children()
	if err != nil {
		return nil, err
	}
	var body []byte
	for _, k := range kids {
		kb, err := toDefinite(k, depth+1)
		if err != nil {
			return nil, err
		}
		body = append(body, kb...)
	}
	if e.idLen < 1 || e.idLen > len(e.full) {
		return nil, errors.New("asn1: malformed header")
	}
	out := append([]byte{}, e.full[:e.idLen]...)
	out = appendLength(out, len(body))
	return append(out, body...), nil
}

func appendLength(b []byte, n int) []byte {
	switch {
	case n < 0x80:
		return append(b, byte(n))
	case n <= 0xff:
		return append(b, 0x81, byte(n))
	case n <= 0xffff:
		return append(b, 0x82, byte(n>>8), byte(n))
	case n <= 0xffffff:
		return append(b, 0x83, byte(n>>16), byte(n>>8), byte(n))
	default:
		return append(b, 0x84, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	}
}
