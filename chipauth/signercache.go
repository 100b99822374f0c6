package chipauth

import (
	"bytes"
	"crypto/sha256"
	"sync"
)

// DefaultSignerCacheSize is how many Document Signer certificates a new
// TrustStore keeps parsed (see TrustStore.SetSignerCacheSize).
const DefaultSignerCacheSize = 1024

// signerCache keeps the certificates embedded in recently verified SODs, read and
// with their public keys prepared, keyed by the SHA-256 of their DER.
//
// A Document Signer certificate is shared by every document its key signs: ICAO
// Doc 9303-12 limits a DS key's signing period to a few months, in which a
// country issues thousands to millions of passports under it, and a country has
// only a handful of DS certificates in use at once. So a service verifying many
// documents sees the same few hundred DS certificates over and over, and reading
// one (names, extensions, and for RSA the Montgomery constants of its modulus)
// costs about as much as one of the two signature verifications of a document.
//
// Only the reading is saved. The SOD's signature, the DS certificate's signature
// by its CSCA, its key usage and its validity are checked for every document, as
// without the cache. An entry is the certificate parsed from a private copy of
// exactly the bytes it is keyed by (a hit also compares them), and certificates
// are never modified once parsed, so a cached one is the same as a fresh parse
// and the caller's SOD buffer is never retained. When full, an arbitrary entry
// makes room: memory stays bounded (a few KiB per entry) whatever the input.
type signerCache struct {
	mu    sync.RWMutex
	max   int // 0: off
	certs map[[32]byte]*certificate
}

// parse returns the certificate read from der, from the cache when it holds
// exactly der. A nil or empty cache just parses.
func (c *signerCache) parse(der []byte) (*certificate, error) {
	if c == nil || c.max == 0 {
		return parseCertificate(der)
	}
	fp := sha256.Sum256(der)
	c.mu.RLock()
	hit := c.certs[fp]
	c.mu.RUnlock()
	if hit != nil && bytes.Equal(hit.raw, der) {
		return hit, nil
	}
	cert, err := parseCertificate(bytes.Clone(der))
	if err != nil || len(cert.raw) != len(der) {
		return cert, err // not a whole certificate: not keyed by its own bytes
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.certs == nil {
		c.certs = make(map[[32]byte]*certificate)
	}
	c.evictTo(c.max - 1)
	c.certs[fp] = cert
	return cert, nil
}

// resize sets the capacity to n (0: off) and drops what no longer fits.
func (c *signerCache) resize(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.max = max(n, 0)
	c.evictTo(c.max)
}

// evictTo drops arbitrary entries until at most n are left; c.mu must be held.
func (c *signerCache) evictTo(n int) {
	for k := range c.certs {
		if len(c.certs) <= n {
			return
		}
		delete(c.certs, k)
	}
}

// len returns the number of certificates held.
func (c *signerCache) len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.certs)
}
