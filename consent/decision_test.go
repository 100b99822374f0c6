package consent_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/consent"
	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/internal/ethsig"
	"github.com/veriland/veriland/storage"
)

func TestApproveFlow(t *testing.T) {
	for _, tc := range []struct {
		name string
		v01  bool
	}{{"v 27/28", false}, {"v 0/1", true}} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			r := f.create(nil)
			view, err := f.svc.Context(f.ctx, veriland.Sandbox, r.ID)
			require.NoError(t, err)

			sig := signView(t, view, f.holder, consent.StatusApproved, r.Scope, tc.v01)
			require.Equal(t, tc.v01, hexutil.MustDecode(sig)[64] < 27)
			f.clock.Advance(10 * time.Minute)
			res, err := f.svc.Decide(f.ctx, veriland.Sandbox, r.ID, consent.Decision{
				HolderAddress:  addr(f.holder).Hex(),
				Decision:       consent.StatusApproved,
				DisclosedScope: r.Scope,
				Signature:      sig,
			})
			require.NoError(t, err)
			require.Equal(t, r.ID, res.RequestID)
			require.Equal(t, consent.StatusApproved, res.Status)

			att := res.Attestation
			require.NotNil(t, att)
			require.Equal(t, attestation.KindConsent, att.Kind)
			require.Equal(t, f.did, att.Subject)
			require.Equal(t, "verifier-acme", att.Verifier)
			require.Equal(t, r.Scope, att.Scope)
			require.NoError(t, attestation.Verify(att, attestation.VerifyOptions{
				TrustedIssuers: []common.Address{f.issuer.Address()}, ChainID: testChainID, Now: f.clock.Now(),
			}))
			require.Equal(t, f.clock.Now().Add(consent.DefaultConsentValidity), *att.ExpiresAt)
			stored, err := f.atts.svc.Get(f.ctx, veriland.Sandbox, att.ID)
			require.NoError(t, err)
			require.Equal(t, att.Signature, stored.Signature)

			// PROOF_ONLY: every scope item is answered, without its value.
			var raw map[string]any
			require.NoError(t, json.Unmarshal(att.Claims, &raw))
			require.Equal(t, []string{"consent", "is_adult", "nationality"}, sortedKeys(raw))
			facts, book, err := consent.ParseClaims(att.Claims)
			require.NoError(t, err)
			require.Equal(t, map[string]any{"is_adult": true, "nationality": "verified"}, facts)

			// The evidence is the digest the holder signed, and the bookkeeping rebuilds it.
			require.Equal(t, &consent.ConsentClaims{
				RequestID: r.ID, Mode: consent.ModeProofOnly, DisclosedScope: r.Scope,
				DisclosedScopeHash: consent.DisclosedScopeHash(r.Scope), Nonce: r.Nonce, Deadline: r.Deadline(),
			}, book)
			require.Equal(t, r.ID, consent.RequestIDOf(att))
			rebuilt := consent.ConsentTypedData{
				RequestID: book.RequestID, Subject: att.Subject, Verifier: att.Verifier, Decision: "APPROVED",
				DisclosedScopeHash: book.DisclosedScopeHash, Nonce: book.Nonce, Deadline: book.Deadline,
			}
			digest := rebuilt.Digest(att.Issuer.ChainID)
			require.Equal(t, common.Hash(digest), att.EvidenceHash)
			signer, err := ethsig.Recover(digest, hexutil.MustDecode(sig))
			require.NoError(t, err)
			require.Equal(t, addr(f.holder), signer)

			got, err := f.svc.Get(f.ctx, veriland.Sandbox, r.ID)
			require.NoError(t, err)
			require.Equal(t, consent.StatusApproved, got.Status)
			require.Equal(t, att.ID, got.AttestationID)
			require.Equal(t, r.Scope, got.DisclosedScope)
			require.Equal(t, f.clock.Now(), *got.DecidedAt)
			require.Equal(t, got, res.Request)

			require.Equal(t, 1, f.eventsOf(veriland.Sandbox, r.ID, consent.EventApproved))
			ev := f.events(veriland.Sandbox)
			require.Equal(t, recorded{Type: consent.EventApproved, RequestID: r.ID, Status: consent.StatusApproved,
				CallbackURL: r.CallbackURL, AttestationID: att.ID, Actor: f.did}, ev[len(ev)-1])

			// A second decision, of either kind, is a conflict naming the status.
			_, err = f.svc.Decide(f.ctx, veriland.Sandbox, r.ID, signed(t, r, f.holder, consent.StatusRejected, nil))
			e := requireCode(t, err, veriland.CodeInvalidState, "")
			require.Equal(t, "APPROVED", e.Meta["status"])
			require.Equal(t, 1, f.attestationCount(veriland.Sandbox))
		})
	}
}

