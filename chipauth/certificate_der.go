package chipauth

import (
	"encoding/asn1"
	"time"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// readCertificateDER reads a certificate in plain DER without reflection. It
// accepts only what readCertificateASN1 accepts and returns the same fields;
// ok is false for anything outside its narrower shape (BER, high tag numbers,
// unique identifiers, fractional or non-UTC times, trailing fields), which is
// then left to readCertificateASN1.
func readCertificateDER(der []byte) (f certificateFields, n int, ok bool) {
	input := cryptobyte.String(der)
	var cert, tbs, tbsBody cryptobyte.String
	if !input.ReadASN1(&cert, cbasn1.SEQUENCE) || len(input) != 0 ||
		!cert.ReadASN1Element(&tbs, cbasn1.SEQUENCE) ||
		!readAlgorithmIdentifierDER(&cert, &f.sigAlg) {
		return f, 0, false
	}
	if !cert.ReadASN1BitStringAsBytes(&f.signature) || len(cert) != 0 {
		return f, 0, false
	}
	f.rawTBS = tbs
	if !tbs.ReadASN1(&tbsBody, cbasn1.SEQUENCE) {
		return f, 0, false
	}
	if tbsBody.PeekASN1Tag(cbasn1.Tag(0).Constructed().ContextSpecific()) {
		var version cryptobyte.String
		var v int64
		if !tbsBody.ReadASN1(&version, cbasn1.Tag(0).Constructed().ContextSpecific()) ||
			!version.ReadASN1Integer(&v) || len(version) != 0 || int64(int(v)) != v {
			return f, 0, false
		}
	}
	var serial, issuer, validity, subject, spki cryptobyte.String
	if !tbsBody.ReadASN1(&serial, cbasn1.INTEGER) || len(serial) == 0 ||
		!readAlgorithmIdentifierDER(&tbsBody, new(algorithmIdentifier)) ||
		!tbsBody.ReadASN1Element(&issuer, cbasn1.SEQUENCE) ||
		!tbsBody.ReadASN1(&validity, cbasn1.SEQUENCE) ||
		!readTimeDER(&validity, &f.notBefore) || !readTimeDER(&validity, &f.notAfter) || len(validity) != 0 ||
		!tbsBody.ReadASN1Element(&subject, cbasn1.SEQUENCE) ||
		!tbsBody.ReadASN1Element(&spki, cbasn1.SEQUENCE) {
		return f, 0, false
	}
	f.serial, f.issuer, f.subject, f.publicKey = serial, issuer, subject, spki
	if len(tbsBody) > 0 {
		var exts, list cryptobyte.String
		if !tbsBody.ReadASN1(&exts, cbasn1.Tag(3).Constructed().ContextSpecific()) || len(tbsBody) != 0 ||
			!exts.ReadASN1(&list, cbasn1.SEQUENCE) || len(exts) != 0 {
			return f, 0, false
		}
		for len(list) > 0 {
			var ext, value cryptobyte.String
			var e extension
			if !list.ReadASN1(&ext, cbasn1.SEQUENCE) || !readObjectIdentifierDER(&ext, &e.ID) {
				return f, 0, false
			}
			if ext.PeekASN1Tag(cbasn1.BOOLEAN) {
				var b cryptobyte.String
				if !ext.ReadASN1(&b, cbasn1.BOOLEAN) || len(b) != 1 || (b[0] != 0 && b[0] != 0xff) {
					return f, 0, false
				}
				e.Critical = b[0] == 0xff
			}
			if !ext.ReadASN1(&value, cbasn1.OCTET_STRING) || len(ext) != 0 {
				return f, 0, false
			}
			e.Value = value
			f.extensions = append(f.extensions, e)
		}
	}
	return f, len(der), true
}

// readAlgorithmIdentifierDER reads an AlgorithmIdentifier holding an OID and
// at most one parameter element with a low tag number.
func readAlgorithmIdentifierDER(s *cryptobyte.String, ai *algorithmIdentifier) bool {
	var seq cryptobyte.String
	if !s.ReadASN1(&seq, cbasn1.SEQUENCE) || !readObjectIdentifierDER(&seq, &ai.Algorithm) {
		return false
	}
	if len(seq) == 0 {
		return true
	}
	var full, content cryptobyte.String
	var tag cbasn1.Tag
	if !seq.ReadAnyASN1Element(&full, &tag) || len(seq) != 0 || full[0]&0x1f == 0x1f {
		return false
	}
	if elem := full; !elem.ReadAnyASN1(&content, &tag) {
		return false
	}
	ai.Parameters = asn1.RawValue{
		Class:      int(full[0] >> 6),
		Tag:        int(full[0] & 0x1f),
		IsCompound: full[0]&0x20 != 0,
		Bytes:      content,
		FullBytes:  full,
	}
	return true
}

// readObjectIdentifierDER reads an OBJECT IDENTIFIER as encoding/asn1 would.
func readObjectIdentifierDER(s *cryptobyte.String, oid *asn1.ObjectIdentifier) bool {
	var o asn1.ObjectIdentifier
	if !s.ReadASN1ObjectIdentifier(&o) {
		return false
	}
	*oid = o
	return true
}

// readTimeDER reads a UTCTime or GeneralizedTime of whole seconds in UTC
// ("YYMMDDHHMMSSZ", "YYYYMMDDHHMMSSZ") that encoding/asn1 would accept: a
// valid date and time that time.Date keeps as written.
func readTimeDER(s *cryptobyte.String, t *time.Time) bool {
	var v cryptobyte.String
	var year int
	switch {
	case s.PeekASN1Tag(cbasn1.UTCTime):
		if !s.ReadASN1(&v, cbasn1.UTCTime) || len(v) != 13 || v[12] != 'Z' || !allDigits(v[:12]) {
			return false
		}
		year = twoDigits(v[0:2])
		// encoding/asn1, after RFC 5280: YY ≥ 50 is 19YY, otherwise 20YY.
		if year >= 50 {
			year += 1900
		} else {
			year += 2000
		}
		v = v[2:]
	case s.PeekASN1Tag(cbasn1.GeneralizedTime):
		if !s.ReadASN1(&v, cbasn1.GeneralizedTime) || len(v) != 15 || v[14] != 'Z' || !allDigits(v[:14]) {
			return false
		}
		year = twoDigits(v[0:2])*100 + twoDigits(v[2:4])
		v = v[4:]
	default:
		return false
	}
	month, day, hour, minute, second := twoDigits(v[0:2]), twoDigits(v[2:4]), twoDigits(v[4:6]), twoDigits(v[6:8]), twoDigits(v[8:10])
	if month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59 {
		return false
	}
	d := time.Date(year, time.Month(month), day, hour, minute, second, 0, time.UTC)
	if d.Day() != day || d.Month() != time.Month(month) {
		return false // e.g. 31 April, which time.Parse refuses
	}
	*t = d
	return true
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func twoDigits(b []byte) int { return int(b[0]-'0')*10 + int(b[1]-'0') }
