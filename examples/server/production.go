package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/subtle"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/liveness/deviceattest"
)

// hooks are the test seams of the device verifiers; the binary leaves them nil. The
// package's tests set them before run and never in parallel.
var hooks struct {
	// deviceClock replaces time.Now for the certificate validity checks of the
	// KEY_ATTESTATION and APP_ATTEST verifiers (real device vectors are dated).
	deviceClock func() time.Time
	// wrapDevice wraps the verifiers once built.
	wrapDevice func(deviceattest.Verifiers) deviceattest.Verifiers
}

var (
	androidPackageRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$`)
	appleAppIDRE     = regexp.MustCompile(`^[A-Z0-9]{10}\.[A-Za-z0-9][A-Za-z0-9.-]*$`)
)

// checkDevice validates the device attestation flags: -android-signing-digest and the
// Play Integrity keys need -android-package; the two Play Integrity keys go together
// and must parse; -app-attest-development needs -apple-app-id. Messages never repeat
// a key.
func (o *options) checkDevice() error {
	if o.androidPackage != "" && !androidPackageRE.MatchString(o.androidPackage) {
		return fmt.Errorf("-android-package must be an Android application id such as com.example.wallet")
	}
	if o.androidDigests != "" {
		if o.androidPackage == "" {
			return fmt.Errorf("-android-signing-digest needs -android-package")
		}
		if _, err := parseDigests(o.androidDigests); err != nil {
			return err
		}
	}
	if (o.playDecryptionKey == "") != (o.playVerificationKey == "") {
		return fmt.Errorf("-play-integrity-decryption-key and -play-integrity-verification-key " +
			"(VERILAND_PLAY_INTEGRITY_DECRYPTION_KEY, VERILAND_PLAY_INTEGRITY_VERIFICATION_KEY) go together")
	}
	if o.playDecryptionKey != "" {
		if o.androidPackage == "" {
			return fmt.Errorf("PLAY_INTEGRITY needs -android-package: the verdict must be for your app")
		}
		if _, err := deviceattest.ParseOfflineDecoderKeys(o.playDecryptionKey, o.playVerificationKey); err != nil {
			return fmt.Errorf("-play-integrity-*-key: the two base64 keys of the Play Console " +
				"(a 32-byte AES decryption key and a P-256 verification key) are expected")
		}
	}
	if o.appleAppID != "" && !appleAppIDRE.MatchString(o.appleAppID) {
		return fmt.Errorf("-apple-app-id must be TEAMID.bundle.id (a 10-character team id, e.g. ABCDE12345.com.example.wallet)")
	}
	if o.appleDevelopment && o.appleAppID == "" {
		return fmt.Errorf("-app-attest-development needs -apple-app-id")
	}
	return nil
}

// parseDigests reads -android-signing-digest: comma-separated SHA-256 digests of the
// app's signing certificates, each hex (with or without colons) or base64.
func parseDigests(s string) ([][]byte, error) {
	var out [][]byte
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		b, err := hex.DecodeString(strings.ReplaceAll(part, ":", ""))
		if err != nil {
			b, err = base64.StdEncoding.DecodeString(part)
		}
		if err != nil || len(b) != 32 {
			return nil, fmt.Errorf("-android-signing-digest: %q is not a SHA-256 digest in hex or base64", part)
		}
		out = append(out, b)
	}
	return out, nil
}

// deviceVerifiers builds the device attestation verifiers: MOCK (which
// deviceattest.Verifiers refuses outside SANDBOX), KEY_ATTESTATION pinned to the
// embedded Google roots (bound to -android-package when set), APP_ATTEST pinned to the
// embedded Apple root when -apple-app-id is set, and PLAY_INTEGRITY when its keys are.
func deviceVerifiers(o *options) (deviceattest.Verifiers, error) {
	clock := hooks.deviceClock
	vs := deviceattest.Verifiers{deviceattest.Mock: deviceattest.MockVerifier{}}

	roots, err := deviceattest.GoogleAttestationRoots()
	if err != nil {
		return nil, err
	}
	ka, err := deviceattest.NewKeyAttestationVerifier(deviceattest.KeyAttestationConfig{Roots: roots, Now: clock})
	if err != nil {
		return nil, err
	}
	app := &androidApp{ka: ka, pkg: o.androidPackage}
	if o.androidDigests != "" {
		if app.digests, err = parseDigests(o.androidDigests); err != nil {
			return nil, err
		}
	}
	vs[deviceattest.KeyAttestation] = app

	if o.appleAppID != "" {
		root, err := deviceattest.AppleAppAttestRoot()
		if err != nil {
			return nil, err
		}
		aa, err := deviceattest.NewAppAttestVerifier(deviceattest.AppAttestConfig{AppID: o.appleAppID,
			Development: o.appleDevelopment, Roots: []*x509.Certificate{root}, Now: clock})
		if err != nil {
			return nil, fmt.Errorf("-apple-app-id: %w", err)
		}
		vs[deviceattest.AppAttest] = aa
	}

	if o.playDecryptionKey != "" {
		dec, err := deviceattest.ParseOfflineDecoderKeys(o.playDecryptionKey, o.playVerificationKey)
		if err != nil {
			return nil, fmt.Errorf("-play-integrity-*-key: cannot parse the keys")
		}
		pi, err := deviceattest.NewPlayIntegrityVerifier(deviceattest.PlayIntegrityConfig{PackageName: o.androidPackage, Decoder: dec})
		if err != nil {
			return nil, err
		}
		vs[deviceattest.PlayIntegrity] = pi
	}
	if hooks.wrapDevice != nil {
		vs = hooks.wrapDevice(vs)
	}
	return vs, nil
}

// androidApp is the KEY_ATTESTATION verifier of the reference server: the chain,
// challenge and device policy checks of deviceattest.KeyAttestationVerifier, then,
// when -android-package is set, the attestationApplicationId of the leaf (tag 709):
// one of its packages must be that package and, with -android-signing-digest, one of
// its signature digests one of those.
type androidApp struct {
	ka      *deviceattest.KeyAttestationVerifier
	pkg     string
	digests [][]byte
}

// Verify implements deviceattest.Verifier.
func (a *androidApp) Verify(ctx context.Context, token string, challenge [32]byte) (*deviceattest.Result, error) {
	return a.VerifyChallenge(ctx, token, challenge[:])
}

// VerifyChallenge is Verify with the challenge as raw bytes.
func (a *androidApp) VerifyChallenge(ctx context.Context, token string, challenge []byte) (*deviceattest.Result, error) {
	res, err := a.ka.VerifyChallenge(ctx, token, challenge)
	if err != nil || a.pkg == "" {
		return res, err
	}
	chain, err := deviceattest.ParseCertificateChain(token)
	if err != nil {
		return nil, err
	}
	id, err := applicationID(chain[0].Extensions)
	if err != nil {
		return nil, appRefusal("application_id_missing", "the key attestation does not name its app").WithCause(err)
	}
	if !id.hasPackage(a.pkg) {
		return nil, appRefusal("package_mismatch", "the key attestation is for another app")
	}
	if len(a.digests) > 0 && !id.hasDigest(a.digests) {
		return nil, appRefusal("signing_digest_mismatch", "the key attestation is for an app signed with another key")
	}
	return res, nil
}

func appRefusal(reason, msg string) *veriland.Error {
	return veriland.Errorf(veriland.CodeInvalidSignature, "%s", msg).
		WithMeta("reason", reason).WithMeta("attestationType", string(deviceattest.KeyAttestation))
}

// attestationApplicationID is the AttestationApplicationId of Android's key
// description: SEQUENCE { packageInfos SET OF SEQUENCE { name OCTET STRING, version
// INTEGER }, signatureDigests SET OF OCTET STRING }.
type attestationApplicationID struct {
	Packages []struct {
		Name    []byte
		Version int64
	} `asn1:"set"`
	Digests [][]byte `asn1:"set"`
}

func (id *attestationApplicationID) hasPackage(name string) bool {
	for _, p := range id.Packages {
		if string(p.Name) == name {
			return true
		}
	}
	return false
}

func (id *attestationApplicationID) hasDigest(want [][]byte) bool {
	for _, d := range id.Digests {
		for _, w := range want {
			if subtle.ConstantTimeCompare(d, w) == 1 {
				return true
			}
		}
	}
	return false
}

// tagAttestationApplicationID is the KeyMint tag of the AttestationApplicationId.
const tagAttestationApplicationID = 709

// applicationID reads the attestationApplicationId from the key description
// extension, in either authorization list. The extension has already passed
// deviceattest's strict parser.
func applicationID(exts []pkix.Extension) (*attestationApplicationID, error) {
	var kd struct {
		AttestationVersion       int
		AttestationSecurityLevel asn1.Enumerated
		KeyMintVersion           int
		KeyMintSecurityLevel     asn1.Enumerated
		Challenge                []byte
		UniqueID                 []byte
		SoftwareEnforced         asn1.RawValue
		HardwareEnforced         asn1.RawValue
	}
	for _, ext := range exts {
		if ext.Id.String() != deviceattest.OIDKeyDescription {
			continue
		}
		if _, err := asn1.Unmarshal(ext.Value, &kd); err != nil {
			return nil, err
		}
		for _, list := range []asn1.RawValue{kd.SoftwareEnforced, kd.HardwareEnforced} {
			rest := list.Bytes
			for len(rest) > 0 {
				var el asn1.RawValue
				var err error
				if rest, err = asn1.Unmarshal(rest, &el); err != nil {
					return nil, err
				}
				if el.Class != asn1.ClassContextSpecific || el.Tag != tagAttestationApplicationID {
					continue
				}
				var raw []byte
				if _, err := asn1.Unmarshal(el.Bytes, &raw); err != nil {
					return nil, err
				}
				var id attestationApplicationID
				if _, err := asn1.Unmarshal(raw, &id); err != nil {
					return nil, err
				}
				return &id, nil
			}
		}
		return nil, fmt.Errorf("no attestationApplicationId")
	}
	return nil, fmt.Errorf("no key description")
}

// checkAnchor validates -eth-rpc, -anchor-key, -anchor-address and
// -land-title-contract: -eth-rpc and -anchor-key together, the others only with them;
// an https or wss endpoint (http and ws only on a loopback host); non-zero addresses.
// The key file is read at start (readAnchorKey).
func (o *options) checkAnchor() error {
	if o.ethRPC == "" && o.anchorKeyFile == "" {
		if o.anchorAddress != "" || o.landTitleContract != "" {
			return fmt.Errorf("-anchor-address and -land-title-contract need -eth-rpc and -anchor-key")
		}
		return nil
	}
	if o.ethRPC == "" || o.anchorKeyFile == "" {
		return fmt.Errorf("-eth-rpc and -anchor-key (VERILAND_ETH_RPC, VERILAND_ANCHOR_KEY) go together")
	}
	u, err := url.Parse(o.ethRPC)
	if err != nil || u.Host == "" ||
		!(u.Scheme == "https" || u.Scheme == "wss" || ((u.Scheme == "http" || u.Scheme == "ws") && isLoopback(u.Hostname()))) {
		return fmt.Errorf("-eth-rpc must be an https or wss JSON-RPC URL (http and ws only on a loopback host)")
	}
	for flag, v := range map[string]string{"-anchor-address": o.anchorAddress, "-land-title-contract": o.landTitleContract} {
		if v != "" && (!common.IsHexAddress(v) || !strings.HasPrefix(v, "0x") || common.HexToAddress(v) == (common.Address{})) {
			return fmt.Errorf("%s must be a 0x address (40 hex digits, not zero)", flag)
		}
	}
	return nil
}

// readAnchorKey reads the hex secp256k1 key of -anchor-key, refusing a file others
// may read, as the keys of the data directory are. Errors never quote the file.
func readAnchorKey(path string) (*ecdsa.PrivateKey, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("-anchor-key: %w", err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("-anchor-key: %s is readable by others (mode %v); chmod 600 it", path, fi.Mode().Perm())
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("-anchor-key: %w", err)
	}
	text := strings.TrimPrefix(strings.TrimSpace(string(raw)), "0x")
	b, err := hex.DecodeString(text)
	clear(raw)
	if err != nil || len(b) != 32 {
		return nil, fmt.Errorf("-anchor-key: %s must hold a secp256k1 private key as 64 hex digits", path)
	}
	key, err := crypto.ToECDSA(b)
	clear(b)
	if err != nil {
		return nil, fmt.Errorf("-anchor-key: %s does not hold a valid secp256k1 private key", path)
	}
	return key, nil
}

// redactURL keeps the scheme and host of an endpoint, whose path or query often
// holds an API key (Infura, Alchemy).
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(endpoint)"
	}
	return u.Scheme + "://" + u.Host
}
