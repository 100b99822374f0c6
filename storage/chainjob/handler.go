package chainjob

import (
	"context"
	"errors"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// Result is what a handler's chain work produced: the transaction that did it.
type Result struct {
	TxHash      string // "0x" + 64 hex; empty when nothing had to be sent
	BlockNumber uint64
	GasUsed     uint64
	// Action says what the handler did, for its own Settle ("mint", "burn", ...).
	Action string
}

// Handler runs the jobs of one kind.
type Handler interface {
	// Run does j's chain work in env, outside any storage transaction. It must be
	// idempotent: after a crash, a job that already reached the chain runs again.
	// Return ErrDisabled when env has no chain, Permanent(err) for a failure that no
	// retry can mend.
	Run(ctx context.Context, env veriland.Environment, j Job) (Result, error)
	// Settle records the outcome of j in tx: err is nil on success, else the final
	// failure (retries exhausted, Permanent or ErrDisabled). A failure that will be
	// retried is not settled. Like every storage.Update function it may run more than
	// once.
	Settle(ctx context.Context, tx storage.Tx, env veriland.Environment, j Job, r Result, err error) error
}

// ErrDisabled is returned by a Handler's Run when its environment has no chain: the
// job is settled at once with it.
var ErrDisabled = errors.New("chainjob: no chain is configured for this environment")

type permanent struct{ err error }

func (p permanent) Error() string { return p.err.Error() }
func (p permanent) Unwrap() error { return p.err }

// Permanent marks err as final: the job is settled at once instead of retried.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return permanent{err}
}

// IsPermanent reports whether err was marked by Permanent.
func IsPermanent(err error) bool {
	var p permanent
	return errors.As(err, &p)
}
