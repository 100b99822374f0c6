package httpserver

import (
	"bytes"
	"crypto"
	"encoding/base64"
	"net/http"
	"os"
	"testing"
	"time"

	ethcrypto "github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/chipauth/binding"
	"github.com/veriland/veriland/chipauth/sandbox"
	"github.com/veriland/veriland/storage"
)

const chipDocNumber = "L898902C3"

// passport builds a sandbox passport (DG1 for a TD3 MRZ, a placeholder DG2) signed by
// the sandbox Document Signer the harness's server trusts.
func (h *harness) passport(t *testing.T, docNumber string) (sod, dg1, dg2 []byte) {
	t.Helper()
	var err error
	dg1, err = sandbox.BuildDG1(sandbox.MRZFields{IssuingState: "UTO", Surname: "ERIKSSON", GivenNames: "ANNA MARIA",
		DocumentNumber: docNumber, BirthDate: time.Date(1974, 8, 12, 0, 0, 0, 0, time.UTC), Sex: "F",
		Expiry: h.clock.Now().AddDate(5, 0, 0)})
	require.NoError(t, err)
	dg2 = []byte{0x75, 0x04, 'f', 'a', 'c', 'e'}
	sod, err = sandbox.BuildSOD(h.sandboxDS, map[int][]byte{1: dg1, 2: dg2}, crypto.SHA256, sandbox.ECDSA,
		sandbox.SODOptions{SigningTime: h.clock.Now().Add(-time.Hour), LDSVersion: 1})
	require.NoError(t, err)
	return sod, dg1, dg2
}

// livenessAttestation issues a LIVENESS attestation of subject through the
// attestation service, as a passed liveness check would.
func (h *harness) livenessAttestation(t *testing.T, subject, level string) string {
	t.Helper()
	var id string
	err := h.store.Update(t.Context(), func(tx storage.Tx) error {
		att, err := h.srv.cfg.Attestations.Issue(t.Context(), tx, veriland.Sandbox, attestation.Draft{
			Kind: attestation.KindLiveness, Subject: subject, Scope: []string{"liveness"},
			Claims: map[string]any{"level": level, "policyVersion": "test"}, EvidenceHash: [32]byte{1}, ValidFor: 365 * 24 * time.Hour})
		if err != nil {
			return err
		}
		id = att.ID
		return nil
	})
	require.NoError(t, err)
	return id
}

func template(seed float32) string {
	v := make([]float32, 128)
	for i := range v {
		v[i] = seed + float32(i%7)
	}
	return binding.EncodeTemplate(v)
}

