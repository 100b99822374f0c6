package chipauth

import (
	"crypto/ecdsa"
	"crypto/x509"
	"encoding/asn1"
	"errors"
	"fmt"
	"math/big"

	"github.com/veriland/veriland/chipauth/internal/eccurve"
)

// publicKey is a DS, CSCA or master-list signer key. chipauth parses keys
// itself because crypto/x509 rejects EC keys with explicit domain parameters,
// which ICAO Doc 9303 part 12 requires CSCAs and DSs to use.
type publicKey struct {
	rsa      *rsaKey
	ec       *ecdsa.PublicKey
	curve    string // curve name for EC keys
	explicit bool   // EC key given with explicit domain parameters
}

// String describes the key for results and logs, e.g. "EC brainpoolP384r1 (explicit)".
func (k publicKey) String() string {
	switch {
	case k.rsa != nil:
		return fmt.Sprintf("RSA-%d", k.rsa.pub.N.BitLen())
	case k.ec != nil && k.explicit:
		return "EC " + k.curve + " (explicit)"
	case k.ec != nil:
		return "EC " + k.curve
	}
	return "none"
}

type subjectPublicKeyInfo struct {
	Algorithm algorithmIdentifier
	PublicKey asn1.BitString
}

// ecParameters is ECParameters from RFC 3279 / ICAO 9303-11 (explicit domain parameters).
type ecParameters struct {
	Version  int
	FieldID  fieldID
	Curve    curveCoefficients
	Base     []byte
	Order    *big.Int
	Cofactor *big.Int `asn1:"optional"`
}

type fieldID struct {
	FieldType asn1.ObjectIdentifier
	Prime     *big.Int
}

type curveCoefficients struct {
	A    []byte
	B    []byte
	Seed asn1.BitString `asn1:"optional"`
}

// maxRSABits bounds RSA keys so that hostile input cannot make verification slow.
const maxRSABits = 8192

// errUnsupportedKey marks keys that are well formed but of an algorithm or curve
// passive authentication does not accept.
var errUnsupportedKey = errors.New("unsupported public key")

// parsePublicKey parses a DER SubjectPublicKeyInfo: RSA (rsaEncryption or
// id-RSASSA-PSS) or EC with a named curve or explicit parameters matching one
// of the known curves.
func parsePublicKey(spki []byte) (publicKey, error) {
	var info subjectPublicKeyInfo
	rest, err := asn1.Unmarshal(spki, &info)
	if err != nil {
		return publicKey{}, fmt.Errorf("subject public key info: %w", err)
	}
	if len(rest) > 0 {
		return publicKey{}, errors.New("subject public key info: trailing data")
	}
	alg := info.Algorithm.Algorithm
	switch {
	case alg.Equal(oidRSAEncryption), alg.Equal(oidRSAPSS):
		if info.PublicKey.BitLength%8 != 0 {
			return publicKey{}, errors.New("RSA public key: bit string not octet aligned")
		}
		k, err := x509.ParsePKCS1PublicKey(info.PublicKey.Bytes)
		if err != nil {
			return publicKey{}, fmt.Errorf("RSA public key: %w", err)
		}
		if k.N.BitLen() > maxRSABits {
			return publicKey{}, fmt.Errorf("%w: RSA key of %d bits", errUnsupportedKey, k.N.BitLen())
		}
		return publicKey{rsa: newRSAKey(k)}, nil
	case alg.Equal(oidECPublicKey):
		return parseECPublicKey(info.Algorithm.Parameters, info.PublicKey.Bytes)
	}
	return publicKey{}, fmt.Errorf("%w: algorithm %s", errUnsupportedKey, alg)
}

