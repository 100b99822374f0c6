package parcel

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/paulmach/orb"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/fieldcrypt"
)

// Bucket names, each namespaced per environment with storage.Bucket.
const (
	bucketParcels    = "parcels"                // parcel id → parcelRecord JSON
	bucketIndex      = "parcel_index"           // "a\x00"acct"\x00"|"n\x00"notary"\x00"|"e\x00"|"w\x00"wallet"\x00" ‖ createdAt ns ‖ id → empty
	bucketDeadlines  = "parcel_owner_deadlines" // deadline unix s ‖ transfer id → empty, for PENDING_OWNER transfers
	bucketVersions   = "parcel_versions"        // parcel id ‖ 0x00 ‖ uint64 version → versionRecord JSON
	bucketHashes     = "parcel_hashes"          // 32-byte certificate hash → parcel id ‖ 0x00 ‖ uint64 version
	bucketTokens     = "parcel_tokens"          // token id (decimal) → Token JSON
	bucketStatuses   = "parcel_statuses"        // uint64 unix s ‖ 32-byte hash → StatusEntry JSON
	bucketTransfers  = "parcel_transfers"       // transfer id → transferRecord JSON
	bucketTrIndex    = "parcel_transfer_index"  // parcel id ‖ 0x00 ‖ createdAt ns ‖ transfer id → empty
	bucketBoundaries = "parcel_boundaries"      // parcel id → boundary GeoJSON of a CERTIFIED parcel
	bucketLegacyJobs = "parcel_anchor_jobs"     // before land titles: due ns ‖ token id → job; cleared by StartTitles
	bucketMeta       = "parcel_meta"            // "titles_contract" → the contract StartTitles last synced with
)

// parcelRecord is a parcel as stored: the owner's name only sealed.
type parcelRecord struct {
	Parcel
	OwnerName fieldcrypt.Sealed `json:"ownerName"`
	TokenID   string            `json:"tokenId,omitempty"`
	// TransferNotary is the notary of the open transfer, who may read the parcel.
	TransferNotary string `json:"transferNotary,omitempty"`
	// CallbackURL receives the parcel's events; "" for none. Not in the public view.
	CallbackURL string `json:"callbackUrl,omitempty"`
}

// versionRecord is a certificate version as stored.
type versionRecord struct {
	CertificateVersion
	OwnerName fieldcrypt.Sealed `json:"ownerName"`
	IDDocHash string            `json:"idDocHash"`
	GPS       [2]float64        `json:"gps"`
	AreaM2    float64           `json:"area_m2"`
	City      string            `json:"city"`
	ChainID   uint64            `json:"chainId"`
	Signature hexutil.Bytes     `json:"signature"`
	// OwnerDID is the DID of an IDENTITY_VERIFIED owner wallet (in the certificate).
	OwnerDID string `json:"ownerDid,omitempty"`
}

// transferRecord is a transfer as stored: the new owner's name only sealed. Its
// OwnerConsent is stored without URL and TypedData, which views rebuild.
type transferRecord struct {
	Transfer
	NewOwnerName fieldcrypt.Sealed `json:"newOwnerName"`
	// Nonce is the 32 random bytes of the owner's TransferConsent.
	Nonce hexutil.Bytes `json:"nonce,omitempty"`
	// RequesterName is the requester's display name (its API key's name), shown to
	// the owner.
	RequesterName string `json:"requesterName,omitempty"`
}

// repository is the typed view of one environment's parcel buckets inside one
// transaction.
type repository struct {
	tx  storage.Tx
	env veriland.Environment
}

func repo(tx storage.Tx, env veriland.Environment) repository { return repository{tx: tx, env: env} }

func (r repository) bucket(name string) string { return storage.Bucket(r.env, name) }

func (r repository) getJSON(bucket string, key []byte, v any) error {
	b, err := r.tx.Get(r.bucket(bucket), key)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("parcel: decoding %s/%x: %w", bucket, key, err)
	}
	return nil
}

func (r repository) putJSON(bucket string, key []byte, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("parcel: encoding %s: %w", bucket, err)
	}
	return r.tx.Put(r.bucket(bucket), key, b)
}