func TestReject(t *testing.T) {
	f := newFixture(t)
	r := f.create(func(c *consent.CreateRequest) { c.Mode = consent.ModeSelective })
	res, err := f.svc.Decide(f.ctx, veriland.Sandbox, r.ID, consent.Decision{
		HolderAddress:  strings.ToLower(addr(f.holder).Hex()),
		Decision:       consent.StatusRejected,
		DisclosedScope: []string{},
		Signature:      sign(t, r, f.holder, consent.StatusRejected, nil, testChainID),
	})
	require.NoError(t, err)
	require.Equal(t, consent.DecisionResult{RequestID: r.ID, Status: consent.StatusRejected, Decision: consent.StatusRejected, Request: res.Request}, *res)
	b, err := json.Marshal(res)
	require.NoError(t, err)
	require.JSONEq(t, `{"requestId":"`+r.ID+`","status":"REJECTED","decision":"REJECTED"}`, string(b))

	got, err := f.svc.Get(f.ctx, veriland.Sandbox, r.ID)
	require.NoError(t, err)
	require.Equal(t, consent.StatusRejected, got.Status)
	require.Empty(t, got.AttestationID)
	require.Empty(t, got.DisclosedScope)
	require.Equal(t, 1, f.eventsOf(veriland.Sandbox, r.ID, consent.EventRejected))
	require.Zero(t, f.attestationCount(veriland.Sandbox))

	_, err = f.svc.Decide(f.ctx, veriland.Sandbox, r.ID, signed(t, r, f.holder, consent.StatusRejected, nil))
	e := requireCode(t, err, veriland.CodeInvalidState, "")
	require.Equal(t, "REJECTED", e.Meta["status"])
}

func TestSelectiveApproval(t *testing.T) {
	f := newFixture(t)
	r := f.create(func(c *consent.CreateRequest) {
		c.Mode = consent.ModeSelective
		c.Scope = []string{"is_adult", "nationality", "identity"}
	})
	disclosed := []string{"identity", "nationality"} // a subset, in the holder's order
	res, err := f.svc.Decide(f.ctx, veriland.Sandbox, r.ID, signed(t, r, f.holder, consent.StatusApproved, disclosed))
	require.NoError(t, err)
	require.Equal(t, disclosed, res.Attestation.Scope)
	require.Equal(t, disclosed, res.Request.DisclosedScope)
	// The values of exactly the disclosed items, nothing about is_adult.
	facts, book, err := consent.ParseClaims(res.Attestation.Claims)
	require.NoError(t, err)
	require.Equal(t, map[string]any{
		"nationality": "NG",
		"identity":    map[string]any{"status": "ACTIVE", "level": "KYC", "country": "NG"},
	}, facts)
	require.Equal(t, consent.ModeSelective, book.Mode)
	require.Equal(t, disclosed, book.DisclosedScope)
	require.NotContains(t, string(res.Attestation.Claims), "is_adult")
}

func TestProofOnlyApprovalWithEmptyDisclosure(t *testing.T) {
	f := newFixture(t)
	r := f.create(nil)
	res, err := f.svc.Decide(f.ctx, veriland.Sandbox, r.ID, signed(t, r, f.holder, consent.StatusApproved, nil))
	require.NoError(t, err)
	require.Equal(t, r.Scope, res.Attestation.Scope)
	facts, book, err := consent.ParseClaims(res.Attestation.Claims)
	require.NoError(t, err)
	require.Equal(t, map[string]any{"is_adult": true, "nationality": "verified"}, facts)
	require.Equal(t, []string{}, book.DisclosedScope)
	require.Equal(t, common.Hash(consent.DisclosedScopeHash(nil)), book.DisclosedScopeHash)
}

