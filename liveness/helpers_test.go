package liveness_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"math"
	"math/big"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/internal/clocktest"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/liveness"
	"github.com/veriland/veriland/liveness/deviceattest"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

const (
	holderA = "did:veriland:AAAAAAAAAAAAAAAAAAAAAA"
	holderB = "did:veriland:BBBBBBBBBBBBBBBBBBBBBB"
	chainID = 31337
)

// fakeClock is the shared settable test clock.
type fakeClock = clocktest.Clock

func newClock() *fakeClock {
	return clocktest.New(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
}

// attStore stands in for the attestation package's storage-backed service: it signs
// with a real attestation.Issuer and keeps attestations in the caller's transaction.
type attStore struct {
	issuer *attestation.Issuer
	store  storage.Store
}

const attBucket = "test_attestations"

func (a *attStore) Issue(_ context.Context, tx storage.Tx, env veriland.Environment, d attestation.Draft) (*attestation.Attestation, error) {
	att, err := a.issuer.Sign(d)
	if err != nil {
		return nil, err
	}
	att.Anchor = attestation.AnchorState{Status: attestation.AnchorDisabled}
	return att, a.put(tx, env, att)
}

func (a *attStore) put(tx storage.Tx, env veriland.Environment, att *attestation.Attestation) error {
	b, err := json.Marshal(att)
	if err != nil {
		return err
	}
	return tx.Put(storage.Bucket(env, attBucket), []byte(att.ID), b)
}

func (a *attStore) ListBySubjectTx(tx storage.Tx, env veriland.Environment, subject string, kind attestation.Kind) ([]*attestation.Attestation, error) {
	var out []*attestation.Attestation
	err := tx.Scan(storage.Bucket(env, attBucket), storage.Range{}, func(_, v []byte) error {
		var att attestation.Attestation
		if err := json.Unmarshal(v, &att); err != nil {
			return err
		}
		if att.Subject == subject && (kind == "" || att.Kind == kind) {
			out = append(out, &att)
		}
		return nil
	})
	return out, err
}

func (a *attStore) ListBySubject(ctx context.Context, env veriland.Environment, subject string, kind attestation.Kind) (out []*attestation.Attestation, err error) {
	err = a.store.View(ctx, func(tx storage.Tx) error {
		out, err = a.ListBySubjectTx(tx, env, subject, kind)
		return err
	})
	return out, err
}

// update rewrites a stored attestation (to revoke it in gate tests).
func (a *attStore) update(t *testing.T, s storage.Store, env veriland.Environment, id string, fn func(*attestation.Attestation)) {
	t.Helper()
	err := s.Update(context.Background(), func(tx storage.Tx) error {
		b, err := tx.Get(storage.Bucket(env, attBucket), []byte(id))
		if err != nil {
			return err
		}
		var att attestation.Attestation
		if err := json.Unmarshal(b, &att); err != nil {
			return err
		}
		fn(&att)
		return a.put(tx, env, &att)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// strongVerifier is a device attestation verifier that accepts a token equal to the
// hex challenge and reports STRONG trust, standing in for a hardware attestation.
type strongVerifier struct{ platform string }

func (v strongVerifier) Verify(_ context.Context, token string, challenge [32]byte) (*deviceattest.Result, error) {
	if token != hex.EncodeToString(challenge[:]) {
		return nil, veriland.Errorf(veriland.CodeInvalidSignature, "challenge mismatch")
	}
	return &deviceattest.Result{Trust: deviceattest.TrustStrong, Platform: v.platform, SecurityLevel: "TEE"}, nil
}

type harness struct {
	t      *testing.T
	store  *bolt.Store
	clock  *fakeClock
	atts   *attStore
	svc    *liveness.Service
	gate   *liveness.Gate
	mu     sync.Mutex
	events []liveness.Event
}

func newHarness(t testing.TB) *harness {
	store, err := bolt.Open(filepath.Join(t.TempDir(), "liveness.db"), bolt.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	clock := newClock()
	issuerKey, _ := crypto.ToECDSA(crypto.Keccak256([]byte("issuer")))
	atts := &attStore{store: store, issuer: &attestation.Issuer{
		Key: issuerKey, ChainID: chainID, Rand: &lockedReader{r: rand.NewChaCha8([32]byte{1})}, Now: clock.Now,
	}}
	h := &harness{store: store, clock: clock, atts: atts}
	if tt, ok := t.(*testing.T); ok {
		h.t = tt
	}
	h.svc = &liveness.Service{
		Store: store,
		Verifiers: deviceattest.Verifiers{
			deviceattest.Mock:           deviceattest.MockVerifier{},
			deviceattest.KeyAttestation: strongVerifier{platform: deviceattest.PlatformAndroid},
		},
		Attestations: atts,
		ChainID:      chainID,
		OnEvent: func(_ context.Context, _ storage.Tx, ev liveness.Event) error {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.events = append(h.events, ev)
			return nil
		},
		Now:    clock.Now,
		Rand:   &lockedReader{r: rand.NewChaCha8([32]byte{2})},
		Logger: slog.New(slog.DiscardHandler),
	}
	h.gate = &liveness.Gate{Attestations: atts, Now: clock.Now}
	return h
}

func (h *harness) lastEvent() liveness.Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.events) == 0 {
		return liveness.Event{}
	}
	return h.events[len(h.events)-1]
}

func (h *harness) eventCount(a liveness.Action) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, ev := range h.events {
		if ev.Action == a {
			n++
		}
	}
	return n
}

func deviceKey(seed string) *ecdsa.PrivateKey {
	k, err := crypto.ToECDSA(crypto.Keccak256([]byte(seed)))
	if err != nil {
		panic(err)
	}
	return k
}

func addr(k *ecdsa.PrivateKey) string { return ethsig.Address(k).Hex() }

// mockEnrollment is the enrolment body of key on platform with a MOCK attestation.
func mockEnrollment(key *ecdsa.PrivateKey, platform liveness.Platform) liveness.EnrollRequest {
	return liveness.EnrollRequest{
		Platform: platform, PublicKey: addr(key),
		Attestation: &liveness.DeviceAttestation{Type: deviceattest.Mock, Token: "mock-attestation-token"},
	}
}

// enrollMock enrols key for holder with a MOCK attestation in SANDBOX.
func (h *harness) enrollMock(t testing.TB, holder string, key *ecdsa.PrivateKey) *liveness.Device {
	t.Helper()
	dev, _, err := h.svc.Enroll(context.Background(), veriland.Sandbox, holder, mockEnrollment(key, liveness.PlatformAndroid))
	if err != nil {
		t.Fatal(err)
	}
	return dev
}

// enrollStrong enrols key for holder with the STRONG stand-in for KEY_ATTESTATION.
func (h *harness) enrollStrong(t testing.TB, env veriland.Environment, holder string, key *ecdsa.PrivateKey) *liveness.Device {
	t.Helper()
	ch := deviceattest.EnrollChallenge(holder, addr(key))
	dev, _, err := h.svc.Enroll(context.Background(), env, holder, liveness.EnrollRequest{
		Platform: liveness.PlatformAndroid, PublicKey: addr(key),
		Attestation: &liveness.DeviceAttestation{Type: deviceattest.KeyAttestation, Token: hex.EncodeToString(ch[:])},
	})
	if err != nil {
		t.Fatal(err)
	}
	return dev
}

func (h *harness) start(t testing.TB, env veriland.Environment, holder string, level liveness.Level) *liveness.Session {
	t.Helper()
	s, err := h.svc.StartSession(context.Background(), env, holder, liveness.SessionRequest{RequestedLevel: level})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func f(v float64) *float64 { return &v }
func b(v bool) *bool       { return &v }

// proof builds a passing verification body for sess at any level: frames every
// 33.25 ms (fractional milliseconds) from 50 ms after the session started, scores
// that meet L3, signed by key.
func proof(sess *liveness.Session, key *ecdsa.PrivateKey, frames int, attType deviceattest.Type) *liveness.VerifyRequest {
	start := float64(sess.CreatedAt.UnixMilli() + 50)
	ts := make(liveness.Timestamps, frames)
	for i := range ts {
		ts[i] = start + float64(i)*33.25
	}
	return proofWith(sess, key, ts, attType)
}

// proofWith is proof with the given frame timestamps; sessionDurationMs is their
// span rounded to a whole millisecond.
func proofWith(sess *liveness.Session, key *ecdsa.PrivateKey, ts liveness.Timestamps, attType deviceattest.Type) *liveness.VerifyRequest {
	req := &liveness.VerifyRequest{
		SessionID:       sess.ID,
		DevicePublicKey: addr(key),
		Attestation:     &liveness.DeviceAttestation{Type: attType, Token: "device-attestation-token"},
		MerkleRoot:      hexutil.Encode(crypto.Keccak256([]byte("frames of " + sess.ID))),
		FrameTimestamps: ts,
		Evidence: &liveness.Evidence{
			Challenge: &liveness.ChallengeEvidence{HueScore: f(0.9), LatencyMs: f(400)},
			Sensor:    &liveness.SensorEvidence{ParallaxScore: f(0.9), IMUCorrelation: f(0.8)},
			Camera:    &liveness.CameraEvidence{PhysicalSensorID: "camera0", VirtualSourceSuspected: b(false)},
			Timing: &liveness.TimingEvidence{
				FrameJitterMs:     f(10),
				SessionDurationMs: f(math.Round(ts[len(ts)-1] - ts[0])),
				FrameCount:        f(float64(len(ts))),
			},
		},
	}
	sign(req, sess.Nonce, key, chainID)
	return req
}

// sign (re)signs req's LivenessProof with key under chainID.
func sign(req *liveness.VerifyRequest, nonceHex string, key *ecdsa.PrivateKey, chain uint64) {
	tm := req.Evidence.Timing
	p := liveness.LivenessProof{
		SessionID:         req.SessionID,
		Nonce:             [32]byte(hexutil.MustDecode(nonceHex)),
		MerkleRoot:        [32]byte(hexutil.MustDecode(req.MerkleRoot)),
		FrameCount:        uint64(*tm.FrameCount),
		SessionDurationMs: uint64(*tm.SessionDurationMs),
	}
	sig, err := ethsig.Sign(key, p.Digest(chain))
	if err != nil {
		panic(err)
	}
	req.DeviceSignature = hexutil.Encode(sig)
}

// highSTwin returns the malleable twin of a 65-byte signature: s' = n − s, v flipped.
func highSTwin(sigHex string) string {
	sig := hexutil.MustDecode(sigHex)
	s := new(big.Int).SetBytes(sig[32:64])
	s.Sub(crypto.S256().Params().N, s)
	out := slices.Clone(sig)
	s.FillBytes(out[32:64])
	if out[64] == 27 {
		out[64] = 28
	} else {
		out[64] = 27
	}
	return hexutil.Encode(out)
}

func codeOf(err error) veriland.Code {
	if err == nil {
		return ""
	}
	return veriland.CodeOf(err)
}

func pointerOf(err error) string {
	var e *veriland.Error
	if errors.As(err, &e) {
		return e.Pointer
	}
	var list veriland.Errors
	if errors.As(err, &list) && len(list) > 0 {
		return list[0].Pointer
	}
	return ""
}

// lockedReader makes a deterministic reader safe for the concurrent tests.
type lockedReader struct {
	mu sync.Mutex
	r  io.Reader
}

func (l *lockedReader) Read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Read(p)
}