func wrapGet(err error, kind, id string) error {
	if errors.Is(err, storage.ErrNotFound) {
		return notFound(kind, id)
	}
	return err
}

func (r repository) parcel(id string) (*parcelRecord, error) {
	if !ids.Valid(id, IDPrefix) {
		return nil, notFound("parcel", id)
	}
	var rec parcelRecord
	if err := r.getJSON(bucketParcels, []byte(id), &rec); err != nil {
		return nil, wrapGet(err, "parcel", id)
	}
	if rec.Owner.Binding == "" { // stored before owners had wallets
		rec.Owner.Binding = BindingNone
	}
	return &rec, nil
}

func (r repository) putParcel(rec *parcelRecord) error {
	rec.Owner.FullName = ""
	rec.Token = nil
	return r.putJSON(bucketParcels, []byte(rec.ID), rec)
}

func indexKeys(rec *parcelRecord) [][]byte {
	suffix := binary.BigEndian.AppendUint64(nil, uint64(max(rec.CreatedAt.UnixNano(), 0)))
	suffix = append(suffix, rec.ID...)
	keys := [][]byte{
		append([]byte("a\x00"+rec.Account+"\x00"), suffix...),
		append([]byte("n\x00"+rec.Notary+"\x00"), suffix...),
		append([]byte("e\x00"), suffix...),
	}
	if rec.Owner.bound() {
		keys = append(keys, append(walletPrefix(rec.Owner.WalletAddress), suffix...))
	}
	return keys
}

// unindexWallet removes rec's bound-wallet index key, before its owner changes.
func (r repository) unindexWallet(rec *parcelRecord) error {
	suffix := binary.BigEndian.AppendUint64(nil, uint64(max(rec.CreatedAt.UnixNano(), 0)))
	return r.tx.Delete(r.bucket(bucketIndex), append(walletPrefix(rec.Owner.WalletAddress), append(suffix, rec.ID...)...))
}

// walletPrefix is the index prefix of the parcels whose bound owner wallet is wallet
// (lower case).
func walletPrefix(wallet string) []byte { return []byte("w\x00" + wallet + "\x00") }

func (r repository) index(rec *parcelRecord) error {
	for _, k := range indexKeys(rec) {
		if err := r.tx.Put(r.bucket(bucketIndex), k, nil); err != nil {
			return err
		}
	}
	return nil
}

func (r repository) unindex(rec *parcelRecord) error {
	for _, k := range indexKeys(rec) {
		if err := r.tx.Delete(r.bucket(bucketIndex), k); err != nil {
			return err
		}
	}
	return nil
}

// list returns up to limit parcel ids under prefix, newest first, after cursor.
func (r repository) list(prefix []byte, cursor []byte, limit int) ([]string, []byte, error) {
	rg := storage.Range{Prefix: prefix, Reverse: true}
	if cursor != nil {
		rg.End = cursor
	}
	var out []string
	var last, next []byte
	err := r.tx.Scan(r.bucket(bucketIndex), rg, func(k, _ []byte) error {
		if len(out) == limit {
			next = last
			return storage.ErrStop
		}
		if len(k) < len(prefix)+8 {
			return nil
		}
		out = append(out, string(k[len(prefix)+8:]))
		last = append([]byte{}, k...)
		return nil
	})
	return out, next, err
}

func versionKey(parcelID string, v uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte(parcelID+"\x00"), v)
}

func (r repository) version(parcelID string, v uint64) (*versionRecord, error) {
	var vr versionRecord
	if err := r.getJSON(bucketVersions, versionKey(parcelID, v), &vr); err != nil {
		return nil, wrapGet(err, "certificate version of parcel", parcelID)
	}
	return &vr, nil
}

func (r repository) putVersion(vr *versionRecord) error {
	return r.putJSON(bucketVersions, versionKey(vr.ParcelID, vr.Version), vr)
}

