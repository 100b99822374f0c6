package lease

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/veriland/veriland/storage"
)

// bucket holds every lease: one record per name. It is a global bucket, so it never
// collides with an environment's storage.Bucket names.
var bucket = storage.Global("leases")

// State is a lease as stored: who holds it, until when, and its term.
type State struct {
	// Holder is the holder's id; empty once released.
	Holder string `json:"holder"`
	// Until is when the lease ends unless renewed; zero once released.
	Until time.Time `json:"until"`
	// Term counts the times the lease was taken (not renewed): a fencing token that
	// tells one tenure from the next, even by the same holder.
	Term uint64 `json:"term"`
}

// HeldAt reports whether the lease is held by anyone at now.
func (s State) HeldAt(now time.Time) bool { return s.Holder != "" && now.Before(s.Until) }

// load reads the lease name in tx; a missing record is a free lease of term 0.
func load(tx storage.Tx, name string) (State, error) {
	b, err := tx.Get(bucket, []byte(name))
	if errors.Is(err, storage.ErrNotFound) {
		return State{}, nil
	}
	if err != nil {
		return State{}, err
	}
	var s State
	if err := json.Unmarshal(b, &s); err != nil {
		return State{}, errors.Join(ErrCorrupt, err)
	}
	return s, nil
}

func save(tx storage.Tx, name string, s State) error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return tx.Put(bucket, []byte(name), b)
}
