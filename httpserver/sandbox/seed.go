package sandbox

import (
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/consent"
	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/storage"
)

// SeedSubject is the sub of the seed's records: the verifier of the seeded requests and
// the creator of the seeded parcels.
const SeedSubject = "sandbox-seed"

// Sandbox notaries (SPEC S9, S10): NOT-SBX-1 certifies and approves at once, NOT-SBX-2
// rejects at once, NOT-SBX-3 never answers.
const (
	NotaryCertifies = "NOT-SBX-1"
	NotaryRejects   = "NOT-SBX-2"
	NotarySilent    = "NOT-SBX-3"
)

// seedLease bounds how long one seeding may hold an account before another request may
// take it over (the seeder died half-way).
const seedLease = time.Minute

// Seeder seeds each account's sandbox once, on its first authenticated SANDBOX request,
// with records made through the domain services. It is safe for concurrent use: two
// first requests at once seed once (a claim in storage with a lease, so that replicas
// sharing one database agree), and the second waits for the first.
type Seeder struct {
	Store    storage.Store
	Parcels  *parcel.Service
	Consent  *consent.Service
	Identity *identity.Service
	// ChainID is the consent domain's chainId (the seeded approval is signed over it).
	ChainID uint64
	Now     func() time.Time
	Rand    io.Reader
	Logger  *slog.Logger

	// seeded caches the accounts known to be seeded, so that a request costs no
	// storage read once its account is.
	seeded sync.Map // account → struct{}
}

const bucket = "sandbox_accounts" // account → accountRecord JSON, in SANDBOX's namespace

// accountRecord is an account's sandbox as stored: a claim while seeding, then the
// state. Key is the seeded holder's private key, kept only here (SANDBOX's namespace).
type accountRecord struct {
	Seeding    bool      `json:"seeding,omitempty"`
	Claim      string    `json:"claim,omitempty"`
	LeaseUntil time.Time `json:"leaseUntil,omitzero"`
	State      *State    `json:"state,omitempty"`
}

func (s *Seeder) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

func (s *Seeder) rand() io.Reader {
	if s.Rand != nil {
		return s.Rand
	}
	return rand.Reader
}

func (s *Seeder) logger() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.Default()
}

// Seeded reports whether account is known to be seeded without reading storage.
func (s *Seeder) Seeded(account string) bool {
	_, ok := s.seeded.Load(account)
	return ok
}

// Ensure seeds account's sandbox unless it is seeded, and returns its state, whose
// inbound test provider's example is signed now (SeededInbound.Example). A
// concurrent first call waits for the seeding in progress (up to its lease). Errors:
// forbidden for an empty account; storage and domain errors of the seeding (the claim
// is then released, so that the next request tries again).
func (s *Seeder) Ensure(ctx context.Context, account string) (*State, error) {
	if account == "" {
		return nil, veriland.Errorf(veriland.CodeForbidden, "the sandbox belongs to an account: this token has no acct claim")
	}
	for {
		st, claim, wait, err := s.claim(ctx, account)
		switch {
		case err != nil:
			return nil, err
		case st != nil:
			// A sandbox seeded before the inbound test providers gets its own now.
			if err := s.ensureInbound(ctx, account, st); err != nil {
				return nil, err
			}
			s.seeded.Store(account, struct{}{})
			return st, signExample(st, s.now())
		case claim != "":
			st, err := s.seed(ctx, account, claim)
			if err != nil {
				s.release(context.WithoutCancel(ctx), account, claim)
				return nil, err
			}
			s.seeded.Store(account, struct{}{})
			return st, signExample(st, s.now())
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
	}
}

// State returns account's sandbox state, or nil when it is not seeded.
func (s *Seeder) State(ctx context.Context, account string) (*State, error) {
	var rec accountRecord
	err := s.Store.View(ctx, func(tx storage.Tx) error {
		return get(tx, account, &rec)
	})
	if errors.Is(err, storage.ErrNotFound) || (err == nil && rec.State == nil) {
		return nil, nil
	}
	return rec.State, err
}

func get(tx storage.Tx, account string, rec *accountRecord) error {
	b, err := tx.Get(storage.Bucket(veriland.Sandbox, bucket), []byte(account))
	if err != nil {
		return err
	}
	return json.Unmarshal(b, rec)
}

func put(tx storage.Tx, account string, rec *accountRecord) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	return tx.Put(storage.Bucket(veriland.Sandbox, bucket), []byte(account), b)
}

// claim reads account's record and, when it is absent or its seeding's lease ran
// out, claims it. It returns the state when seeded, the claim when this caller must
// seed, or how long to wait for another seeder.
func (s *Seeder) claim(ctx context.Context, account string) (*State, string, time.Duration, error) {
	var st *State
	var claim string
	var wait time.Duration
	token := make([]byte, 16)
	if _, err := io.ReadFull(s.rand(), token); err != nil {
		return nil, "", 0, err
	}
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		st, claim, wait = nil, "", 0
		var rec accountRecord
		err := get(tx, account, &rec)
		switch {
		case err == nil && rec.State != nil:
			st = rec.State
			return nil
		case err == nil && rec.Seeding && s.now().Before(rec.LeaseUntil):
			wait = 25 * time.Millisecond
			return nil
		case err != nil && !errors.Is(err, storage.ErrNotFound):
			return err
		}
		claim = hex.EncodeToString(token)
		return put(tx, account, &accountRecord{Seeding: true, Claim: claim, LeaseUntil: s.now().Add(seedLease)})
	})
	return st, claim, wait, err
}