func TestChipBindingEndToEnd(t *testing.T) {
	h := newHarness(t)
	wallet, _ := ethcrypto.GenerateKey()
	h.issueIdentity(t, "chip-holder", wallet, "success")
	holderTok, did := h.login(t, wallet, veriland.Sandbox)
	live := h.livenessAttestation(t, did, "L2")
	sod, dg1, dg2 := h.passport(t, chipDocNumber)
	b64 := base64.StdEncoding.EncodeToString
	body := func(extra map[string]any) map[string]any {
		m := map[string]any{"sodBase64": b64(sod), "dataGroups": chipDataGroups(dg1, dg2), "livenessAttestationId": live}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}

	r := h.do(request{method: "POST", path: "/identity/chip-verify", token: holderTok, body: body(nil)})
	require.Equal(t, http.StatusCreated, r.status, string(r.body))
	require.Equal(t, "PA_ONLY", r.json(t)["mode"])

	r = h.do(request{method: "POST", path: "/identity/chip-verify", token: holderTok, body: body(map[string]any{
		"liveFaceTemplate": template(1), "chipFaceTemplate": template(1.01)})})
	require.Equal(t, http.StatusCreated, r.status, string(r.body))
	require.Equal(t, "PA_FACE", r.json(t)["mode"])
	att := r.json(t)["attestation"].(map[string]any)
	require.Equal(t, "CHIP_BINDING", att["kind"])
	require.Equal(t, "UTO", att["claims"].(map[string]any)["issuingState"])

	mine := h.do(request{method: "GET", path: "/identity/chip-bindings/me", token: holderTok}).json(t)
	require.Len(t, mine["items"], 2)

	t.Run("face mismatch", func(t *testing.T) {
		opposite := make([]float32, 128)
		for i := range opposite {
			opposite[i] = float32(i%5) - 2
		}
		r := h.do(request{method: "POST", path: "/identity/chip-verify", token: holderTok, body: body(map[string]any{
			"liveFaceTemplate": template(1), "chipFaceTemplate": binding.EncodeTemplate(opposite)})})
		require.Equal(t, 422, r.status, string(r.body))
		require.Equal(t, "face_mismatch", r.errorCode(t))
	})
	t.Run("altered DG1", func(t *testing.T) {
		bad := bytes.Clone(dg1)
		bad[len(bad)-3] ^= 1
		r := h.do(request{method: "POST", path: "/identity/chip-verify", token: holderTok, body: body(map[string]any{
			"dataGroups": chipDataGroups(bad, dg2)})})
		require.Equal(t, 422, r.status)
		require.Equal(t, "passive_auth_failed", r.errorCode(t))
		require.Equal(t, "digest_mismatch:DG1", r.json(t)["errors"].([]any)[0].(map[string]any)["meta"].(map[string]any)["step"])
	})
	t.Run("no liveness", func(t *testing.T) {
		r := h.do(request{method: "POST", path: "/identity/chip-verify", token: holderTok, body: body(map[string]any{
			"livenessAttestationId": "att_aaaaaaaaaaaaaaaaaaaaaaaaaa"})})
		require.Equal(t, 422, r.status)
		require.Equal(t, "liveness_required", r.errorCode(t))
	})
	t.Run("same document, second identity", func(t *testing.T) {
		other, _ := ethcrypto.GenerateKey()
		h.issueIdentity(t, "chip-holder-2", other, "success")
		tok2, did2 := h.login(t, other, veriland.Sandbox)
		r := h.do(request{method: "POST", path: "/identity/chip-verify", token: tok2, body: body(map[string]any{
			"livenessAttestationId": h.livenessAttestation(t, did2, "L2")})})
		require.Equal(t, http.StatusConflict, r.status, string(r.body))
		require.Equal(t, "document_already_bound", r.errorCode(t))
	})
	t.Run("PRODUCTION does not trust the sandbox CSCA", func(t *testing.T) {
		prodHolder := h.token(veriland.RoleHolder, veriland.Production, did)
		r := h.do(request{method: "POST", path: "/identity/chip-verify", token: prodHolder, body: body(nil)})
		require.Equal(t, 422, r.status)
	})

	// No document number and no MRZ anywhere in the database file.
	h.ts.Close()
	require.NoError(t, h.store.Close())
	raw, err := os.ReadFile(h.storePath)
	require.NoError(t, err)
	require.False(t, bytes.Contains(raw, []byte(chipDocNumber)), "the document number is in the database file")
	require.False(t, bytes.Contains(raw, []byte("ERIKSSON")), "the MRZ name is in the database file")
	for _, birth := range []string{"740812", "1974-08-12", "19740812"} {
		require.False(t, bytes.Contains(raw, []byte(birth)), "the date of birth (%s) is in the database file", birth)
	}
}

// chipDataGroups is the seed's dataGroups array: DG1, then DG2 when given.
func chipDataGroups(dg1 []byte, more ...[]byte) []map[string]any {
	out := []map[string]any{{"number": 1, "contentBase64": base64.StdEncoding.EncodeToString(dg1)}}
	for i, g := range more {
		out = append(out, map[string]any{"number": i + 2, "contentBase64": base64.StdEncoding.EncodeToString(g)})
	}
	return out
}
