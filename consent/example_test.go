package consent_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/consent"
	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

// signOnly issues attestations without keeping them; a real server uses the
// attestation Service, which also stores and anchors them in the same transaction.
type signOnly struct{ *attestation.Issuer }

func (s signOnly) Issue(_ context.Context, _ storage.Tx, _ veriland.Environment, d attestation.Draft) (*attestation.Attestation, error) {
	return s.Sign(d)
}

// oneIdentity knows one identity, with the derived claims its KYC check left; a real
// server adapts identity.Service with consent.IdentityWallets.
type oneIdentity struct{ id *identity.Identity }

func (o oneIdentity) Get(_ context.Context, _ veriland.Environment, did string) (*identity.Identity, error) {
	if did != o.id.DID {
		return nil, veriland.ErrNotFound
	}
	return o.id, nil
}

func (o oneIdentity) WalletOf(ctx context.Context, env veriland.Environment, did string) (string, error) {
	id, err := o.Get(ctx, env, did)
	if err != nil {
		return "", err
	}
	return id.WalletAddress, nil
}

func Example() {
	dir, _ := os.MkdirTemp("", "consent-example")
	defer os.RemoveAll(dir)
	store, err := bolt.Open(filepath.Join(dir, "veriland.db"), bolt.Options{})
	if err != nil {
		panic(err)
	}
	defer store.Close()

	wallet, _ := crypto.GenerateKey()
	holder := crypto.PubkeyToAddress(wallet.PublicKey)
	subject := oneIdentity{&identity.Identity{
		DID: "did:veriland:7Lg3fT9cQ2xWmN4bR8kYpZ", Status: identity.StatusActive, CountryCode: "FR",
		WalletAddress: holder.Hex(), Claims: map[string]any{"is_adult": true, "nationality": "FR"},
	}}

	issuerKey, _ := crypto.GenerateKey() // from configuration in a real server
	svc := &consent.Service{
		Store:        store,
		ChainID:      1,
		Wallets:      subject, // also its Identities: an IdentityGetter
		Attestations: signOnly{&attestation.Issuer{Key: issuerKey, ChainID: 1}},
		OnEvent: func(_ context.Context, _ storage.Tx, ev consent.Event) error {
			fmt.Println("event:", ev.Type, ev.Request.Status) // audit entry + webhook outbox here
			return nil
		},
	}
	ctx := context.Background()

	// A verifier asks whether the holder is an adult and has a verified nationality
	// (PROOF_ONLY, the default: no values).
	verifier := veriland.Principal{Subject: "acme-bank", Role: veriland.RoleVerifier, Env: veriland.Sandbox}
	req, err := svc.Create(ctx, veriland.Sandbox, verifier, consent.CreateRequest{
		SubjectRef: subject.id.DID,
		Scope:      []string{"is_adult", "nationality"},
		Reason:     "Opening an account",
	})
	if err != nil {
		panic(err)
	}

	// The holder's wallet signs the consent typed data it was shown.
	view, _ := svc.Context(ctx, veriland.Sandbox, req.ID)
	fmt.Println(view.TypedData.PrimaryType, view.TypedData.Domain.Name, strings.HasPrefix(view.RequestID, "vrq_"))
	digest := consent.ConsentMessage(req, consent.StatusApproved, req.Scope).Digest(1)
	sig, _ := ethsig.Sign(wallet, digest)

	res, err := svc.Decide(ctx, veriland.Sandbox, req.ID, consent.Decision{
		HolderAddress:  holder.Hex(),
		Decision:       consent.StatusApproved,
		DisclosedScope: req.Scope,
		Signature:      hexutil.Encode(sig),
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Status, res.Attestation.Kind, res.Attestation.Scope)
	facts, book, _ := consent.ParseClaims(res.Attestation.Claims)
	fmt.Println(facts, book.RequestID == req.ID)

	// A request is decided once.
	_, err = svc.Decide(ctx, veriland.Sandbox, req.ID, consent.Decision{
		HolderAddress: holder.Hex(), Decision: consent.StatusRejected, DisclosedScope: []string{}, Signature: hexutil.Encode(sig),
	})
	fmt.Println(veriland.CodeOf(err))
	// Output:
	// event: verification.created PENDING
	// Consent Identity Consent true
	// event: verification.approved APPROVED
	// APPROVED CONSENT [is_adult nationality]
	// map[is_adult:true nationality:verified] true
	// invalid_state
}
