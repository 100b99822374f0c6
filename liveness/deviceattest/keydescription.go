package deviceattest

import (
	"crypto/x509"
	"encoding/asn1"
	"errors"
	"fmt"
)

// OIDKeyDescription is the dotted OID of the Android key description extension.
const OIDKeyDescription = "1.3.6.1.4.1.11129.2.1.17"

// AuthorizationList tags this package reads (Android KeyMint Tag numbers).
const (
	tagRootOfTrust      = 704
	tagOSVersion        = 705
	tagOSPatchLevel     = 706
	tagVendorPatchLevel = 718
	tagBootPatchLevel   = 719
)

// Bounds that keep a hostile extension from costing much to walk.
const (
	maxKeyDescriptionBytes = 64 << 10
	maxListElements        = 256
)

// SecurityLevel is where a key or attestation lives (KeyMint SecurityLevel).
type SecurityLevel int

// Security levels.
const (
	SecurityLevelSoftware           SecurityLevel = 0
	SecurityLevelTrustedEnvironment SecurityLevel = 1
	SecurityLevelStrongBox          SecurityLevel = 2
)

// String returns "SOFTWARE", "TEE", "STRONGBOX" or "UNKNOWN(n)".
func (l SecurityLevel) String() string {
	switch l {
	case SecurityLevelSoftware:
		return "SOFTWARE"
	case SecurityLevelTrustedEnvironment:
		return "TEE"
	case SecurityLevelStrongBox:
		return "STRONGBOX"
	}
	return fmt.Sprintf("UNKNOWN(%d)", int(l))
}

// HardwareBacked reports whether l is TEE or StrongBox.
func (l SecurityLevel) HardwareBacked() bool {
	return l == SecurityLevelTrustedEnvironment || l == SecurityLevelStrongBox
}

// VerifiedBootState is the Android verified boot state in a RootOfTrust.
type VerifiedBootState int

// Verified boot states.
const (
	BootVerified   VerifiedBootState = 0
	BootSelfSigned VerifiedBootState = 1
	BootUnverified VerifiedBootState = 2
	BootFailed     VerifiedBootState = 3
)

// String returns "VERIFIED", "SELF_SIGNED", "UNVERIFIED", "FAILED" or "UNKNOWN(n)".
func (s VerifiedBootState) String() string {
	switch s {
	case BootVerified:
		return "VERIFIED"
	case BootSelfSigned:
		return "SELF_SIGNED"
	case BootUnverified:
		return "UNVERIFIED"
	case BootFailed:
		return "FAILED"
	}
	return fmt.Sprintf("UNKNOWN(%d)", int(s))
}

// RootOfTrust is the device's boot state as the secure hardware saw it.
type RootOfTrust struct {
	VerifiedBootKey   []byte            // hash of the key that verified the boot image
	DeviceLocked      bool              // true if the bootloader is locked
	VerifiedBootState VerifiedBootState // Verified, SelfSigned, Unverified or Failed
	VerifiedBootHash  []byte            // absent before attestation version 3
}

// AuthorizationList holds the authorization tags this package uses; the others are
// checked for well-formedness and otherwise ignored.
type AuthorizationList struct {
	Tags             []int        // every tag present, in encoded order
	RootOfTrust      *RootOfTrust // tag 704, nil if absent
	OSVersion        int          // tag 705, 0 if absent
	OSPatchLevel     int          // tag 706 (YYYYMM), 0 if absent
	VendorPatchLevel int          // tag 718 (YYYYMMDD), 0 if absent
	BootPatchLevel   int          // tag 719 (YYYYMMDD), 0 if absent
}

// KeyDescription is the Android key attestation record (extension
// 1.3.6.1.4.1.11129.2.1.17) of an attested key's certificate.
type KeyDescription struct {
	AttestationVersion       int               // e.g. 3, 4, 100, 200, 300, 400
	AttestationSecurityLevel SecurityLevel     // where the attestation was made
	KeyMintVersion           int               // Keymaster/KeyMint version
	KeyMintSecurityLevel     SecurityLevel     // where the attested key lives
	AttestationChallenge     []byte            // the challenge the app passed to KeyStore
	UniqueID                 []byte            // empty unless the app is privileged
	SoftwareEnforced         AuthorizationList // enforced by Android, not by hardware
	HardwareEnforced         AuthorizationList // teeEnforced in older schemas
}

