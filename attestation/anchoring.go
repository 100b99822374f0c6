package attestation

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/chainjob"
)

// AnchoringPolicy tunes the anchoring worker: the chain-job queue's policy. Zero
// fields take the defaults.
type AnchoringPolicy = chainjob.Policy

// Kinds of the chain jobs (storage/chainjob) of attestations: the reference is the
// attestation's id, the payload its digest.
const (
	JobIssue  = "attestation.issue"  // anchor the attestation's EIP-712 digest
	JobRevoke = "attestation.revoke" // anchor its RevocationDigest
)

// anchorPayload is the payload of an anchoring job.
type anchorPayload struct {
	Digest common.Hash `json:"digest"`
}

func enqueueAnchor(tx storage.Tx, env veriland.Environment, kind, id string, digest common.Hash, due time.Time) error {
	p, err := json.Marshal(anchorPayload{Digest: digest})
	if err != nil {
		return err
	}
	return chainjob.Enqueue(tx, env, chainjob.Job{Kind: kind, Ref: id, Payload: p}, due)
}

// RevocationDigest is the digest anchored when att is revoked:
// keccak256(attestation digest ‖ uint64 revokedAt unix seconds, big-endian).
func RevocationDigest(att *Attestation) ([32]byte, error) {
	if att.RevokedAt == nil {
		return [32]byte{}, veriland.Errorf(veriland.CodeInvalidState, "attestation is not revoked")
	}
	m, err := att.Message()
	if err != nil {
		return [32]byte{}, err
	}
	d := m.Digest(att.Issuer.ChainID)
	return crypto.Keccak256Hash(d[:], binary.BigEndian.AppendUint64(nil, unixSeconds(*att.RevokedAt))), nil
}

// RegisterChainJobs registers the handlers of the attestation kinds (JobIssue,
// JobRevoke) on q: the anchors of s.Anchors send the digests, the outcome is kept on
// the attestation. The reference server registers every domain on one queue, so that
// one worker sends every transaction of the anchor key.
func (s *Service) RegisterChainJobs(q *chainjob.Queue) {
	h := anchorHandler{s}
	q.Handle(JobIssue, h)
	q.Handle(JobRevoke, h)
}

// RunAnchoring runs a queue that serves only the attestation jobs, with policy
// s.Anchoring, until ctx ends. Embedders that also mint land titles run one
// chainjob.Queue for both instead (RegisterChainJobs).
func (s *Service) RunAnchoring(ctx context.Context) error {
	return s.ownQueue().Run(ctx)
}

// AnchorPending runs one round of RunAnchoring's queue and returns how many anchors
// succeeded.
func (s *Service) AnchorPending(ctx context.Context) (int, error) {
	return s.ownQueue().RunOnce(ctx)
}

func (s *Service) ownQueue() *chainjob.Queue {
	s.queueOnce.Do(func() {
		s.queue = &chainjob.Queue{Store: s.Store, Now: s.now, Logger: s.Logger}
		s.RegisterChainJobs(s.queue)
	})
	s.queue.Policy = s.Anchoring
	return s.queue
}

type anchorHandler struct{ s *Service }

// Run sends the job's digest with the environment's anchor.
func (h anchorHandler) Run(ctx context.Context, env veriland.Environment, j chainjob.Job) (chainjob.Result, error) {
	a := h.s.anchorFor(env)
	if AnchoringDisabled(a) {
		return chainjob.Result{}, chainjob.ErrDisabled
	}
	var p anchorPayload
	if err := json.Unmarshal(j.Payload, &p); err != nil {
		return chainjob.Result{}, chainjob.Permanent(fmt.Errorf("attestation: anchoring job %s: %w", j.Ref, err))
	}
	r, err := a.Anchor(ctx, p.Digest)
	if err != nil {
		return chainjob.Result{}, err
	}
	return chainjob.Result{TxHash: r.TxHash, BlockNumber: r.BlockNumber}, nil
}

// Settle keeps the anchor state on the attestation (or its revocation).
func (h anchorHandler) Settle(_ context.Context, tx storage.Tx, env veriland.Environment, j chainjob.Job, r chainjob.Result, err error) error {
	var state AnchorState
	switch {
	case err == nil:
		bn := r.BlockNumber
		state = AnchorState{Status: AnchorAnchored, TxHash: r.TxHash, BlockNumber: &bn}
	case errors.Is(err, chainjob.ErrDisabled):
		state = AnchorState{Status: AnchorDisabled}
	default:
		state = AnchorState{Status: AnchorFailed}
	}
	rec, lerr := loadRecord(tx, env, j.Ref)
	if lerr != nil {
		var ve *veriland.Error
		if errors.As(lerr, &ve) && ve.Code == veriland.CodeNotFound {
			return nil // the record is gone: nothing to update
		}
		return lerr
	}
	if j.Kind == JobRevoke {
		rec.Attestation.RevocationAnchor = &state
	} else {
		rec.Attestation.Anchor = state
	}
	return saveRecord(tx, env, rec)
}

// MigrateAnchorQueue moves the anchoring jobs that versions before the shared
// chain-job queue kept in their own bucket into it, in both environments, and returns
// how many it moved. Safe to run at every start.
func (s *Service) MigrateAnchorQueue(ctx context.Context) (int, error) {
	n := 0
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		n = 0
		for _, env := range []veriland.Environment{veriland.Sandbox, veriland.Production} {
			bucket := storage.Bucket(env, bucketLegacyAnchorJobs)
			var keys [][]byte
			var jobs []legacyAnchorJob
			err := tx.Scan(bucket, storage.Range{}, func(k, v []byte) error {
				var j legacyAnchorJob
				keys = append(keys, bytes.Clone(k))
				if json.Unmarshal(v, &j) == nil && j.ID != "" {
					jobs = append(jobs, j)
				}
				return nil
			})
			if err != nil {
				return err
			}
			for _, j := range jobs {
				kind := JobIssue
				if j.Purpose == "revoke" {
					kind = JobRevoke
				}
				if err := enqueueAnchor(tx, env, kind, j.ID, j.Digest, s.now()); err != nil {
					return err
				}
			}
			for _, k := range keys {
				if err := tx.Delete(bucket, k); err != nil {
					return err
				}
			}
			n += len(jobs)
		}
		return nil
	})
	return n, err
}

// legacyAnchorJob is a job of the bucket that versions before the shared queue used.
type legacyAnchorJob struct {
	ID      string      `json:"id"`
	Purpose string      `json:"purpose"`
	Digest  common.Hash `json:"digest"`
}
