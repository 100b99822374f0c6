package ratelimit

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// bucketName is the storage bucket, namespaced per environment with storage.Bucket.
const bucketName = "ratelimit"

// recordVersion prefixes every stored value so that the format can change later.
const recordVersion = 1

// Limiter enforces Policies with GCRA, keeping each key's theoretical arrival time in
// storage. Every decision that admits a request is one atomic step of the Store (one
// statement on an AtomicStore, else a read-write transaction), so the limit holds
// across replicas sharing the Store. A Limiter is safe for concurrent use and must
// not be copied after first use.
type Limiter struct {
	Store storage.Store
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Disabled admits every request without touching storage, and Middleware then
	// sets no headers (the reference server's "-rate-limit off", for benchmarks).
	Disabled bool
	// Logger receives store failures from Middleware; nil means slog.Default().
	Logger *slog.Logger

	// noAtomic is set once the Store, an AtomicStore, reported that it cannot run
	// GCRA atomically (errors.ErrUnsupported): Allow then uses transactions only.
	noAtomic atomic.Bool
}

// Allow decides whether one more request for key under policy p in environment env may
// proceed, and records it when it may. Denied requests write nothing, so a client that
// keeps hammering a closed limit costs reads only.
//
// Errors: validation_failed for an invalid p or an empty key or environment;
// unavailable (with the storage error as cause) when the store fails.
func (l *Limiter) Allow(ctx context.Context, env veriland.Environment, key string, p Policy) (Decision, error) {
	if err := p.Validate(); err != nil {
		return Decision{}, err
	}
	if !env.Valid() {
		return Decision{}, veriland.Errorf(veriland.CodeValidationFailed, "rate limit: invalid environment %q", string(env))
	}
	if key == "" {
		return Decision{}, veriland.Errorf(veriland.CodeValidationFailed, "rate limit: empty key")
	}
	if l.Disabled {
		return Decision{Allowed: true, Remaining: p.Burst}, nil
	}
	bucket := storage.Bucket(env, bucketName)
	id := recordKey(p.Name, key)

	if a, ok := l.Store.(AtomicStore); ok && !l.noAtomic.Load() {
		d, err := allowAtomic(ctx, a, bucket, id, l.now().UnixNano(), p)
		if !errors.Is(err, errors.ErrUnsupported) {
			if err != nil {
				return Decision{}, unavailable(err)
			}
			return d, nil
		}
		l.noAtomic.Store(true)
		l.logger().Warn("rate limit store cannot run GCRA atomically; using transactions", "error", err)
	}

	// A read first: a denial can be decided without a write, because the stored TAT
	// only ever grows, so a request denied against this snapshot is denied against any
	// later one too.
	var d Decision
	err := l.Store.View(ctx, func(tx storage.Tx) error {
		tat, err := readTAT(tx, bucket, id)
		if err != nil {
			return err
		}
		_, d = gcra(tat, l.now().UnixNano(), p)
		return nil
	})
	if err != nil {
		return Decision{}, unavailable(err)
	}
	if !d.Allowed {
		return d, nil
	}

	err = l.Store.Update(ctx, func(tx storage.Tx) error {
		tat, err := readTAT(tx, bucket, id)
		if err != nil {
			return err
		}
		var next int64
		next, d = gcra(tat, l.now().UnixNano(), p)
		if !d.Allowed {
			return nil
		}
		return tx.Put(bucket, id, encodeTAT(next))
	})
	if err != nil {
		return Decision{}, unavailable(err)
	}
	return d, nil
}

func (l *Limiter) now() time.Time {
	if l.Now != nil {
		return l.Now()
	}
	return time.Now()
}

func (l *Limiter) logger() *slog.Logger {
	if l.Logger != nil {
		return l.Logger
	}
	return slog.Default()
}

// recordKey hashes the policy name and the caller key, so that raw IPs and wallet
// addresses are never stored verbatim. Both parts are length-prefixed so that no two
// (name, key) pairs share an encoding.
func recordKey(policy, key string) []byte {
	h := sha256.New()
	var n [4]byte
	for _, part := range []string{"veriland/ratelimit/v1", policy, key} {
		binary.BigEndian.PutUint32(n[:], uint32(len(part)))
		h.Write(n[:])
		h.Write([]byte(part))
	}
	return h.Sum(nil)
}

func readTAT(tx storage.Tx, bucket string, id []byte) (int64, error) {
	v, err := tx.Get(bucket, id)
	if errors.Is(err, storage.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return decodeTAT(v)
}

func encodeTAT(tat int64) []byte {
	v := make([]byte, 9)
	v[0] = recordVersion
	binary.BigEndian.PutUint64(v[1:], uint64(tat))
	return v
}

func decodeTAT(v []byte) (int64, error) {
	if len(v) != 9 || v[0] != recordVersion {
		return 0, errors.New("ratelimit: malformed stored record")
	}
	return int64(binary.BigEndian.Uint64(v[1:])), nil
}

func unavailable(err error) error {
	var verr *veriland.Error
	if errors.As(err, &verr) {
		return err
	}
	return &veriland.Error{Code: veriland.CodeUnavailable, Message: "rate limit store unavailable", Cause: err}
}
