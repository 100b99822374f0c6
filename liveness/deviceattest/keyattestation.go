package deviceattest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// Bounds on a KEY_ATTESTATION token.
const (
	maxKeyAttestationToken = 96 << 10 // characters of the outer base64
	maxChainLength         = 10
)

// KeyAttestationConfig configures a KeyAttestationVerifier.
type KeyAttestationConfig struct {
	// Roots are the trust anchors, pinned by SubjectPublicKeyInfo: a chain is trusted
	// if its last certificate carries one of these keys, or is signed by one. Empty
	// means GoogleAttestationRoots().
	Roots []*x509.Certificate
	// Revocations is consulted for the serial of every certificate in the chain. Nil
	// means no list; production deployments should load Google's status list.
	Revocations RevocationStatus
	// Now is the clock for certificate validity. Nil means time.Now.
	Now func() time.Time
}

// KeyAttestationVerifier verifies Android hardware key attestation chains
// (KEY_ATTESTATION). It is safe for concurrent use.
type KeyAttestationVerifier struct {
	roots       []*x509.Certificate
	revocations RevocationStatus
	now         func() time.Time
}

// NewKeyAttestationVerifier returns a verifier for cfg.
func NewKeyAttestationVerifier(cfg KeyAttestationConfig) (*KeyAttestationVerifier, error) {
	roots := cfg.Roots
	if len(roots) == 0 {
		var err error
		if roots, err = GoogleAttestationRoots(); err != nil {
			return nil, err
		}
	}
	for i, r := range roots {
		if r == nil {
			return nil, fmt.Errorf("deviceattest: root %d is nil", i)
		}
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	return &KeyAttestationVerifier{roots: slices.Clone(roots), revocations: cfg.Revocations, now: now}, nil
}

// Verify implements Verifier for KEY_ATTESTATION with the enrolment challenge.
func (v *KeyAttestationVerifier) Verify(ctx context.Context, token string, challenge [32]byte) (*Result, error) {
	return v.VerifyChallenge(ctx, token, challenge[:])
}

// VerifyChallenge is Verify with the expected attestationChallenge given as raw
// bytes, for challenges that are not SHA-256 digests. It checks, in order: the token
// shape, each certificate's signature under the next, the root pin, every
// certificate's validity at Now, the revocation list, the key description of the
// leaf, the challenge, a TEE or StrongBox security level, and a hardware-enforced
// root of trust with verified boot and a locked bootloader.
func (v *KeyAttestationVerifier) VerifyChallenge(ctx context.Context, token string, challenge []byte) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	chain, err := ParseCertificateChain(token)
	if err != nil {
		return nil, wrap(KeyAttestation, err)
	}
	root, err := v.VerifyChain(chain)
	if err != nil {
		return nil, wrap(KeyAttestation, err)
	}
	kd, err := KeyDescriptionFromCertificate(chain[0])
	if err != nil {
		return nil, wrap(KeyAttestation, err)
	}
	if err := CheckKeyDescription(kd, challenge); err != nil {
		return nil, wrap(KeyAttestation, err)
	}
	spki := sha256.Sum256(root.RawSubjectPublicKeyInfo)
	rot := kd.HardwareEnforced.RootOfTrust
	return &Result{
		Type:               KeyAttestation,
		Trust:              TrustStrong,
		Platform:           PlatformAndroid,
		SecurityLevel:      kd.AttestationSecurityLevel.String(),
		AttestationVersion: kd.AttestationVersion,
		VerifiedBootState:  rot.VerifiedBootState.String(),
		DeviceLocked:       rot.DeviceLocked,
		OSPatchLevel:       kd.HardwareEnforced.OSPatchLevel,
		RootSPKISHA256:     spki[:],
		AttestedPublicKey:  bytes.Clone(chain[0].RawSubjectPublicKeyInfo),
	}, nil
}

