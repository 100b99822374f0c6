package attestation

import (
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
)

// AnchoringPolicy tunes the anchoring worker. Zero fields take the defaults.
type AnchoringPolicy struct {
	MaxAttempts  int           // attempts before FAILED (default 8)
	Backoff      time.Duration // wait after the first failure, doubled each time (default 5 s)
	MaxBackoff   time.Duration // cap of the wait (default 1 h)
	Lease        time.Duration // how long a claimed job is hidden from other workers (default 5 min)
	Batch        int           // jobs claimed per round (default 16)
	PollInterval time.Duration // RunAnchoring's pause between rounds (default 2 s)

	// Fence, when set, is called right before each anchor transaction is sent; an
	// error ends the round without sending, and the jobs it had claimed are retried
	// once their claim expires (Lease). Replicas that anchor with one key set it to
	// their anchoring lease's Check (storage/lease), so that a replica that is no
	// longer the leader never sends: two senders would race on the key's nonce.
	Fence func(ctx context.Context) error
}

// WithDefaults returns p with each zero field set to its default.
func (p AnchoringPolicy) WithDefaults() AnchoringPolicy {
	def := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 8
	}
	if p.Batch <= 0 {
		p.Batch = 16
	}
	def(&p.Backoff, 5*time.Second)
	def(&p.MaxBackoff, time.Hour)
	def(&p.Lease, 5*time.Minute)
	def(&p.PollInterval, 2*time.Second)
	return p
}

// BackoffAfter returns the wait after the n-th failed attempt (n ≥ 1): Backoff,
// doubled per further attempt, at most MaxBackoff.
func (p AnchoringPolicy) BackoffAfter(n int) time.Duration {
	d := p.Backoff
	for i := 1; i < n && d < p.MaxBackoff; i++ {
		d *= 2
	}
	return min(d, p.MaxBackoff)
}

// CheckFence runs Fence, when set, right before an anchor transaction is sent: nil
// means send. Both anchoring workers (attestations, parcel tokens) call it.
func (p AnchoringPolicy) CheckFence(ctx context.Context) error {
	if p.Fence == nil {
		return nil
	}
	if err := p.Fence(ctx); err != nil {
		return fmt.Errorf("anchoring fenced off: %w", err)
	}
	return nil
}

const (
	purposeIssue  = "issue"
	purposeRevoke = "revoke"
)

// anchorJob is a pending anchoring, keyed by its due time so that the worker finds due
// jobs with one range scan.
type anchorJob struct {
	ID        string      `json:"id"`
	Purpose   string      `json:"purpose"`
	Digest    common.Hash `json:"digest"`
	Attempts  int         `json:"attempts"`
	LastError string      `json:"lastError,omitempty"`
}

func jobKey(due time.Time, j anchorJob) []byte {
	k := binary.BigEndian.AppendUint64(nil, uint64(max(due.UnixNano(), 0)))
	k = append(k, j.ID...)
	k = append(k, 0)
	return append(k, j.Purpose...)
}

func enqueueAnchor(tx storage.Tx, env veriland.Environment, j anchorJob, due time.Time) error {
	b, err := json.Marshal(j)
	if err != nil {
		return err
	}
	return tx.Put(storage.Bucket(env, bucketAnchorJobs), jobKey(due, j), b)
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

// RunAnchoring anchors pending attestations and revocations of both environments
// until ctx ends, pausing Anchoring.PollInterval between rounds. Failures are logged
// and retried with exponential backoff; after Anchoring.MaxAttempts the record is
// marked FAILED. It never touches issuance: a chain that is down only delays anchors.
// It returns nil when ctx ends.
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
			s.logger().Warn("attestation anchoring round failed", "err", err)
		}
		t.Reset(p.PollInterval)
	}
}

// AnchorPending runs one anchoring round: it claims the jobs due at s.Now() in each
// environment, anchors them and records the outcome. It returns how many anchors
// succeeded. Workers on several replicas may run it concurrently: a claimed job is
// hidden from the others for Anchoring.Lease.
func (s *Service) AnchorPending(ctx context.Context) (int, error) {
	done := 0
	var errs []error
	for _, env := range []veriland.Environment{veriland.Sandbox, veriland.Production} {
		a := s.anchorFor(env)
		n, err := s.anchorEnv(ctx, env, a)
		done += n
		if err != nil {
			errs = append(errs, err)
		}
	}
	return done, errors.Join(errs...)
}

