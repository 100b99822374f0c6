package liveness

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/liveness/deviceattest"
	"github.com/veriland/veriland/storage"
)

// Bucket names, each namespaced per environment with storage.Bucket.
const (
	bucketDevices  = "liveness_devices"  // lower-case 0x address → deviceRecord JSON
	bucketSessions = "liveness_sessions" // session id → sessionRecord JSON
)

// repository is the typed view of one environment's liveness buckets inside one
// transaction.
type repository struct {
	tx  storage.Tx
	env veriland.Environment
}

func repo(tx storage.Tx, env veriland.Environment) repository { return repository{tx: tx, env: env} }

func (r repository) bucket(name string) string { return storage.Bucket(r.env, name) }

// deviceRecord is the stored form of a Device: the holder is kept, unlike in the
// JSON answer.
type deviceRecord struct {
	ID              string             `json:"id"`
	Holder          string             `json:"holder"`
	PublicKey       string             `json:"publicKey"`
	Platform        Platform           `json:"platform"`
	AttestationType deviceattest.Type  `json:"attestationType"`
	Trust           deviceattest.Trust `json:"trust"`
	EnrolledAt      time.Time          `json:"enrolledAt"`
}

// deviceByKey returns the device enrolled with the lower-case address key, or nil.
func (r repository) deviceByKey(key string) (*Device, error) {
	b, err := r.tx.Get(r.bucket(bucketDevices), []byte(key))
	if errors.Is(err, storage.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("liveness: reading device: %w", err)
	}
	var rec deviceRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, fmt.Errorf("liveness: decoding device: %w", err)
	}
	return &Device{
		ID: rec.ID, PublicKey: rec.PublicKey, Platform: rec.Platform,
		AttestationType: rec.AttestationType, Trust: rec.Trust, EnrolledAt: rec.EnrolledAt,
		Holder: rec.Holder, Env: r.env,
	}, nil
}

func (r repository) putDevice(d *Device) error {
	b, err := json.Marshal(deviceRecord{
		ID: d.ID, Holder: d.Holder, PublicKey: d.PublicKey, Platform: d.Platform,
		AttestationType: d.AttestationType, Trust: d.Trust, EnrolledAt: d.EnrolledAt,
	})
	if err != nil {
		return fmt.Errorf("liveness: encoding device: %w", err)
	}
	return r.tx.Put(r.bucket(bucketDevices), []byte(d.PublicKey), b)
}

// sessionRecord is the stored form of a Session.
type sessionRecord struct {
	ID        string    `json:"id"`
	Holder    string    `json:"holder"`
	Nonce     string    `json:"nonce"`
	Level     Level     `json:"level"`
	Script    []Step    `json:"script"`
	CreatedAt time.Time `json:"createdAt"`
	ExpiresAt time.Time `json:"expiresAt"`
	// UsedAt is set by the first verification, pass or fail.
	UsedAt  *time.Time `json:"usedAt,omitempty"`
	Outcome string     `json:"outcome,omitempty"` // VERIFIED or REJECTED
}

// session returns the session id, or nil when there is none.
func (r repository) session(id string) (*sessionRecord, error) {
	b, err := r.tx.Get(r.bucket(bucketSessions), []byte(id))
	if errors.Is(err, storage.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("liveness: reading session: %w", err)
	}
	var rec sessionRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, fmt.Errorf("liveness: decoding session: %w", err)
	}
	return &rec, nil
}

func (r repository) putSession(rec *sessionRecord) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("liveness: encoding session: %w", err)
	}
	return r.tx.Put(r.bucket(bucketSessions), []byte(rec.ID), b)
}
