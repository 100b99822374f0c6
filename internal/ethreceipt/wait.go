// Package ethreceipt waits for a transaction's receipt, for the chain clients that
// send (attestation/anchor, parcel/landtitle).
package ethreceipt

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Reader is the part of a node client that Wait uses.
type Reader interface {
	TransactionReceipt(ctx context.Context, hash common.Hash) (*types.Receipt, error)
}

// Wait polls r for the receipt of hash until it comes or ctx ends: first after 25 ms,
// then at twice the previous pause up to maxPause, so that a node that seals at once
// (a dev chain, a rollup's sequencer) answers within tens of milliseconds and a
// 12-second chain is not asked more than every maxPause. "Not found" and "transaction
// indexing is in progress" mean wait on; any other error ends the wait. A wait cut by
// ctx (or by the transport noticing ctx's deadline first, in its own words: "i/o
// timeout") wraps context.DeadlineExceeded or ctx's error.
func Wait(ctx context.Context, r Reader, hash common.Hash, maxPause time.Duration) (*types.Receipt, error) {
	pause := min(25*time.Millisecond, maxPause)
	t := time.NewTimer(pause)
	defer t.Stop()
	for {
		rcpt, err := r.TransactionReceipt(ctx, hash)
		if err == nil {
			return rcpt, nil
		}
		if ctx.Err() != nil || isTimeout(err) {
			return nil, fmt.Errorf("no receipt for %s: %w", hash.Hex(), context.DeadlineExceeded)
		}
		if !errors.Is(err, ethereum.NotFound) && !isIndexing(err) {
			return nil, fmt.Errorf("receipt of %s: %w", hash.Hex(), err)
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("no receipt for %s: %w", hash.Hex(), ctx.Err())
		case <-t.C:
		}
		pause = min(2*pause, maxPause)
		t.Reset(pause)
	}
}

// isTimeout reports whether err is a transport timeout, which the RPC client raises
// when the context's deadline reaches the connection.
func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &t) && t.Timeout())
}

// isIndexing reports whether err is the node saying that it is still indexing
// transactions: the receipt may yet appear.
func isIndexing(err error) bool {
	return strings.Contains(err.Error(), "transaction indexing is in progress")
}
