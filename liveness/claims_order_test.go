package liveness_test

import (
	"encoding/json"
	"testing"

	"github.com/gowebpki/jcs"

	"github.com/veriland/veriland/liveness"
	"github.com/veriland/veriland/liveness/deviceattest"
)

// TestClaimsMarshalCanonical pins the field order of Claims and Scores: encoding/json
// must write them exactly as RFC 8785 does, so that an attestation keeps the bytes
// as marshalled (attestation.Draft) instead of parsing and printing them again.
func TestClaimsMarshalCanonical(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	c := liveness.Claims{
		AttestationType: deviceattest.Mock, DeviceTrust: deviceattest.TrustBasic, FrameCount: 300,
		Level: liveness.L2, PolicyVersion: "2026-11", SessionDurationMs: 9000,
		Scores: liveness.Scores{FrameJitterMs: f(1.25), HueScore: f(0.93), IMUCorrelation: f(0.8),
			LatencyMs: f(412), ParallaxScore: f(0.000001)},
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	canon, err := jcs.Transform(b)
	if err != nil || string(canon) != string(b) {
		t.Fatalf("json.Marshal(Claims) = %s, RFC 8785 form %s (%v)", b, canon, err)
	}
}
