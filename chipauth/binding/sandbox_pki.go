package binding

import (
	"crypto/rand"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/veriland/veriland/chipauth/sandbox"
	"github.com/veriland/veriland/internal/atomicfile"
)

// Files of the sandbox PKI in its directory, each a certificate and its PKCS#8
// private key in PEM (sandbox.Certificate.MarshalPEM), mode 0600.
const (
	SandboxCSCAFile = "sandbox-csca.pem"
	SandboxDSFile   = "sandbox-ds.pem"
)

// SandboxKeyType is the key type of the sandbox CSCA and DS: P-256 keeps keys
// quick to generate and SODs small, and crypto/x509 can read it back (brainpool
// keys cannot be written as PKCS#8).
const SandboxKeyType = sandbox.P256

// LoadOrCreateSandboxPKI returns the sandbox test CSCA and Document Signer kept in
// dir, creating them (mode 0600) when dir holds none. The reference server calls it
// at first start with its data directory, and adds the CSCA to the SANDBOX trust
// store:
//
//	csca, ds, err := binding.LoadOrCreateSandboxPKI(dataDir)
//	sandboxTrust.AddCertificates(csca.PEM())
//
// A missing or expired DS is issued anew under the kept CSCA; a missing CSCA makes
// a new pair (the old DS would no longer verify). Nothing it makes is trusted in
// PRODUCTION unless an embedder puts it there.
func LoadOrCreateSandboxPKI(dir string) (*sandbox.CSCA, *sandbox.DS, error) {
	return loadOrCreateSandboxPKI(dir, rand.Reader, time.Now)
}

func loadOrCreateSandboxPKI(dir string, random io.Reader, now func() time.Time) (*sandbox.CSCA, *sandbox.DS, error) {
	csca, err := readCSCA(filepath.Join(dir, SandboxCSCAFile))
	if errors.Is(err, fs.ErrNotExist) {
		csca, ds, err := NewSandboxPKI(random, now)
		if err != nil {
			return nil, nil, err
		}
		if err := SaveSandboxPKI(dir, csca, ds); err != nil {
			return nil, nil, err
		}
		return csca, ds, nil
	}
	if err != nil {
		return nil, nil, err
	}
	ds, err := readDS(filepath.Join(dir, SandboxDSFile), csca)
	if err == nil && !validAt(ds, now()) {
		err = fs.ErrNotExist // expired: issue a new one
	}
	if errors.Is(err, fs.ErrNotExist) {
		if ds, err = csca.NewDS(SandboxKeyType, sandbox.CertOptions{Now: now, Rand: random}); err != nil {
			return nil, nil, fmt.Errorf("binding: issuing a sandbox DS: %w", err)
		}
		if err := writePEM(filepath.Join(dir, SandboxDSFile), &ds.Certificate); err != nil {
			return nil, nil, err
		}
	}
	if err != nil {
		return nil, nil, err
	}
	return csca, ds, nil
}

// LoadSandboxPKI reads the sandbox CSCA and DS that SaveSandboxPKI (or
// LoadOrCreateSandboxPKI) wrote in dir, and checks that the CSCA issued the DS.
func LoadSandboxPKI(dir string) (*sandbox.CSCA, *sandbox.DS, error) {
	csca, err := readCSCA(filepath.Join(dir, SandboxCSCAFile))
	if err != nil {
		return nil, nil, err
	}
	ds, err := readDS(filepath.Join(dir, SandboxDSFile), csca)
	if err != nil {
		return nil, nil, err
	}
	return csca, ds, nil
}

