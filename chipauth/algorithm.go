package chipauth

import (
	"crypto"
	_ "crypto/sha1" // SHA-1 digests appear in real SODs (RU)
	_ "crypto/sha256"
	_ "crypto/sha512"
	"encoding/asn1"
	"errors"
	"fmt"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// Object identifiers for the algorithms passive authentication accepts.
var (
	oidSHA1   = asn1.ObjectIdentifier{1, 3, 14, 3, 2, 26}
	oidSHA224 = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 4}
	oidSHA256 = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 1}
	oidSHA384 = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 2}
	oidSHA512 = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 3}

	oidRSAEncryption = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 1}
	oidRSASHA1       = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 5}
	oidRSASHA256     = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 11}
	oidRSASHA384     = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 12}
	oidRSASHA512     = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 13}
	oidRSASHA224     = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 14}
	oidRSAPSS        = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 10}
	oidMGF1          = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 8}

	oidECPublicKey   = asn1.ObjectIdentifier{1, 2, 840, 10045, 2, 1}
	oidPrimeField    = asn1.ObjectIdentifier{1, 2, 840, 10045, 1, 1}
	oidECDSASHA1     = asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 1}
	oidECDSASHA224   = asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 3, 1}
	oidECDSASHA256   = asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 3, 2}
	oidECDSASHA384   = asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 3, 3}
	oidECDSASHA512   = asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 3, 4}
	oidECDSAPlainPfx = asn1.ObjectIdentifier{0, 4, 0, 127, 0, 7, 1, 1, 4, 1} // BSI TR-03111 ecdsa-plain-signatures
)

// algorithmIdentifier is X.509's AlgorithmIdentifier with its parameters kept raw.
type algorithmIdentifier struct {
	Algorithm  asn1.ObjectIdentifier
	Parameters asn1.RawValue `asn1:"optional"`
}

func parseAlgorithmIdentifier(e element) (algorithmIdentifier, error) {
	var ai algorithmIdentifier
	der, err := e.der()
	if err != nil {
		return ai, err
	}
	if s := cryptobyte.String(der); readAlgorithmIdentifierDER(&s, &ai) && len(s) == 0 {
		return ai, nil
	}
	ai = algorithmIdentifier{}
	rest, err := asn1.Unmarshal(der, &ai)
	if err != nil {
		return ai, fmt.Errorf("algorithm identifier: %w", err)
	}
	if len(rest) > 0 {
		return ai, errors.New("algorithm identifier: trailing data")
	}
	return ai, nil
}

// hashForOID maps a digest algorithm OID to its hash.
func hashForOID(oid asn1.ObjectIdentifier) (crypto.Hash, bool) {
	switch {
	case oid.Equal(oidSHA1):
		return crypto.SHA1, true
	case oid.Equal(oidSHA224):
		return crypto.SHA224, true
	case oid.Equal(oidSHA256):
		return crypto.SHA256, true
	case oid.Equal(oidSHA384):
		return crypto.SHA384, true
	case oid.Equal(oidSHA512):
		return crypto.SHA512, true
	}
	return 0, false
}

// signatureScheme is the family of a signature algorithm.
type signatureScheme int

const (
	schemeRSAPKCS1 signatureScheme = iota + 1
	schemeRSAPSS
	schemeECDSA      // DER SEQUENCE { r, s }
	schemeECDSAPlain // r || s, BSI TR-03111
)

// signatureAlgorithm is a parsed signature AlgorithmIdentifier.
type signatureAlgorithm struct {
	scheme  signatureScheme
	hash    crypto.Hash
	saltLen int // RSA-PSS only
}

// String names the algorithm the way Result reports it, e.g. "ECDSA-SHA-384".
func (a signatureAlgorithm) String() string {
	switch a.scheme {
	case schemeRSAPKCS1:
		return "RSA-PKCS1v15-" + a.hash.String()
	case schemeRSAPSS:
		return "RSASSA-PSS-" + a.hash.String()
	case schemeECDSA:
		return "ECDSA-" + a.hash.String()
	case schemeECDSAPlain:
		return "ECDSA-plain-" + a.hash.String()
	}
	return "unknown"
}

