package liveness_test

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/liveness"
	"github.com/veriland/veriland/liveness/deviceattest"
	"github.com/veriland/veriland/storage/bolt"
)

func Example() {
	dir, _ := os.MkdirTemp("", "liveness-example")
	defer os.RemoveAll(dir)
	store, err := bolt.Open(filepath.Join(dir, "veriland.db"), bolt.Options{})
	if err != nil {
		panic(err)
	}
	defer store.Close()

	clock := newClock()
	issuerKey, _ := crypto.GenerateKey()
	svc := &liveness.Service{
		Store:     store,
		Verifiers: deviceattest.Verifiers{deviceattest.Mock: deviceattest.MockVerifier{}},
		// Any store that issues inside the caller's transaction; in the server, the
		// attestation package's Service.
		Attestations: &attStore{store: store, issuer: &attestation.Issuer{Key: issuerKey, ChainID: 1, Now: clock.Now}},
		ChainID:      1,
		Now:          clock.Now,
		Rand:         rand.NewChaCha8([32]byte{7}),
		Logger:       slog.New(slog.DiscardHandler),
	}
	ctx := context.Background()
	holder := "did:veriland:4q5nYqzZ6bT1xUe3oRrG2H"

	// 1. The phone enrols its signing key's address with a (sandbox) attestation.
	phone, _ := crypto.GenerateKey()
	dev, created, err := svc.Enroll(ctx, veriland.Sandbox, holder, liveness.EnrollRequest{
		Platform:    liveness.PlatformAndroid,
		PublicKey:   crypto.PubkeyToAddress(phone.PublicKey).Hex(),
		Attestation: &liveness.DeviceAttestation{Type: deviceattest.Mock, Token: "sandbox-device-token"},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println("enrolled:", created, dev.Trust)

	// 2. A session: a nonce and a script for the holder to perform.
	sess, err := svc.StartSession(ctx, veriland.Sandbox, holder, liveness.SessionRequest{RequestedLevel: liveness.L1})
	if err != nil {
		panic(err)
	}
	fmt.Println("script:", sess.Script[0].Step)

	// 3. The phone captures 20 frames, keeps them, and signs a LivenessProof over the
	// Merkle root of (index, timestamp, frameDigest) leaves.
	clock.Advance(2 * time.Second)
	req := signedProof(sess, phone, 20)
	res, err := svc.Verify(ctx, veriland.Sandbox, holder, req)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Status, res.Level, res.Attestation.Kind, res.Attestation.EvidenceHash.Hex() == req.MerkleRoot)

	// The session is spent: a replay is rejected with its reason.
	_, err = svc.Verify(ctx, veriland.Sandbox, holder, req)
	fmt.Println(veriland.CodeOf(err), liveness.Reasons(err))
	// Output:
	// enrolled: true BASIC
	// script: HOLD_STILL
	// VERIFIED L1 LIVENESS true
	// liveness_rejected [session_used]
}

// signedProof is what a phone would send after capturing frames frames at 30 fps:
// timestamps in fractional milliseconds, the evidence of its on-board model, and its
// signature over the LivenessProof.
func signedProof(sess *liveness.Session, phone *ecdsa.PrivateKey, frames int) *liveness.VerifyRequest {
	ts := make(liveness.Timestamps, frames)
	for i := range ts {
		ts[i] = float64(sess.CreatedAt.UnixMilli()) + 100 + float64(i)*33.333
	}
	duration := math.Round(ts[frames-1] - ts[0]) // whole milliseconds: it is signed as a uint256
	req := &liveness.VerifyRequest{
		SessionID:       sess.ID,
		DevicePublicKey: crypto.PubkeyToAddress(phone.PublicKey).Hex(),
		Attestation:     &liveness.DeviceAttestation{Type: deviceattest.Mock, Token: "sandbox-device-token"},
		MerkleRoot:      hexutil.Encode(crypto.Keccak256([]byte("the root over the frame leaves"))),
		FrameTimestamps: ts,
		Evidence: &liveness.Evidence{
			Sensor: &liveness.SensorEvidence{ParallaxScore: f(0.71)},
			Camera: &liveness.CameraEvidence{PhysicalSensorID: "back-0", VirtualSourceSuspected: b(false)},
			Timing: &liveness.TimingEvidence{FrameJitterMs: f(9), SessionDurationMs: f(duration), FrameCount: f(float64(frames))},
		},
	}
	proof := liveness.LivenessProof{
		SessionID:         req.SessionID,
		Nonce:             [32]byte(hexutil.MustDecode(sess.Nonce)),
		MerkleRoot:        [32]byte(hexutil.MustDecode(req.MerkleRoot)),
		FrameCount:        uint64(frames),
		SessionDurationMs: uint64(duration),
	}
	sig, _ := ethsig.Sign(phone, proof.Digest(1))
	req.DeviceSignature = hexutil.Encode(sig)
	return req
}