// KeyDescriptionFromCertificate finds and parses the key description extension of
// cert. It returns ErrMissingKeyDescription or ErrMalformedKeyDescription (wrapped).
func KeyDescriptionFromCertificate(cert *x509.Certificate) (*KeyDescription, error) {
	var found []byte
	for _, ext := range cert.Extensions {
		if ext.Id.String() == OIDKeyDescription {
			if found != nil {
				return nil, fmt.Errorf("%w: duplicate extension", ErrMalformedKeyDescription)
			}
			found = ext.Value
		}
	}
	if found == nil {
		return nil, ErrMissingKeyDescription
	}
	return ParseKeyDescription(found)
}

// ParseKeyDescription parses the DER value of a key description extension. It walks
// each AuthorizationList as a sequence of EXPLICIT context-tagged elements rather than
// decoding into one large struct, refuses non-DER encodings (such as a BOOLEAN that is
// neither 0x00 nor 0xFF) and duplicate tags. Every failure wraps
// ErrMalformedKeyDescription. It never checks the challenge or the policy.
func ParseKeyDescription(der []byte) (*KeyDescription, error) {
	kd, err := parseKeyDescription(der)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrMalformedKeyDescription, err)
	}
	return kd, nil
}

func parseKeyDescription(der []byte) (*KeyDescription, error) {
	if len(der) > maxKeyDescriptionBytes {
		return nil, errors.New("too large")
	}
	els, err := sequenceElements(der)
	if err != nil {
		return nil, err
	}
	if len(els) < 8 {
		return nil, fmt.Errorf("key description has %d elements, want at least 8", len(els))
	}
	var kd KeyDescription
	if kd.AttestationVersion, err = derInt(els[0]); err != nil {
		return nil, fmt.Errorf("attestationVersion: %w", err)
	}
	lvl, err := derEnum(els[1])
	if err != nil {
		return nil, fmt.Errorf("attestationSecurityLevel: %w", err)
	}
	kd.AttestationSecurityLevel = SecurityLevel(lvl)
	if kd.KeyMintVersion, err = derInt(els[2]); err != nil {
		return nil, fmt.Errorf("keyMintVersion: %w", err)
	}
	if lvl, err = derEnum(els[3]); err != nil {
		return nil, fmt.Errorf("keyMintSecurityLevel: %w", err)
	}
	kd.KeyMintSecurityLevel = SecurityLevel(lvl)
	if kd.AttestationChallenge, err = derOctets(els[4]); err != nil {
		return nil, fmt.Errorf("attestationChallenge: %w", err)
	}
	if kd.UniqueID, err = derOctets(els[5]); err != nil {
		return nil, fmt.Errorf("uniqueId: %w", err)
	}
	if kd.SoftwareEnforced, err = parseAuthorizationList(els[6]); err != nil {
		return nil, fmt.Errorf("softwareEnforced: %w", err)
	}
	if kd.HardwareEnforced, err = parseAuthorizationList(els[7]); err != nil {
		return nil, fmt.Errorf("hardwareEnforced: %w", err)
	}
	return &kd, nil
}

func parseAuthorizationList(rv asn1.RawValue) (AuthorizationList, error) {
	var al AuthorizationList
	if rv.Class != asn1.ClassUniversal || rv.Tag != asn1.TagSequence || !rv.IsCompound {
		return al, errors.New("not a SEQUENCE")
	}
	els, err := splitElements(rv.Bytes)
	if err != nil {
		return al, err
	}
	seen := make(map[int]bool, len(els))
	for _, el := range els {
		if el.Class != asn1.ClassContextSpecific || !el.IsCompound {
			return al, fmt.Errorf("element is not an EXPLICIT context tag")
		}
		if seen[el.Tag] {
			return al, fmt.Errorf("duplicate tag %d", el.Tag)
		}
		seen[el.Tag] = true
		al.Tags = append(al.Tags, el.Tag)
		inner, err := splitElements(el.Bytes)
		if err != nil {
			return al, fmt.Errorf("tag %d: %w", el.Tag, err)
		}
		if len(inner) != 1 {
			return al, fmt.Errorf("tag %d: %d values, want 1", el.Tag, len(inner))
		}
		v := inner[0]
		switch el.Tag {
		case tagRootOfTrust:
			rot, err := parseRootOfTrust(v)
			if err != nil {
				return al, fmt.Errorf("rootOfTrust: %w", err)
			}
			al.RootOfTrust = rot
		case tagOSVersion:
			al.OSVersion, err = derInt(v)
		case tagOSPatchLevel:
			al.OSPatchLevel, err = derInt(v)
		case tagVendorPatchLevel:
			al.VendorPatchLevel, err = derInt(v)
		case tagBootPatchLevel:
			al.BootPatchLevel, err = derInt(v)
		}
		if err != nil {
			return al, fmt.Errorf("tag %d: %w", el.Tag, err)
		}
	}
	return al, nil
}

