package ratelimit

import (
	"context"
	"fmt"

	"github.com/veriland/veriland"
)

// AtomicStore is implemented by stores that can run one GCRA step on a record as a
// single atomic operation, cheaper under contention than a serializable transaction
// that reads and writes the record (storage/postgres.Store does, with one statement).
// The Limiter uses it whenever its Store implements it.
//
// GCRA decides one request at now (unix nanoseconds) against the record of key in
// bucket, for an emission interval and a tolerance in nanoseconds (0 < emission ≤
// tolerance): it is allowed when max(TAT, now) + emission − tolerance ≤ now, and
// then the record becomes max(TAT, now) + emission and GCRA returns that TAT and true.
// A denied request writes nothing, and GCRA returns the stored TAT it was denied
// against and false. A missing record has TAT 0. Records are this package's: 0x01,
// then the TAT as a big-endian int64, so that the atomic and the transactional paths
// read each other's records. An error wrapping errors.ErrUnsupported means the store
// cannot do it (a database without the SQL functions it needs): the Limiter then
// falls back to transactions for good.
type AtomicStore interface {
	GCRA(ctx context.Context, bucket string, key []byte, now, emission, tolerance int64) (tat int64, allowed bool, err error)
}

// allowAtomic decides one request with the store's atomic GCRA step. Decisions are
// computed by gcra from the TAT the store returns, so that both paths answer alike.
func allowAtomic(ctx context.Context, a AtomicStore, bucket string, id []byte, now int64, p Policy) (Decision, error) {
	t := int64(p.interval())
	tat, allowed, err := a.GCRA(ctx, bucket, id, now, t, int64(p.tolerance()))
	if err != nil {
		return Decision{}, err
	}
	var d Decision
	if allowed {
		// tat = max(old TAT, now) + T, and max(old TAT, now) ≥ now decides alike.
		_, d = gcra(tat-t, now, p)
	} else {
		_, d = gcra(tat, now, p)
	}
	if d.Allowed != allowed {
		return Decision{}, &veriland.Error{Code: veriland.CodeInternal, Message: "rate limit store disagrees with GCRA",
			Cause: fmt.Errorf("ratelimit: atomic GCRA returned TAT %d at %d, inconsistent with allowed=%t", tat, now, allowed)}
	}
	return d, nil
}