func (r repository) versions(parcelID string) ([]*versionRecord, error) {
	var out []*versionRecord
	err := r.tx.Scan(r.bucket(bucketVersions), storage.Range{Prefix: []byte(parcelID + "\x00")}, func(_, v []byte) error {
		var vr versionRecord
		if err := json.Unmarshal(v, &vr); err != nil {
			return fmt.Errorf("parcel: decoding a version of %s: %w", parcelID, err)
		}
		out = append(out, &vr)
		return nil
	})
	return out, err
}

func (r repository) putHash(h common.Hash, parcelID string, v uint64) error {
	return r.tx.Put(r.bucket(bucketHashes), h[:], versionKey(parcelID, v))
}

// byHash returns the version a certificate hash names.
func (r repository) byHash(h common.Hash) (*versionRecord, error) {
	b, err := r.tx.Get(r.bucket(bucketHashes), h[:])
	if err != nil {
		return nil, wrapGet(err, "certificate with hash", HashString(h))
	}
	if len(b) < 9 {
		return nil, fmt.Errorf("parcel: corrupt hash index entry %x", h)
	}
	return r.version(string(b[:len(b)-9]), binary.BigEndian.Uint64(b[len(b)-8:]))
}

func (r repository) token(id string) (*Token, error) {
	var t Token
	if err := r.getJSON(bucketTokens, []byte(id), &t); err != nil {
		return nil, wrapGet(err, "token", id)
	}
	upgradeToken(&t)
	return &t, nil
}

func (r repository) putToken(t *Token) error { return r.putJSON(bucketTokens, []byte(t.TokenID), t) }

func (r repository) putStatus(e StatusEntry, h common.Hash) error {
	k := binary.BigEndian.AppendUint64(nil, uint64(max(e.At.Unix(), 0)))
	return r.putJSON(bucketStatuses, append(k, h[:]...), e)
}

func (r repository) statuses(since time.Time) ([]StatusEntry, error) {
	rg := storage.Range{}
	if !since.IsZero() {
		rg.Start = binary.BigEndian.AppendUint64(nil, uint64(max(since.Unix(), 0)))
	}
	out := []StatusEntry{}
	err := r.tx.Scan(r.bucket(bucketStatuses), rg, func(_, v []byte) error {
		var e StatusEntry
		if err := json.Unmarshal(v, &e); err != nil {
			return fmt.Errorf("parcel: decoding a status entry: %w", err)
		}
		out = append(out, e)
		return nil
	})
	return out, err
}

func (r repository) transfer(id string) (*transferRecord, error) {
	if !ids.Valid(id, TransferIDPrefix) {
		return nil, notFound("transfer", id)
	}
	var tr transferRecord
	if err := r.getJSON(bucketTransfers, []byte(id), &tr); err != nil {
		return nil, wrapGet(err, "transfer", id)
	}
	upgradeTransfer(&tr)
	return &tr, nil
}

// upgradeTransfer gives a transfer stored before owners could sign the members it
// would have today: its owner consent was the notary's word, and its new owner had no
// wallet.
func upgradeTransfer(tr *transferRecord) {
	if tr.OwnerConsent == nil {
		tr.OwnerConsent = &OwnerConsent{Method: ConsentNotaryWitnessed}
	}
	if tr.NewOwner.Binding == "" {
		tr.NewOwner.Binding = BindingNone
	}
}

// putTransfer writes tr; isNew also indexes it under its parcel. It keeps the
// owner-deadline index in step: an entry while tr is PENDING_OWNER, none after.
func (r repository) putTransfer(tr *transferRecord, isNew bool) error {
	tr.NewOwner.FullName = ""
	if oc := tr.OwnerConsent; oc != nil && oc.Deadline != nil {
		k := deadlineKey(*oc.Deadline, tr.ID)
		var err error
		if tr.Status == TransferPendingOwner {
			err = r.tx.Put(r.bucket(bucketDeadlines), k, nil)
		} else {
			err = r.tx.Delete(r.bucket(bucketDeadlines), k)
		}
		if err != nil {
			return err
		}
	}
	if isNew {
		k := binary.BigEndian.AppendUint64([]byte(tr.ParcelID+"\x00"), uint64(max(tr.CreatedAt.UnixNano(), 0)))
		if err := r.tx.Put(r.bucket(bucketTrIndex), append(k, tr.ID...), nil); err != nil {
			return err
		}
	}
	return r.putJSON(bucketTransfers, []byte(tr.ID), tr)
}

