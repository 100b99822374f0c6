package chipauth

import (
	"bytes"
	"crypto"
	"crypto/subtle"

	"github.com/veriland/veriland"
)

// signerCertificate finds the certificate of si among certs: by issuer and
// serial number (names compared by meaning), or by subject key identifier, and
// as a last resort the only embedded certificate (its signature check decides).
func signerCertificate(si signerInfo, certs []*certificate) *certificate {
	for _, c := range certs {
		switch {
		case si.serial != nil && c.serial.Cmp(si.serial) == 0 && c.issuer.equal(si.issuer):
			return c
		case len(si.subjectKeyID) > 0 && bytes.Equal(c.subjectKeyID, si.subjectKeyID):
			return c
		}
	}
	if len(certs) == 1 {
		return certs[0]
	}
	return nil
}

// signerCheck is what checking a SignerInfo established.
type signerCheck struct {
	cert   *certificate
	digest crypto.Hash // SignerInfo digestAlgorithm
	sigAlg signatureAlgorithm
}

// checkSigner verifies the only SignerInfo of sd: its certificate is embedded, its
// signature over the original signed-attribute bytes verifies, its contentType
// attribute names sd's content type and its messageDigest is the content's hash.
func checkSigner(sd *signedData) (signerCheck, *veriland.Error) {
	var sc signerCheck
	if len(sd.signers) != 1 {
		return sc, fail(StepSODParse, 0, nil, "SignedData has %d signers, want 1", len(sd.signers))
	}
	si := sd.signers[0]
	digest, ok := hashForOID(si.digestAlg.Algorithm)
	if !ok {
		return sc, fail(StepUnsupportedAlgorithm, 0, nil, "SignerInfo digest algorithm %s is not supported", si.digestAlg.Algorithm)
	}
	sigAlg, err := parseSignatureAlgorithm(si.sigAlg, digest)
	if err != nil {
		return sc, fail(StepUnsupportedAlgorithm, 0, err, "SignerInfo signature algorithm is not supported")
	}
	cert := signerCertificate(si, sd.certs)
	if cert == nil {
		return sc, fail(StepSignerNotFound, 0, nil, "no embedded certificate matches the signer")
	}
	if cert.keyErr != nil {
		return sc, fail(StepUnsupportedAlgorithm, 0, cert.keyErr, "signer public key is not supported")
	}
	signed := sd.content
	if si.signedAttrs != nil {
		signed = si.signedAttrs
	}
	if err := cert.key.verify(sigAlg, signed, si.signature); err != nil {
		return sc, fail(StepSignatureInvalid, 0, err, "signature of the document signer does not verify")
	}
	if si.signedAttrs != nil {
		if si.messageDigest == nil {
			return sc, fail(StepSignedAttributes, 0, nil, "messageDigest attribute missing")
		}
		if si.contentType == nil || !si.contentType.Equal(sd.contentType) {
			return sc, fail(StepSignedAttributes, 0, nil, "contentType attribute does not match the content")
		}
		h := digest.New()
		h.Write(sd.content)
		if subtle.ConstantTimeCompare(h.Sum(nil), si.messageDigest) != 1 {
			return sc, fail(StepMessageDigestMismatch, 0, nil, "messageDigest does not match the signed content")
		}
	}
	return signerCheck{cert: cert, digest: digest, sigAlg: sigAlg}, nil
}
