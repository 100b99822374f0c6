package parcel

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/storage"
)

// OwnedParcel is a parcel as its owner sees it (GET /v1/me/parcels): the land, its
// certificate and token, the owner's wallet and binding, and the open transfer the
// owner may have to sign. It carries no name and no account: a holder token proves a
// wallet, and the parcel's registry account and clients are none of its business.
type OwnedParcel struct {
	ID              string               `json:"id"`
	Env             veriland.Environment `json:"environment"`
	Status          Status               `json:"status"`
	Owner           OwnerRef             `json:"owner"`
	GPS             [2]float64           `json:"gps"`
	AreaM2          float64              `json:"area_m2"`
	City            string               `json:"city"`
	Boundary        json.RawMessage      `json:"boundary,omitempty"`
	Notary          string               `json:"notary"`
	Version         uint64               `json:"version"`
	CertificateHash string               `json:"certificateHash,omitempty"`
	Token           *Token               `json:"token,omitempty"`
	CertifiedAt     *time.Time           `json:"certifiedAt,omitempty"`
	// OpenTransfer is the parcel's open transfer, if any: PENDING_OWNER when the owner
	// has to answer before Deadline.
	OpenTransfer *OpenTransferRef `json:"openTransfer,omitempty"`
}

// OwnerRef is the owner of an OwnedParcel: the bound wallet, its binding and identity,
// and the id_doc's last 4 characters.
type OwnerRef struct {
	WalletAddress string       `json:"walletAddress"`
	Binding       OwnerBinding `json:"binding"`
	DID           string       `json:"did,omitempty"`
	IDDocLast4    string       `json:"idDocLast4"`
}

// OpenTransferRef names an open transfer of an OwnedParcel.
type OpenTransferRef struct {
	ID       string         `json:"id"`
	Status   TransferStatus `json:"status"`
	Notary   string         `json:"notary"`
	Deadline *time.Time     `json:"deadline,omitempty"`
}

// MyParcels lists the parcels of env whose current owner's bound wallet is p's wallet
// (GET /v1/me/parcels), newest first, across the registry's accounts: a holder signed
// in with its wallet (SIWE). Another role, or a token without a wallet, gets
// forbidden. limit is clamped to 1..MaxListLimit (0: DefaultListLimit).
func (s *Service) MyParcels(ctx context.Context, p veriland.Principal, cursor string, limit int) ([]*OwnedParcel, string, error) {
	if err := s.check(p.Env); err != nil {
		return nil, "", err
	}
	if p.Role != veriland.RoleHolder || p.Wallet == "" {
		return nil, "", forbidden("GET /v1/me/parcels is for a holder signed in with a wallet (POST /auth/siwe)")
	}
	if limit <= 0 {
		limit = DefaultListLimit
	}
	limit = min(limit, MaxListLimit)
	wallet := strings.ToLower(p.Wallet)
	prefix := walletPrefix(wallet)
	after, err := decodeCursor(cursor, prefix)
	if err != nil {
		return nil, "", err
	}
	out := []*OwnedParcel{}
	var next []byte
	err = s.Store.View(ctx, func(tx storage.Tx) error {
		out, next = out[:0], nil
		r := repo(tx, p.Env)
		idsOut, nx, err := r.list(prefix, after, limit)
		if err != nil {
			return err
		}
		next = nx
		for _, id := range idsOut {
			rec, err := r.parcel(id)
			if err != nil {
				return err
			}
			if !rec.Owner.bound() || rec.Owner.WalletAddress != wallet {
				continue // a stale key: the parcel changed owner in this transaction's past
			}
			op, err := s.owned(r, rec)
			if err != nil {
				return err
			}
			out = append(out, op)
		}
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	return out, encodeCursor(next), nil
}

// owned is rec as its owner sees it.
func (s *Service) owned(r repository, rec *parcelRecord) (*OwnedParcel, error) {
	op := &OwnedParcel{
		ID: rec.ID, Env: rec.Env, Status: rec.Status,
		Owner: OwnerRef{WalletAddress: rec.Owner.WalletAddress, Binding: rec.Owner.Binding, DID: rec.Owner.DID, IDDocLast4: rec.Owner.IDDocLast4},
		GPS:   rec.GPS, AreaM2: rec.AreaM2, City: rec.City, Boundary: rec.Boundary, Notary: rec.Notary,
		Version: rec.Version, CertificateHash: rec.CertificateHash, CertifiedAt: rec.CertifiedAt,
	}
	if rec.TokenID != "" {
		t, err := r.token(rec.TokenID)
		if err != nil {
			return nil, err
		}
		op.Token = t
	}
	if rec.OpenTransferID != "" {
		tr, err := r.transfer(rec.OpenTransferID)
		if err != nil {
			return nil, err
		}
		op.OpenTransfer = &OpenTransferRef{ID: tr.ID, Status: tr.Status, Notary: tr.Notary}
		if tr.OwnerConsent != nil {
			op.OpenTransfer.Deadline = tr.OwnerConsent.Deadline
		}
	}
	return op, nil
}
