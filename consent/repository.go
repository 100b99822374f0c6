package consent

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/storage"
)

// Bucket names, each namespaced per environment with storage.Bucket.
const (
	bucketRequests = "consent_requests" // request id → Request JSON
	// bucketExpiry indexes PENDING requests by deadline: 8-byte big-endian
	// expiresAt unix seconds ‖ request id → empty. An entry lives exactly as long as
	// its request is PENDING, so the sweeper reads only what is due.
	bucketExpiry = "consent_expiry"
)

// repository is the typed view of one environment's consent buckets inside one
// transaction.
type repository struct {
	tx  storage.Tx
	env veriland.Environment
}

func repo(tx storage.Tx, env veriland.Environment) repository { return repository{tx: tx, env: env} }

func (r repository) bucket(name string) string { return storage.Bucket(r.env, name) }

func notFound(id string) *veriland.Error {
	return veriland.Errorf(veriland.CodeNotFound, "no verification request %s", id)
}

// request reads request id; unknown or malformed ids are not_found.
func (r repository) request(id string) (*Request, error) {
	req, _, err := r.requestRaw(id)
	return req, err
}

// requestBytes returns request id's record as stored, without decoding it; an
// unknown or malformed id is not_found.
func (r repository) requestBytes(id string) ([]byte, error) {
	if !ids.Valid(id, IDPrefix) {
		return nil, notFound(id)
	}
	b, err := r.tx.Get(r.bucket(bucketRequests), []byte(id))
	if errors.Is(err, storage.ErrNotFound) {
		return nil, notFound(id)
	}
	if err != nil {
		return nil, fmt.Errorf("consent: reading %s: %w", id, err)
	}
	return b, nil
}

// requestRaw is request, with the record as stored.
func (r repository) requestRaw(id string) (*Request, []byte, error) {
	b, err := r.requestBytes(id)
	if err != nil {
		return nil, nil, err
	}
	var req Request
	if err := json.Unmarshal(b, &req); err != nil {
		return nil, nil, fmt.Errorf("consent: decoding %s: %w", id, err)
	}
	if req.Env != r.env {
		// Buckets are namespaced, so this is corruption, not the other environment.
		return nil, nil, fmt.Errorf("consent: %s is stored under %s but belongs to %s", id, r.env, req.Env)
	}
	return &req, b, nil
}

// unchanged reports whether request id is stored as raw, byte for byte.
func (r repository) unchanged(id string, raw []byte) (bool, error) {
	b, err := r.requestBytes(id)
	if veriland.IsCode(err, veriland.CodeNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return bytes.Equal(b, raw), nil
}

// put writes req and keeps the expiry index in step with its status.
func (r repository) put(req *Request) error {
	b, err := json.Marshal(req)
	if err != nil {
		return fmt.Errorf("consent: encoding %s: %w", req.ID, err)
	}
	return r.putEncoded(req, b)
}

// putEncoded is put with req already encoded as b.
func (r repository) putEncoded(req *Request, b []byte) error {
	if err := r.tx.Put(r.bucket(bucketRequests), []byte(req.ID), b); err != nil {
		return fmt.Errorf("consent: writing %s: %w", req.ID, err)
	}
	var err error
	key := expiryKey(req.ExpiresAt, req.ID)
	if req.Status == StatusPending {
		err = r.tx.Put(r.bucket(bucketExpiry), key, nil)
	} else {
		err = r.tx.Delete(r.bucket(bucketExpiry), key)
	}
	if err != nil {
		return fmt.Errorf("consent: indexing %s: %w", req.ID, err)
	}
	return nil
}

// dueEntry is one expiry index entry: its key and the request id it names.
type dueEntry struct {
	key []byte
	id  string
}

// due returns up to limit expiry index entries whose deadline is at or before now,
// oldest deadline first.
func (r repository) due(now time.Time, limit int) ([]dueEntry, error) {
	var out []dueEntry
	end := expiryKey(now.Add(time.Second), "")
	err := r.tx.Scan(r.bucket(bucketExpiry), storage.Range{End: end}, func(k, _ []byte) error {
		if len(out) >= limit {
			return storage.ErrStop
		}
		out = append(out, dueEntry{key: k, id: string(k[min(8, len(k)):])})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("consent: scanning the expiry index: %w", err)
	}
	return out, nil
}

// unindex removes an expiry index entry whose request is gone or no longer PENDING.
func (r repository) unindex(key []byte) error {
	return r.tx.Delete(r.bucket(bucketExpiry), key)
}

func expiryKey(at time.Time, id string) []byte {
	k := make([]byte, 8, 8+len(id))
	sec := at.Unix()
	if sec < 0 {
		sec = 0
	}
	binary.BigEndian.PutUint64(k, uint64(sec))
	return append(k, id...)
}

// RequestTx reads request id of env inside the caller's transaction, as stored (no
// lazy expiry). It lets code running in another package's transaction — the
// revocation hook that tells a verifier its consent was revoked — find the request
// without opening a second transaction. Errors: not_found.
func RequestTx(tx storage.Tx, env veriland.Environment, id string) (*Request, error) {
	return repo(tx, env).request(id)
}
