package deviceattest_test

import (
	"context"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/liveness/deviceattest"
)

func Example() {
	// The server wires one verifier per configured type. Real deployments add
	// KEY_ATTESTATION, APP_ATTEST and PLAY_INTEGRITY verifiers built from their configs.
	verifiers := deviceattest.Verifiers{deviceattest.Mock: deviceattest.MockVerifier{}}

	challenge := deviceattest.EnrollChallenge("did:example:alice", "0xABC")
	fmt.Printf("challenge %x\n", challenge)

	ctx := context.Background()
	res, err := verifiers.Verify(ctx, veriland.Sandbox, deviceattest.Mock, "sandbox-device-1", challenge)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Type, res.Trust)

	_, err = verifiers.Verify(ctx, veriland.Production, deviceattest.Mock, "sandbox-device-1", challenge)
	fmt.Println(veriland.CodeOf(err), errors.Is(err, deviceattest.ErrMockNotAllowed), deviceattest.Reason(err))
	// Output:
	// challenge f7ce99524b5bb13e2cf4dfa801d7111702816af1011be75a2ff070728b1aad82
	// MOCK BASIC
	// attestation_unsupported true mock_not_allowed
}

func ExampleKeyAttestationVerifier_VerifyChallenge() {
	// A Pixel 9a chain ending in Google's Key Attestation CA1 root, checked at a time
	// inside its validity window. Production code passes EnrollChallenge to Verify.
	pemChain, err := os.ReadFile("testdata/keyattestation/tegu_sdk36_TEE_EC_2026_ROOT.pem")
	if err != nil {
		panic(err)
	}
	chain, err := deviceattest.ParseCertificatesPEM(pemChain)
	if err != nil {
		panic(err)
	}
	token := tokenOf(chain)

	roots, err := deviceattest.GoogleAttestationRoots()
	if err != nil {
		panic(err)
	}
	v, err := deviceattest.NewKeyAttestationVerifier(deviceattest.KeyAttestationConfig{
		Roots:       roots,
		Revocations: deviceattest.RevocationList{},
		Now:         func() time.Time { return time.Date(2026, 2, 22, 0, 8, 0, 0, time.UTC) },
	})
	if err != nil {
		panic(err)
	}
	res, err := v.VerifyChallenge(context.Background(), token, []byte("6417f92c-daef-4cc1-8828-5bb39338ffd5"))
	if err != nil {
		panic(err)
	}
	fmt.Println(res.SecurityLevel, res.Trust, res.VerifiedBootState, res.DeviceLocked)

	_, err = v.VerifyChallenge(context.Background(), token, []byte("another challenge"))
	fmt.Println(veriland.CodeOf(err), deviceattest.Reason(err))
	// Output:
	// TEE STRONG VERIFIED true
	// invalid_signature challenge_mismatch
}

// tokenOf encodes a chain as a KEY_ATTESTATION token, as the Android client does.
func tokenOf(chain []*x509.Certificate) string {
	ders := make([]string, len(chain))
	for i, c := range chain {
		ders[i] = base64.StdEncoding.EncodeToString(c.Raw)
	}
	js, _ := json.Marshal(ders)
	return base64.StdEncoding.EncodeToString(js)
}