type claimedJob struct {
	key []byte // where the claimed job now sits (due at the end of its lease)
	job anchorJob
}

func (s *Service) anchorEnv(ctx context.Context, env veriland.Environment, a Anchorer) (int, error) {
	p := s.Anchoring.WithDefaults()
	now := s.now()
	var claimed []claimedJob
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		claimed = claimed[:0]
		bucket := storage.Bucket(env, bucketAnchorJobs)
		end := binary.BigEndian.AppendUint64(nil, uint64(max(now.UnixNano(), 0))+1)
		var due []claimedJob
		err := tx.Scan(bucket, storage.Range{End: end}, func(key, value []byte) error {
			var j anchorJob
			if err := json.Unmarshal(value, &j); err != nil {
				return nil // a corrupt job is left alone rather than blocking the queue
			}
			due = append(due, claimedJob{key: key, job: j})
			if len(due) >= p.Batch {
				return storage.ErrStop
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, c := range due {
			if err := tx.Delete(bucket, c.key); err != nil {
				return err
			}
			c.job.Attempts++
			c.key = jobKey(now.Add(p.Lease), c.job)
			if err := enqueueAnchor(tx, env, c.job, now.Add(p.Lease)); err != nil {
				return err
			}
			claimed = append(claimed, c)
		}
		return nil
	})
	if err != nil || len(claimed) == 0 {
		return 0, err
	}
	done := 0
	for _, c := range claimed {
		var rcpt AnchorReceipt
		var aerr error
		if AnchoringDisabled(a) {
			aerr = errAnchoringTurnedOff
		} else if err := p.CheckFence(ctx); err != nil {
			return done, err
		} else {
			rcpt, aerr = a.Anchor(ctx, c.job.Digest)
		}
		if aerr != nil && ctx.Err() != nil {
			return done, ctx.Err() // shutting down: the lease will expire and the job be retried
		}
		if err := s.settle(ctx, env, c, rcpt, aerr, p); err != nil {
			return done, err
		}
		if aerr == nil {
			done++
		} else if !errors.Is(aerr, errAnchoringTurnedOff) {
			s.logger().Warn("attestation anchoring failed", "env", env, "attestation", c.job.ID,
				"purpose", c.job.Purpose, "attempt", c.job.Attempts, "err", aerr)
		}
	}
	return done, nil
}

// errAnchoringTurnedOff settles jobs queued before anchoring was disabled.
var errAnchoringTurnedOff = errors.New("attestation: anchoring is disabled for this environment")

// settle records the outcome of one claimed job: the anchor state on the attestation,
// and the job removed or rescheduled.
func (s *Service) settle(ctx context.Context, env veriland.Environment, c claimedJob, rcpt AnchorReceipt, aerr error, p AnchoringPolicy) error {
	now := s.now()
	return s.Store.Update(ctx, func(tx storage.Tx) error {
		bucket := storage.Bucket(env, bucketAnchorJobs)
		if err := tx.Delete(bucket, c.key); err != nil {
			return err
		}
		var state AnchorState
		switch {
		case aerr == nil:
			bn := rcpt.BlockNumber
			state = AnchorState{Status: AnchorAnchored, TxHash: rcpt.TxHash, BlockNumber: &bn}
		case errors.Is(aerr, errAnchoringTurnedOff):
			state = AnchorState{Status: AnchorDisabled}
		case c.job.Attempts >= p.MaxAttempts:
			state = AnchorState{Status: AnchorFailed}
		default:
			j := c.job
			j.LastError = truncate(aerr.Error(), 200)
			return enqueueAnchor(tx, env, j, now.Add(p.BackoffAfter(j.Attempts)))
		}
		r, err := loadRecord(tx, env, c.job.ID)
		if err != nil {
			var ve *veriland.Error
			if errors.As(err, &ve) && ve.Code == veriland.CodeNotFound {
				return nil // the record is gone: nothing to update
			}
			return err
		}
		if c.job.Purpose == purposeRevoke {
			r.Attestation.RevocationAnchor = &state
		} else {
			r.Attestation.Anchor = state
		}
		return saveRecord(tx, env, r)
	})
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