// release drops a failed seeding's claim.
func (s *Seeder) release(ctx context.Context, account, claim string) {
	err := s.Store.Update(ctx, func(tx storage.Tx) error {
		var rec accountRecord
		if err := get(tx, account, &rec); err != nil || rec.Claim != claim {
			return nil
		}
		return tx.Delete(storage.Bucket(veriland.Sandbox, bucket), []byte(account))
	})
	if err != nil {
		s.logger().Warn("sandbox: releasing a failed seeding", "account", account, "err", err)
	}
}

// Forget drops account's sandbox record (before a reset re-seeds it).
func (s *Seeder) Forget(ctx context.Context, account string) error {
	s.seeded.Delete(account)
	return s.Store.Update(ctx, func(tx storage.Tx) error {
		return tx.Delete(storage.Bucket(veriland.Sandbox, bucket), []byte(account))
	})
}

// seed makes the account's records through the domain services and stores the state
// under the claim.
func (s *Seeder) seed(ctx context.Context, account, claim string) (*State, error) {
	seeder := veriland.Principal{Subject: SeedSubject, Role: veriland.RoleVerifier, Env: veriland.Sandbox, Account: account}
	st := &State{Account: account, SeededAt: s.now()}
	// The holder first: its wallet owns one of the parcels and answers the requests.
	key, err := s.seedHolder(ctx, seeder, &st.Seeded)
	if err != nil {
		return nil, fmt.Errorf("sandbox: seeding the holder identity: %w", err)
	}
	if err := s.seedParcels(ctx, seeder, &st.Seeded); err != nil {
		return nil, fmt.Errorf("sandbox: seeding parcels: %w", err)
	}
	if err := s.seedConsent(ctx, seeder, key, &st.Seeded); err != nil {
		return nil, fmt.Errorf("sandbox: seeding verification requests: %w", err)
	}
	if st.Seeded.InboundWebhook, err = s.newInbound(account); err != nil {
		return nil, fmt.Errorf("sandbox: seeding the inbound test provider: %w", err)
	}
	err = s.Store.Update(ctx, func(tx storage.Tx) error {
		var rec accountRecord
		if err := get(tx, account, &rec); err != nil {
			return err
		}
		if rec.Claim != claim {
			return errors.New("sandbox: the seeding's claim was taken over")
		}
		if err := putInboundIndex(tx, account, st.Seeded.InboundWebhook); err != nil {
			return err
		}
		return put(tx, account, &accountRecord{State: st})
	})
	if err != nil {
		return nil, err
	}
	s.logger().Info("sandbox seeded", "account", account)
	return st, nil
}

// cities are the seeded parcels' cities and the GPS point ([lat, lon], WGS 84) each
// parcel is placed at: the city's centre, so that a map, the verification page and
// the PDF show the parcel where its city is.
var cities = map[string][2]float64{
	"Abuja":  {9.0765, 7.3986},
	"Kano":   {12.0022, 8.5920},
	"Lagos":  {6.5244, 3.3792},
	"Ibadan": {7.3775, 3.9470},
	"Enugu":  {6.4584, 7.5464},
}

// cityGPS is the GPS point of a city of cities, as a request body's [lat, lon].
func cityGPS(city string) []float64 {
	c, ok := cities[city]
	if !ok {
		panic("sandbox: no coordinates for the seeded city " + city)
	}
	return []float64{c[0], c[1]}
}

// seedParcels makes a certified, a rejected and a pending parcel, a certified one with
// an open transfer and, when the holder was seeded, a certified one whose owner's
// wallet is the holder's.
func (s *Seeder) seedParcels(ctx context.Context, p veriland.Principal, out *Seeded) error {
	if s.Parcels == nil {
		return nil
	}
	create := func(notary, city, wallet string) (*parcel.Parcel, error) {
		area := 1200.0
		return s.Parcels.Create(ctx, p, parcel.CreateRequest{
			Owner:  &parcel.Owner{FullName: "Sandbox Owner", IDDoc: "SBX-ID-0001", WalletAddress: wallet},
			Parcel: &parcel.ParcelInput{GPS: cityGPS(city), AreaM2: &area, City: city}, Notary: notary,
		})
	}
	steps := []struct {
		notary, city string
		into         *string
	}{
		{NotaryCertifies, "Abuja", &out.Parcels.Certified},
		{NotaryRejects, "Kano", &out.Parcels.Rejected},
		{NotarySilent, "Lagos", &out.Parcels.Pending},
		{NotaryCertifies, "Ibadan", &out.Parcels.WithOpenTransfer},
	}
	for _, st := range steps {
		prc, err := create(st.notary, st.city, "")
		if err != nil {
			return err
		}
		*st.into = prc.ID
	}
	tr, err := s.Parcels.RequestTransfer(ctx, p, out.Parcels.WithOpenTransfer, parcel.TransferRequest{
		NewOwner: &parcel.Owner{FullName: "Sandbox Buyer", IDDoc: "SBX-ID-0002"}, Notary: NotarySilent,
	})
	if err != nil {
		return err
	}
	out.Transfers.Open = tr.ID
	if out.Holder.WalletAddress == "" {
		return nil
	}
	// NOT-SBX-1 certifies at once and binds the owner's wallet: IDENTITY_VERIFIED,
	// since the wallet is the ACTIVE holder identity's.
	prc, err := create(NotaryCertifies, "Enugu", out.Holder.WalletAddress)
	if err != nil {
		return err
	}
	if prc.Status != parcel.StatusCertified || prc.Owner.Binding != parcel.BindingIdentityVerified {
		return fmt.Errorf("the wallet-owned parcel is %s with owner binding %s, not CERTIFIED and IDENTITY_VERIFIED", prc.Status, prc.Owner.Binding)
	}
	out.WalletOwnedParcel = SeededWalletParcel{ID: prc.ID, OwnerWallet: prc.Owner.WalletAddress,
		Binding: string(prc.Owner.Binding), OwnerDID: prc.Owner.DID}
	return nil
}