// fakeIdentities is an IdentityGetter that answers from a map.
type fakeIdentities map[string]*identity.Identity

func (f fakeIdentities) Get(_ context.Context, _ veriland.Environment, did string) (*identity.Identity, error) {
	if id, ok := f[did]; ok {
		return id, nil
	}
	return nil, veriland.Errorf(veriland.CodeNotFound, "no identity %s", did)
}

func TestDisclosureThroughDecide(t *testing.T) {
	f := newFixture(t)
	// The subject's stored facts, as KYC and a chip binding would leave them.
	svc := *f.svc
	svc.Identities = fakeIdentities{f.did: {DID: f.did, Status: identity.StatusActive, CountryCode: "FRA", Claims: map[string]any{
		"is_adult": true, "age_over_16": true, "age_over_18": true, "age_over_21": false,
		"nationality": "FRA", "document_country": "FRA", "document_type": "P", "chip_bound": true,
	}}}
	liveID := ""
	require.NoError(t, f.store.Update(f.ctx, func(tx storage.Tx) error {
		for _, level := range []string{"L1", "L3", "L2"} { // L3 is the best, though not the newest
			f.clock.Advance(time.Minute)
			att, err := f.atts.Issue(f.ctx, tx, veriland.Sandbox, attestation.Draft{
				Kind: attestation.KindLiveness, Subject: f.did, Claims: map[string]any{"level": level}, ValidFor: 365 * 24 * time.Hour})
			if err != nil {
				return err
			}
			if level == "L3" {
				liveID = att.ID
			}
		}
		return nil
	}))
	liveIssued := f.clock.Now().Add(-time.Minute).UTC().Format(time.RFC3339)

	tests := []struct {
		name      string
		mode      consent.Mode
		scope     []string
		disclosed []string
		want      map[string]any // nil: refused
		pointers  []string
		reasons   []string
	}{
		{name: "PROOF_ONLY every computed item", mode: consent.ModeProofOnly,
			scope: []string{"identity", "liveness", "chip_bound"}, disclosed: []string{},
			want: map[string]any{"identity": "verified", "liveness": "verified", "chip_bound": true}},
		{name: "PROOF_ONLY stored items", mode: consent.ModeProofOnly,
			scope:     []string{"is_adult", "age_over_18", "nationality", "document_country", "document_type"},
			disclosed: []string{"is_adult", "age_over_18", "nationality", "document_country", "document_type"},
			want: map[string]any{"is_adult": true, "age_over_18": true, "nationality": "verified",
				"document_country": "verified", "document_type": "verified"}},
		{name: "PROOF_ONLY false predicate", mode: consent.ModeProofOnly,
			scope: []string{"is_adult", "age_over_21"}, disclosed: []string{"is_adult", "age_over_21"},
			pointers: []string{"/disclosedScope/1"}, reasons: []string{consent.ReasonDoesNotHold}},
		{name: "PROOF_ONLY missing items, empty disclosure", mode: consent.ModeProofOnly,
			scope: []string{"country_of_residence", "is_adult", "kyc_level"}, disclosed: []string{},
			pointers: []string{"", ""}, reasons: []string{consent.ReasonMissing, consent.ReasonMissing}},
		{name: "SELECTIVE values", mode: consent.ModeSelective,
			scope:     []string{"identity", "liveness", "nationality", "age_over_21", "document_type"},
			disclosed: []string{"liveness", "identity", "age_over_21", "nationality"},
			want: map[string]any{
				"identity":    map[string]any{"status": "ACTIVE", "level": "CHIP", "country": "FRA"},
				"liveness":    map[string]any{"level": "L3", "attestationId": liveID, "issuedAt": liveIssued},
				"age_over_21": false, "nationality": "FRA",
			}},
		{name: "SELECTIVE missing item", mode: consent.ModeSelective,
			scope: []string{"nationality", "kyc_level"}, disclosed: []string{"nationality", "kyc_level"},
			pointers: []string{"/disclosedScope/1"}, reasons: []string{consent.ReasonMissing}},
		{name: "SELECTIVE undisclosed missing item is no matter", mode: consent.ModeSelective,
			scope: []string{"nationality", "kyc_level"}, disclosed: []string{"nationality"},
			want: map[string]any{"nationality": "FRA"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := svc.Create(f.ctx, veriland.Sandbox, f.verifier, consent.CreateRequest{
				SubjectRef: f.did, Scope: tc.scope, Mode: tc.mode, Reason: "test"})
			require.NoError(t, err)
			res, err := svc.Decide(f.ctx, veriland.Sandbox, r.ID, signed(t, r, f.holder, consent.StatusApproved, tc.disclosed))
			if tc.want == nil {
				require.Nil(t, res)
				requireCode(t, err, veriland.CodeClaimUnavailable, "-")
				require.Equal(t, tc.pointers, pointers(err))
				var list veriland.Errors
				if !errors.As(err, &list) {
					var one *veriland.Error
					require.True(t, errors.As(err, &one))
					list = veriland.Errors{one}
				}
				for i, e := range list {
					require.Equal(t, tc.reasons[i], e.Meta["reason"])
					require.Contains(t, tc.scope, e.Meta["item"])
				}
				got, err := svc.Get(f.ctx, veriland.Sandbox, r.ID)
				require.NoError(t, err)
				require.Equal(t, consent.StatusPending, got.Status, "a refused approval changes nothing")
				return
			}
			require.NoError(t, err)
			facts, _, err := consent.ParseClaims(res.Attestation.Claims)
			require.NoError(t, err)
			require.Equal(t, tc.want, facts)
		})
	}
}

