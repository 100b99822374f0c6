package consent_test

import (
	"context"
	"encoding/json"
	"errors"
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

			// The evidence is the digest the holder signed, and the claims rebuild it.
			var claims consent.Claims
			require.NoError(t, json.Unmarshal(att.Claims, &claims))
			require.Equal(t, consent.Claims{
				RequestID: r.ID, Decision: "APPROVED", Mode: consent.ModeFull, DisclosedScope: r.Scope,
				DisclosedScopeHash: consent.DisclosedScopeHash(r.Scope), Nonce: r.Nonce, Deadline: r.Deadline(),
				ChainID: testChainID,
			}, claims)
			rebuilt := consent.ConsentTypedData{
				RequestID: claims.RequestID, Subject: att.Subject, Verifier: att.Verifier, Decision: claims.Decision,
				DisclosedScopeHash: claims.DisclosedScopeHash, Nonce: claims.Nonce, Deadline: claims.Deadline,
			}
			digest := rebuilt.Digest(claims.ChainID)
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
		HolderAddress: strings.ToLower(addr(f.holder).Hex()),
		Decision:      consent.StatusRejected,
		Signature:     sign(t, r, f.holder, consent.StatusRejected, nil, testChainID),
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
		c.Scope = []string{"is_adult", "nationality", "age_over_21"}
	})
	disclosed := []string{"age_over_21", "is_adult"} // a subset, in the holder's order
	res, err := f.svc.Decide(f.ctx, veriland.Sandbox, r.ID, signed(t, r, f.holder, consent.StatusApproved, disclosed))
	require.NoError(t, err)
	require.Equal(t, disclosed, res.Attestation.Scope)
	require.Equal(t, disclosed, res.Request.DisclosedScope)
}

func TestFullApprovalWithEmptyDisclosure(t *testing.T) {
	f := newFixture(t)
	r := f.create(nil)
	res, err := f.svc.Decide(f.ctx, veriland.Sandbox, r.ID, signed(t, r, f.holder, consent.StatusApproved, nil))
	require.NoError(t, err)
	require.Equal(t, r.Scope, res.Attestation.Scope)
	var claims consent.Claims
	require.NoError(t, json.Unmarshal(res.Attestation.Claims, &claims))
	require.Equal(t, r.Scope, claims.DisclosedScope)
	require.Equal(t, common.Hash(consent.DisclosedScopeHash(nil)), claims.DisclosedScopeHash)
}

