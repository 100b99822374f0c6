package parcel

import (
	"crypto/ecdsa"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/internal/ethsig"
)

// EIP-712 names of the certificate layout (SPEC S9).
const (
	DomainName    = "Parcel Certificate"
	DomainVersion = "1"
	PrimaryType   = "ParcelCertificate"
	// EncodedType is the EIP-712 encodeType of PrimaryType.
	EncodedType = "ParcelCertificate(string parcelId,uint64 version,bytes32 certificateHash,string tokenId,string notary,uint64 certifiedAt)"
	// EncodedTypeWithWallet is the encodeType of a certificate whose owner has a
	// bound wallet (SPEC S13): the same members and one more, the owner's address, so
	// that a wallet shows whose land it is and a verifier can tell it from the
	// signature alone. Which layout a certificate uses follows from the certificate
	// itself: owner.walletAddress present or not.
	EncodedTypeWithWallet = "ParcelCertificate(string parcelId,uint64 version,bytes32 certificateHash,string tokenId,string notary,uint64 certifiedAt,address ownerWallet)"
	// DefaultChainID is the chainId VerifyCertificate assumes when VerifyOptions.ChainID is 0.
	DefaultChainID = 1
	// TokenStandard is Token.Standard.
	TokenStandard = "ERC-5192"
)

var (
	typeHash           = crypto.Keccak256Hash([]byte(EncodedType))
	typeHashWithWallet = crypto.Keccak256Hash([]byte(EncodedTypeWithWallet))
)

// Certificate is the certificate of one parcel version (SPEC S9). Its hash is
// keccak256 of its RFC 8785 (JCS) canonical JSON.
type Certificate struct {
	ParcelID    string            `json:"parcelId"`
	Version     uint64            `json:"version"`
	Owner       CertificateOwner  `json:"owner"`
	Parcel      CertificateParcel `json:"parcel"`
	Notary      string            `json:"notary"`
	CertifiedAt time.Time         `json:"certifiedAt"`
	TokenID     string            `json:"tokenId"`
}

// CertificateOwner is the owner member of a certificate. WalletAddress, Binding and
// DID are present only when the certifying notary bound a wallet to the owner (SPEC
// S13); a certificate of an owner without a wallet has exactly S9's members.
type CertificateOwner struct {
	FullName      string       `json:"fullName"`
	IDDocHash     string       `json:"idDocHash"`
	WalletAddress string       `json:"walletAddress,omitempty"`
	Binding       OwnerBinding `json:"binding,omitempty"`
	DID           string       `json:"did,omitempty"`
}

// CertificateParcel is the parcel member of a certificate; gps is [lat, lon].
type CertificateParcel struct {
	GPS    [2]float64 `json:"gps"`
	AreaM2 float64    `json:"area_m2"`
	City   string     `json:"city"`
}

// Canonical returns the certificate's JCS canonical JSON.
func (c *Certificate) Canonical() ([]byte, error) {
	cc := *c
	cc.CertifiedAt = cc.CertifiedAt.UTC().Truncate(time.Second)
	b, err := json.Marshal(&cc)
	if err != nil {
		return nil, err
	}
	return attestation.Canonical(b)
}

// HashCertificateJSON returns keccak256 of the JCS canonical form of a certificate JSON
// document, as served in SignedCertificate.Certificate or embedded in the PDF.
func HashCertificateJSON(raw []byte) (common.Hash, error) {
	c, err := attestation.Canonical(raw)
	if err != nil {
		return common.Hash{}, err
	}
	return crypto.Keccak256Hash(c), nil
}

// TokenID returns the token id of a parcel version: the uint256
// keccak256(abi.encodePacked(string parcelId, uint64 version)) as a decimal string.
func TokenID(parcelID string, version uint64) string {
	h := crypto.Keccak256([]byte(parcelID), binary.BigEndian.AppendUint64(nil, version))
	return new(big.Int).SetBytes(h).String()
}

// Message is the EIP-712 message the issuer signs for one certificate version.
type Message struct {
	ParcelID        string
	Version         uint64
	CertificateHash [32]byte
	TokenID         string
	Notary          string
	CertifiedAt     uint64
	// OwnerWallet is the owner's bound wallet; nil for a certificate without one,
	// which is signed in S9's layout (EncodedType), else EncodedTypeWithWallet.
	OwnerWallet *common.Address
}