func TestDecideRefusals(t *testing.T) {
	f := newFixture(t)
	stranger, err := crypto.GenerateKey()
	require.NoError(t, err)
	otherKey, _ := f.newIdentity(veriland.Sandbox)

	full := f.create(nil)
	selective := f.create(func(c *consent.CreateRequest) { c.Mode = consent.ModeSelective })
	good := func(r *consent.Request) consent.Decision {
		return f.signedServed(t, r, f.holder, consent.StatusApproved, r.Scope)
	}
	tests := []struct {
		name    string
		req     *consent.Request
		mut     func(d *consent.Decision, r *consent.Request)
		code    veriland.Code
		pointer string
		cause   error
		message string
	}{
		{name: "signed by another wallet", req: full, mut: func(d *consent.Decision, r *consent.Request) {
			d.Signature = f.signServed(t, r, stranger, consent.StatusApproved, r.Scope, 0)
		}, code: veriland.CodeInvalidSignature, pointer: "/holderSignature",
			message: "recovered " + addr(stranger).Hex() + " but holderAddress is " + addr(f.holder).Hex()},
		{name: "signer is not the subject's wallet", req: full, mut: func(d *consent.Decision, r *consent.Request) {
			d.HolderAddress = addr(stranger).Hex()
			d.Signature = f.signServed(t, r, stranger, consent.StatusApproved, r.Scope, 0)
		}, code: veriland.CodeInvalidSignature, pointer: "/holderAddress"},
		{name: "another identity's wallet", req: full, mut: func(d *consent.Decision, r *consent.Request) {
			d.HolderAddress = addr(otherKey).Hex()
			d.Signature = f.signServed(t, r, otherKey, consent.StatusApproved, r.Scope, 0)
		}, code: veriland.CodeInvalidSignature, pointer: "/holderAddress"},
		{name: "high-s twin", req: full, mut: func(d *consent.Decision, r *consent.Request) {
			d.Signature = highS(t, d.Signature)
		}, code: veriland.CodeInvalidSignature, pointer: "/holderSignature", cause: ethsig.ErrHighS},
		{name: "wrong chain id", req: full, mut: func(d *consent.Decision, r *consent.Request) {
			d.Signature = f.signServed(t, r, f.holder, consent.StatusApproved, r.Scope, 1)
		}, code: veriland.CodeInvalidSignature, pointer: "/holderSignature"},
		{name: "signed REJECTED, sent APPROVED", req: full, mut: func(d *consent.Decision, r *consent.Request) {
			d.Signature = f.signServed(t, r, f.holder, consent.StatusRejected, r.Scope, 0)
		}, code: veriland.CodeInvalidSignature, pointer: "/holderSignature"},
		{name: "signed another disclosure", req: full, mut: func(d *consent.Decision, r *consent.Request) {
			d.Signature = f.signServed(t, r, f.holder, consent.StatusApproved, nil, 0)
		}, code: veriland.CodeInvalidSignature, pointer: "/holderSignature"},
		{name: "v 29", req: full, mut: func(d *consent.Decision, r *consent.Request) {
			b := hexutil.MustDecode(d.Signature)
			b[64] = 29
			d.Signature = hexutil.Encode(b)
		}, code: veriland.CodeInvalidSignature, pointer: "/holderSignature", cause: ethsig.ErrBadV},
		{name: "64 bytes", req: full, mut: func(d *consent.Decision, r *consent.Request) {
			d.Signature = d.Signature[:130]
		}, code: veriland.CodeInvalidSignature, pointer: "/holderSignature", cause: ethsig.ErrSignatureLength},
		{name: "not hex", req: full, mut: func(d *consent.Decision, r *consent.Request) {
			d.Signature = "0xzz"
		}, code: veriland.CodeValidationFailed, pointer: "/holderSignature"},
		{name: "no 0x", req: full, mut: func(d *consent.Decision, r *consent.Request) {
			d.Signature = d.Signature[2:]
		}, code: veriland.CodeValidationFailed, pointer: "/holderSignature"},
		{name: "bad holder address", req: full, mut: func(d *consent.Decision, r *consent.Request) {
			d.HolderAddress = "0x1234"
		}, code: veriland.CodeValidationFailed, pointer: "/holderAddress"},
		{name: "bad checksum", req: full, mut: func(d *consent.Decision, r *consent.Request) {
			d.HolderAddress = badChecksum(addr(f.holder))
		}, code: veriland.CodeValidationFailed, pointer: "/holderAddress"},
		{name: "bad decision", req: full, mut: func(d *consent.Decision, r *consent.Request) {
			d.Decision = "MAYBE"
		}, code: veriland.CodeValidationFailed, pointer: "/decision"},
		{name: "disclosedScope not in scope", req: full, mut: func(d *consent.Decision, r *consent.Request) {
			d.DisclosedScope = []string{"is_adult", "full_name"}
			d.Signature = f.signServed(t, r, f.holder, consent.StatusApproved, d.DisclosedScope, 0)
		}, code: veriland.CodeValidationFailed, pointer: "/disclosedScope/1"},
		{name: "repeated disclosed item", req: full, mut: func(d *consent.Decision, r *consent.Request) {
			d.DisclosedScope = []string{"is_adult", "is_adult"}
		}, code: veriland.CodeValidationFailed, pointer: "/disclosedScope/1"},
		{name: "disclosedScope missing", req: full, mut: func(d *consent.Decision, r *consent.Request) {
			d.DisclosedScope = nil
		}, code: veriland.CodeValidationFailed, pointer: "/disclosedScope"},
		{name: "PROOF_ONLY partial disclosure", req: full, mut: func(d *consent.Decision, r *consent.Request) {
			d.DisclosedScope = []string{"is_adult"}
			d.Signature = f.signServed(t, r, f.holder, consent.StatusApproved, d.DisclosedScope, 0)
		}, code: veriland.CodeValidationFailed, pointer: "/disclosedScope"},
		{name: "SELECTIVE empty disclosure", req: selective, mut: func(d *consent.Decision, r *consent.Request) {
			d.DisclosedScope = []string{}
			d.Signature = f.signServed(t, r, f.holder, consent.StatusApproved, nil, 0)
		}, code: veriland.CodeValidationFailed, pointer: "/disclosedScope"},
		{name: "SELECTIVE not in scope", req: selective, mut: func(d *consent.Decision, r *consent.Request) {
			d.DisclosedScope = []string{"age_over_21"}
			d.Signature = f.signServed(t, r, f.holder, consent.StatusApproved, d.DisclosedScope, 0)
		}, code: veriland.CodeValidationFailed, pointer: "/disclosedScope/0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := good(tc.req)
			tc.mut(&d, tc.req)
			res, err := f.svc.Decide(f.ctx, veriland.Sandbox, tc.req.ID, d)
			require.Nil(t, res)
			e := requireCode(t, err, tc.code, tc.pointer)
			if tc.cause != nil {
				require.ErrorIs(t, err, tc.cause)
			}
			if tc.message != "" {
				require.Equal(t, tc.message, e.Message)
			}
		})
	}
	// Nothing was decided: the good decisions still go through.
	for _, r := range []*consent.Request{full, selective} {
		got, err := f.svc.Get(f.ctx, veriland.Sandbox, r.ID)
		require.NoError(t, err)
		require.Equal(t, consent.StatusPending, got.Status)
		_, err = f.svc.Decide(f.ctx, veriland.Sandbox, r.ID, good(r))
		require.NoError(t, err)
	}
	require.Equal(t, 2, f.attestationCount(veriland.Sandbox))

	_, err = f.svc.Decide(f.ctx, veriland.Sandbox, "vrq_aaaaaaaaaaaaaaaaaaaaaaaaaa", good(full))
	requireCode(t, err, veriland.CodeNotFound, "")
}

