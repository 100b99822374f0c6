package deviceattest

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/x509"
	"encoding/asn1"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/fxamacker/cbor/v2"
)

// OIDAppAttestNonce is the dotted OID of the credential certificate extension that
// carries SHA-256(authData ‖ clientDataHash).
const OIDAppAttestNonce = "1.2.840.113635.100.8.2"

// App Attest AAGUIDs: "appattestdevelop" in the development environment, "appattest"
// followed by seven zero bytes in production.
const (
	aaguidDevelopment = "appattestdevelop"
	aaguidProduction  = "appattest\x00\x00\x00\x00\x00\x00\x00"
)

const (
	appAttestFormat   = "apple-appattest"
	maxAppAttestToken = 64 << 10
	flagAttestedData  = 0x40
	maxCredentialID   = 1023
)

// AppAttestConfig configures an AppAttestVerifier.
type AppAttestConfig struct {
	// AppID is the app identifier, TeamID + "." + bundle ID. Required.
	AppID string
	// Development selects the development AAGUID ("appattestdevelop"); false
	// expects production ("appattest").
	Development bool
	// Roots are the trust anchors for the x5c chain. Empty means AppleAppAttestRoot(),
	// which is pinned by its SHA-256 fingerprint.
	Roots []*x509.Certificate
	// Now is the clock for certificate validity. Nil means time.Now.
	Now func() time.Time
}

// AppAttestVerifier verifies Apple App Attest attestation objects (APP_ATTEST) with
// every server-side check Apple lists. It is safe for concurrent use.
type AppAttestVerifier struct {
	appIDHash [32]byte
	aaguid    string
	dev       bool
	roots     *x509.CertPool
	now       func() time.Time
	cbor      cbor.DecMode
}

// NewAppAttestVerifier returns a verifier for cfg.
func NewAppAttestVerifier(cfg AppAttestConfig) (*AppAttestVerifier, error) {
	if !validAppID(cfg.AppID) {
		return nil, fmt.Errorf("deviceattest: AppID %q is not TeamID.bundleID", cfg.AppID)
	}
	roots := cfg.Roots
	if len(roots) == 0 {
		r, err := AppleAppAttestRoot()
		if err != nil {
			return nil, err
		}
		roots = []*x509.Certificate{r}
	}
	pool := x509.NewCertPool()
	for i, r := range roots {
		if r == nil {
			return nil, fmt.Errorf("deviceattest: root %d is nil", i)
		}
		pool.AddCert(r)
	}
	dec, err := cbor.DecOptions{
		DupMapKey:        cbor.DupMapKeyEnforcedAPF,
		MaxNestedLevels:  16,
		MaxArrayElements: 64,
		MaxMapPairs:      64,
		IndefLength:      cbor.IndefLengthForbidden,
	}.DecMode()
	if err != nil {
		return nil, err
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	v := &AppAttestVerifier{
		appIDHash: sha256.Sum256([]byte(cfg.AppID)),
		aaguid:    aaguidProduction,
		dev:       cfg.Development,
		roots:     pool,
		now:       now,
		cbor:      dec,
	}
	if cfg.Development {
		v.aaguid = aaguidDevelopment
	}
	return v, nil
}

func validAppID(id string) bool {
	team, bundle, ok := strings.Cut(id, ".")
	return ok && team != "" && bundle != "" && !strings.ContainsAny(id, " \t\r\n")
}

// appAttestToken is the decoded APP_ATTEST token.
type appAttestToken struct {
	KeyID       string `json:"keyId"`
	Attestation string `json:"attestation"`
}

// attestationObject is the CBOR attestation object DCAppAttestService returns.
type attestationObject struct {
	Fmt     string `cbor:"fmt"`
	AttStmt struct {
		X5C     [][]byte `cbor:"x5c"`
		Receipt []byte   `cbor:"receipt"`
	} `cbor:"attStmt"`
	AuthData []byte `cbor:"authData"`
}

// authenticatorData is the WebAuthn authenticator data layout App Attest uses.
type authenticatorData struct {
	RPIDHash            []byte
	Flags               byte
	Counter             uint32
	AAGUID              []byte
	CredentialID        []byte
	CredentialPublicKey []byte // COSE key, CBOR; trailing bytes after it are ignored
}

// Verify implements Verifier for APP_ATTEST, with clientDataHash = challenge.
func (v *AppAttestVerifier) Verify(ctx context.Context, token string, challenge [32]byte) (*Result, error) {
	return v.VerifyClientDataHash(ctx, token, challenge[:])
}

// VerifyClientDataHash is Verify with the clientDataHash the app passed to
// attestKey given as raw bytes, of any length: Apple hashes it again into the nonce
// SHA-256(authData ‖ clientDataHash), so it need not be a 32-byte digest (Apple's
// own guide vector uses 24 bytes). It runs the same checks as Verify.
func (v *AppAttestVerifier) VerifyClientDataHash(ctx context.Context, token string, clientDataHash []byte) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res, err := v.verify(token, clientDataHash)
	if err != nil {
		return nil, wrap(AppAttest, err)
	}
	return res, nil
}

