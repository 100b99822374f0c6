package deviceattest

import (
	"context"
	"testing"
)

func BenchmarkKeyAttestationVerify(b *testing.B) {
	for _, name := range []string{"tegu_sdk36_TEE_EC_2026_ROOT", "caiman_sdk36_TEE_EC_RKP"} {
		b.Run(name, func(b *testing.B) {
			at := map[string]string{"tegu_sdk36_TEE_EC_2026_ROOT": "2026-02-22T00:08:00Z", "caiman_sdk36_TEE_EC_RKP": "2025-09-25T17:15:00Z"}[name]
			v := newKAVerifier(b, at)
			token := chainToken(readChain(b, name))
			challenge := readGoogleJSON(b, name).AttestationChallenge
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := v.VerifyChallenge(ctx, token, challenge); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkParseKeyDescription(b *testing.B) {
	der := keyDescription(1, []byte("challenge"), seq(), goodHW())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseKeyDescription(der); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppAttestVerify(b *testing.B) {
	vec, token, clientDataHash := readAppAttestVector(b)
	v, err := NewAppAttestVerifier(AppAttestConfig{AppID: vec.AppID, Development: true, Now: fixedClock("2024-06-01T00:00:00Z")})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := v.Verify(ctx, token, clientDataHash); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPlayIntegrityVerify(b *testing.B) {
	keys := newPlayKeys(b)
	challenge := [32]byte{1}
	token := keys.seal(b, playPayload(challenge, testEpoch))
	v := newPlayVerifier(b, keys.decoder(b), testEpoch)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := v.Verify(ctx, token, challenge); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMockVerify(b *testing.B) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (MockVerifier{}).Verify(ctx, "sandbox-device-token", [32]byte{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEnrollChallenge(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = EnrollChallenge("did:veriland:0x1234567890abcdef", "0xAbCdEf0123456789AbCdEf0123456789AbCdEf01")
	}
}
