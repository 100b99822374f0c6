package deviceattest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/veriland/veriland"
)

func TestEnrollChallenge(t *testing.T) {
	const did, key = "did:veriland:0x1234", "0xAbCdEf0000000000000000000000000000000001"
	want := sha256.Sum256([]byte("veriland-enroll:did:veriland:0x1234:0xabcdef0000000000000000000000000000000001"))
	if got := EnrollChallenge(did, key); got != want {
		t.Fatalf("got %x, want %x", got, want)
	}
	if EnrollChallenge(did, key) != EnrollChallenge(did, strings.ToLower(key)) {
		t.Fatal("challenge depends on the case of the public key")
	}
	if EnrollChallenge(did, key) == EnrollChallenge("did:veriland:0x1235", key) {
		t.Fatal("challenge does not depend on the holder")
	}
	// Pinned value, so that clients in other languages can check their implementation.
	got := EnrollChallenge("did:example:alice", "0xABC")
	if hex.EncodeToString(got[:]) != "f7ce99524b5bb13e2cf4dfa801d7111702816af1011be75a2ff070728b1aad82" {
		t.Fatalf("EnrollChallenge(did:example:alice, 0xABC) = %x", got)
	}
}

func TestMockVerifier(t *testing.T) {
	for _, tc := range []struct {
		token string
		ok    bool
	}{
		{"1234567", false},
		{"12345678", true},
		{strings.Repeat("x", MockTokenMax), true},
		{strings.Repeat("x", MockTokenMax+1), false},
		{strings.Repeat("é", MockTokenMax), true}, // characters, not bytes
		{"", false},
	} {
		res, err := MockVerifier{}.Verify(context.Background(), tc.token, [32]byte{})
		if tc.ok != (err == nil) {
			t.Errorf("len %d: err %v", len(tc.token), err)
			continue
		}
		if err == nil && (res.Trust != TrustBasic || res.Type != Mock) {
			t.Errorf("unexpected result %+v", res)
		}
		if err != nil && (!errors.Is(err, ErrMalformedToken) || !veriland.IsCode(err, veriland.CodeValidationFailed)) {
			t.Errorf("wrong error %v", err)
		}
	}
}

type stubVerifier struct{ res *Result }

func (s stubVerifier) Verify(context.Context, string, [32]byte) (*Result, error) {
	r := *s.res
	return &r, nil
}

func TestVerifiersDispatch(t *testing.T) {
	vs := Verifiers{
		Mock:           MockVerifier{},
		KeyAttestation: stubVerifier{&Result{Trust: TrustStrong}},
	}
	ctx := context.Background()
	token := "sandbox-device-1"

	res, err := vs.Verify(ctx, veriland.Sandbox, Mock, token, [32]byte{})
	if err != nil || res.Type != Mock || res.Trust != TrustBasic {
		t.Fatalf("MOCK in SANDBOX: %+v, %v", res, err)
	}
	res, err = vs.Verify(ctx, veriland.Production, KeyAttestation, token, [32]byte{})
	if err != nil || res.Type != KeyAttestation {
		t.Fatalf("stub: %+v, %v", res, err)
	}

	for _, tc := range []struct {
		name string
		env  veriland.Environment
		typ  Type
		want error
		code veriland.Code
	}{
		{"MOCK in PRODUCTION", veriland.Production, Mock, ErrMockNotAllowed, veriland.CodeAttestationUnsupported},
		{"MOCK with no environment", "", Mock, ErrMockNotAllowed, veriland.CodeAttestationUnsupported},
		{"unconfigured type", veriland.Production, AppAttest, ErrTypeNotConfigured, veriland.CodeAttestationUnsupported},
		{"unknown type", veriland.Sandbox, "SAFETYNET", ErrUnknownType, veriland.CodeValidationFailed},
		{"lower-case type", veriland.Sandbox, "mock", ErrUnknownType, veriland.CodeValidationFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := vs.Verify(ctx, tc.env, tc.typ, token, [32]byte{})
			if !errors.Is(err, tc.want) || veriland.CodeOf(err) != tc.code {
				t.Fatalf("got %v (%s), want %v (%s)", err, veriland.CodeOf(err), tc.want, tc.code)
			}
			var ve *veriland.Error
			if !errors.As(err, &ve) || ve.Meta["reason"] != Reason(tc.want) {
				t.Fatalf("no reason in %#v", err)
			}
		})
	}

	// Even a registry that maps MOCK to a permissive verifier refuses it in PRODUCTION.
	permissive := Verifiers{Mock: stubVerifier{&Result{Trust: TrustStrong}}}
	if _, err := permissive.Verify(ctx, veriland.Production, Mock, token, [32]byte{}); !errors.Is(err, ErrMockNotAllowed) {
		t.Fatalf("permissive MOCK in PRODUCTION: %v", err)
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := vs.Verify(cancelled, veriland.Sandbox, Mock, token, [32]byte{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled context: %v", err)
	}
}

func TestTypeValid(t *testing.T) {
	for _, typ := range []Type{KeyAttestation, AppAttest, PlayIntegrity, Mock} {
		if !typ.Valid() {
			t.Errorf("%s not valid", typ)
		}
	}
	if Type("").Valid() || Type("SAFETYNET").Valid() {
		t.Error("invalid type accepted")
	}
}