// Domain returns the certificate domain for chainID.
func Domain(chainID uint64) ethsig.Domain {
	return ethsig.Domain{Name: DomainName, Version: DomainVersion, ChainID: chainID}
}

// StructHash returns the EIP-712 hashStruct of m, encoded by hand.
func (m *Message) StructHash() [32]byte {
	fields := [][32]byte{
		ethsig.HashString(m.ParcelID),
		ethsig.Uint(m.Version),
		m.CertificateHash,
		ethsig.HashString(m.TokenID),
		ethsig.HashString(m.Notary),
		ethsig.Uint(m.CertifiedAt),
	}
	if m.OwnerWallet == nil {
		return ethsig.StructHash(typeHash, fields...)
	}
	var wallet [32]byte
	copy(wallet[12:], m.OwnerWallet[:])
	return ethsig.StructHash(typeHashWithWallet, append(fields, wallet)...)
}

// Digest returns the EIP-712 digest of m in the certificate domain of chainID.
func (m *Message) Digest(chainID uint64) [32]byte {
	return ethsig.TypedDataDigest(Domain(chainID).Separator(), m.StructHash())
}

// Fields lists the members of the ParcelCertificate type, in order (S9's layout).
func Fields() []apitypes.Type {
	return []apitypes.Type{
		{Name: "parcelId", Type: "string"},
		{Name: "version", Type: "uint64"},
		{Name: "certificateHash", Type: "bytes32"},
		{Name: "tokenId", Type: "string"},
		{Name: "notary", Type: "string"},
		{Name: "certifiedAt", Type: "uint64"},
	}
}

// FieldsWithWallet lists the members of the ParcelCertificate type of a certificate
// whose owner has a bound wallet: Fields and ownerWallet.
func FieldsWithWallet() []apitypes.Type {
	return append(Fields(), apitypes.Type{Name: "ownerWallet", Type: "address"})
}

// TypedData returns m as a ready eth_signTypedData_v4 object for chainID.
func (m *Message) TypedData(chainID uint64) attestation.TypedData {
	msg := map[string]any{
		"parcelId":        m.ParcelID,
		"version":         ethsig.UintValue(m.Version),
		"certificateHash": ethsig.Bytes32Value(m.CertificateHash),
		"tokenId":         m.TokenID,
		"notary":          m.Notary,
		"certifiedAt":     ethsig.UintValue(m.CertifiedAt),
	}
	fields := Fields()
	if m.OwnerWallet != nil {
		fields = FieldsWithWallet()
		msg["ownerWallet"] = m.OwnerWallet.Hex()
	}
	return attestation.TypedData(ethsig.NewTypedData(Domain(chainID), PrimaryType, fields, msg))
}

// messageOf returns the message of c whose canonical hash is h.
func messageOf(c *Certificate, h common.Hash) *Message {
	m := &Message{
		ParcelID:        c.ParcelID,
		Version:         c.Version,
		CertificateHash: h,
		TokenID:         c.TokenID,
		Notary:          c.Notary,
		CertifiedAt:     uint64(max(c.CertifiedAt.Unix(), 0)),
	}
	if c.Owner.WalletAddress != "" {
		w := common.HexToAddress(c.Owner.WalletAddress)
		m.OwnerWallet = &w
	}
	return m
}

// SignedCertificate is a certificate version as served by GET
// /v1/parcels/{id}/certificate: the canonical certificate JSON, its hash, the EIP-712
// typed data and the issuer's signature over it, and its status when served.
type SignedCertificate struct {
	Certificate json.RawMessage       `json:"certificate"`
	Hash        string                `json:"hash"`
	TypedData   attestation.TypedData `json:"typedData"`
	Signature   hexutil.Bytes         `json:"signature"`
	Issuer      attestation.IssuerRef `json:"issuer"`
	Status      CertificateStatus     `json:"status"`
}

// Parsed decodes s.Certificate.
func (s *SignedCertificate) Parsed() (*Certificate, error) {
	var c Certificate
	if err := json.Unmarshal(s.Certificate, &c); err != nil {
		return nil, err
	}
	return &c, nil
}

