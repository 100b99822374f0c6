package parcel

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/parcel/landtitle"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/chainjob"
)

// JobTitle is the kind of the chain jobs (storage/chainjob) of land titles: the
// reference is a token id. A job brings the chain in line with the token record:
// minted to its holder while the certificate version is current, burned once the
// registry closed it (BurnRequestedAt). It reads the chain before it sends, so that a
// job that runs again after a crash never mints or burns twice.
const JobTitle = "landtitle.sync"

// Actions of a title job's result.
const (
	actionMint = "mint"
	actionBurn = "burn"
	actionNone = "none" // closed before it ever reached the chain: nothing to burn
)

// ChainPolicy tunes the chain-job worker of RunChainJobs: chainjob's policy.
type ChainPolicy = chainjob.Policy

// enqueueTitle queues the chain work of token id in r's environment, due at now.
func enqueueTitle(r repository, tokenID string, now time.Time) error {
	return chainjob.Enqueue(r.tx, r.env, chainjob.Job{Kind: JobTitle, Ref: tokenID}, now)
}

// RegisterChainJobs registers the land-title handler (JobTitle) on q. The reference
// server registers every domain on one queue, so that one worker sends every
// transaction of the registry account.
func (s *Service) RegisterChainJobs(q *chainjob.Queue) {
	q.Handle(JobTitle, titleHandler{s})
}

// RunChainJobs runs a queue that serves only the land-title jobs, with policy
// s.ChainJobs, until ctx ends. Embedders that also anchor attestations with the same
// key run one chainjob.Queue for both instead (RegisterChainJobs).
func (s *Service) RunChainJobs(ctx context.Context) error {
	return s.ownQueue().Run(ctx)
}

// ChainJobsOnce runs one round of RunChainJobs's queue and returns how many jobs
// succeeded.
func (s *Service) ChainJobsOnce(ctx context.Context) (int, error) {
	return s.ownQueue().RunOnce(ctx)
}

func (s *Service) ownQueue() *chainjob.Queue {
	s.queueOnce.Do(func() {
		s.queue = &chainjob.Queue{Store: s.Store, Now: s.now, Logger: s.Logger}
		s.RegisterChainJobs(s.queue)
	})
	s.queue.Policy = s.ChainJobs
	return s.queue
}

type titleHandler struct{ s *Service }

var errTokenGone = errors.New("parcel: the token record is gone")

// Run mints or burns the job's token, whichever its record asks for.
func (h titleHandler) Run(ctx context.Context, env veriland.Environment, j chainjob.Job) (chainjob.Result, error) {
	c := h.s.titleChain(env)
	if c == nil {
		return chainjob.Result{}, chainjob.ErrDisabled
	}
	var tok *Token
	err := h.s.Store.View(ctx, func(tx storage.Tx) error {
		var err error
		tok, err = repo(tx, env).token(j.Ref)
		return err
	})
	if veriland.IsCode(err, veriland.CodeNotFound) {
		return chainjob.Result{}, chainjob.Permanent(errTokenGone)
	}
	if err != nil {
		return chainjob.Result{}, err
	}
	id, ok := new(big.Int).SetString(tok.TokenID, 10)
	if !ok {
		return chainjob.Result{}, chainjob.Permanent(fmt.Errorf("parcel: token id %q is not a decimal uint256", tok.TokenID))
	}
	if tok.BurnRequestedAt != nil {
		t, err := c.Title(ctx, id)
		if err != nil {
			return chainjob.Result{}, err
		}
		if t.State == landtitle.Unminted {
			// Closed before its mint reached the chain: nothing to burn. (A mint sent
			// by a worker that died and landing later is not caught here; the
			// dashboard lists tokens whose chain state differs from the record.)
			return chainjob.Result{Action: actionNone}, nil
		}
		rc, err := c.Burn(ctx, id)
		if err != nil {
			return chainjob.Result{}, err
		}
		return result(actionBurn, rc), nil
	}
	hash, err := ParseHash(tok.MetadataHash)
	if err != nil {
		return chainjob.Result{}, chainjob.Permanent(err)
	}
	holder := common.HexToAddress(tok.Holder)
	if tok.HolderKind == HolderRegistryCustody || tok.Holder == "" {
		holder = c.Registry()
	}
	rc, err := c.Mint(ctx, holder, id, hash)
	if errors.Is(err, landtitle.ErrConflict) {
		return chainjob.Result{}, chainjob.Permanent(err)
	}
	if err != nil {
		return chainjob.Result{}, err
	}
	return result(actionMint, rc), nil
}

func result(action string, rc landtitle.Receipt) chainjob.Result {
	return chainjob.Result{Action: action, TxHash: rc.TxHash.Hex(), BlockNumber: rc.BlockNumber, GasUsed: rc.GasUsed}
}

// Settle records the outcome on the token and on its certificate version.
func (h titleHandler) Settle(ctx context.Context, tx storage.Tx, env veriland.Environment, j chainjob.Job, res chainjob.Result, err error) error {
	r := repo(tx, env)
	tok, lerr := r.token(j.Ref)
	if veriland.IsCode(lerr, veriland.CodeNotFound) {
		return nil // erased meanwhile (a sandbox purge)
	}
	if lerr != nil {
		return lerr
	}
	now := h.s.now()
	switch {
	case errors.Is(err, chainjob.ErrDisabled):
		if tok.BurnRequestedAt != nil {
			tok.settleBurned("", now)
		} else {
			tok.Status, tok.Anchor = TokenDisabled, attestation.AnchorState{Status: attestation.AnchorDisabled}
		}
	case err != nil:
		tok.Status, tok.Error = TokenFailed, truncate(err.Error(), 200)
		if tok.MintTx == "" {
			tok.Anchor = attestation.AnchorState{Status: attestation.AnchorFailed}
		}
	case res.Action == actionMint:
		tok.settleMinted(res.TxHash, res.BlockNumber, now)
	case res.Action == actionBurn:
		tok.settleBurned(res.TxHash, now)
	default:
		tok.settleBurned("", now)
	}
	if err := r.putToken(tok); err != nil {
		return err
	}
	vr, err := r.version(tok.ParcelID, tok.Version)
	if veriland.IsCode(err, veriland.CodeNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	vr.TokenStatus = tok.Status
	return r.putVersion(vr)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
