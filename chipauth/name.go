package chipauth

import (
	"encoding/asn1"
	"errors"
	"fmt"
	"slices"
	"strings"
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
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// equal reports whether two names hold the same attributes.
func (n name) equal(o name) bool { return len(n.attrs) > 0 && slices.Equal(n.attrs, o.attrs) }

// key is a map key for the name.
func (n name) key() string { return strings.Join(n.attrs, "\x00") }