func TestSubjectWithoutUsableWallet(t *testing.T) {
	f := newFixture(t)
	// An identity with no wallet, and one not ACTIVE.
	res, err := f.ids.Issue(f.ctx, veriland.Sandbox, identity.IssueRequest{SubjectRef: "no-wallet", CountryCode: "NG"})
	require.NoError(t, err)
	key, _ := crypto.GenerateKey()
	review, err := f.ids.Issue(f.ctx, veriland.Sandbox, identity.IssueRequest{
		SubjectRef: "in-review", CountryCode: "NG", WalletAddress: addr(key).Hex(),
		Payload: json.RawMessage(`{"scenario":"review"}`),
	})
	require.NoError(t, err)
	require.Equal(t, identity.StatusPendingReview, review.Status)

	for _, tc := range []struct {
		subject string
		code    veriland.Code
		pointer string
	}{
		{res.DID, veriland.CodeInvalidSignature, "/holderAddress"},
		{review.DID, veriland.CodeBusinessRuleViolation, ""},
	} {
		r := f.create(func(c *consent.CreateRequest) { c.SubjectRef = tc.subject })
		_, err := f.svc.Decide(f.ctx, veriland.Sandbox, r.ID, signed(t, r, key, consent.StatusApproved, nil))
		requireCode(t, err, tc.code, tc.pointer)
	}
}

