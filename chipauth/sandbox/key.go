package sandbox

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/x509"
	"encoding/asn1"
	"errors"
	"fmt"
	"io"
	"math/big"

	"github.com/keybase/go-crypto/brainpool"
	"github.com/veriland/veriland/chipauth/internal/eccurve"
)

// KeyType is the kind of key a test certificate is issued for.
type KeyType string

// Key types chipauth accepts.
const (
	RSA2048         KeyType = "RSA-2048"
	RSA3072         KeyType = "RSA-3072"
	RSA4096         KeyType = "RSA-4096"
	P256            KeyType = "P-256"
	P384            KeyType = "P-384"
	P521            KeyType = "P-521"
	BrainpoolP256r1 KeyType = "brainpoolP256r1"
	BrainpoolP384r1 KeyType = "brainpoolP384r1"
	BrainpoolP512r1 KeyType = "brainpoolP512r1"
)

// Scheme is how a key signs: RSA keys sign with PKCS1v15 or PSS, EC keys with ECDSA.
type Scheme string

// Signature schemes.
const (
	PKCS1v15 Scheme = "RSA-PKCS1v15"
	PSS      Scheme = "RSASSA-PSS"
	ECDSA    Scheme = "ECDSA"
)

// GenerateKey creates a private key of type kt. A nil random means crypto/rand.
func GenerateKey(kt KeyType, random io.Reader) (crypto.Signer, error) {
	if random == nil {
		random = rand.Reader
	}
	switch kt {
	case RSA2048:
		return rsa.GenerateKey(random, 2048)
	case RSA3072:
		return rsa.GenerateKey(random, 3072)
	case RSA4096:
		return rsa.GenerateKey(random, 4096)
	}
	c, err := curveOf(kt)
	if err != nil {
		return nil, err
	}
	return ecdsa.GenerateKey(c, random)
}

func curveOf(kt KeyType) (elliptic.Curve, error) {
	switch kt {
	case P256:
		return elliptic.P256(), nil
	case P384:
		return elliptic.P384(), nil
	case P521:
		return elliptic.P521(), nil
	case BrainpoolP256r1:
		return brainpool.P256r1(), nil
	case BrainpoolP384r1:
		return brainpool.P384r1(), nil
	case BrainpoolP512r1:
		return brainpool.P512r1(), nil
	}
	return nil, fmt.Errorf("sandbox: unknown key type %q", kt)
}

var (
	oidECPublicKey = asn1.ObjectIdentifier{1, 2, 840, 10045, 2, 1}
	oidPrimeField  = asn1.ObjectIdentifier{1, 2, 840, 10045, 1, 1}
	oidRSAPSS      = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 10}
	oidMGF1        = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 8}
)

// marshalPublicKey encodes a SubjectPublicKeyInfo; EC keys with explicit
// domain parameters when explicit is set, as ICAO Doc 9303-12 asks of CSCAs and DSs.
func marshalPublicKey(pub crypto.PublicKey, explicit bool) ([]byte, error) {
	switch k := pub.(type) {
	case *rsa.PublicKey:
		return x509.MarshalPKIXPublicKey(k)
	case *ecdsa.PublicKey:
		c, ok := eccurve.ByCurve(k.Curve)
		if !ok {
			return nil, errors.New("sandbox: unknown curve")
		}
		params := c.Curve.Params()
		size := (params.P.BitLen() + 7) / 8
		point := encodePoint(size, k.X, k.Y)
		var alg []byte
		if explicit {
			ecParams, err := asn1.Marshal(struct {
				Version int
				Field   struct {
					Type  asn1.ObjectIdentifier
					Prime *big.Int
				}
				Curve struct{ A, B []byte }
				Base  []byte
				Order *big.Int
				Cof   int
			}{
				Version: 1,
				Field: struct {
					Type  asn1.ObjectIdentifier
					Prime *big.Int
				}{oidPrimeField, params.P},
				Curve: struct{ A, B []byte }{c.A.FillBytes(make([]byte, size)), c.B.FillBytes(make([]byte, size))},
				Base:  encodePoint(size, params.Gx, params.Gy),
				Order: params.N,
				Cof:   1,
			})
			if err != nil {
				return nil, err
			}
			alg = ecParams
		} else {
			oid, err := asn1.Marshal(c.OID)
			if err != nil {
				return nil, err
			}
			alg = oid
		}
		oid, _ := asn1.Marshal(oidECPublicKey)
		bits, err := asn1.Marshal(asn1.BitString{Bytes: point, BitLength: 8 * len(point)})
		if err != nil {
			return nil, err
		}
		return tlv(0x30, tlv(0x30, oid, alg), bits), nil
	}
	return nil, fmt.Errorf("sandbox: unsupported public key %T", pub)
}