// ParseCertificateChain decodes a KEY_ATTESTATION token: base64 of a JSON array of
// base64 DER certificates, leaf first. Errors wrap ErrMalformedToken or
// ErrMalformedCertificate.
func ParseCertificateChain(token string) ([]*x509.Certificate, error) {
	if len(token) == 0 || len(token) > maxKeyAttestationToken {
		return nil, fmt.Errorf("%w: token length %d", ErrMalformedToken, len(token))
	}
	raw, err := decodeBase64(token)
	if err != nil {
		return nil, fmt.Errorf("%w: base64: %w", ErrMalformedToken, err)
	}
	var ders []string
	if err := json.Unmarshal(raw, &ders); err != nil {
		return nil, fmt.Errorf("%w: not a JSON array of strings: %w", ErrMalformedToken, err)
	}
	if len(ders) < 2 || len(ders) > maxChainLength {
		return nil, fmt.Errorf("%w: chain of %d certificates, want 2..%d", ErrMalformedToken, len(ders), maxChainLength)
	}
	chain := make([]*x509.Certificate, len(ders))
	for i, s := range ders {
		der, err := decodeBase64(s)
		if err != nil {
			return nil, fmt.Errorf("%w: certificate %d: base64: %w", ErrMalformedToken, i, err)
		}
		if chain[i], err = x509.ParseCertificate(der); err != nil {
			return nil, fmt.Errorf("%w: certificate %d: %w", ErrMalformedCertificate, i, err)
		}
	}
	return chain, nil
}

// VerifyChain checks a leaf-first chain and returns the pinned root that anchors it.
// Each certificate's signature is checked with the next certificate's key directly,
// not with x509.Verify, because real Android intermediates are not always marked as
// CAs; the last certificate must carry a pinned root key or be signed by one. Every
// certificate must be valid at Now and absent from the revocation list. It does not
// look at the key description.
func (v *KeyAttestationVerifier) VerifyChain(chain []*x509.Certificate) (*x509.Certificate, error) {
	if len(chain) < 2 || len(chain) > maxChainLength {
		return nil, fmt.Errorf("%w: chain of %d certificates, want 2..%d", ErrMalformedToken, len(chain), maxChainLength)
	}
	for i := 0; i+1 < len(chain); i++ {
		c, parent := chain[i], chain[i+1]
		if err := parent.CheckSignature(c.SignatureAlgorithm, c.RawTBSCertificate, c.Signature); err != nil {
			return nil, fmt.Errorf("%w: certificate %d: %w", ErrChainSignature, i, err)
		}
	}
	root := v.anchor(chain[len(chain)-1])
	if root == nil {
		return nil, ErrUntrustedRoot
	}
	now := v.now()
	for i, c := range chain {
		if now.Before(c.NotBefore) || now.After(c.NotAfter) {
			return nil, fmt.Errorf("%w: certificate %d valid %s..%s", ErrCertificateValidity, i,
				c.NotBefore.UTC().Format(time.RFC3339), c.NotAfter.UTC().Format(time.RFC3339))
		}
	}
	if v.revocations != nil {
		for i, c := range chain {
			if status, listed := v.revocations.Lookup(c.SerialNumber); listed {
				return nil, fmt.Errorf("%w: certificate %d serial %s is %s", ErrCertificateRevoked, i, c.SerialNumber.Text(16), status)
			}
		}
	}
	return root, nil
}

// anchor returns the pinned root whose key is last's key or signed last, or nil.
func (v *KeyAttestationVerifier) anchor(last *x509.Certificate) *x509.Certificate {
	for _, r := range v.roots {
		if subtle.ConstantTimeCompare(r.RawSubjectPublicKeyInfo, last.RawSubjectPublicKeyInfo) == 1 {
			return r
		}
	}
	for _, r := range v.roots {
		if r.CheckSignature(last.SignatureAlgorithm, last.RawTBSCertificate, last.Signature) == nil {
			return r
		}
	}
	return nil
}

// CheckKeyDescription applies the enrolment policy to a parsed key description:
// attestationChallenge equals challenge, the attestation security level is TEE or
// StrongBox, and the hardware-enforced root of trust reports verified boot and a
// locked bootloader. A root of trust in the software-enforced list is ignored.
func CheckKeyDescription(kd *KeyDescription, challenge []byte) error {
	if kd == nil {
		return ErrMissingKeyDescription
	}
	if len(challenge) == 0 || subtle.ConstantTimeCompare(kd.AttestationChallenge, challenge) != 1 {
		return ErrChallengeMismatch
	}
	if !kd.AttestationSecurityLevel.HardwareBacked() {
		return fmt.Errorf("%w: security level %s", ErrSoftwareAttestation, kd.AttestationSecurityLevel)
	}
	rot := kd.HardwareEnforced.RootOfTrust
	if rot == nil {
		return ErrMissingRootOfTrust
	}
	if rot.VerifiedBootState != BootVerified {
		return fmt.Errorf("%w: %s", ErrBootNotVerified, rot.VerifiedBootState)
	}
	if !rot.DeviceLocked {
		return ErrDeviceUnlocked
	}
	return nil
}