func TestPKHSubject(t *testing.T) {
	f := newFixture(t)
	key, err := crypto.GenerateKey()
	require.NoError(t, err)
	stranger, err := crypto.GenerateKey()
	require.NoError(t, err)
	pkh := identity.PKHDID(testChainID, addr(key).Hex())
	r := f.create(func(c *consent.CreateRequest) { c.SubjectRef = pkh; c.Scope = []string{"liveness"} })

	// Someone else's wallet, even correctly signed, is not the subject's.
	_, err = f.svc.Decide(f.ctx, veriland.Sandbox, r.ID, signed(t, r, stranger, consent.StatusApproved, nil))
	requireCode(t, err, veriland.CodeInvalidSignature, "/holderAddress")

	// A wallet has no identity facts, and no liveness pass yet.
	_, err = f.svc.Decide(f.ctx, veriland.Sandbox, r.ID, signed(t, r, key, consent.StatusApproved, r.Scope))
	e := requireCode(t, err, veriland.CodeClaimUnavailable, "/disclosedScope/0")
	require.Equal(t, "liveness", e.Meta["item"])
	require.NoError(t, f.store.Update(f.ctx, func(tx storage.Tx) error {
		_, err := f.atts.Issue(f.ctx, tx, veriland.Sandbox, attestation.Draft{
			Kind: attestation.KindLiveness, Subject: pkh, Claims: map[string]any{"level": "L1"}, ValidFor: time.Hour})
		return err
	}))
	res, err := f.svc.Decide(f.ctx, veriland.Sandbox, r.ID, signed(t, r, key, consent.StatusApproved, r.Scope))
	require.NoError(t, err)
	require.Equal(t, r.SubjectRef, res.Attestation.Subject)
	facts, _, err := consent.ParseClaims(res.Attestation.Claims)
	require.NoError(t, err)
	require.Equal(t, map[string]any{"liveness": "verified"}, facts)

	adult := f.create(func(c *consent.CreateRequest) { c.SubjectRef = pkh; c.Scope = []string{"is_adult"} })
	_, err = f.svc.Decide(f.ctx, veriland.Sandbox, adult.ID, signed(t, adult, key, consent.StatusApproved, nil))
	requireCode(t, err, veriland.CodeClaimUnavailable, "")

	// VerifyDecision alone refuses a did:pkh of another chain.
	other := *r
	other.SubjectRef = identity.PKHDID(1, addr(key).Hex())
	_, err = consent.VerifyDecision(&other, consent.Decision{
		HolderAddress: addr(key).Hex(), Decision: consent.StatusApproved, DisclosedScope: []string{},
		Signature: sign(t, &other, key, consent.StatusApproved, nil, testChainID),
	}, testChainID)
	requireCode(t, err, veriland.CodeInvalidSignature, "")
}

