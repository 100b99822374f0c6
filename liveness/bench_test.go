package liveness_test

import (
	"context"
	"encoding/hex"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/liveness"
	"github.com/veriland/veriland/liveness/deviceattest"
)

// BenchmarkVerify10k is a whole verification with 10,000 timestamps: the signature
// recovery, the checks, and the bbolt transaction that consumes the session and issues
// the attestation (bbolt without fsync, so that the number is CPU, not the disk).
func BenchmarkVerify10k(b *testing.B) {
	h := newHarness(b)
	ctx := context.Background()
	key := deviceKey("bench")
	h.enrollStrong(b, veriland.Sandbox, holderA, key)
	h.svc.SessionLifetime = 10 * time.Minute // 10,000 frames at 30 fps take 333 s
	reqs := make([]*liveness.VerifyRequest, b.N)
	var ts liveness.Timestamps
	for i := range reqs {
		sess := h.start(b, veriland.Sandbox, holderA, liveness.L3)
		if ts == nil {
			ts = proof(sess, key, liveness.MaxFrameTimestamps, deviceattest.KeyAttestation).FrameTimestamps
		}
		// Every session starts at the same fake instant: share the timestamps.
		reqs[i] = proofWith(sess, key, ts, deviceattest.KeyAttestation)
	}
	h.clock.Advance(340 * time.Second) // past the last frame, sessions still open
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if _, err := h.svc.Verify(ctx, veriland.Sandbox, holderA, reqs[i]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEnrollMock is a MOCK enrolment of a new device key.
func BenchmarkEnrollMock(b *testing.B) {
	h := newHarness(b)
	ctx := context.Background()
	rnd := rand.NewChaCha8([32]byte{5})
	var raw [20]byte
	b.ReportAllocs()
	for b.Loop() {
		rnd.Read(raw[:])
		_, created, err := h.svc.Enroll(ctx, veriland.Sandbox, holderA, liveness.EnrollRequest{
			Platform: liveness.PlatformAndroid, PublicKey: "0x" + hex.EncodeToString(raw[:]),
			Attestation: &liveness.DeviceAttestation{Type: deviceattest.Mock, Token: "mock-attestation-token"},
		})
		if err != nil || !created {
			b.Fatal(created, err)
		}
	}
}