func parseECPublicKey(params asn1.RawValue, point []byte) (publicKey, error) {
	var c eccurve.Curve
	explicit := false
	switch {
	case params.Class == asn1.ClassUniversal && params.Tag == asn1.TagOID:
		var oid asn1.ObjectIdentifier
		if _, err := asn1.Unmarshal(params.FullBytes, &oid); err != nil {
			return publicKey{}, fmt.Errorf("EC curve OID: %w", err)
		}
		var ok bool
		if c, ok = eccurve.ByOID(oid); !ok {
			return publicKey{}, fmt.Errorf("%w: curve %s", errUnsupportedKey, oid)
		}
	case params.Class == asn1.ClassUniversal && params.Tag == asn1.TagSequence:
		var ep ecParameters
		if rest, err := asn1.Unmarshal(params.FullBytes, &ep); err != nil || len(rest) > 0 {
			return publicKey{}, errors.New("EC explicit parameters: malformed")
		}
		if !ep.FieldID.FieldType.Equal(oidPrimeField) || ep.FieldID.Prime == nil || ep.FieldID.Prime.Sign() <= 0 || ep.Order == nil {
			return publicKey{}, fmt.Errorf("%w: EC field is not a prime field", errUnsupportedKey)
		}
		// Match p, a, b and n before touching the base point: decoding a
		// compressed point takes a square root mod p, which needs p prime.
		a, b := new(big.Int).SetBytes(ep.Curve.A), new(big.Int).SetBytes(ep.Curve.B)
		var ok bool
		if c, ok = eccurve.ByParams(ep.FieldID.Prime, a, b, ep.Order); !ok {
			return publicKey{}, fmt.Errorf("%w: explicit EC parameters match no known curve", errUnsupportedKey)
		}
		cp := c.Curve.Params()
		gx, gy, ok := decodePoint(cp.P, c.A, c.B, ep.Base)
		if !ok || gx.Cmp(cp.Gx) != 0 || gy.Cmp(cp.Gy) != 0 {
			return publicKey{}, fmt.Errorf("%w: explicit EC base point is not the curve's", errUnsupportedKey)
		}
		explicit = true
	default:
		return publicKey{}, fmt.Errorf("%w: EC parameters are neither a named curve nor explicit", errUnsupportedKey)
	}
	x, y, ok := decodePoint(c.Curve.Params().P, c.A, c.B, point)
	if !ok {
		return publicKey{}, errors.New("EC public point is malformed or not on the curve")
	}
	return publicKey{ec: &ecdsa.PublicKey{Curve: c.Curve, X: x, Y: y}, curve: c.Name, explicit: explicit}, nil
}

// errBadSignature is returned by verify when the signature does not verify.
var errBadSignature = errors.New("signature does not verify")

// verify checks sig over message with the key and algorithm. A key that does not
// fit the algorithm (RSA key, ECDSA algorithm) is a failed signature.
func (k publicKey) verify(alg signatureAlgorithm, message, sig []byte) error {
	if !alg.hash.Available() {
		return fmt.Errorf("digest %v unavailable", alg.hash)
	}
	h := alg.hash.New()
	h.Write(message)
	digest := h.Sum(nil)
	return k.verifyDigest(alg, digest, sig)
}

func (k publicKey) verifyDigest(alg signatureAlgorithm, digest, sig []byte) error {
	switch alg.scheme {
	case schemeRSAPKCS1, schemeRSAPSS:
		if k.rsa == nil {
			return fmt.Errorf("%w: RSA signature with a non-RSA key", errBadSignature)
		}
		var err error
		if alg.scheme == schemeRSAPKCS1 {
			err = k.rsa.verifyPKCS1v15(alg.hash, digest, sig)
		} else {
			err = k.rsa.verifyPSS(alg.hash, digest, sig, alg.saltLen)
		}
		if err != nil {
			return fmt.Errorf("%w: %v", errBadSignature, err)
		}
		return nil
	case schemeECDSA, schemeECDSAPlain:
		if k.ec == nil {
			return fmt.Errorf("%w: ECDSA signature with a non-EC key", errBadSignature)
		}
		// The brainpool curves go to eccurve's fixed-size arithmetic, the same
		// result as crypto/ecdsa's generic big.Int path at a fraction of its cost;
		// the NIST curves stay on crypto/ecdsa, which is already fast.
		fast := eccurve.HasFastVerify(k.curve)
		ok := false
		switch {
		case alg.scheme == schemeECDSA && fast:
			ok = eccurve.VerifyASN1(k.curve, k.ec.X, k.ec.Y, digest, sig)
		case alg.scheme == schemeECDSA:
			ok = ecdsa.VerifyASN1(k.ec, digest, sig)
		case len(sig) > 0 && len(sig)%2 == 0:
			r := new(big.Int).SetBytes(sig[:len(sig)/2])
			s := new(big.Int).SetBytes(sig[len(sig)/2:])
			if fast {
				ok = eccurve.Verify(k.curve, k.ec.X, k.ec.Y, digest, r, s)
			} else {
				ok = ecdsa.Verify(k.ec, digest, r, s)
			}
		}
		if !ok {
			return errBadSignature
		}
		return nil
	}
	return fmt.Errorf("signature scheme %d not supported", alg.scheme)
}