// parseSignatureAlgorithm reads a signature AlgorithmIdentifier. CMS signers may
// name a bare key algorithm (rsaEncryption, id-ecPublicKey); the hash then comes
// from the SignerInfo's digestAlgorithm, passed as digest (0 where none applies).
func parseSignatureAlgorithm(ai algorithmIdentifier, digest crypto.Hash) (signatureAlgorithm, error) {
	oid := ai.Algorithm
	withDigest := func(s signatureScheme) (signatureAlgorithm, error) {
		if digest == 0 {
			return signatureAlgorithm{}, fmt.Errorf("signature algorithm %s names no digest", oid)
		}
		return signatureAlgorithm{scheme: s, hash: digest}, nil
	}
	switch {
	case oid.Equal(oidRSAEncryption):
		return withDigest(schemeRSAPKCS1)
	case oid.Equal(oidECPublicKey):
		return withDigest(schemeECDSA)
	case oid.Equal(oidRSASHA1):
		return signatureAlgorithm{scheme: schemeRSAPKCS1, hash: crypto.SHA1}, nil
	case oid.Equal(oidRSASHA224):
		return signatureAlgorithm{scheme: schemeRSAPKCS1, hash: crypto.SHA224}, nil
	case oid.Equal(oidRSASHA256):
		return signatureAlgorithm{scheme: schemeRSAPKCS1, hash: crypto.SHA256}, nil
	case oid.Equal(oidRSASHA384):
		return signatureAlgorithm{scheme: schemeRSAPKCS1, hash: crypto.SHA384}, nil
	case oid.Equal(oidRSASHA512):
		return signatureAlgorithm{scheme: schemeRSAPKCS1, hash: crypto.SHA512}, nil
	case oid.Equal(oidECDSASHA1):
		return signatureAlgorithm{scheme: schemeECDSA, hash: crypto.SHA1}, nil
	case oid.Equal(oidECDSASHA224):
		return signatureAlgorithm{scheme: schemeECDSA, hash: crypto.SHA224}, nil
	case oid.Equal(oidECDSASHA256):
		return signatureAlgorithm{scheme: schemeECDSA, hash: crypto.SHA256}, nil
	case oid.Equal(oidECDSASHA384):
		return signatureAlgorithm{scheme: schemeECDSA, hash: crypto.SHA384}, nil
	case oid.Equal(oidECDSASHA512):
		return signatureAlgorithm{scheme: schemeECDSA, hash: crypto.SHA512}, nil
	case oid.Equal(oidRSAPSS):
		return parsePSSParameters(ai.Parameters)
	case len(oid) == len(oidECDSAPlainPfx)+1 && oid[:len(oidECDSAPlainPfx)].Equal(oidECDSAPlainPfx):
		hashes := map[int]crypto.Hash{1: crypto.SHA1, 2: crypto.SHA224, 3: crypto.SHA256, 4: crypto.SHA384, 5: crypto.SHA512}
		if h, ok := hashes[oid[len(oid)-1]]; ok {
			return signatureAlgorithm{scheme: schemeECDSAPlain, hash: h}, nil
		}
	}
	return signatureAlgorithm{}, fmt.Errorf("signature algorithm %s is not supported", oid)
}

// pssParameters is RSASSA-PSS-params (RFC 4055); absent members take the
// RFC's defaults (SHA-1, MGF1 with SHA-1, salt 20, trailer 1).
type pssParameters struct {
	Hash         algorithmIdentifier `asn1:"explicit,optional,tag:0"`
	MGF          algorithmIdentifier `asn1:"explicit,optional,tag:1"`
	SaltLength   int                 `asn1:"explicit,optional,default:20,tag:2"`
	TrailerField int                 `asn1:"explicit,optional,default:1,tag:3"`
}

