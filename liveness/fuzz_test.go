package liveness

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/liveness/deviceattest"
)

// fuzzFixture is a session, a device and a passing L1 body for them.
func fuzzFixture(frames int) (*sessionRecord, *Device, *VerifyRequest) {
	key, _ := crypto.ToECDSA(crypto.Keccak256([]byte("fuzz device")))
	created := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	rec := &sessionRecord{
		ID: "lvs_" + "abcdefghijklmnopqrstuvwxyz", Holder: "did:veriland:fuzz",
		Nonce: hexutil.Encode(crypto.Keccak256([]byte("nonce"))), Level: L1,
		CreatedAt: created, ExpiresAt: created.Add(DefaultSessionLifetime),
	}
	dev := &Device{
		ID: "dev_" + "abcdefghijklmnopqrstuvwxyz", PublicKey: normalAddress(ethsig.Address(key).Hex()),
		AttestationType: deviceattest.Mock, Trust: deviceattest.TrustBasic, Holder: rec.Holder,
	}
	ts := make(Timestamps, frames)
	for i := range ts {
		ts[i] = float64(created.UnixMilli()) + 10.5 + float64(i)*5
	}
	req := &VerifyRequest{
		SessionID: rec.ID, DevicePublicKey: dev.PublicKey,
		Attestation:     &DeviceAttestation{Type: deviceattest.Mock, Token: "mock-attestation-token"},
		MerkleRoot:      hexutil.Encode(crypto.Keccak256([]byte("root"))),
		FrameTimestamps: ts,
		Evidence: &Evidence{
			Challenge: &ChallengeEvidence{HueScore: ptr(0.9), LatencyMs: ptr(100.0)},
			Sensor:    &SensorEvidence{ParallaxScore: ptr(0.9), IMUCorrelation: ptr(0.9)},
			Camera:    &CameraEvidence{PhysicalSensorID: "cam0", VirtualSourceSuspected: ptr(false)},
			Timing:    &TimingEvidence{FrameJitterMs: ptr(5.0), SessionDurationMs: ptr(ts[frames-1] - ts[0]), FrameCount: ptr(float64(frames))},
		},
	}
	p := LivenessProof{
		SessionID: req.SessionID, Nonce: [32]byte(hexutil.MustDecode(rec.Nonce)),
		MerkleRoot: [32]byte(hexutil.MustDecode(req.MerkleRoot)), FrameCount: uint64(frames),
		SessionDurationMs: uint64(ts[frames-1] - ts[0]),
	}
	sig, _ := ethsig.Sign(key, p.Digest(1))
	req.DeviceSignature = hexutil.Encode(sig)
	return rec, dev, req
}

func ptr[T any](v T) *T { return &v }

func FuzzDecodeVerifyRequest(f *testing.F) {
	rec, dev, good := fuzzFixture(12)
	body, _ := json.Marshal(good)
	f.Add(body)
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"sessionId":"lvs_x","frameTimestamps":[3,2.5,1e2],"evidence":{"timing":{"frameCount":-1,"sessionDurationMs":1.5}}}`))
	f.Add([]byte(`{"evidence":{"sensor":{"parallaxScore":1e309}}}`))
	f.Add([]byte(`{"evidence":{"camera":{"virtualSourceSuspected":null,"physicalSensorId":"\u0000"}}}`))
	f.Add([]byte(`{"frameImage":"AAAA"}`))
	f.Add([]byte(`{"frameTimestamps":[1,2,"3"]}`))
	f.Add([]byte(`{"attestation":{"type":"MOCK","token":"1234567"},"evidence":{"challenge":{"faceTemplate":[1]}}}`))
	f.Add([]byte(`[1,2]`))
	now := rec.CreatedAt.Add(10 * time.Second)
	pol := DefaultPolicy()

	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := DecodeVerifyRequest(data)
		if err != nil {
			switch code := veriland.CodeOf(err); code {
			case veriland.CodeInvalidJSON, veriland.CodeUnknownField:
			case veriland.CodeValidationFailed:
				var list veriland.Errors
				var one *veriland.Error
				if errors.As(err, &list) {
					for _, e := range list {
						if e.Pointer == "" || e.Code != veriland.CodeValidationFailed {
							t.Fatalf("validation error without pointer: %v", e)
						}
					}
				} else if errors.As(err, &one) && one.Pointer == "" {
					t.Fatalf("validation error without pointer: %v", err)
				}
			default:
				t.Fatalf("unexpected code %s: %v", code, err)
			}
			return
		}
		if len(req.FrameTimestamps) == 0 || len(req.FrameTimestamps) > MaxFrameTimestamps || req.Evidence == nil ||
			req.Evidence.Timing == nil || req.Evidence.Camera == nil || req.Attestation == nil {
			t.Fatalf("accepted a bad shape: %+v", req)
		}
		if _, _, ok := req.signed(); !ok {
			t.Fatalf("accepted a timing the proof cannot sign: %+v", req.Evidence.Timing)
		}
		// Whatever decodes runs through every check without panicking, and the
		// verdict is the same when run again (evaluate is pure).
		in := &verifyInput{req: req, holder: rec.Holder, session: rec, device: dev, now: now, chainID: 1, policy: &pol}
		v1, v2 := evaluate(in), evaluate(in)
		if len(v1.reasons) != len(v2.reasons) {
			t.Fatalf("evaluate is not deterministic: %v vs %v", v1.reasons, v2.reasons)
		}
		// Round trip: what was accepted re-encodes to an accepted body.
		again, err := json.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := DecodeVerifyRequest(again); err != nil {
			t.Fatalf("re-encoded body refused: %v", err)
		}
	})
}

func TestFuzzFixturePasses(t *testing.T) {
	rec, dev, req := fuzzFixture(12)
	pol := DefaultPolicy()
	v := evaluate(&verifyInput{req: req, holder: rec.Holder, session: rec, device: dev, now: rec.CreatedAt.Add(time.Second), chainID: 1, policy: &pol})
	if !v.passed() {
		t.Fatalf("reasons %v %v", v.reasons, v.details)
	}
}
