package siwe

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/veriland/veriland/storage"
)

// NonceTTL is how long a nonce from NewNonce may be used (SPEC S2.3).
const NonceTTL = 5 * time.Minute

// Bucket names. A nonce is good for a login into either environment (SPEC S2.3: the
// login names it), so nonces live in global buckets (storage.Global), shared by both
// environments: a nonce used for one environment's login is gone for the other's.
var (
	bucketNonces = storage.Global("siwe_nonces")       // nonce → expiry (unix nanoseconds, big-endian)
	bucketExpiry = storage.Global("siwe_nonce_expiry") // expiry ‖ nonce → nothing, for purging in order
)

// purgePerNonce is how many expired nonces each NewNonce removes on the way, so that
// abandoned nonces never pile up even without a sweeper.
const purgePerNonce = 4

// NewNonce makes a single-use nonce (POST /auth/siwe/nonce, public): 32 lower-case
// hex characters from 128 random bits, valid for NonceTTL, good for one login into
// either environment — the login (Verify) names the environment. It also removes a
// few expired nonces. Errors: storage failures.
func (s *Service) NewNonce(ctx context.Context) (nonce string, expiresAt time.Time, err error) {
	if s.Store == nil {
		return "", time.Time{}, errors.New("siwe: Service.Store is nil")
	}
	var b [16]byte
	if _, err := io.ReadFull(s.rand(), b[:]); err != nil {
		return "", time.Time{}, fmt.Errorf("siwe: reading randomness: %w", err)
	}
	nonce = hex.EncodeToString(b[:])
	now := s.now()
	expiresAt = now.Add(NonceTTL)
	err = s.Store.Update(ctx, func(tx storage.Tx) error {
		if _, err := purgeExpired(tx, now, purgePerNonce); err != nil {
			return err
		}
		if err := tx.Put(bucketNonces, []byte(nonce), unixNano(expiresAt)); err != nil {
			return err
		}
		return tx.Put(bucketExpiry, expiryKey(expiresAt, nonce), nil)
	})
	if err != nil {
		return "", time.Time{}, err
	}
	return nonce, expiresAt, nil
}

// PurgeExpiredNonces removes up to limit nonces that expired unused and reports how
// many it removed. NewNonce already purges a few each time; call this from a sweeper
// to reclaim space after bursts.
func (s *Service) PurgeExpiredNonces(ctx context.Context, limit int) (int, error) {
	if s.Store == nil {
		return 0, errors.New("siwe: Service.Store is nil")
	}
	now := s.now()
	var n int
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		var err error
		n, err = purgeExpired(tx, now, limit)
		return err
	})
	return n, err
}

// consumeNonce deletes nonce and reports whether it existed and was still valid at
// now. The deletion commits even when the nonce has expired.
func (s *Service) consumeNonce(ctx context.Context, nonce string, now time.Time) error {
	var expired bool
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		expired = false // the function may run again
		v, err := tx.Get(bucketNonces, []byte(nonce))
		if errors.Is(err, storage.ErrNotFound) {
			return unauthenticated(ErrUnknownNonce, "unknown or already used nonce")
		}
		if err != nil {
			return err
		}
		if len(v) != 8 {
			return fmt.Errorf("siwe: corrupt nonce record")
		}
		exp := time.Unix(0, int64(binary.BigEndian.Uint64(v)))
		if err := tx.Delete(bucketNonces, []byte(nonce)); err != nil {
			return err
		}
		if err := tx.Delete(bucketExpiry, expiryKey(exp, nonce)); err != nil {
			return err
		}
		expired = !now.Before(exp)
		return nil
	})
	if err != nil {
		return err
	}
	if expired {
		return unauthenticated(ErrNonceExpired, "nonce expired")
	}
	return nil
}

func purgeExpired(tx storage.Tx, now time.Time, limit int) (int, error) {
	var keys [][]byte
	err := tx.Scan(bucketExpiry, storage.Range{End: unixNano(now)}, func(k, _ []byte) error {
		if len(keys) >= limit {
			return storage.ErrStop
		}
		keys = append(keys, k)
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, k := range keys {
		if len(k) <= 8 {
			continue
		}
		if err := tx.Delete(bucketNonces, k[8:]); err != nil {
			return 0, err
		}
		if err := tx.Delete(bucketExpiry, k); err != nil {
			return 0, err
		}
	}
	return len(keys), nil
}

func unixNano(t time.Time) []byte { return binary.BigEndian.AppendUint64(nil, uint64(t.UnixNano())) }

func expiryKey(t time.Time, nonce string) []byte { return append(unixNano(t), nonce...) }