func TestRequireLiveness(t *testing.T) {
	f := newFixture(t)
	r := f.create(func(c *consent.CreateRequest) {
		c.RequireLiveness = live("L2", 30)
	})
	decide := func(r *consent.Request) (*consent.DecisionResult, error) {
		return f.svc.Decide(f.ctx, veriland.Sandbox, r.ID, signed(t, r, f.holder, consent.StatusApproved, r.Scope))
	}
	liveness := func(level string, subject string) {
		require.NoError(t, f.store.Update(f.ctx, func(tx storage.Tx) error {
			_, err := f.atts.Issue(f.ctx, tx, veriland.Sandbox, attestation.Draft{
				Kind: attestation.KindLiveness, Subject: subject, Claims: map[string]any{"level": level},
				ValidFor: 365 * 24 * time.Hour,
			})
			return err
		}))
	}

	_, err := decide(r)
	e := requireCode(t, err, veriland.CodeLivenessRequired, "")
	require.Equal(t, "L2", e.Meta["minLevel"])
	require.Equal(t, float64(30), e.Meta["maxAgeDays"])

	liveness("L1", f.did) // too weak
	_, otherDID := f.newIdentity(veriland.Sandbox)
	liveness("L3", otherDID) // someone else's
	_, err = decide(r)
	requireCode(t, err, veriland.CodeLivenessRequired, "")

	liveness("L2", f.did)
	f.clock.Advance(31 * 24 * time.Hour) // too old for 30 days by now; the request has expired too
	_, err = decide(r)
	requireCode(t, err, veriland.CodeInvalidState, "")

	r2 := f.create(func(c *consent.CreateRequest) {
		c.RequireLiveness = &consent.LivenessInput{MinLevel: "L2"} // 30 days by default
		c.Scope = []string{"is_adult", "liveness"}
		c.Mode = consent.ModeSelective
	})
	_, err = decide(r2)
	requireCode(t, err, veriland.CodeLivenessRequired, "")
	got, err := f.svc.Get(f.ctx, veriland.Sandbox, r2.ID)
	require.NoError(t, err)
	require.Equal(t, consent.StatusPending, got.Status)

	liveness("L3", f.did)
	res, err := f.svc.Decide(f.ctx, veriland.Sandbox, r2.ID, signed(t, r2, f.holder, consent.StatusApproved, []string{"liveness"}))
	require.NoError(t, err)
	facts, book, err := consent.ParseClaims(res.Attestation.Claims)
	require.NoError(t, err)
	require.Equal(t, &consent.LivenessRequirement{MinLevel: "L2", MaxAgeDays: 30}, book.RequireLiveness)
	// The liveness item names the attestation that met the requirement (the L2 one
	// is 31 days old now).
	require.Equal(t, "L3", facts["liveness"].(map[string]any)["level"])

	// A rejection needs no liveness.
	f.clock.Advance(48 * time.Hour) // the L3 attestation is now 2 days old
	r3 := f.create(func(c *consent.CreateRequest) { c.RequireLiveness = live("L3", 1) })
	_, err = decide(r3)
	requireCode(t, err, veriland.CodeLivenessRequired, "")
	_, err = f.svc.Decide(f.ctx, veriland.Sandbox, r3.ID, signed(t, r3, f.holder, consent.StatusRejected, nil))
	require.NoError(t, err)
}

