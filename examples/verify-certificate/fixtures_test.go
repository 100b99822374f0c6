package main

import (
	"bytes"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/parcel/pdf"
)

// testIssuerKey is a well-known development key (never used for anything real); its
// address is issuer.
const testIssuerKey = "4f3edf983ac636a65a842ce7c78d9aa706d3b113bce9c46f30d7d21715b23b1d"

const (
	issuer      = "0x90F8bf6A479f320ead074411a4B0e7944Ea8c9C1"
	otherIssuer = "0xFFcf8FDEE72ac11b5c542428B35EEF5769C409f0"
	parcelID    = "prc_01JD4Z8Q6V2M7K3N5P9R1T0W4X"
)

// fixtures is the directory TestMain fills with certificates signed the way the server
// signs them, so that the tests follow the parcel package as it changes.
var fixtures string

func fixture(name string) string { return filepath.Join(fixtures, name) }

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "verify-certificate")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fixtures = dir
	if err := writeFixtures(dir); err != nil {
		fmt.Fprintln(os.Stderr, "writing fixtures:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var (
	certifiedV1 = time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)
	certifiedV2 = time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC)
	revokedAt   = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	fixtureNow  = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
)

func certificateVersion(version uint64, owner string, at time.Time) *parcel.Certificate {
	return &parcel.Certificate{
		ParcelID: parcelID,
		Version:  version,
		Owner:    parcel.CertificateOwner{FullName: owner, IDDocHash: "0x" + fmt.Sprintf("%064x", version)},
		Parcel:   parcel.CertificateParcel{GPS: [2]float64{-7.797068, 110.370529}, AreaM2: 12500.5, City: "Yogyakarta"},
		Notary:   "NOT-YOG-17", CertifiedAt: at, TokenID: parcel.TokenID(parcelID, version),
	}
}

// sign builds the signed certificate as parcel's service does (same message, domain and
// signature scheme), through the package's exported pieces.
func sign(c *parcel.Certificate, key *ecdsa.PrivateKey, status parcel.CertificateStatus) (*parcel.SignedCertificate, error) {
	raw, err := c.Canonical()
	if err != nil {
		return nil, err
	}
	h := crypto.Keccak256Hash(raw)
	m := &parcel.Message{ParcelID: c.ParcelID, Version: c.Version, CertificateHash: h, TokenID: c.TokenID,
		Notary: c.Notary, CertifiedAt: uint64(c.CertifiedAt.Unix())}
	sig, err := ethsig.Sign(key, m.Digest(parcel.DefaultChainID))
	if err != nil {
		return nil, err
	}
	return &parcel.SignedCertificate{Certificate: raw, Hash: parcel.HashString(h), TypedData: m.TypedData(parcel.DefaultChainID),
		Signature: sig, Issuer: attestation.IssuerRef{Address: ethsig.Address(key), ChainID: parcel.DefaultChainID}, Status: status}, nil
}

// jsonAPI wraps v as the server serves it.
func jsonAPI(typ, id string, v any) any {
	return map[string]any{"data": map[string]any{"type": typ, "id": id, "attributes": v}}
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}