// transfers returns the parcel's transfers newest first (creation time, then id, both
// descending): the index keys sort by time, and the scan runs backwards.
func (r repository) transfers(parcelID string) ([]*transferRecord, error) {
	prefix := []byte(parcelID + "\x00")
	var idsOut []string
	err := r.tx.Scan(r.bucket(bucketTrIndex), storage.Range{Prefix: prefix, Reverse: true}, func(k, _ []byte) error {
		if len(k) >= len(prefix)+8 {
			idsOut = append(idsOut, string(k[len(prefix)+8:]))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]*transferRecord, 0, len(idsOut))
	for _, id := range idsOut {
		tr, err := r.transfer(id)
		if err != nil {
			return nil, err
		}
		out = append(out, tr)
	}
	return out, nil
}

// boundaryEntry is how a CERTIFIED parcel's boundary is indexed: its bounding box (four
// big-endian float64 bits: min lon, min lat, max lon, max lat) before the GeoJSON, so
// that an overlap check parses only the boundaries whose boxes meet the new one's
// (parsing a 1,000-vertex boundary costs milliseconds; comparing boxes, nanoseconds).
func boundaryEntry(b *Boundary, geojson []byte) []byte {
	box := b.Bound()
	out := make([]byte, boundaryBoxLen, boundaryBoxLen+len(geojson))
	for i, f := range []float64{box.Min[0], box.Min[1], box.Max[0], box.Max[1]} {
		binary.BigEndian.PutUint64(out[8*i:], math.Float64bits(f))
	}
	return append(out, geojson...)
}

const boundaryBoxLen = 32

// splitBoundaryEntry reads an entry boundaryEntry wrote; ok is false for anything else
// (the entry is then taken as plain GeoJSON).
func splitBoundaryEntry(v []byte) (box orb.Bound, geojson []byte, ok bool) {
	if len(v) <= boundaryBoxLen || v[0] == '{' {
		return box, v, false
	}
	var f [4]float64
	for i := range f {
		f[i] = math.Float64frombits(binary.BigEndian.Uint64(v[8*i:]))
	}
	return orb.Bound{Min: orb.Point{f[0], f[1]}, Max: orb.Point{f[2], f[3]}}, v[boundaryBoxLen:], true
}

// boundaries calls fn for each CERTIFIED parcel's stored boundary entry.
func (r repository) boundaries(fn func(parcelID string, raw []byte) error) error {
	return r.tx.Scan(r.bucket(bucketBoundaries), storage.Range{}, func(k, v []byte) error {
		return fn(string(k), v)
	})
}

// deadlineKey is the owner-deadline index key of transfer id due at at.
func deadlineKey(at time.Time, id string) []byte {
	return append(binary.BigEndian.AppendUint64(nil, uint64(max(at.Unix(), 0))), id...)
}

// dueTransfers returns up to limit ids of PENDING_OWNER transfers whose deadline is at
// or before now, with their index keys.
func (r repository) dueTransfers(now time.Time, limit int) (ids, keys []string, err error) {
	end := binary.BigEndian.AppendUint64(nil, uint64(max(now.Unix(), 0))+1)
	err = r.tx.Scan(r.bucket(bucketDeadlines), storage.Range{End: end}, func(k, _ []byte) error {
		if len(ids) == limit {
			return storage.ErrStop
		}
		if len(k) > 8 {
			ids, keys = append(ids, string(k[8:])), append(keys, string(k))
		}
		return nil
	})
	return ids, keys, err
}

func encodeCursor(k []byte) string {
	if k == nil {
		return ""
	}
	return base64.RawURLEncoding.EncodeToString(k)
}

func decodeCursor(c string, prefix []byte) ([]byte, error) {
	if c == "" {
		return nil, nil
	}
	k, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || len(k) < len(prefix) || string(k[:len(prefix)]) != string(prefix) {
		return nil, veriland.Errorf(veriland.CodeValidationFailed, "cursor is not a cursor of this list").WithMeta("parameter", "cursor")
	}
	return k, nil
}
