package main

import (
	"crypto/ecdsa"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland/internal/atomicfile"
	"github.com/veriland/veriland/storage/fieldcrypt"
)

// secrets are the keys the reference server generates in its data directory on first
// start, each in its own file with mode 0600.
type secrets struct {
	jwtSandbox    []byte
	jwtProduction []byte
	issuerKey     *ecdsa.PrivateKey
	webhookSecret string
	pepper        []byte
	// fields encrypts personal data at rest (parcel owner names, stored idempotent
	// responses); its keys are in fieldcrypt.KeyFileName.
	fields *fieldcrypt.Keyring
}

const (
	fileJWTSandbox    = "jwt-sandbox.key"
	fileJWTProduction = "jwt-production.key"
	fileIssuerKey     = "issuer.key"
	fileWebhookSecret = "webhook.secret"
	filePepper        = "pepper.key"
)

// loadOrCreateSecrets reads the secrets in dir, generating any that are missing. It
// reports whether the JWT secrets were created now (a first start).
//
// Replicas may share dir (-keys-dir, or a shared -data): the whole load-or-create
// runs under an exclusive lock on the directory (lockKeysDir), so the first replica
// to start creates the keys and the others wait for it and read them; no key is ever
// generated twice. Each file is published atomically besides (internal/atomicfile:
// written and synced under a temporary name, then hard-linked into place), which
// fails rather than overwrite a key another process published.
func loadOrCreateSecrets(dir string) (*secrets, bool, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, false, err
	}
	unlock, err := lockKeysDir(dir)
	if err != nil {
		return nil, false, err
	}
	defer unlock()
	return loadOrCreateLocked(dir)
}

func loadOrCreateLocked(dir string) (*secrets, bool, error) {
	var s secrets
	var err error
	var first bool
	if s.jwtSandbox, first, err = hexFile(dir, fileJWTSandbox, 32, randomBytes); err != nil {
		return nil, false, err
	}
	if s.jwtProduction, _, err = hexFile(dir, fileJWTProduction, 32, randomBytes); err != nil {
		return nil, false, err
	}
	if s.pepper, _, err = hexFile(dir, filePepper, 32, randomBytes); err != nil {
		return nil, false, err
	}
	issuer, _, err := hexFile(dir, fileIssuerKey, 32, func(int) ([]byte, error) {
		k, err := crypto.GenerateKey()
		if err != nil {
			return nil, err
		}
		return crypto.FromECDSA(k), nil
	})
	if err != nil {
		return nil, false, err
	}
	if s.issuerKey, err = crypto.ToECDSA(issuer); err != nil {
		return nil, false, fmt.Errorf("%s: %w", fileIssuerKey, err)
	}
	wh, _, err := textFile(dir, fileWebhookSecret, func() (string, error) {
		b, err := randomBytes(24)
		if err != nil {
			return "", err
		}
		return "whsec_" + base64.StdEncoding.EncodeToString(b), nil
	})
	if err != nil {
		return nil, false, err
	}
	s.webhookSecret = wh
	if s.fields, err = fieldcrypt.LoadOrCreate(dir, rand.Reader); err != nil {
		return nil, false, err
	}
	return &s, first, nil
}

func randomBytes(n int) ([]byte, error) {
	b := make([]byte, n)
	_, err := rand.Read(b)
	return b, err
}

// hexFile reads a hex-encoded secret of n bytes, or generates and writes it (0600).
func hexFile(dir, name string, n int, gen func(int) ([]byte, error)) ([]byte, bool, error) {
	text, created, err := textFile(dir, name, func() (string, error) {
		b, err := gen(n)
		if err != nil {
			return "", err
		}
		return hex.EncodeToString(b), nil
	})
	if err != nil {
		return nil, false, err
	}
	b, err := hex.DecodeString(text)
	if err != nil || len(b) != n {
		return nil, false, fmt.Errorf("%s: want %d hex-encoded bytes", filepath.Join(dir, name), n)
	}
	return b, created, nil
}

func textFile(dir, name string, gen func() (string, error)) (string, bool, error) {
	path := filepath.Join(dir, name)
	raw, err := os.ReadFile(path)
	if err == nil {
		if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
			return "", false, fmt.Errorf("%s is readable by others (mode %v); chmod 600 it", path, fi.Mode().Perm())
		}
		return strings.TrimSpace(string(raw)), false, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", false, err
	}
	text, err := gen()
	if err != nil {
		return "", false, err
	}
	if err := atomicfile.Create(path, []byte(text+"\n")); err != nil {
		if errors.Is(err, fs.ErrExist) { // another process published it first
			return textFile(dir, name, gen)
		}
		return "", false, err
	}
	return text, true, nil
}