// writeFixtures writes:
//
//	v1.json                  version 1 as a JSON:API document (superseded by the transfer)
//	v2.json                  version 2, the signed certificate alone
//	v2.pdf                   version 2's PDF, embedding v2.json
//	v2_bare.pdf              a PDF embedding the certificate without its signature
//	v2_tampered.json         v2 with the city changed after signing
//	v2_tampered_hash.json    v2 with the city changed and the hash recomputed
//	v2_bare.json             v2's certificate without its signature
//	v2_other_issuer.json     v2 signed by a key nobody trusts
//	statuses.json            complete list: v1 SUPERSEDED (JSON:API document)
//	statuses_revoked.json    complete list: v1 SUPERSEDED, v2 REVOKED
//	statuses_forged.json     statuses_revoked.json signed by another key
//	statuses_altered.json    statuses.json with an entry added after signing
func writeFixtures(dir string) error {
	key, err := crypto.HexToECDSA(testIssuerKey)
	if err != nil {
		return err
	}
	if got := ethsig.Address(key).Hex(); got != issuer {
		return fmt.Errorf("test key address %s, want %s", got, issuer)
	}
	other, err := crypto.HexToECDSA("6cbed15c793ce57650b9877cf6fa156fbef513c4e6134f022a85b1ffdd59b2a1")
	if err != nil {
		return err
	}
	v1, err := sign(certificateVersion(1, "María José Núñez", certifiedV1), key, parcel.CertificateSuperseded)
	if err != nil {
		return err
	}
	v2c := certificateVersion(2, "Budi Santoso", certifiedV2)
	v2, err := sign(v2c, key, parcel.CertificateCurrent)
	if err != nil {
		return err
	}
	otherV2, err := sign(v2c, other, parcel.CertificateCurrent)
	if err != nil {
		return err
	}
	files := map[string]any{
		"v1.json":              jsonAPI("certificates", v1.Hash, v1),
		"v2.json":              v2,
		"v2_other_issuer.json": otherV2,
		"v2_bare.json":         json.RawMessage(v2.Certificate),
	}

	tampered := *v2
	tampered.Certificate = bytes.Replace(v2.Certificate, []byte(`"Yogyakarta"`), []byte(`"Jakarta"`), 1)
	files["v2_tampered.json"] = &tampered
	tamperedHash := tampered
	h, err := parcel.HashCertificateJSON(tamperedHash.Certificate)
	if err != nil {
		return err
	}
	tamperedHash.Hash = parcel.HashString(h)
	files["v2_tampered_hash.json"] = &tamperedHash

	superseded := parcel.StatusEntry{Hash: v1.Hash, Status: parcel.CertificateSuperseded, At: certifiedV2, ParcelID: parcelID, Version: 1}
	revoked := parcel.StatusEntry{Hash: v2.Hash, Status: parcel.CertificateRevoked, At: revokedAt, ParcelID: parcelID, Version: 2}
	list := func(k *ecdsa.PrivateKey, entries ...parcel.StatusEntry) (*parcel.StatusList, error) {
		l := &parcel.StatusList{ChainID: parcel.DefaultChainID, Environment: veriland.Production, IssuedAt: fixtureNow.Add(-time.Hour), Entries: entries}
		return l, parcel.SignStatusList(l, k)
	}
	statuses, err := list(key, superseded)
	if err != nil {
		return err
	}
	files["statuses.json"] = jsonAPI("statuses", "production", statuses)
	withRevoked, err := list(key, superseded, revoked)
	if err != nil {
		return err
	}
	files["statuses_revoked.json"] = withRevoked
	forged, err := list(other, superseded, revoked)
	if err != nil {
		return err
	}
	forged.Issuer = ethsig.Address(key) // claims to be the trusted issuer
	files["statuses_forged.json"] = forged
	altered := *statuses
	altered.Entries = append([]parcel.StatusEntry{revoked}, statuses.Entries...)
	files["statuses_altered.json"] = &altered

	for name, v := range files {
		if err := writeJSON(filepath.Join(dir, name), v); err != nil {
			return err
		}
	}

	signedJSON, err := json.Marshal(v2)
	if err != nil {
		return err
	}
	for name, embedded := range map[string][]byte{"v2.pdf": signedJSON, "v2_bare.pdf": v2.Certificate} {
		if err := writePDF(filepath.Join(dir, name), embedded, v2, v2c); err != nil {
			return err
		}
	}
	return nil
}

func writePDF(path string, embedded []byte, v2 *parcel.SignedCertificate, v2c *parcel.Certificate) error {
	doc, err := pdf.Render(pdf.Input{
		CertificateJSON: embedded, Hash: v2.Hash, VerifyURL: "https://registry.example.org/v1/registry/verify/" + v2.Hash,
		ParcelID: parcelID, Version: 2, OwnerName: v2c.Owner.FullName, IDDocLast4: "4821", City: v2c.Parcel.City,
		Notary: v2c.Notary, TokenID: v2c.TokenID, Lat: v2c.Parcel.GPS[0], Lon: v2c.Parcel.GPS[1], AreaM2: v2c.Parcel.AreaM2,
		CertifiedAt: v2c.CertifiedAt, Status: string(parcel.CertificateCurrent),
	})
	if err != nil {
		return err
	}
	return os.WriteFile(path, doc, 0o600)
}
