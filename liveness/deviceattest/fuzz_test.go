package deviceattest

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"testing"
)

// The fuzz targets demand that bad input yields an error, never a panic, and that
// whatever is accepted carries the challenge binding, recomputed independently of the
// verifiers (fuzz_oracle_test.go). Their committed corpora are under
// testdata/fuzz/<FuzzName>.

func FuzzKeyAttestationChain(f *testing.F) {
	for _, tc := range keyAttestationVectors {
		f.Add(chainToken(readChain(f, tc.name)))
	}
	f.Add("")
	f.Add(base64.StdEncoding.EncodeToString([]byte(`["AAAA","AAAA"]`)))
	v := newKAVerifier(f, "2026-02-22T00:08:00Z")
	f.Fuzz(func(t *testing.T, token string) {
		chain, err := ParseCertificateChain(token)
		if err != nil {
			return
		}
		if _, err := v.VerifyChain(chain); err != nil {
			return
		}
		want := []byte("6417f92c-daef-4cc1-8828-5bb39338ffd5")
		if _, err := v.VerifyChallenge(context.Background(), token, want); err != nil {
			return
		}
		got, err := keyAttestationChallenge(token)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("accepted a chain whose leaf attests challenge %q (%v), not %q", got, err, want)
		}
	})
}

func FuzzKeyDescription(f *testing.F) {
	for _, tc := range keyAttestationVectors {
		leaf := readChain(f, tc.name)[0]
		for _, ext := range leaf.Extensions {
			if ext.Id.String() == OIDKeyDescription {
				f.Add(ext.Value)
			}
		}
	}
	ch := []byte("synthetic challenge")
	f.Add(keyDescription(1, ch, seq(), goodHW()))
	f.Add(keyDescription(2, ch, seq(explicit(tagRootOfTrust, rootOfTrust([]byte{1, 1, 1}, enumerated(0)))), seq()))
	f.Add([]byte{0x30, 0x00})
	f.Fuzz(func(t *testing.T, der []byte) {
		kd, err := ParseKeyDescription(der)
		if err != nil {
			return
		}
		if err := CheckKeyDescription(kd, ch); err == nil {
			rot := kd.HardwareEnforced.RootOfTrust
			if !kd.AttestationSecurityLevel.HardwareBacked() || rot == nil || !rot.DeviceLocked || rot.VerifiedBootState != BootVerified {
				t.Fatalf("policy accepted %+v", kd)
			}
		}
	})
}

func FuzzAppAttestCBOR(f *testing.F) {
	fx := newAppAttestFixture(f)
	v := fx.verifier(f, false)
	challenge := [32]byte{1, 2, 3}
	attestationOf := func(token string) (keyID string, att []byte) {
		raw, _ := base64.StdEncoding.DecodeString(token)
		var tok appAttestToken
		_ = json.Unmarshal(raw, &tok)
		att, _ = base64.StdEncoding.DecodeString(tok.Attestation)
		return tok.KeyID, att
	}
	keyID, good := attestationOf(fx.token(f, appAttestParams{challenge: challenge}))
	f.Add(good)
	_, trailing := attestationOf(fx.token(f, appAttestParams{challenge: challenge, trailing: []byte{0xff, 0x00}}))
	f.Add(trailing)
	_, otherChallenge := attestationOf(fx.token(f, appAttestParams{challenge: [32]byte{3, 2, 1}}))
	f.Add(otherChallenge)
	vec, _, _ := readAppAttestVector(f)
	real, _ := base64.StdEncoding.DecodeString(vec.Attestation)
	f.Add(real)
	f.Add([]byte{0xa0})
	f.Fuzz(func(t *testing.T, att []byte) {
		js, _ := json.Marshal(appAttestToken{KeyID: keyID, Attestation: base64.StdEncoding.EncodeToString(att)})
		_, _ = v.parseAuthenticatorData(att)
		if _, err := v.Verify(context.Background(), base64.StdEncoding.EncodeToString(js), challenge); err != nil {
			return
		}
		if err := appAttestBinding(att, keyID, challenge[:]); err != nil {
			t.Fatalf("accepted an attestation that does not bind the challenge: %v", err)
		}
	})
}

func FuzzPlayIntegrityToken(f *testing.F) {
	keys := fixedPlayKeys(f)
	challenge := [32]byte{4, 5, 6}
	v := newPlayVerifier(f, keys.decoder(f), testEpoch)
	f.Add(keys.seal(f, playPayload(challenge, testEpoch)))
	f.Add(keys.seal(f, playPayload([32]byte{4, 5, 7}, testEpoch)))
	f.Add("a.b.c.d.e")
	f.Add("eyJhbGciOiJBMjU2S1ciLCJlbmMiOiJBMjU2R0NNIn0.....")
	f.Fuzz(func(t *testing.T, token string) {
		res, err := v.Verify(context.Background(), token, challenge)
		if err != nil {
			return
		}
		payload, err := playTokenPayload(keys, token)
		if err != nil {
			t.Fatalf("accepted a token go-jose cannot open with the app's keys: %v", err)
		}
		if err := playBinding(payload, challenge); err != nil {
			t.Fatalf("accepted a verdict for another challenge: %v", err)
		}
		if res.Type != PlayIntegrity || (res.Trust != TrustBasic && res.Trust != TrustStrong) {
			t.Fatalf("bad result %+v", res)
		}
	})
}

func FuzzPlayIntegrityPayload(f *testing.F) {
	challenge := [32]byte{4, 5, 6}
	good, _ := json.Marshal(playPayload(challenge, testEpoch))
	f.Add(good)
	strong, _ := json.Marshal(set(playPayload(challenge, testEpoch), "deviceIntegrity.deviceRecognitionVerdict", []string{MeetsStrongIntegrity}))
	f.Add(strong)
	other, _ := json.Marshal(playPayload([32]byte{4, 5, 7}, testEpoch))
	f.Add(other)
	f.Add([]byte(`{"requestDetails":{"timestampMillis":"1e3"}}`))
	v := newPlayVerifier(f, &OfflineDecoder{}, testEpoch)
	f.Fuzz(func(t *testing.T, payload []byte) {
		res, err := v.CheckPayload(payload, challenge)
		if err != nil {
			return
		}
		if res.Trust != TrustBasic && res.Trust != TrustStrong {
			t.Fatalf("bad trust %q", res.Trust)
		}
		if err := playBinding(payload, challenge); err != nil {
			t.Fatalf("accepted a verdict for another challenge: %v", err)
		}
	})
}