// seedHolder makes the holder: an ACTIVE identity with a throwaway wallet, whose key
// it returns (nil without an identity service).
func (s *Seeder) seedHolder(ctx context.Context, verifier veriland.Principal, out *Seeded) (*ecdsa.PrivateKey, error) {
	if s.Identity == nil {
		return nil, nil
	}
	key, err := ecdsa.GenerateKey(crypto.S256(), s.rand())
	if err != nil {
		return nil, err
	}
	addr := crypto.PubkeyToAddress(key.PublicKey)
	holder := SeededHolder{
		SubjectRef:    "sandbox:" + verifier.Account + ":holder",
		WalletAddress: addr.Hex(),
		PrivateKey:    hexutil.Encode(crypto.FromECDSA(key)),
	}
	issued, err := s.Identity.Issue(ctx, veriland.Sandbox, identity.IssueRequest{
		SubjectRef: holder.SubjectRef, CountryCode: "NG", WalletAddress: addr.Hex(),
		Payload: json.RawMessage(`{"scenario":"success","dateOfBirth":"1990-05-17"}`),
	})
	if err != nil {
		return nil, err
	}
	holder.DID = issued.DID
	out.Holder = holder
	return key, nil
}

// seedConsent makes two verification requests for the holder whose wallet key is key:
// one approved with the wallet's signature, one pending.
func (s *Seeder) seedConsent(ctx context.Context, verifier veriland.Principal, key *ecdsa.PrivateKey, out *Seeded) error {
	if s.Consent == nil || key == nil {
		return nil
	}
	addr := crypto.PubkeyToAddress(key.PublicKey)
	week := 7 * 24 * 3600
	ask := func() (*consent.Request, error) {
		return s.Consent.Create(ctx, veriland.Sandbox, verifier, consent.CreateRequest{
			SubjectRef: out.Holder.DID, Scope: []string{"is_adult", "nationality"}, Reason: "Sandbox: account opening",
			ExpiresInSeconds: &week, VerifierName: "Sandbox verifier",
		})
	}
	approved, err := ask()
	if err != nil {
		return err
	}
	view, err := s.Consent.Context(ctx, veriland.Sandbox, approved.ID)
	if err != nil {
		return err
	}
	disclosed := []string{"is_adult", "nationality"}
	sig, err := signDecision(view.TypedData, key, consent.StatusApproved, disclosed)
	if err != nil {
		return err
	}
	res, err := s.Consent.Decide(ctx, veriland.Sandbox, approved.ID, consent.Decision{
		HolderAddress: addr.Hex(), Decision: consent.StatusApproved, DisclosedScope: disclosed, Signature: sig,
	})
	if err != nil {
		return err
	}
	out.VerificationRequests.Approved = approved.ID
	if res.Attestation != nil {
		out.Attestations.Consent = res.Attestation.ID
	}
	pending, err := ask()
	if err != nil {
		return err
	}
	out.VerificationRequests.Pending = pending.ID
	return nil
}

// signDecision is the holder's wallet: it completes the served typed data with the
// decision and the hash of the disclosed items, and signs its EIP-712 digest.
func signDecision(td any, key *ecdsa.PrivateKey, decision consent.Status, disclosed []string) (string, error) {
	raw, err := json.Marshal(td)
	if err != nil {
		return "", err
	}
	var typed apitypes.TypedData
	if err := json.Unmarshal(raw, &typed); err != nil {
		return "", err
	}
	h := consent.DisclosedScopeHash(disclosed)
	typed.Message["decision"] = string(decision)
	typed.Message["disclosedScopeHash"] = hexutil.Encode(h[:])
	digest, _, err := apitypes.TypedDataAndHash(typed)
	if err != nil {
		return "", err
	}
	sig, err := crypto.Sign(digest, key)
	if err != nil {
		return "", err
	}
	sig[64] += 27
	return hexutil.Encode(sig), nil
}