// signCertificate builds the signed form of c with key over the domain of chainID.
func signCertificate(c *Certificate, key *ecdsa.PrivateKey, chainID uint64, status CertificateStatus) (*SignedCertificate, error) {
	raw, err := c.Canonical()
	if err != nil {
		return nil, fmt.Errorf("parcel: encoding certificate: %w", err)
	}
	h := crypto.Keccak256Hash(raw)
	m := messageOf(c, h)
	sig, err := ethsig.Sign(key, m.Digest(chainID))
	if err != nil {
		return nil, err
	}
	return &SignedCertificate{
		Certificate: raw,
		Hash:        HashString(h),
		TypedData:   m.TypedData(chainID),
		Signature:   sig,
		Issuer:      attestation.IssuerRef{Address: ethsig.Address(key), ChainID: chainID},
		Status:      status,
	}, nil
}

// HashString formats a certificate hash: "0x" + 64 lower-case hex.
func HashString(h common.Hash) string { return hexutil.Encode(h[:]) }

// ParseHash parses a certificate hash, "0x" + exactly 64 hex digits (either case).
// Anything else is validation_failed.
func ParseHash(s string) (common.Hash, error) {
	if len(s) != 66 || (s[:2] != "0x" && s[:2] != "0X") {
		return common.Hash{}, veriland.Invalid("", "a certificate hash is 0x followed by 64 hex digits")
	}
	b, err := hexutil.Decode("0x" + strings.ToLower(s[2:]))
	if err != nil || len(b) != 32 {
		return common.Hash{}, veriland.Invalid("", "a certificate hash is 0x followed by 64 hex digits")
	}
	return common.BytesToHash(b), nil
}

// StatusList is the body of GET /v1/registry/statuses: the certificate hashes that
// stopped being CURRENT since a time, signed by the issuer key (EIP-191 personal_sign
// over the JCS canonical JSON of the list without its signature), so that a verifier
// with no network can tell CURRENT from SUPERSEDED or REVOKED. A list whose Since is
// null is complete.
type StatusList struct {
	Issuer      common.Address       `json:"issuer"`
	ChainID     uint64               `json:"chainId"`
	Environment veriland.Environment `json:"environment"`
	IssuedAt    time.Time            `json:"issuedAt"`
	Since       *time.Time           `json:"since"`
	Entries     []StatusEntry        `json:"entries"`
	Signature   hexutil.Bytes        `json:"signature"`
}

// StatusEntry is one certificate that is no longer CURRENT.
type StatusEntry struct {
	Hash     string            `json:"hash"`
	Status   CertificateStatus `json:"status"`
	At       time.Time         `json:"at"`
	ParcelID string            `json:"parcelId"`
	Version  uint64            `json:"version"`
}

// Lookup returns the entry of hash h, if the list has one. A hash listed twice (superseded,
// then revoked) reports its latest entry.
func (l *StatusList) Lookup(h common.Hash) (StatusEntry, bool) {
	want := HashString(h)
	var found StatusEntry
	ok := false
	for _, e := range l.Entries {
		if strings.EqualFold(e.Hash, want) && (!ok || !e.At.Before(found.At)) {
			found, ok = e, true
		}
	}
	return found, ok
}

// SigningPayload returns the bytes the list's signature covers.
func (l *StatusList) SigningPayload() ([]byte, error) {
	b, err := json.Marshal(struct {
		Issuer      common.Address       `json:"issuer"`
		ChainID     uint64               `json:"chainId"`
		Environment veriland.Environment `json:"environment"`
		IssuedAt    time.Time            `json:"issuedAt"`
		Since       *time.Time           `json:"since"`
		Entries     []StatusEntry        `json:"entries"`
	}{l.Issuer, l.ChainID, l.Environment, l.IssuedAt, l.Since, l.Entries})
	if err != nil {
		return nil, err
	}
	return attestation.Canonical(b)
}

