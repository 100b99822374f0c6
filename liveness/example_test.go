package liveness_test

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"log/slog"
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
		PublicKey:        crypto.PubkeyToAddress(phone.PublicKey).Hex(),
		Platform:         liveness.PlatformAndroid,
		AttestationType:  deviceattest.Mock,
		AttestationToken: "sandbox-device-token",
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

// signedProof is what a phone would send after capturing frames frames at 30 fps.
func signedProof(sess *liveness.Session, phone *ecdsa.PrivateKey, frames int) *liveness.VerifyRequest {
	ts := make([]int64, frames)
	for i := range ts {
		ts[i] = sess.CreatedAt.UnixMilli() + 100 + int64(i)*33
	}
	req := &liveness.VerifyRequest{
		SessionID:       sess.ID,
		DevicePublicKey: crypto.PubkeyToAddress(phone.PublicKey).Hex(),
		AttestationType: deviceattest.Mock,
		MerkleRoot:      hexutil.Encode(crypto.Keccak256([]byte("the root over the frame leaves"))),
		FrameTimestamps: ts,
		Timing:          &liveness.Timing{FrameCount: int64(frames), SessionDurationMs: ts[frames-1] - ts[0]},
		Evidence:        &liveness.Evidence{ParallaxScore: f(0.71), FrameJitterMs: f(9)},
		Camera:          &liveness.Camera{VirtualSourceSuspected: b(false), PhysicalSensorID: "back-0"},
	}
	proof := liveness.LivenessProof{
		SessionID:         req.SessionID,
		Nonce:             [32]byte(hexutil.MustDecode(sess.Nonce)),
		MerkleRoot:        [32]byte(hexutil.MustDecode(req.MerkleRoot)),
		FrameCount:        uint64(req.Timing.FrameCount),
		SessionDurationMs: uint64(req.Timing.SessionDurationMs),
	}
	sig, _ := ethsig.Sign(phone, proof.Digest(1))
	req.Signature = hexutil.Encode(sig)
	return req
}