func parseRootOfTrust(rv asn1.RawValue) (*RootOfTrust, error) {
	if rv.Class != asn1.ClassUniversal || rv.Tag != asn1.TagSequence || !rv.IsCompound {
		return nil, errors.New("not a SEQUENCE")
	}
	els, err := splitElements(rv.Bytes)
	if err != nil {
		return nil, err
	}
	if len(els) < 3 || len(els) > 4 {
		return nil, fmt.Errorf("%d elements, want 3 or 4", len(els))
	}
	var rot RootOfTrust
	if rot.VerifiedBootKey, err = derOctets(els[0]); err != nil {
		return nil, fmt.Errorf("verifiedBootKey: %w", err)
	}
	if rot.DeviceLocked, err = derBool(els[1]); err != nil {
		return nil, fmt.Errorf("deviceLocked: %w", err)
	}
	state, err := derEnum(els[2])
	if err != nil {
		return nil, fmt.Errorf("verifiedBootState: %w", err)
	}
	rot.VerifiedBootState = VerifiedBootState(state)
	if len(els) == 4 {
		if rot.VerifiedBootHash, err = derOctets(els[3]); err != nil {
			return nil, fmt.Errorf("verifiedBootHash: %w", err)
		}
	}
	return &rot, nil
}

// sequenceElements parses der as exactly one SEQUENCE and returns its elements.
func sequenceElements(der []byte) ([]asn1.RawValue, error) {
	var seq asn1.RawValue
	rest, err := asn1.Unmarshal(der, &seq)
	if err != nil {
		return nil, err
	}
	if len(rest) != 0 {
		return nil, errors.New("trailing data after SEQUENCE")
	}
	if seq.Class != asn1.ClassUniversal || seq.Tag != asn1.TagSequence || !seq.IsCompound {
		return nil, errors.New("not a SEQUENCE")
	}
	return splitElements(seq.Bytes)
}

// splitElements splits the contents of a constructed value into its TLVs.
func splitElements(b []byte) ([]asn1.RawValue, error) {
	var out []asn1.RawValue
	for len(b) > 0 {
		if len(out) == maxListElements {
			return nil, errors.New("too many elements")
		}
		var rv asn1.RawValue
		var err error
		if b, err = asn1.Unmarshal(b, &rv); err != nil {
			return nil, err
		}
		out = append(out, rv)
	}
	return out, nil
}

func isUniversal(rv asn1.RawValue, tag int) bool {
	return rv.Class == asn1.ClassUniversal && rv.Tag == tag && !rv.IsCompound
}

func derInt(rv asn1.RawValue) (int, error) {
	if !isUniversal(rv, asn1.TagInteger) {
		return 0, errors.New("not an INTEGER")
	}
	var v int
	if _, err := asn1.Unmarshal(rv.FullBytes, &v); err != nil {
		return 0, err
	}
	return v, nil
}

func derEnum(rv asn1.RawValue) (int, error) {
	if !isUniversal(rv, asn1.TagEnum) {
		return 0, errors.New("not an ENUMERATED")
	}
	var v asn1.Enumerated
	if _, err := asn1.Unmarshal(rv.FullBytes, &v); err != nil {
		return 0, err
	}
	return int(v), nil
}

func derOctets(rv asn1.RawValue) ([]byte, error) {
	if !isUniversal(rv, asn1.TagOctetString) {
		return nil, errors.New("not an OCTET STRING")
	}
	return rv.Bytes, nil
}

// derBool refuses any BOOLEAN content other than 0x00 and 0xFF (DER), as
// encoding/asn1 does.
func derBool(rv asn1.RawValue) (bool, error) {
	if !isUniversal(rv, asn1.TagBoolean) {
		return false, errors.New("not a BOOLEAN")
	}
	var v bool
	if _, err := asn1.Unmarshal(rv.FullBytes, &v); err != nil {
		return false, err
	}
	return v, nil
}
