package chipauth

import (
	"bytes"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/veriland/veriland"
)

// TrustStore holds the CSCA certificates passive authentication trusts. Every
// certificate in it, CSCA or link certificate, is a trust anchor: a DS
// certificate is accepted when one of them signed it, and no path is built.
// A TrustStore is safe for concurrent Verify calls once loading is done; the Add
// methods and SetSignerCacheSize must not run concurrently with Verify.
//
// A TrustStore also keeps the Document Signer certificates of the documents it
// has verified, parsed, so that the next document under the same DS certificate
// does not read it again (DefaultSignerCacheSize of them; SetSignerCacheSize).
// Every document's signatures, key usage and validity are still checked.
type TrustStore struct {
	anchors []*certificate
	bySKI   map[string][]*certificate
	byName  map[string][]*certificate
	seen    map[[32]byte]bool
	skipped int
	signers signerCache
}

// TrustOptions configures loading of a trust store.
type TrustOptions struct {
	// MasterListRoots are PEM or DER certificates (each entry may hold several)
	// a master list's signer certificate must be issued by. LoadTrustDir also
	// accepts master lists signed under a CSCA certificate file of the same directory.
	MasterListRoots [][]byte
	// Now is the clock for master-list signer validity; nil means time.Now.
	Now func() time.Time
	// AllowExpiredMasterListSigner accepts a master list whose signer certificate
	// was not valid at the list's signing time (or now, without one).
	AllowExpiredMasterListSigner bool
}

// NewTrustStore returns an empty trust store.
func NewTrustStore() *TrustStore {
	return &TrustStore{
		bySKI:   map[string][]*certificate{},
		byName:  map[string][]*certificate{},
		seen:    map[[32]byte]bool{},
		signers: signerCache{max: DefaultSignerCacheSize},
	}
}

// SetSignerCacheSize sets how many parsed Document Signer certificates t keeps
// (DefaultSignerCacheSize for a new TrustStore; 0 turns the cache off). A DS
// certificate signs every document of its signing period, so a service sees the
// same few hundred again and again; reading one costs about as much as one of a
// document's two signature verifications. Only the reading is saved: each
// document's SOD signature, the DS certificate's signature by its CSCA, its key
// usage and validity are checked every time. Each entry takes a few KiB.
func (t *TrustStore) SetSignerCacheSize(n int) { t.signers.resize(n) }

// Len returns the number of trust anchors.
func (t *TrustStore) Len() int { return len(t.anchors) }

// Skipped returns how many master-list certificates were left out because
// chipauth cannot read them or their keys (unsupported curves, malformed DER).
func (t *TrustStore) Skipped() int { return t.skipped }

// AddCertificates adds CSCA or link certificates given as PEM (any number of
// CERTIFICATE blocks; other text is ignored) or as one or more concatenated DER
// certificates. It returns how many were new.
func (t *TrustStore) AddCertificates(data []byte) (int, error) {
	certs, err := readCertificateFile(data)
	if err != nil {
		return 0, configError(StepTrustStore, err, "certificate data could not be read")
	}
	n := 0
	for _, c := range certs {
		if c.keyErr != nil {
			return n, configError(StepTrustStore, c.keyErr, "CSCA certificate key is not supported")
		}
		if t.add(c) {
			n++
		}
	}
	return n, nil
}

func (t *TrustStore) add(c *certificate) bool {
	if t.seen[c.fingerprint] {
		return false
	}
	t.seen[c.fingerprint] = true
	t.anchors = append(t.anchors, c)
	if len(c.subjectKeyID) > 0 {
		t.bySKI[string(c.subjectKeyID)] = append(t.bySKI[string(c.subjectKeyID)], c)
	}
	t.byName[c.subject.key()] = append(t.byName[c.subject.key()], c)
	return true
}

// candidates returns the anchors that may have issued c: by authority key
// identifier, then by issuer name.
func (t *TrustStore) candidates(c *certificate) []*certificate {
	if t == nil {
		return nil
	}
	var out []*certificate
	if len(c.authorityKID) > 0 {
		out = append(out, t.bySKI[string(c.authorityKID)]...)
	}
	for _, a := range t.byName[c.issuer.key()] {
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// issuerOf returns the anchor whose key verifies c's signature.
func (t *TrustStore) issuerOf(c *certificate) (*certificate, error) {
	cands := t.candidates(c)
	if len(cands) == 0 {
		return nil, errors.New("no trusted certificate matches the issuer")
	}
	var last error
	for _, a := range cands {
		if err := c.checkSignatureFrom(a); err != nil {
			last = err
			continue
		}
		return a, nil
	}
	return nil, last
}

// readCertificateFile reads PEM or DER certificates.
func readCertificateFile(data []byte) ([]*certificate, error) {
	var out []*certificate
	if bytes.Contains(data, []byte("-----BEGIN")) {
		rest := data
		for {
			var block *pem.Block
			block, rest = pem.Decode(rest)
			if block == nil {
				break
			}
			if block.Type != "CERTIFICATE" {
				continue
			}
			c, err := parseCertificate(block.Bytes)
			if err != nil {
				return nil, err
			}
			out = append(out, c)
		}
		if len(out) == 0 {
			return nil, errors.New("no CERTIFICATE block in PEM data")
		}
		return out, nil
	}
	rest := data
	for len(rest) > 0 {
		e, r, err := readElement(rest)
		if err != nil {
			return nil, err
		}
		c, err := parseCertificate(e.full)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
		rest = r
	}
	if len(out) == 0 {
		return nil, errors.New("no certificate")
	}
	return out, nil
}

// LoadTrustDir builds a trust store from the files of dir (not its
// sub-directories): *.pem, *.crt, *.cer and *.der are CSCA or link
// certificates; *.ml and *.cms files are ICAO master lists, accepted
// only when their signer chains to opts.MasterListRoots or to a certificate file
// of dir. Other files are ignored. Any unreadable file fails the load.
func LoadTrustDir(dir string, opts TrustOptions) (*TrustStore, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, configError(StepTrustStore, err, "trust directory could not be read")
	}
	t := NewTrustStore()
	roots := NewTrustStore()
	for _, r := range opts.MasterListRoots {
		if _, err := roots.AddCertificates(r); err != nil {
			return nil, err
		}
	}
	var lists []string
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		switch strings.ToLower(filepath.Ext(e.Name())) {
		case ".pem", ".crt", ".cer", ".der":
			data, err := os.ReadFile(path)
			if err != nil {
				return nil, configError(StepTrustStore, err, "%s could not be read", e.Name())
			}
			if _, err := t.AddCertificates(data); err != nil {
				return nil, configError(StepTrustStore, err, "%s: certificates could not be read", e.Name())
			}
			roots.AddCertificates(data) // cannot fail: t accepted the same bytes
		case ".ml", ".cms":
			lists = append(lists, path)
		}
	}
	for _, path := range lists {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, configError(StepTrustStore, err, "%s could not be read", filepath.Base(path))
		}
		if _, err := t.addMasterList(data, roots, opts); err != nil {
			var ve *veriland.Error
			if errors.As(err, &ve) {
				ve.Message = filepath.Base(path) + ": " + ve.Message
			}
			return nil, err
		}
	}
	return t, nil
}
