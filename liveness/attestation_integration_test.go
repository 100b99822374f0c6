package liveness_test

import (
	"context"
	"testing"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/liveness"
	"github.com/veriland/veriland/liveness/deviceattest"
)

// The attestation package's storage-backed service is what the server plugs in.
var _ liveness.Attestations = (*attestation.Service)(nil)

func TestVerifyWithAttestationService(t *testing.T) {
	h := newHarness(t)
	real := &attestation.Service{Store: h.store, Issuer: h.atts.issuer, Now: h.clock.Now}
	h.svc.Attestations = real
	ctx := context.Background()
	key := deviceKey("real")
	h.enrollMock(t, holderA, key)
	sess := h.start(t, veriland.Sandbox, holderA, liveness.L2)
	req := proof(sess, key, 30, deviceattest.Mock)
	h.clock.Advance(2 * time.Second)
	res, err := h.svc.Verify(ctx, veriland.Sandbox, holderA, req)
	if err != nil {
		t.Fatal(err)
	}
	got, err := real.Get(ctx, veriland.Sandbox, res.Attestation.ID)
	if err != nil || got.Kind != attestation.KindLiveness || got.EvidenceHash != res.Attestation.EvidenceHash {
		t.Fatalf("stored attestation %+v, %v", got, err)
	}
	list, err := h.svc.ListAttestations(ctx, veriland.Sandbox, holderA)
	if err != nil || len(list) != 1 || list[0].ID != res.Attestation.ID {
		t.Fatalf("list %v, %v", attIDs(list), err)
	}
	if _, err := real.Revoke(ctx, veriland.Sandbox, res.Attestation.ID, "", veriland.Principal{Subject: holderA, Role: veriland.RoleHolder, Env: veriland.Sandbox}); err != nil {
		t.Fatal(err)
	}
	list, err = h.svc.ListAttestations(ctx, veriland.Sandbox, holderA)
	if err != nil || len(list) != 0 {
		t.Fatalf("after revocation: %v, %v", attIDs(list), err)
	}
}
