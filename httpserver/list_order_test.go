package httpserver

import (
	"net/http"
	"testing"
	"time"

	ethcrypto "github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/storage"
)

// TestAPIKeyListNewestFirst creates three keys at increasing clock times and pages
// through GET /v1/api-keys two at a time: newest first, with meta.has_more saying
// whether links.next leads anywhere.
func TestAPIKeyListNewestFirst(t *testing.T) {
	h := newHarness(t)
	adminTok := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
	var ids []string
	for _, sub := range []string{"v1", "v2", "v3", "v4", "v5"} {
		id, _ := createKey(t, h, adminTok, "verifier", sub)
		ids = append(ids, id)
		h.clock.Advance(time.Second)
	}
	type pageWant struct {
		ids     []string
		hasMore bool
	}
	pages := []pageWant{{[]string{ids[4], ids[3]}, true}, {[]string{ids[2], ids[1]}, true}, {[]string{ids[0]}, false}}
	path := "/v1/api-keys?limit=2"
	for i, want := range pages {
		r := h.do(request{method: "GET", path: path, token: adminTok})
		require.Equal(t, http.StatusOK, r.status, string(r.body))
		doc := r.json(t)
		var got []string
		for _, it := range doc["data"].([]any) {
			got = append(got, it.(map[string]any)["id"].(string))
		}
		require.Equal(t, want.ids, got, "page %d", i)
		meta, _ := doc["meta"].(map[string]any)
		require.Equal(t, want.hasMore, meta["has_more"], "page %d meta.has_more", i)
		links := doc["links"].(map[string]any)
		next, _ := links["next"].(string)
		require.Equal(t, want.hasMore, next != "", "page %d links.next %q", i, next)
		path = next
	}
	require.Empty(t, path)
}

// TestChipBindingsNewestFirst issues five chip bindings at increasing clock times and
// asserts GET /identity/chip-bindings/me lists them newest first.
func TestChipBindingsNewestFirst(t *testing.T) {
	h := newHarness(t)
	wallet, _ := ethcrypto.GenerateKey()
	h.issueIdentity(t, "chip-order", wallet, "success")
	tok, did := h.login(t, wallet, veriland.Sandbox)
	var want []string
	for range 5 {
		err := h.store.Update(t.Context(), func(tx storage.Tx) error {
			att, err := h.srv.cfg.Attestations.Issue(t.Context(), tx, veriland.Sandbox, attestation.Draft{
				Kind: attestation.KindChipBinding, Subject: did, Scope: []string{"chip"},
				Claims: map[string]any{"mode": "PA_ONLY", "issuingState": "UTO", "documentType": "P", "dsCertificateFingerprint": "00", "digestAlgorithm": "SHA-256", "signatureAlgorithm": "ECDSA-SHA-256", "faceScore": nil, "livenessAttestationId": "att_x"}, EvidenceHash: [32]byte{2}, ValidFor: 24 * time.Hour})
			if err != nil {
				return err
			}
			want = append([]string{att.ID}, want...)
			return nil
		})
		require.NoError(t, err)
		h.clock.Advance(time.Second)
	}
	r := h.do(request{method: "GET", path: "/identity/chip-bindings/me", token: tok})
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	var got []string
	for _, it := range r.json(t)["items"].([]any) {
		got = append(got, it.(map[string]any)["id"].(string))
	}
	require.Equal(t, want, got)
}

// TestParcelTransfersNewestFirst requests and cancels three transfers of one parcel at
// increasing clock times and asserts GET /v1/parcels/{id}/transfers lists them newest
// first, with meta.has_more false (the list is not paginated).
func TestParcelTransfersNewestFirst(t *testing.T) {
	h := newHarness(t)
	f := newParcelFlow(h, veriland.Production)
	id := f.create(t, parcelNotary)["id"].(string)
	f.post(t, "/v1/parcels/"+id+"/certify", f.admin, `{}`, 200)
	var want []string
	for range 3 {
		h.clock.Advance(time.Second)
		tr := f.post(t, "/v1/parcels/"+id+"/transfer", f.agent, transferBody(parcelNotary), 202)
		f.post(t, "/v1/transfers/"+tr["id"].(string)+"/cancel", f.agent, nil, 200)
		want = append([]string{tr["id"].(string)}, want...)
	}
	r := h.do(request{method: "GET", path: "/v1/parcels/" + id + "/transfers", token: f.agent})
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	doc := r.json(t)
	var got []string
	for _, it := range doc["data"].([]any) {
		got = append(got, it.(map[string]any)["id"].(string))
	}
	require.Equal(t, want, got)
	require.Equal(t, false, doc["meta"].(map[string]any)["has_more"])
}
