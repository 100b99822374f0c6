package chipauth

import (
	"encoding/asn1"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// name is an X.501 Name reduced to what comparison needs: its attributes as
// "oid=value" strings, values case-folded with spaces collapsed, sorted. Issuing
// states encode the same name with different string types and attribute orders
// in certificates and in SignerInfos, so names are compared by meaning, never
// by bytes.
type name struct {
	attrs []string
	raw   []byte
}

type attributeTypeAndValue struct {
	Type  asn1.ObjectIdentifier
	Value asn1.RawValue
}

func parseName(der []byte) (name, error) {
	if n, ok := readNameDER(der); ok {
		return n, nil
	}
	return readNameASN1(der)
}

// readNameDER reads a Name in plain DER without reflection: a SEQUENCE of SETs
// of SEQUENCE { type, value }. It accepts a subset of what readNameASN1 does,
// into the same name; ok is false for anything else.
func readNameDER(der []byte) (name, bool) {
	input := cryptobyte.String(der)
	var rdns cryptobyte.String
	if !input.ReadASN1(&rdns, cbasn1.SEQUENCE) || len(input) != 0 {
		return name{}, false
	}
	n := name{raw: der}
	for len(rdns) > 0 {
		var rdn cryptobyte.String
		if !rdns.ReadASN1(&rdn, cbasn1.SET) {
			return name{}, false
		}
		for len(rdn) > 0 {
			var atv, typ, full, content cryptobyte.String
			var tag cbasn1.Tag
			if !rdn.ReadASN1(&atv, cbasn1.SEQUENCE) || !atv.ReadASN1(&typ, cbasn1.OBJECT_IDENTIFIER) ||
				!atv.ReadAnyASN1Element(&full, &tag) || len(atv) != 0 || full[0]&0x1f == 0x1f {
				return name{}, false
			}
			if elem := full; !elem.ReadAnyASN1(&content, &tag) {
				return name{}, false
			}
			attr, ok := appendOIDText(make([]byte, 0, 64), typ)
			if !ok {
				return name{}, false
			}
			v := asn1.RawValue{Class: int(full[0] >> 6), Tag: int(full[0] & 0x1f), IsCompound: full[0]&0x20 != 0, Bytes: content, FullBytes: full}
			attr = append(append(attr, '='), normalizeNameValue(v)...)
			n.attrs = append(n.attrs, string(attr))
		}
	}
	slices.Sort(n.attrs)
	return n, true
}

// readNameASN1 reads a Name with encoding/asn1.
func readNameASN1(der []byte) (name, error) {
	var rdns []asn1.RawValue
	rest, err := asn1.Unmarshal(der, &rdns)
	if err != nil {
		return name{}, err
	}
	if len(rest) > 0 {
		return name{}, errors.New("trailing data")
	}
	n := name{raw: der}
	for _, rdn := range rdns {
		if rdn.Class != asn1.ClassUniversal || rdn.Tag != asn1.TagSet {
			return name{}, errors.New("relative distinguished name is not a SET")
		}
		rest := rdn.Bytes
		for len(rest) > 0 {
			var atv attributeTypeAndValue
			if rest, err = asn1.Unmarshal(rest, &atv); err != nil {
				return name{}, err
			}
			n.attrs = append(n.attrs, atv.Type.String()+"="+normalizeNameValue(atv.Value))
		}
	}
	slices.Sort(n.attrs)
	return n, nil
}

// normalizeNameValue folds a directory string for comparison: case-insensitive,
// leading/trailing spaces dropped, inner runs of spaces collapsed (RFC 5280 7.1).
func normalizeNameValue(v asn1.RawValue) string {
	s := string(v.Bytes)
	switch v.Tag {
	case 30: // BMPString, UTF-16BE
		var b strings.Builder
		for i := 0; i+1 < len(v.Bytes); i += 2 {
			b.WriteRune(rune(v.Bytes[i])<<8 | rune(v.Bytes[i+1]))
		}
		s = b.String()
	case asn1.TagPrintableString, asn1.TagUTF8String, asn1.TagIA5String, asn1.TagT61String, 26 /* VisibleString */ :
	default:
		s = fmt.Sprintf("#%x", v.FullBytes)
	}
	if folded, ok := foldASCII(s); ok {
		return folded
	}
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// foldASCII is strings.ToLower(strings.Join(strings.Fields(s), " ")) for
// ASCII s, in one allocation; ok is false when s is not ASCII.
func foldASCII(s string) (string, bool) {
	b := make([]byte, 0, len(s))
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80:
			return "", false
		case c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r':
			space = len(b) > 0
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		if space {
			b = append(b, ' ')
			space = false
		}
		b = append(b, c)
	}
	return string(b), true
}

// equal reports whether two names hold the same attributes.
func (n name) equal(o name) bool { return len(n.attrs) > 0 && slices.Equal(n.attrs, o.attrs) }

// key is a map key for the name.
func (n name) key() string { return strings.Join(n.attrs, "\x00") }

// appendOIDText appends the dotted-decimal form of the OBJECT IDENTIFIER
// content octets b, as asn1.ObjectIdentifier.String would print it; ok is false
// where cryptobyte's ReadASN1ObjectIdentifier refuses b (empty, a
// non-minimal or truncated component, a component of 2³¹ or more).
func appendOIDText(dst, b []byte) ([]byte, bool) {
	if len(b) == 0 {
		return dst, false
	}
	for first := true; len(b) > 0; first = false {
		v := 0
		for i := 0; ; i++ {
			if i == 5 || len(b) == 0 || v >= 1<<(31-7) || (i == 0 && b[0] == 0x80) {
				return dst, false
			}
			c := b[0]
			b = b[1:]
			v = v<<7 | int(c&0x7f)
			if c&0x80 == 0 {
				break
			}
		}
		if first {
			hi := 2
			if v < 80 {
				hi = v / 40
			}
			dst = strconv.AppendInt(dst, int64(hi), 10)
			v -= hi * 40
		}
		dst = strconv.AppendInt(append(dst, '.'), int64(v), 10)
	}
	return dst, true
}
