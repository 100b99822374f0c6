package chipauth

import (
	"crypto"
	"encoding/asn1"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// ldsSecurityObject is ICAO Doc 9303-10 LDSSecurityObject, versions 0 and 1.
type ldsSecurityObject struct {
	version     int
	hashOID     asn1.ObjectIdentifier
	hash        crypto.Hash // 0 when hashOID is not supported
	hashes      map[int][]byte
	order       []int // data group numbers in the order the SOD lists them
	ldsVersion  string
	unicodeVers string
}

type rawLDSSecurityObject struct {
	Version     int
	HashAlg     algorithmIdentifier
	Hashes      []dataGroupHash
	VersionInfo ldsVersionInfo `asn1:"optional"`
}

type dataGroupHash struct {
	Number int
	Hash   []byte
}

type ldsVersionInfo struct {
	LDSVersion     string `asn1:"printable"`
	UnicodeVersion string `asn1:"printable"`
}

// parseLDSSecurityObject reads the SOD's encapsulated content. An unknown
// hash algorithm is not a parse error; the caller reports it as unsupported.
func parseLDSSecurityObject(b []byte) (*ldsSecurityObject, error) {
	e, rest, err := readElement(b)
	if err != nil {
		return nil, err
	}
	if len(rest) > 0 {
		return nil, errors.New("LDSSecurityObject: trailing data")
	}
	raw, ok := readLDSSecurityObjectDER(e.full)
	if !ok {
		raw = rawLDSSecurityObject{}
		if err := unmarshalElement(e, &raw); err != nil {
			return nil, fmt.Errorf("LDSSecurityObject: %w", err)
		}
	}
	if raw.Version != 0 && raw.Version != 1 {
		return nil, fmt.Errorf("LDSSecurityObject: version %d", raw.Version)
	}
	if len(raw.Hashes) == 0 || len(raw.Hashes) > 16 {
		return nil, errors.New("LDSSecurityObject: data group hash list size out of range")
	}
	l := &ldsSecurityObject{
		version:     raw.Version,
		hashOID:     raw.HashAlg.Algorithm,
		hashes:      map[int][]byte{},
		ldsVersion:  raw.VersionInfo.LDSVersion,
		unicodeVers: raw.VersionInfo.UnicodeVersion,
	}
	l.hash, _ = hashForOID(raw.HashAlg.Algorithm)
	for _, h := range raw.Hashes {
		if h.Number < 1 || h.Number > 16 {
			return nil, fmt.Errorf("LDSSecurityObject: data group number %d", h.Number)
		}
		if _, dup := l.hashes[h.Number]; dup {
			return nil, fmt.Errorf("LDSSecurityObject: DG%d listed twice", h.Number)
		}
		if l.hash != 0 && len(h.Hash) != l.hash.Size() {
			return nil, fmt.Errorf("LDSSecurityObject: DG%d hash has the wrong length", h.Number)
		}
		l.hashes[h.Number] = h.Hash
		l.order = append(l.order, h.Number)
	}
	return l, nil
}

// readLDSSecurityObjectDER reads an LDSSecurityObject in plain DER without
// reflection, into what encoding/asn1 reads for rawLDSSecurityObject; ok is
// false for anything else (BER, other string types, extra fields), which is
// left to encoding/asn1.
func readLDSSecurityObjectDER(der []byte) (raw rawLDSSecurityObject, ok bool) {
	input := cryptobyte.String(der)
	var seq, list cryptobyte.String
	var version int64
	if !input.ReadASN1(&seq, cbasn1.SEQUENCE) || len(input) != 0 ||
		!seq.ReadASN1Integer(&version) || int64(int(version)) != version ||
		!readAlgorithmIdentifierDER(&seq, &raw.HashAlg) ||
		!seq.ReadASN1(&list, cbasn1.SEQUENCE) {
		return raw, false
	}
	raw.Version = int(version)
	raw.Hashes = []dataGroupHash{}
	for len(list) > 0 {
		var item, hash cryptobyte.String
		var n int64
		if !list.ReadASN1(&item, cbasn1.SEQUENCE) || !item.ReadASN1Integer(&n) || int64(int(n)) != n ||
			!item.ReadASN1(&hash, cbasn1.OCTET_STRING) || len(item) != 0 {
			return raw, false
		}
		raw.Hashes = append(raw.Hashes, dataGroupHash{Number: int(n), Hash: hash})
	}
	if len(seq) > 0 {
		var info, lds, unicode cryptobyte.String
		if !seq.ReadASN1(&info, cbasn1.SEQUENCE) || len(seq) != 0 ||
			!info.ReadASN1(&lds, cbasn1.PrintableString) || !info.ReadASN1(&unicode, cbasn1.PrintableString) ||
			len(info) != 0 || !strictlyPrintable(lds) || !strictlyPrintable(unicode) {
			return raw, false
		}
		raw.VersionInfo = ldsVersionInfo{LDSVersion: string(lds), UnicodeVersion: string(unicode)}
	}
	return raw, true
}

// strictlyPrintable reports whether b holds only PrintableString characters
// (X.680 §41.4), which encoding/asn1 accepts too.
func strictlyPrintable(b []byte) bool {
	for _, c := range b {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte(" '()+,-./:=?", c) >= 0:
		default:
			return false
		}
	}
	return true
}