// SignStatusList sets l's issuer from key and signs it. Times are normalised to UTC
// whole seconds and a nil entry list to an empty one first, so that the signed bytes
// survive a JSON round trip.
func SignStatusList(l *StatusList, key *ecdsa.PrivateKey) error {
	if l == nil || key == nil {
		return veriland.Errorf(veriland.CodeInternal, "no status list or no key")
	}
	l.Issuer = ethsig.Address(key)
	l.IssuedAt = l.IssuedAt.UTC().Truncate(time.Second)
	if l.Since != nil {
		s := l.Since.UTC().Truncate(time.Second)
		l.Since = &s
	}
	if l.Entries == nil {
		l.Entries = []StatusEntry{}
	}
	for i := range l.Entries {
		l.Entries[i].At = l.Entries[i].At.UTC().Truncate(time.Second)
	}
	payload, err := l.SigningPayload()
	if err != nil {
		return veriland.Errorf(veriland.CodeInternal, "cannot encode the status list").WithCause(err)
	}
	sig, err := ethsig.Sign(key, ethsig.PersonalDigest(payload))
	if err != nil {
		return err
	}
	l.Signature = sig
	return nil
}

// Named reasons of offline verification; errors.Is finds them in the *veriland.Error
// that VerifyCertificate and VerifyStatusList return.
var (
	// ErrMalformedCertificate: the signed certificate is missing members or its
	// certificate is not a certificate JSON object.
	ErrMalformedCertificate = errors.New("parcel: malformed certificate")
	// ErrHashMismatch: the certificate JSON does not hash to the stated hash (it was
	// changed after signing).
	ErrHashMismatch = errors.New("parcel: certificate hash mismatch")
	// ErrBadSignature: the signature is malformed or does not recover.
	ErrBadSignature = errors.New("parcel: bad certificate signature")
	// ErrUntrustedIssuer: the signature recovers to an address that is not trusted.
	ErrUntrustedIssuer = errors.New("parcel: untrusted certificate issuer")
	// ErrTypedDataMismatch: the served typedData is not the message the signature
	// covers (a wallet would show something else than what was signed).
	ErrTypedDataMismatch = errors.New("parcel: typed data does not match the certificate")
	// ErrBadStatusList: the status list is malformed, for another chain, from the
	// future, not signed by its issuer, or its issuer is not trusted.
	ErrBadStatusList = errors.New("parcel: bad status list")
)

func fail(code veriland.Code, cause error, format string, args ...any) *veriland.Error {
	return &veriland.Error{Code: code, Message: fmt.Sprintf(format, args...), Cause: cause}
}

// VerifyOptions are the inputs of offline verification.
type VerifyOptions struct {
	// TrustedIssuers are the issuer addresses accepted (required).
	TrustedIssuers []common.Address
	// ChainID is the chainId of the certificate domain (0: DefaultChainID). It comes
	// from the verifier's configuration, never from the certificate.
	ChainID uint64
	// Statuses, when set, is a signed status list (ideally complete, since null); the
	// certificate's hash found in it is SUPERSEDED or REVOKED.
	Statuses *StatusList
	// Now is the verifier's clock (zero: time.Now), used to refuse status lists from
	// the future.
	Now time.Time
}

// OfflineResult is the outcome of VerifyCertificate.
type OfflineResult struct {
	// Status is CURRENT, SUPERSEDED or REVOKED. Without a status list it is CURRENT
	// and StatusChecked is false: the signature holds, but whether the version was
	// superseded is unknown.
	Status        CertificateStatus
	StatusChecked bool
	StatusAt      *time.Time // when the certificate stopped being CURRENT
	Issuer        common.Address
	Hash          common.Hash
	Certificate   *Certificate
}

