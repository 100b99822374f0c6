package parcel

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/attestation/anchor"
	"github.com/veriland/veriland/storage"
)

// Anchoring of tokens is best-effort and never blocks certification: minting a token
// in an environment whose anchor is enabled queues a job (bucket parcel_anchor_jobs,
// keyed by due time) in the same transaction and marks the token's anchor PENDING; a
// worker (RunAnchoring, or AnchorPending from a scheduler) sends the certificate hash
// (the token's metadataHash) with the environment's attestation/anchor.Anchor and
// records ANCHORED (txHash, blockNumber) or, after MaxAttempts, FAILED. Without an
// anchor the token says DISABLED and no job is queued. A burn is not anchored: it is
// published, signed, in the status list.

// AnchoringPolicy tunes the anchoring worker: the attestations' policy, with the same
// defaults. Zero fields take the defaults.
type AnchoringPolicy = attestation.AnchoringPolicy

type anchorJob struct {
	TokenID   string      `json:"tokenId"`
	Digest    common.Hash `json:"digest"`
	Attempts  int         `json:"attempts"`
	LastError string      `json:"lastError,omitempty"`
}

func anchorJobKey(due time.Time, tokenID string) []byte {
	k := binary.BigEndian.AppendUint64(nil, uint64(max(due.UnixNano(), 0)))
	return append(k, tokenID...)
}

func enqueueAnchor(r repository, j anchorJob, due time.Time) error {
	return r.putJSON(bucketAnchorJobs, anchorJobKey(due, j.TokenID), j)
}

// RunAnchoring anchors pending tokens of both environments until ctx ends, pausing
// Anchoring.PollInterval between rounds. It returns nil when ctx ends.
func (s *Service) RunAnchoring(ctx context.Context) error {
	p := s.Anchoring.WithDefaults()
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		if _, err := s.AnchorPending(ctx); err != nil && ctx.Err() == nil {
			s.logger().Warn("parcel token anchoring round failed", "err", err)
		}
		t.Reset(p.PollInterval)
	}
}

// AnchorPending runs one anchoring round over both environments and returns how many
// tokens were anchored. Several workers may run it at once: a claimed job is hidden
// from the others for Anchoring.Lease.
func (s *Service) AnchorPending(ctx context.Context) (int, error) {
	done := 0
	var errs []error
	for _, env := range []veriland.Environment{veriland.Sandbox, veriland.Production} {
		n, err := s.anchorEnv(ctx, env)
		done += n
		if err != nil {
			errs = append(errs, err)
		}
	}
	return done, errors.Join(errs...)
}

type claimed struct {
	key []byte
	job anchorJob
}

func (s *Service) anchorEnv(ctx context.Context, env veriland.Environment) (int, error) {
	p := s.Anchoring.WithDefaults()
	a := s.anchorFor(env)
	now := s.now()
	var jobs []claimed
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		jobs = jobs[:0]
		r := repo(tx, env)
		end := binary.BigEndian.AppendUint64(nil, uint64(max(now.UnixNano(), 0))+1)
		var due []claimed
		err := tx.Scan(r.bucket(bucketAnchorJobs), storage.Range{End: end}, func(k, v []byte) error {
			var j anchorJob
			if json.Unmarshal(v, &j) != nil {
				return nil
			}
			due = append(due, claimed{key: k, job: j})
			if len(due) >= p.Batch {
				return storage.ErrStop
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, c := range due {
			if err := tx.Delete(r.bucket(bucketAnchorJobs), c.key); err != nil {
				return err
			}
			c.job.Attempts++
			c.key = anchorJobKey(now.Add(p.Lease), c.job.TokenID)
			if err := enqueueAnchor(r, c.job, now.Add(p.Lease)); err != nil {
				return err
			}
			jobs = append(jobs, c)
		}
		return nil
	})
	if err != nil || len(jobs) == 0 {
		return 0, err
	}
	done := 0
	for _, c := range jobs {
		var rcpt anchor.Receipt
		aerr := errAnchoringOff
		if !anchor.IsDisabled(a) {
			if err := p.CheckFence(ctx); err != nil {
				return done, fmt.Errorf("parcel token %w", err)
			}
			rcpt, aerr = a.Anchor(ctx, c.job.Digest)
		}
		if aerr != nil && ctx.Err() != nil {
			return done, ctx.Err()
		}
		if err := s.settle(ctx, env, c, rcpt, aerr, p); err != nil {
			return done, err
		}
		if aerr == nil {
			done++
		} else if !errors.Is(aerr, errAnchoringOff) {
			s.logger().Warn("parcel token anchoring failed", "env", env, "token", c.job.TokenID, "attempt", c.job.Attempts, "err", aerr)
		}
	}
	return done, nil
}

var errAnchoringOff = errors.New("parcel: anchoring is disabled for this environment")

func (s *Service) settle(ctx context.Context, env veriland.Environment, c claimed, rcpt anchor.Receipt, aerr error, p AnchoringPolicy) error {
	now := s.now()
	return s.Store.Update(ctx, func(tx storage.Tx) error {
		r := repo(tx, env)
		if err := tx.Delete(r.bucket(bucketAnchorJobs), c.key); err != nil {
			return err
		}
		var st attestation.AnchorState
		switch {
		case aerr == nil:
			bn := rcpt.BlockNumber
			st = attestation.AnchorState{Status: attestation.AnchorAnchored, TxHash: rcpt.TxHash, BlockNumber: &bn}
		case errors.Is(aerr, errAnchoringOff):
			st = attestation.AnchorState{Status: attestation.AnchorDisabled}
		case c.job.Attempts >= p.MaxAttempts:
			st = attestation.AnchorState{Status: attestation.AnchorFailed}
		default:
			j := c.job
			j.LastError = aerr.Error()[:min(len(aerr.Error()), 200)]
			return enqueueAnchor(r, j, now.Add(p.BackoffAfter(j.Attempts)))
		}
		tok, err := r.token(c.job.TokenID)
		if err != nil {
			if veriland.IsCode(err, veriland.CodeNotFound) {
				return nil
			}
			return err
		}
		tok.Anchor = st
		return r.putToken(tok)
	})
}