func encodePoint(size int, x, y *big.Int) []byte {
	out := make([]byte, 1+2*size)
	out[0] = 4
	x.FillBytes(out[1 : 1+size])
	y.FillBytes(out[1+size:])
	return out
}

// subjectKeyID is the SHA-1 of the public point or modulus encoding (RFC 5280 method 1).
func subjectKeyID(spki []byte) []byte {
	var info struct {
		Alg asn1.RawValue
		Key asn1.BitString
	}
	if _, err := asn1.Unmarshal(spki, &info); err != nil {
		return nil
	}
	sum := sha1.Sum(info.Key.Bytes)
	return sum[:]
}

// signatureAlgorithm returns the DER AlgorithmIdentifier for a scheme and hash.
func signatureAlgorithm(scheme Scheme, h crypto.Hash) ([]byte, error) {
	hashOID, ok := digestOID(h)
	if !ok {
		return nil, fmt.Errorf("sandbox: unsupported digest %v", h)
	}
	var oid asn1.ObjectIdentifier
	switch scheme {
	case PKCS1v15:
		oid = map[crypto.Hash]asn1.ObjectIdentifier{
			crypto.SHA1: {1, 2, 840, 113549, 1, 1, 5}, crypto.SHA224: {1, 2, 840, 113549, 1, 1, 14},
			crypto.SHA256: {1, 2, 840, 113549, 1, 1, 11}, crypto.SHA384: {1, 2, 840, 113549, 1, 1, 12},
			crypto.SHA512: {1, 2, 840, 113549, 1, 1, 13},
		}[h]
	case ECDSA:
		oid = map[crypto.Hash]asn1.ObjectIdentifier{
			crypto.SHA1: {1, 2, 840, 10045, 4, 1}, crypto.SHA224: {1, 2, 840, 10045, 4, 3, 1},
			crypto.SHA256: {1, 2, 840, 10045, 4, 3, 2}, crypto.SHA384: {1, 2, 840, 10045, 4, 3, 3},
			crypto.SHA512: {1, 2, 840, 10045, 4, 3, 4},
		}[h]
	case PSS:
		o, _ := asn1.Marshal(oidRSAPSS)
		hashAlg := tlv(0x30, mustMarshal(hashOID))
		mgfOID, _ := asn1.Marshal(oidMGF1)
		salt, _ := asn1.Marshal(h.Size())
		params := tlv(0x30,
			tlv(0xa0, hashAlg),
			tlv(0xa1, tlv(0x30, mgfOID, hashAlg)),
			tlv(0xa2, salt),
		)
		return tlv(0x30, o, params), nil
	default:
		return nil, fmt.Errorf("sandbox: unknown scheme %q", scheme)
	}
	return tlv(0x30, mustMarshal(oid)), nil
}

// digestOID returns the digest algorithm identifier of h.
func digestOID(h crypto.Hash) (asn1.ObjectIdentifier, bool) {
	switch h {
	case crypto.SHA1:
		return asn1.ObjectIdentifier{1, 3, 14, 3, 2, 26}, true
	case crypto.SHA224:
		return asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 4}, true
	case crypto.SHA256:
		return asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 1}, true
	case crypto.SHA384:
		return asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 2}, true
	case crypto.SHA512:
		return asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 3}, true
	}
	return nil, false
}

func mustMarshal(v any) []byte {
	b, err := asn1.Marshal(v)
	if err != nil {
		panic(err) // only called on OIDs and ints, which always marshal
	}
	return b
}

// sign signs message with key under scheme and h.
func sign(key crypto.Signer, scheme Scheme, h crypto.Hash, random io.Reader, message []byte) ([]byte, error) {
	if random == nil {
		random = rand.Reader
	}
	hh := h.New()
	hh.Write(message)
	digest := hh.Sum(nil)
	switch k := key.(type) {
	case *rsa.PrivateKey:
		switch scheme {
		case PKCS1v15:
			return rsa.SignPKCS1v15(random, k, h, digest)
		case PSS:
			return rsa.SignPSS(random, k, h, digest, &rsa.PSSOptions{SaltLength: h.Size(), Hash: h})
		}
	case *ecdsa.PrivateKey:
		if scheme == ECDSA {
			return ecdsa.SignASN1(random, k, digest)
		}
	}
	return nil, fmt.Errorf("sandbox: scheme %q does not fit key %T", scheme, key)
}