// VerifyCertificate checks a signed certificate with no network and no storage: it
// recomputes the hash from the certificate JSON (ErrHashMismatch), rebuilds the
// EIP-712 digest from the certificate's members and that hash, recovers the signer
// (ErrBadSignature) and checks it is trusted (ErrUntrustedIssuer), checks that the
// served typedData, when present, hashes to that digest (ErrTypedDataMismatch: a
// wallet would show another message than the one signed), then reads the
// status from opts.Statuses after checking that list's signature (ErrBadStatusList).
// Errors are *veriland.Error values whose cause is one of the named errors.
func VerifyCertificate(c *SignedCertificate, opts VerifyOptions) (*OfflineResult, error) {
	if c == nil || len(c.Certificate) == 0 {
		return nil, fail(veriland.CodeValidationFailed, ErrMalformedCertificate, "no certificate")
	}
	chainID := opts.ChainID
	if chainID == 0 {
		chainID = DefaultChainID
	}
	cert, err := c.Parsed()
	if err != nil || cert.ParcelID == "" || cert.Version == 0 || cert.TokenID == "" ||
		(cert.Owner.WalletAddress != "" && !common.IsHexAddress(cert.Owner.WalletAddress)) {
		return nil, fail(veriland.CodeValidationFailed, ErrMalformedCertificate, "the certificate is not a parcel certificate JSON object")
	}
	h, err := HashCertificateJSON(c.Certificate)
	if err != nil {
		return nil, fail(veriland.CodeValidationFailed, ErrMalformedCertificate, "the certificate JSON cannot be canonicalised")
	}
	if c.Hash != "" && !strings.EqualFold(c.Hash, HashString(h)) {
		return nil, fail(veriland.CodeInvalidSignature, ErrHashMismatch, "the certificate hashes to %s, not %s", HashString(h), c.Hash)
	}
	digest := messageOf(cert, h).Digest(chainID)
	signer, err := ethsig.Recover(digest, c.Signature)
	if err != nil {
		return nil, &veriland.Error{Code: veriland.CodeInvalidSignature, Message: "the certificate signature does not verify", Cause: fmt.Errorf("%w: %w", ErrBadSignature, err)}
	}
	if !slices.Contains(opts.TrustedIssuers, signer) {
		return nil, fail(veriland.CodeInvalidSignature, ErrUntrustedIssuer, "the certificate is signed by %s, which is not a trusted issuer (or the certificate was altered)", signer.Hex())
	}
	if len(c.TypedData.Message) > 0 || c.TypedData.PrimaryType != "" {
		served, _, _, err := ethsig.APIDigest(apitypes.TypedData(c.TypedData))
		if err != nil || served != digest {
			return nil, fail(veriland.CodeInvalidSignature, ErrTypedDataMismatch, "the typedData served with the certificate is not the signed message")
		}
	}
	res := &OfflineResult{Status: CertificateCurrent, Issuer: signer, Hash: h, Certificate: cert}
	if opts.Statuses != nil {
		if err := VerifyStatusList(opts.Statuses, opts.TrustedIssuers, chainID, opts.Now); err != nil {
			return nil, err
		}
		res.StatusChecked = true
		if e, ok := opts.Statuses.Lookup(h); ok {
			res.Status = e.Status
			at := e.At
			res.StatusAt = &at
		}
	}
	return res, nil
}

// VerifyStatusList checks that l is signed by l.Issuer, that l.Issuer is trusted,
// that l is for chainID (when not 0) and that it was not issued after now (plus five
// minutes of clock skew; zero now: time.Now).
func VerifyStatusList(l *StatusList, trusted []common.Address, chainID uint64, now time.Time) error {
	if l == nil {
		return fail(veriland.CodeValidationFailed, ErrBadStatusList, "no status list")
	}
	if chainID != 0 && l.ChainID != chainID {
		return fail(veriland.CodeInvalidSignature, ErrBadStatusList, "the status list is for chain %d, expected %d", l.ChainID, chainID)
	}
	if now.IsZero() {
		now = time.Now()
	}
	if l.IssuedAt.After(now.Add(5 * time.Minute)) {
		return fail(veriland.CodeInvalidSignature, ErrBadStatusList, "the status list is issued in the future (%s)", l.IssuedAt.UTC().Format(time.RFC3339))
	}
	payload, err := l.SigningPayload()
	if err != nil {
		return fail(veriland.CodeValidationFailed, ErrBadStatusList, "the status list cannot be encoded")
	}
	signer, err := ethsig.Recover(ethsig.PersonalDigest(payload), l.Signature)
	if err != nil {
		return &veriland.Error{Code: veriland.CodeInvalidSignature, Message: "the status list signature does not verify", Cause: fmt.Errorf("%w: %w", ErrBadStatusList, err)}
	}
	if signer != l.Issuer {
		return fail(veriland.CodeInvalidSignature, ErrBadStatusList, "the status list is not signed by its issuer (recovered %s)", signer.Hex())
	}
	if !slices.Contains(trusted, signer) {
		return fail(veriland.CodeInvalidSignature, ErrBadStatusList, "the status list issuer %s is not trusted", signer.Hex())
	}
	return nil
}