func (v *AppAttestVerifier) verify(token string, clientDataHash []byte) (*Result, error) {
	keyID, obj, err := v.parseToken(token)
	if err != nil {
		return nil, err
	}
	if obj.Fmt != appAttestFormat {
		return nil, fmt.Errorf("%w: %q", ErrWrongFormat, obj.Fmt)
	}
	ad, err := v.parseAuthenticatorData(obj.AuthData)
	if err != nil {
		return nil, err
	}
	if len(obj.AttStmt.X5C) < 2 {
		return nil, fmt.Errorf("%w: x5c holds %d certificates, want at least 2", ErrMalformedToken, len(obj.AttStmt.X5C))
	}
	certs := make([]*x509.Certificate, len(obj.AttStmt.X5C))
	for i, der := range obj.AttStmt.X5C {
		if certs[i], err = x509.ParseCertificate(der); err != nil {
			return nil, fmt.Errorf("%w: x5c[%d]: %w", ErrMalformedCertificate, i, err)
		}
	}

	// 1. The x5c chain ends in a pinned root.
	cred := certs[0]
	inter := x509.NewCertPool()
	for _, c := range certs[1:] {
		inter.AddCert(c)
	}
	chains, err := cred.Verify(x509.VerifyOptions{
		Roots:         v.roots,
		Intermediates: inter,
		CurrentTime:   v.now(),
		KeyUsages:     []x509.ExtKeyUsage{x509.ExtKeyUsageAny},
	})
	if err != nil {
		var inv x509.CertificateInvalidError
		if errors.As(err, &inv) && inv.Reason == x509.Expired {
			return nil, fmt.Errorf("%w: %w", ErrCertificateValidity, err)
		}
		return nil, fmt.Errorf("%w: %w", ErrUntrustedRoot, err)
	}
	root := chains[0][len(chains[0])-1]

	// 2–4. nonce = SHA-256(authData ‖ clientDataHash) is in the credential certificate.
	h := sha256.New()
	h.Write(obj.AuthData)
	h.Write(clientDataHash)
	nonce := h.Sum(nil)
	certNonce, err := appAttestNonce(cred)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNonceMismatch, err)
	}
	if subtle.ConstantTimeCompare(nonce, certNonce) != 1 {
		return nil, ErrNonceMismatch
	}

	// 5. keyId = SHA-256 of the credential public key (uncompressed point).
	pub, ok := cred.PublicKey.(*ecdsa.PublicKey)
	if !ok {
		return nil, fmt.Errorf("%w: credential key is %T, not ECDSA", ErrKeyIDMismatch, cred.PublicKey)
	}
	ecdhPub, err := pub.ECDH()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrKeyIDMismatch, err)
	}
	keyHash := sha256.Sum256(ecdhPub.Bytes())
	if subtle.ConstantTimeCompare(keyHash[:], keyID) != 1 {
		return nil, ErrKeyIDMismatch
	}

	// 6. RP ID hash = SHA-256(app id).
	if subtle.ConstantTimeCompare(ad.RPIDHash, v.appIDHash[:]) != 1 {
		return nil, ErrAppIDMismatch
	}
	// 7. counter = 0.
	if ad.Counter != 0 {
		return nil, fmt.Errorf("%w: %d", ErrCounterNotZero, ad.Counter)
	}
	// 8. AAGUID matches the environment.
	if string(ad.AAGUID) != v.aaguid {
		return nil, fmt.Errorf("%w: %q", ErrAAGUIDMismatch, bytes.TrimRight(ad.AAGUID, "\x00"))
	}
	// 9. credentialId = keyId.
	if !bytes.Equal(ad.CredentialID, keyID) {
		return nil, ErrCredentialIDMismatch
	}

	spki := sha256.Sum256(root.RawSubjectPublicKeyInfo)
	return &Result{
		Type:              AppAttest,
		Trust:             TrustStrong,
		Platform:          PlatformIOS,
		SecurityLevel:     "SECURE_ENCLAVE",
		RootSPKISHA256:    spki[:],
		KeyID:             bytes.Clone(keyID),
		AttestedPublicKey: bytes.Clone(cred.RawSubjectPublicKeyInfo),
		Receipt:           bytes.Clone(obj.AttStmt.Receipt),
		Development:       v.dev,
	}, nil
}

