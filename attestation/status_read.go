package attestation

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// StatusIn returns the public status of attestation id from the first of envs that
// holds it, and that environment; not_found when none does. It answers what Status
// answers for each environment in turn, in one read transaction, and decodes only the
// members the status shows (plus the claims, which must still be valid): the public
// status route is the hottest read of a deployment and needs neither the typed data
// nor the claims hash that Get rebuilds.
func (s *Service) StatusIn(ctx context.Context, envs []veriland.Environment, id string) (*StatusView, veriland.Environment, error) {
	for _, env := range envs {
		if err := checkEnv(env); err != nil {
			return nil, "", err
		}
	}
	var (
		view  *StatusView
		found veriland.Environment
	)
	err := s.Store.View(ctx, func(tx storage.Tx) error {
		if id == "" || len(id) > maxTextLen {
			return notFound()
		}
		key := []byte(id)
		for _, env := range envs {
			b, err := tx.Get(storage.Bucket(env, bucketAttestations), key)
			if errors.Is(err, storage.ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			if view, err = decodeStatus(b); err != nil {
				return err
			}
			found = env
			return nil
		}
		return notFound()
	})
	if err != nil {
		return nil, "", err
	}
	return view, found, nil
}

// statusRecord is the part of a stored record that a status read decodes.
type statusRecord struct {
	Attestation *struct {
		ID        string          `json:"id"`
		Status    Status          `json:"status"`
		RevokedAt *time.Time      `json:"revokedAt"`
		Claims    json.RawMessage `json:"claims"`
	} `json:"attestation"`
}

// decodeStatus reads the status view of a stored record. A record that is not JSON,
// holds no attestation or whose claims have no canonical form is corrupt, with the
// errors loadRecord gives; the claims check costs no hash. The plain records that
// saveRecord writes are read by scanStatus in one pass; anything else by
// encoding/json, as before.
func decodeStatus(b []byte) (*StatusView, error) {
	f, ok := scanStatus(b)
	if !ok || !f.hasAtt {
		var r statusRecord
		if err := json.Unmarshal(b, &r); err != nil || r.Attestation == nil {
			return nil, veriland.Errorf(veriland.CodeInternal, "corrupt attestation record").WithCause(err)
		}
		a := r.Attestation
		f = statusFields{id: a.ID, status: string(a.Status), revokedAt: a.RevokedAt, claims: a.Claims, hasAtt: true}
	}
	if !isCanonical(f.claims) {
		if _, err := Canonical(f.claims); err != nil {
			return nil, veriland.Errorf(veriland.CodeInternal, "corrupt attestation claims").WithCause(err)
		}
	}
	return &StatusView{ID: f.id, Status: Status(f.status), RevokedAt: f.revokedAt}, nil
}