func TestHookFailureRollsBack(t *testing.T) {
	f := newFixture(t)
	r := f.create(nil)
	boom := errors.New("audit log unavailable")
	svc := *f.svc
	svc.OnEvent = func(ctx context.Context, tx storage.Tx, ev consent.Event) error {
		if err := recordEvent(ctx, tx, ev); err != nil {
			return err
		}
		if ev.Type != consent.EventCreated {
			return boom
		}
		return nil
	}
	d := signed(t, r, f.holder, consent.StatusApproved, nil)
	_, err := svc.Decide(f.ctx, veriland.Sandbox, r.ID, d)
	require.ErrorIs(t, err, boom)
	_, err = svc.Cancel(f.ctx, veriland.Sandbox, r.ID, f.verifier)
	require.ErrorIs(t, err, boom)

	got, err := f.svc.Get(f.ctx, veriland.Sandbox, r.ID)
	require.NoError(t, err)
	require.Equal(t, consent.StatusPending, got.Status)
	require.Empty(t, got.AttestationID)
	require.Zero(t, f.attestationCount(veriland.Sandbox))
	require.Len(t, f.events(veriland.Sandbox), 1) // the created event only

	// Expiry through a failing hook leaves the request PENDING (and due) too.
	f.clock.Advance(2 * time.Hour)
	_, err = svc.Get(f.ctx, veriland.Sandbox, r.ID)
	require.ErrorIs(t, err, boom)
	n, err := svc.ExpireDue(f.ctx, f.clock.Now(), 10)
	require.ErrorIs(t, err, boom)
	require.Zero(t, n)
	n, err = f.svc.ExpireDue(f.ctx, f.clock.Now(), 10)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.Equal(t, 1, f.eventsOf(veriland.Sandbox, r.ID, consent.EventExpired))
}

func TestConcurrentDecisions(t *testing.T) {
	f := newFixture(t)
	r := f.create(nil)
	approve := signed(t, r, f.holder, consent.StatusApproved, nil)
	reject := signed(t, r, f.holder, consent.StatusRejected, nil)
	const n = 16
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := approve
			if i%2 == 1 {
				d = reject
			}
			_, errs[i] = f.svc.Decide(f.ctx, veriland.Sandbox, r.ID, d)
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
			continue
		}
		requireCode(t, err, veriland.CodeInvalidState, "")
	}
	require.Equal(t, 1, ok)
	got, err := f.svc.Get(f.ctx, veriland.Sandbox, r.ID)
	require.NoError(t, err)
	decided := f.eventsOf(veriland.Sandbox, r.ID, consent.EventApproved) + f.eventsOf(veriland.Sandbox, r.ID, consent.EventRejected)
	require.Equal(t, 1, decided)
	if got.Status == consent.StatusApproved {
		require.Equal(t, 1, f.attestationCount(veriland.Sandbox))
	} else {
		require.Equal(t, consent.StatusRejected, got.Status)
		require.Zero(t, f.attestationCount(veriland.Sandbox))
	}
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// attestation.Service signs approvals ahead of the write transaction.
var _ consent.PreSigner = (*attestation.Service)(nil)
