package consent_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/consent"
)

// FuzzDecide feeds arbitrary holder addresses, decisions, scopes and signatures to
// VerifyDecision and Decide: they must never panic, and every refusal must be a
// *veriland.Error (or veriland.Errors) with a client code, never an internal one.
func FuzzDecide(f *testing.F) {
	fx := newFixture(f)
	r := fx.create(nil)
	holder := addr(fx.holder).Hex()
	good := sign(f, r, fx.holder, consent.StatusApproved, r.Scope, testChainID)
	stranger, _ := crypto.GenerateKey()

	f.Add(holder, "APPROVED", "is_adult,nationality", good)
	f.Add(holder, "APPROVED", "", sign(f, r, fx.holder, consent.StatusApproved, nil, testChainID))
	f.Add(holder, "REJECTED", "", sign(f, r, fx.holder, consent.StatusRejected, nil, testChainID))
	f.Add(holder, "APPROVED", "is_adult,nationality", highS(f, good))
	f.Add(addr(stranger).Hex(), "APPROVED", "is_adult,nationality", sign(f, r, stranger, consent.StatusApproved, r.Scope, testChainID))
	f.Add(strings.ToLower(holder), "APPROVED", "is_adult,is_adult", good)
	f.Add("0x", "MAYBE", ",,", "0x")
	f.Add("", "", "", "")
	f.Add(holder, "APPROVED", "<nil>", good)
	f.Add(holder, "APPROVED", "is_adult", good[:len(good)-2]+"1d")
	f.Add(holder, "APPROVED", "nationality,is_adult", "0x"+strings.Repeat("ff", 65))
	f.Add(holder, "APPROVED", "x\x00y", "0x"+strings.Repeat("00", 65))

	f.Fuzz(func(t *testing.T, holderAddress, decision, scope, signature string) {
		d := consent.Decision{HolderAddress: holderAddress, Decision: consent.Status(decision), Signature: signature}
		switch scope {
		case "<nil>": // disclosedScope missing
		case "":
			d.DisclosedScope = []string{}
		default:
			d.DisclosedScope = strings.Split(scope, ",")
		}
		if _, err := consent.VerifyDecision(r, d, testChainID); err != nil {
			requireClientError(t, err)
		}
		res, err := fx.svc.Decide(fx.ctx, veriland.Sandbox, r.ID, d)
		if err != nil {
			requireClientError(t, err)
			return
		}
		if res.Status != consent.StatusApproved && res.Status != consent.StatusRejected {
			t.Fatalf("decided with status %q", res.Status)
		}
		cur := *fx
		cur.t = t
		r = cur.create(nil) // decided: fuzz a fresh request from now on
	})
}

func requireClientError(t *testing.T, err error) {
	t.Helper()
	var list veriland.Errors
	if errors.As(err, &list) {
		if len(list) < 2 {
			t.Fatalf("an Errors list of %d: %v", len(list), err)
		}
		for _, e := range list {
			if e == nil || e.Code == veriland.CodeInternal || e.Code == "" {
				t.Fatalf("bad error in list: %v", err)
			}
		}
		return
	}
	var e *veriland.Error
	if !errors.As(err, &e) || e.Code == veriland.CodeInternal || e.Code == "" {
		t.Fatalf("not a client *veriland.Error: %T %v", err, err)
	}
}

// FuzzParseClaims feeds arbitrary claims to ParseClaims, which offline verifiers run
// over attestations a holder hands them: it must never panic, and whatever it accepts
// must have a request id of the bookkeeping or be a legacy document.
func FuzzParseClaims(f *testing.F) {
	f.Add(`{"is_adult":true,"nationality":"verified","consent":{"requestId":"vrq_x","mode":"PROOF_ONLY","disclosedScope":[],"disclosedScopeHash":"0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470","nonce":"0x0000000000000000000000000000000000000000000000000000000000000001","deadline":1}}`)
	f.Add(`{"nationality":"FR","identity":{"status":"ACTIVE","level":"CHIP"},"consent":{"requestId":"vrq_y","mode":"SELECTIVE","disclosedScope":["nationality","identity"]}}`)
	f.Add(`{"requestId":"vrq_old","decision":"APPROVED","mode":"FULL","disclosedScope":["is_adult"],"chainId":1}`)
	f.Add(`{"consent":null}`)
	f.Add(`{"consent":{"nonce":"0xzz"}}`)
	f.Add(`{"is_adult":true}`)
	f.Add(`[]`)
	f.Add(`null`)
	f.Add(``)
	f.Fuzz(func(t *testing.T, raw string) {
		facts, book, err := consent.ParseClaims([]byte(raw))
		if err != nil {
			if facts != nil || book != nil {
				t.Fatalf("results with an error: %v %v", facts, book)
			}
			return
		}
		if book == nil || facts == nil {
			t.Fatal("nil results without an error")
		}
		if _, ok := facts[consent.ClaimConsent]; ok {
			t.Fatal("the bookkeeping member is among the facts")
		}
	})
}
