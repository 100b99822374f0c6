package main

import (
	"fmt"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/chipauth"
	"github.com/veriland/veriland/chipauth/binding"
)

// loadTrust builds the CSCA trust stores of chip binding: PRODUCTION trusts the CSCA
// certificates and ICAO master lists of -trust-dir (none without it); SANDBOX trusts
// them too, plus the sandbox test CSCA generated at first start in the keys directory
// (-keys-dir, default -data), whose Document Signer examples/sandbox-sod uses to build test passports.
func loadTrust(keysDir, trustDir string) (map[veriland.Environment]*chipauth.TrustStore, error) {
	load := func() (*chipauth.TrustStore, error) {
		if trustDir == "" {
			return chipauth.NewTrustStore(), nil
		}
		ts, err := chipauth.LoadTrustDir(trustDir, chipauth.TrustOptions{})
		if err != nil {
			return nil, fmt.Errorf("-trust-dir: %w", err)
		}
		return ts, nil
	}
	production, err := load()
	if err != nil {
		return nil, err
	}
	sandboxStore, err := load()
	if err != nil {
		return nil, err
	}
	unlock, err := lockKeysDir(keysDir) // replicas share it: one creates, the others read
	if err != nil {
		return nil, err
	}
	csca, _, err := binding.LoadOrCreateSandboxPKI(keysDir)
	unlock()
	if err != nil {
		return nil, fmt.Errorf("sandbox test CSCA: %w", err)
	}
	if _, err := sandboxStore.AddCertificates(csca.PEM()); err != nil {
		return nil, fmt.Errorf("sandbox test CSCA: %w", err)
	}
	return map[veriland.Environment]*chipauth.TrustStore{veriland.Production: production, veriland.Sandbox: sandboxStore}, nil
}