func TestDecideRefusals(t *testing.T) {
	f := newFixture(t)
	stranger, err := crypto.GenerateKey()
	require.NoError(t, err)
	otherKey, _ := f.newIdentity(veriland.Sandbox)

	full := f.create(nil)
	selective := f.create(func(c *consent.CreateRequest) { c.Mode = consent.ModeSelective })
	good := func(r *consent.Request) consent.Decision {
		return signed(t, r, f.holder, consent.StatusApproved, r.Scope)
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
			d.Signature = sign(t, r, stranger, consent.StatusApproved, r.Scope, testChainID)
		}, code: veriland.CodeInvalidSignature, pointer: "/holderSignature",
			message: "recovered " + addr(stranger).Hex() + " but holderAddress is " + addr(f.holder).Hex()},
		{name: "signer is not the subject's wallet", req: full, mut: func(d *consent.Decision, r *consent.Request) {
			d.HolderAddress = addr(stranger).Hex()
			d.Signature = sign(t, r, stranger, consent.StatusApproved, r.Scope, testChainID)
		}, code: veriland.CodeInvalidSignature, pointer: "/holderAddress"},
		{name: "another identity's wallet", req: full, mut: func(d *consent.Decision, r *consent.Request) {
			d.HolderAddress = addr(otherKey).Hex()
			d.Signature = sign(t, r, otherKey, consent.StatusApproved, r.Scope, testChainID)
		}, code: veriland.CodeInvalidSignature, pointer: "/holderAddress"},
		{name: "high-s twin", req: full, mut: func(d *consent.Decision, r *consent.Request) {
			d.Signature = highS(t, d.Signature)
		}, code: veriland.CodeInvalidSignature, pointer: "/holderSignature", cause: ethsig.ErrHighS},
		{name: "wrong chain id", req: full, mut: func(d *consent.Decision, r *consent.Request) {
			d.Signature = sign(t, r, f.holder, consent.StatusApproved, r.Scope, 1)
		}, code: veriland.CodeInvalidSignature, pointer: "/holderSignature"},
		{name: "signed REJECTED, sent APPROVED", req: full, mut: func(d *consent.Decision, r *consent.Request) {
			d.Signature = sign(t, r, f.holder, consent.StatusRejected, r.Scope, testChainID)
		}, code: veriland.CodeInvalidSignature, pointer: "/holderSignature"},
		{name: "signed another disclosure", req: full, mut: func(d *consent.Decision, r *consent.Request) {
			d.Signature = sign(t, r, f.holder, consent.StatusApproved, nil, testChainID)
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
			d.Signature = sign(t, r, f.holder, consent.StatusApproved, d.DisclosedScope, testChainID)
		}, code: veriland.CodeValidationFailed, pointer: "/disclosedScope/1"},
		{name: "repeated disclosed item", req: full, mut: func(d *consent.Decision, r *consent.Request) {
			d.DisclosedScope = []string{"is_adult", "is_adult"}
		}, code: veriland.CodeValidationFailed, pointer: "/disclosedScope/1"},
		{name: "FULL partial disclosure", req: full, mut: func(d *consent.Decision, r *consent.Request) {
			d.DisclosedScope = []string{"is_adult"}
			d.Signature = sign(t, r, f.holder, consent.StatusApproved, d.DisclosedScope, testChainID)
		}, code: veriland.CodeValidationFailed, pointer: "/disclosedScope"},
		{name: "SELECTIVE empty disclosure", req: selective, mut: func(d *consent.Decision, r *consent.Request) {
			d.DisclosedScope = nil
			d.Signature = sign(t, r, f.holder, consent.StatusApproved, nil, testChainID)
		}, code: veriland.CodeValidationFailed, pointer: "/disclosedScope"},
		{name: "SELECTIVE not in scope", req: selective, mut: func(d *consent.Decision, r *consent.Request) {
			d.DisclosedScope = []string{"age_over_21"}
			d.Signature = sign(t, r, f.holder, consent.StatusApproved, d.DisclosedScope, testChainID)
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
	// An identity with no wallet, one that does not exist, and one not ACTIVE.
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
		{"did:veriland:1111111111111111111111", veriland.CodeInvalidSignature, "/holderAddress"},
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
	r := f.create(func(c *consent.CreateRequest) { c.SubjectRef = identity.PKHDID(testChainID, addr(key).Hex()) })

	// Someone else's wallet, even correctly signed, is not the subject's.
	_, err = f.svc.Decide(f.ctx, veriland.Sandbox, r.ID, signed(t, r, stranger, consent.StatusApproved, nil))
	requireCode(t, err, veriland.CodeInvalidSignature, "/holderAddress")

	res, err := f.svc.Decide(f.ctx, veriland.Sandbox, r.ID, signed(t, r, key, consent.StatusApproved, r.Scope))
	require.NoError(t, err)
	require.Equal(t, r.SubjectRef, res.Attestation.Subject)

	// VerifyDecision alone refuses a did:pkh of another chain.
	other := *r
	other.SubjectRef = identity.PKHDID(1, addr(key).Hex())
	_, err = consent.VerifyDecision(&other, consent.Decision{
		HolderAddress: addr(key).Hex(), Decision: consent.StatusApproved,
		Signature: sign(t, &other, key, consent.StatusApproved, nil, testChainID),
	}, testChainID)
	requireCode(t, err, veriland.CodeInvalidSignature, "")
}

func TestRequireLiveness(t *testing.T) {
	f := newFixture(t)
	r := f.create(func(c *consent.CreateRequest) {
		c.RequireLiveness = true
		c.MaxAgeDays = intp(30)
	})
	decide := func(r *consent.Request) (*consent.DecisionResult, error) {
		return f.svc.Decide(f.ctx, veriland.Sandbox, r.ID, signed(t, r, f.holder, consent.StatusApproved, nil))
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
	require.Equal(t, 30, e.Meta["maxAgeDays"])

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
		c.RequireLiveness = true
		c.MaxAgeDays = intp(30)
	})
	_, err = decide(r2)
	requireCode(t, err, veriland.CodeLivenessRequired, "")
	got, err := f.svc.Get(f.ctx, veriland.Sandbox, r2.ID)
	require.NoError(t, err)
	require.Equal(t, consent.StatusPending, got.Status)

	liveness("L3", f.did)
	res, err := decide(r2)
	require.NoError(t, err)
	var claims consent.Claims
	require.NoError(t, json.Unmarshal(res.Attestation.Claims, &claims))
	require.True(t, claims.RequireLiveness)
	require.Equal(t, "L2", claims.MinLevel)

	// A rejection needs no liveness.
	f.clock.Advance(48 * time.Hour) // the L3 attestation is now 2 days old
	r3 := f.create(func(c *consent.CreateRequest) { c.RequireLiveness = true; c.MinLevel = "L3"; c.MaxAgeDays = intp(1) })
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

// attestation.Service signs approvals ahead of the write transaction.
var _ consent.PreSigner = (*attestation.Service)(nil)
