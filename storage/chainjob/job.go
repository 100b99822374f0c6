package chainjob

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// Bucket is the name of each environment's queue (storage.Bucket(env, Bucket)).
const Bucket = "chain_jobs"

// Job is one unit of chain work.
type Job struct {
	// Kind selects the Handler ("attestation.issue", "landtitle.sync", ...).
	Kind string `json:"kind"`
	// Ref names the record the job works for (an attestation id, a token id).
	Ref string `json:"ref"`
	// Payload is the handler's own data, if any.
	Payload json.RawMessage `json:"payload,omitempty"`
	// Attempts counts the claims of the job so far.
	Attempts int `json:"attempts"`
	// LastError is the error of the last failed attempt, at most 200 bytes.
	LastError string `json:"lastError,omitempty"`
	// Enqueued is when the job was first written.
	Enqueued time.Time `json:"enqueued"`
}

// Key returns the job's key in the queue when it is due at due.
func Key(due time.Time, kind, ref string) []byte {
	k := binary.BigEndian.AppendUint64(make([]byte, 0, 8+len(kind)+1+len(ref)), uint64(max(due.UnixNano(), 0)))
	k = append(k, kind...)
	k = append(k, 0)
	return append(k, ref...)
}

// parseKey splits a queue key; ok is false for a key that Key did not make.
func parseKey(k []byte) (kind, ref string, ok bool) {
	if len(k) < 9 {
		return "", "", false
	}
	rest := k[8:]
	for i, b := range rest {
		if b == 0 {
			return string(rest[:i]), string(rest[i+1:]), true
		}
	}
	return "", "", false
}

// Enqueue writes j into env's queue in tx, due at due. Call it inside the
// transaction of the state change that needs the chain work. A job with the same
// kind, reference and due time replaces the earlier one.
func Enqueue(tx storage.Tx, env veriland.Environment, j Job, due time.Time) error {
	if j.Kind == "" || j.Ref == "" {
		return errors.New("chainjob: a job needs a kind and a reference")
	}
	if j.Enqueued.IsZero() {
		j.Enqueued = due
	}
	b, err := json.Marshal(j)
	if err != nil {
		return fmt.Errorf("chainjob: encoding %s %s: %w", j.Kind, j.Ref, err)
	}
	return tx.Put(storage.Bucket(env, Bucket), Key(due, j.Kind, j.Ref), b)
}

// DeleteWhere removes from env's queue, in tx, every job for which doomed(kind, ref)
// is true (the records it works for are being erased), and returns how many.
func DeleteWhere(tx storage.Tx, env veriland.Environment, doomed func(kind, ref string) bool) (int, error) {
	bucket := storage.Bucket(env, Bucket)
	var keys [][]byte
	err := tx.Scan(bucket, storage.Range{}, func(k, _ []byte) error {
		if kind, ref, ok := parseKey(k); ok && doomed(kind, ref) {
			keys = append(keys, append([]byte(nil), k...))
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, k := range keys {
		if err := tx.Delete(bucket, k); err != nil {
			return 0, err
		}
	}
	return len(keys), nil
}