// NewSandboxPKI creates a sandbox test CSCA (valid 10 years) and a DS under it
// (valid 5 years), with keys of SandboxKeyType. A nil random means crypto/rand, a
// nil now time.Now.
func NewSandboxPKI(random io.Reader, now func() time.Time) (*sandbox.CSCA, *sandbox.DS, error) {
	opts := sandbox.CertOptions{Now: now, Rand: random, CommonName: "veriland Sandbox CSCA"}
	csca, err := sandbox.NewTestCSCA(SandboxKeyType, opts)
	if err != nil {
		return nil, nil, fmt.Errorf("binding: creating the sandbox CSCA: %w", err)
	}
	opts.CommonName = "veriland Sandbox Document Signer"
	ds, err := csca.NewDS(SandboxKeyType, opts)
	if err != nil {
		return nil, nil, fmt.Errorf("binding: creating the sandbox DS: %w", err)
	}
	return csca, ds, nil
}

// SaveSandboxPKI writes csca and ds into dir (created with mode 0700 when missing)
// as SandboxCSCAFile and SandboxDSFile, mode 0600, each replaced atomically. The DS
// is written first, so that a crash in between leaves a CSCA whose DS is re-issued
// rather than a DS without its CSCA.
func SaveSandboxPKI(dir string, csca *sandbox.CSCA, ds *sandbox.DS) error {
	if csca == nil || ds == nil || ds.Issuer != csca {
		return errors.New("binding: SaveSandboxPKI needs a CSCA and a DS it issued")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("binding: %w", err)
	}
	if err := writePEM(filepath.Join(dir, SandboxDSFile), &ds.Certificate); err != nil {
		return err
	}
	return writePEM(filepath.Join(dir, SandboxCSCAFile), &csca.Certificate)
}

// maxPEMFile bounds the PEM files read: a certificate and a key are a few KB.
const maxPEMFile = 64 << 10

func readPEMFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("binding: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxPEMFile+1))
	if err != nil {
		return nil, fmt.Errorf("binding: %w", err)
	}
	if len(b) > maxPEMFile {
		return nil, fmt.Errorf("binding: %s is larger than %d bytes", path, maxPEMFile)
	}
	return b, nil
}

func readCSCA(path string) (*sandbox.CSCA, error) {
	b, err := readPEMFile(path)
	if err != nil {
		return nil, err
	}
	csca, err := sandbox.ParseCSCA(b)
	if err != nil {
		return nil, fmt.Errorf("binding: %s: %w", path, err)
	}
	return csca, nil
}

// readDS reads a DS written by writePEM and checks that issuer signed it.
// sandbox.ParseCSCA reads any certificate and key pair MarshalPEM wrote, so it
// reads the DS too; the DS is then tied to its issuer.
func readDS(path string, issuer *sandbox.CSCA) (*sandbox.DS, error) {
	b, err := readPEMFile(path)
	if err != nil {
		return nil, err
	}
	pair, err := sandbox.ParseCSCA(b)
	if err != nil {
		return nil, fmt.Errorf("binding: %s: %w", path, err)
	}
	cert, err := x509.ParseCertificate(pair.DER)
	if err != nil {
		return nil, fmt.Errorf("binding: %s: %w", path, err)
	}
	ca, err := x509.ParseCertificate(issuer.DER)
	if err != nil {
		return nil, fmt.Errorf("binding: sandbox CSCA: %w", err)
	}
	if err := cert.CheckSignatureFrom(ca); err != nil {
		return nil, fmt.Errorf("binding: %s was not issued by the sandbox CSCA: %w", path, err)
	}
	return &sandbox.DS{Certificate: pair.Certificate, Issuer: issuer}, nil
}

func validAt(ds *sandbox.DS, t time.Time) bool {
	c, err := x509.ParseCertificate(ds.DER)
	return err == nil && !t.Before(c.NotBefore) && !t.After(c.NotAfter)
}

// writePEM writes c and its key to path with mode 0600 through a temporary file in
// the same directory, so that a reader never sees half a file.
func writePEM(path string, c *sandbox.Certificate) error {
	b, err := c.MarshalPEM()
	if err != nil {
		return fmt.Errorf("binding: %w", err)
	}
	if err := atomicfile.Replace(path, b); err != nil {
		return fmt.Errorf("binding: %w", err)
	}
	return nil
}
