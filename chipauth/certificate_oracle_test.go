package chipauth

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/x509"
	"fmt"
)

// agreesWithX509 returns an error unless c, parsed from der, has the fields and key
// crypto/x509 reads in der. It is called only where both parse der.
func agreesWithX509(c *certificate, x *x509.Certificate) error {
	switch {
	case !bytes.Equal(c.raw, x.Raw):
		return fmt.Errorf("raw differs")
	case !bytes.Equal(c.rawTBS, x.RawTBSCertificate):
		return fmt.Errorf("TBSCertificate differs")
	case c.serial == nil || c.serial.Cmp(x.SerialNumber) != 0:
		return fmt.Errorf("serial %v, x509 %v", c.serial, x.SerialNumber)
	case !bytes.Equal(c.issuer.raw, x.RawIssuer):
		return fmt.Errorf("issuer %x, x509 %x", c.issuer.raw, x.RawIssuer)
	case !bytes.Equal(c.subject.raw, x.RawSubject):
		return fmt.Errorf("subject %x, x509 %x", c.subject.raw, x.RawSubject)
	case !c.notBefore.Equal(x.NotBefore) || !c.notAfter.Equal(x.NotAfter):
		return fmt.Errorf("validity %v–%v, x509 %v–%v", c.notBefore, c.notAfter, x.NotBefore, x.NotAfter)
	case !bytes.Equal(c.signature, x.Signature):
		return fmt.Errorf("signature differs")
	case !bytes.Equal(c.subjectKeyID, x.SubjectKeyId):
		return fmt.Errorf("subject key id %x, x509 %x", c.subjectKeyID, x.SubjectKeyId)
	case !bytes.Equal(c.authorityKID, x.AuthorityKeyId):
		return fmt.Errorf("authority key id %x, x509 %x", c.authorityKID, x.AuthorityKeyId)
	}
	// crypto/x509 numbers KeyUsage bits as RFC 5280 does (digitalSignature 1<<0 …
	// decipherOnly 1<<8), and leaves KeyUsage 0 when the extension is absent.
	if ku := c.keyUsage & 0x1ff; (c.hasKeyUsage && ku != int(x.KeyUsage)) || (!c.hasKeyUsage && x.KeyUsage != 0) {
		return fmt.Errorf("key usage %b (present %v), x509 %b", c.keyUsage, c.hasKeyUsage, x.KeyUsage)
	}
	if c.keyErr != nil {
		return nil // a key chipauth refuses is not used; x509 may still read it
	}
	return keyAgrees(c.key, x.PublicKey)
}

// keyAgrees returns an error unless k is the key crypto/x509 parsed as pub.
func keyAgrees(k publicKey, pub any) error {
	switch p := pub.(type) {
	case *rsa.PublicKey:
		if k.rsa == nil || k.rsa.pub.N.Cmp(p.N) != 0 || k.rsa.pub.E != p.E {
			return fmt.Errorf("key %v, x509 RSA-%d e=%d", k, p.N.BitLen(), p.E)
		}
	case *ecdsa.PublicKey:
		if k.ec == nil || k.ec.X.Cmp(p.X) != 0 || k.ec.Y.Cmp(p.Y) != 0 {
			return fmt.Errorf("key %v, x509 EC %s", k, p.Curve.Params().Name)
		}
		kp, xp := k.ec.Curve.Params(), p.Curve.Params()
		if kp.P.Cmp(xp.P) != 0 || kp.N.Cmp(xp.N) != 0 || kp.B.Cmp(xp.B) != 0 || kp.Gx.Cmp(xp.Gx) != 0 || kp.Gy.Cmp(xp.Gy) != 0 {
			return fmt.Errorf("key %v on another curve than x509's %s", k, xp.Name)
		}
	default:
		if k.rsa != nil || k.ec != nil {
			return fmt.Errorf("key %v, x509 %T", k, pub)
		}
	}
	return nil
}
