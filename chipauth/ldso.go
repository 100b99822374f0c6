package chipauth

import (
	"crypto"
	"encoding/asn1"
	"errors"
	"fmt"
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
	var raw rawLDSSecurityObject
	if err := unmarshalElement(e, &raw); err != nil {
		return nil, fmt.Errorf("LDSSecurityObject: %w", err)
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