func (v *AppAttestVerifier) parseToken(token string) ([]byte, *attestationObject, error) {
	if len(token) == 0 || len(token) > maxAppAttestToken {
		return nil, nil, fmt.Errorf("%w: token length %d", ErrMalformedToken, len(token))
	}
	raw, err := decodeBase64(token)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: base64: %w", ErrMalformedToken, err)
	}
	var t appAttestToken
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	if err := d.Decode(&t); err != nil {
		return nil, nil, fmt.Errorf("%w: json: %w", ErrMalformedToken, err)
	}
	if d.More() {
		return nil, nil, fmt.Errorf("%w: trailing JSON", ErrMalformedToken)
	}
	keyID, err := decodeBase64(t.KeyID)
	if err != nil || len(keyID) != sha256.Size {
		return nil, nil, fmt.Errorf("%w: keyId is not base64 of 32 bytes", ErrMalformedToken)
	}
	att, err := decodeBase64(t.Attestation)
	if err != nil || len(att) == 0 {
		return nil, nil, fmt.Errorf("%w: attestation is not base64", ErrMalformedToken)
	}
	var obj attestationObject
	if err := v.cbor.Unmarshal(att, &obj); err != nil {
		return nil, nil, fmt.Errorf("%w: attestation object: %w", ErrMalformedToken, err)
	}
	return keyID, &obj, nil
}

// parseAuthenticatorData reads rpIdHash(32) flags(1) signCount(4) aaguid(16)
// credentialIdLength(2) credentialId credentialPublicKey(COSE), tolerating bytes
// after the public key.
func (v *AppAttestVerifier) parseAuthenticatorData(b []byte) (*authenticatorData, error) {
	const fixed = 32 + 1 + 4 + 16 + 2
	if len(b) < fixed {
		return nil, fmt.Errorf("%w: authData of %d bytes", ErrMalformedToken, len(b))
	}
	ad := &authenticatorData{
		RPIDHash: b[:32],
		Flags:    b[32],
		Counter:  binary.BigEndian.Uint32(b[33:37]),
		AAGUID:   b[37:53],
	}
	if ad.Flags&flagAttestedData == 0 {
		return nil, fmt.Errorf("%w: authData has no attested credential data", ErrMalformedToken)
	}
	n := int(binary.BigEndian.Uint16(b[53:55]))
	rest := b[fixed:]
	if n > maxCredentialID || n > len(rest) {
		return nil, fmt.Errorf("%w: credential id length %d", ErrMalformedToken, n)
	}
	ad.CredentialID, rest = rest[:n], rest[n:]
	var key cbor.RawMessage
	after, err := v.cbor.UnmarshalFirst(rest, &key)
	if err != nil {
		return nil, fmt.Errorf("%w: credential public key: %w", ErrMalformedToken, err)
	}
	ad.CredentialPublicKey = rest[:len(rest)-len(after)]
	return ad, nil
}

// appAttestNonce extracts the nonce from extension 1.2.840.113635.100.8.2, a
// SEQUENCE holding [1] EXPLICIT OCTET STRING.
func appAttestNonce(cert *x509.Certificate) ([]byte, error) {
	for _, ext := range cert.Extensions {
		if ext.Id.String() != OIDAppAttestNonce {
			continue
		}
		var v struct {
			Nonce []byte `asn1:"explicit,tag:1"`
		}
		rest, err := asn1.Unmarshal(ext.Value, &v)
		if err != nil {
			return nil, fmt.Errorf("nonce extension: %w", err)
		}
		if len(rest) != 0 {
			return nil, errors.New("nonce extension: trailing data")
		}
		return v.Nonce, nil
	}
	return nil, errors.New("credential certificate has no nonce extension")
}