func parsePSSParameters(raw asn1.RawValue) (signatureAlgorithm, error) {
	var p pssParameters
	if len(raw.FullBytes) > 0 {
		if !readPSSParametersDER(raw.FullBytes, &p) {
			p = pssParameters{}
			if rest, err := asn1.Unmarshal(raw.FullBytes, &p); err != nil || len(rest) > 0 {
				return signatureAlgorithm{}, errors.New("malformed RSASSA-PSS parameters")
			}
		}
	} else {
		p.SaltLength, p.TrailerField = 20, 1
	}
	hash := crypto.SHA1
	if len(p.Hash.Algorithm) > 0 {
		h, ok := hashForOID(p.Hash.Algorithm)
		if !ok {
			return signatureAlgorithm{}, fmt.Errorf("RSASSA-PSS digest %s is not supported", p.Hash.Algorithm)
		}
		hash = h
	}
	mgfHash := crypto.SHA1
	if len(p.MGF.Algorithm) > 0 {
		if !p.MGF.Algorithm.Equal(oidMGF1) {
			return signatureAlgorithm{}, errors.New("RSASSA-PSS mask generation function is not MGF1")
		}
		var inner algorithmIdentifier
		if s := cryptobyte.String(p.MGF.Parameters.FullBytes); !readAlgorithmIdentifierDER(&s, &inner) {
			inner = algorithmIdentifier{}
			if _, err := asn1.Unmarshal(p.MGF.Parameters.FullBytes, &inner); err != nil {
				return signatureAlgorithm{}, errors.New("malformed MGF1 parameters")
			}
		}
		h, ok := hashForOID(inner.Algorithm)
		if !ok {
			return signatureAlgorithm{}, fmt.Errorf("MGF1 digest %s is not supported", inner.Algorithm)
		}
		mgfHash = h
	}
	// crypto/rsa uses the signature digest for MGF1 too.
	if mgfHash != hash {
		return signatureAlgorithm{}, errors.New("RSASSA-PSS with different MGF1 digest is not supported")
	}
	if p.TrailerField != 1 || p.SaltLength < 0 || p.SaltLength > 1024 {
		return signatureAlgorithm{}, errors.New("RSASSA-PSS parameters out of range")
	}
	return signatureAlgorithm{scheme: schemeRSAPSS, hash: hash, saltLen: p.SaltLength}, nil
}

// readPSSParametersDER reads RSASSA-PSS-params in plain DER without
// reflection, into what encoding/asn1 reads for pssParameters (absent members
// take their defaults); ok is false for anything else, left to encoding/asn1.
func readPSSParametersDER(der []byte, p *pssParameters) bool {
	input := cryptobyte.String(der)
	var seq cryptobyte.String
	if !input.ReadASN1(&seq, cbasn1.SEQUENCE) || len(input) != 0 {
		return false
	}
	p.SaltLength, p.TrailerField = 20, 1
	for i, ai := range []*algorithmIdentifier{&p.Hash, &p.MGF} {
		tag := cbasn1.Tag(i).Constructed().ContextSpecific()
		if !seq.PeekASN1Tag(tag) {
			continue
		}
		var inner cryptobyte.String
		if !seq.ReadASN1(&inner, tag) || !readAlgorithmIdentifierDER(&inner, ai) || len(inner) != 0 {
			return false
		}
	}
	for i, v := range []*int{&p.SaltLength, &p.TrailerField} {
		tag := cbasn1.Tag(2 + i).Constructed().ContextSpecific()
		if !seq.PeekASN1Tag(tag) {
			continue
		}
		var inner cryptobyte.String
		var n int64
		if !seq.ReadASN1(&inner, tag) || !inner.ReadASN1Integer(&n) || len(inner) != 0 || int64(int(n)) != n {
			return false
		}
		*v = int(n)
	}
	return len(seq) == 0
}
