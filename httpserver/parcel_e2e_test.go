package httpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/parcel"
	"github.com/veriland/veriland/parcel/pdf"
)

const (
	parcelNotary = "NOT-ABJ-0042"
	ownerName    = "Amina Zainab Bello"
	ownerIDDoc   = "NIN-83920174655"
	buyerName    = "Chukwuemeka Obi Nwankwo"
	buyerIDDoc   = "NIN-55501928374"
)

// parcelBody is seed 000 §2's request body.
func parcelBody(notary string) string {
	return fmt.Sprintf(`{"owner":{"fullName":%q,"id_doc":%q},"parcel":{"gps":[9.0765,7.3986],"area_m2":1200,"city":"Abuja"},"notary":%q}`,
		ownerName, ownerIDDoc, notary)
}

func transferBody(notary string) string {
	return fmt.Sprintf(`{"newOwner":{"fullName":%q,"id_doc":%q},"notary":%q}`, buyerName, buyerIDDoc, notary)
}

// parcelFlow holds the tokens of one account's parcel flow.
type parcelFlow struct {
	h                      *harness
	env                    veriland.Environment
	agent, notary, admin   string
	otherNotary, otherAcct string
}

// registerParcelDecoders lets the OpenAPI check read the PDF and HTML variants.
var registerParcelDecoders sync.Once

func newParcelFlow(h *harness, env veriland.Environment) *parcelFlow {
	registerParcelDecoders.Do(func() {
		openapi3filter.RegisterBodyDecoder(mediaPDF, openapi3filter.FileBodyDecoder)
		openapi3filter.RegisterBodyDecoder("text/html", openapi3filter.PlainBodyDecoder)
	})
	return &parcelFlow{h: h, env: env,
		agent:       h.token(veriland.RoleVerifier, env, "agency-1"),
		notary:      h.token(veriland.RoleNotary, env, parcelNotary),
		admin:       h.token(veriland.RoleAdmin, env, "admin"),
		otherNotary: h.token(veriland.RoleNotary, env, "NOT-LAG-7"),
		otherAcct:   h.token(veriland.RoleVerifier, env, "agency-2", func(p *veriland.Principal) { p.Account = "acct_other" }),
	}
}

func dataList(t testing.TB, r response) []any {
	t.Helper()
	return r.json(t)["data"].([]any)
}

func (f *parcelFlow) create(t *testing.T, notary string) map[string]any {
	t.Helper()
	r := f.h.do(request{method: "POST", path: "/v1/parcels", token: f.agent, body: parcelBody(notary)})
	require.Equal(t, 201, r.status, string(r.body))
	a := attrs(t, r)
	require.Equal(t, "/v1/parcels/"+a["id"].(string), r.header.Get("Location"))
	return a
}

func (f *parcelFlow) post(t *testing.T, path, token string, body any, want int) map[string]any {
	t.Helper()
	r := f.h.do(request{method: "POST", path: path, token: token, body: body})
	require.Equal(t, want, r.status, string(r.body))
	if want >= 400 {
		return map[string]any{"code": r.errorCode(t)}
	}
	return attrs(t, r)
}

func (f *parcelFlow) verify(t *testing.T, hash string) (int, map[string]any) {
	t.Helper()
	r := f.h.do(request{method: "GET", path: "/v1/registry/verify/" + hash})
	if r.status != 200 {
		return r.status, map[string]any{"code": r.errorCode(t)}
	}
	return r.status, attrs(t, r)
}

func TestParcelCertifyTransferRevoke(t *testing.T) {
	h := newHarness(t)
	f := newParcelFlow(h, veriland.Production)

	created := f.create(t, parcelNotary)
	id := created["id"].(string)
	require.Regexp(t, `^prc_[a-z2-7]{26}$`, id)
	require.Equal(t, "PENDING_NOTARY", created["status"])
	owner := created["owner"].(map[string]any)
	require.Equal(t, ownerName, owner["fullName"])
	require.Equal(t, "4655", owner["idDocLast4"])
	require.NotContains(t, string(h.do(request{method: "GET", path: "/v1/parcels/" + id, token: f.agent}).body), ownerIDDoc)

	// Reads: the creating account and the named notary; another account's token 404.
	require.Equal(t, id, attrs(t, h.do(request{method: "GET", path: "/v1/parcels/" + id, token: f.notary}))["id"])
	require.Equal(t, 404, h.do(request{method: "GET", path: "/v1/parcels/" + id, token: f.otherAcct}).status)
	list := dataList(t, h.do(request{method: "GET", path: "/v1/parcels", token: f.agent}))
	require.Len(t, list, 1)
	require.Equal(t, "parcels", list[0].(map[string]any)["type"])

	// Certification: only the named notary (or admin); the agent's role is refused.
	require.Equal(t, "forbidden", f.post(t, "/v1/parcels/"+id+"/certify", f.otherNotary, nil, 403)["code"])
	require.Equal(t, "forbidden", f.post(t, "/v1/parcels/"+id+"/certify", f.agent, nil, 403)["code"])
	require.Equal(t, 409, h.do(request{method: "GET", path: "/v1/parcels/" + id + "/certificate", token: f.agent}).status, "no certificate before certification")
	certified := f.post(t, "/v1/parcels/"+id+"/certify", f.notary, nil, 200)
	require.Equal(t, "CERTIFIED", certified["status"])
	require.EqualValues(t, 1, certified["version"])
	hash1 := certified["certificateHash"].(string)
	require.Regexp(t, `^0x[0-9a-f]{64}$`, hash1)
	token1 := certified["token"].(map[string]any)
	require.Equal(t, "ERC-5192", token1["standard"])
	require.Equal(t, true, token1["locked"])
	require.Equal(t, "DISABLED", token1["status"], "the harness has no chain")
	require.Equal(t, hash1, token1["metadataHash"])
	require.Equal(t, "invalid_state", f.post(t, "/v1/parcels/"+id+"/certify", f.notary, nil, 409)["code"])

	// The certificate: JSON:API, signed, its hash the parcel's.
	cr := h.do(request{method: "GET", path: "/v1/parcels/" + id + "/certificate", token: f.agent})
	require.Equal(t, 200, cr.status)
	cert := attrs(t, cr)
	require.Equal(t, hash1, cert["hash"])
	require.Equal(t, "CURRENT", cert["status"])
	require.NotEmpty(t, cert["signature"])
	require.Equal(t, ownerName, cert["certificate"].(map[string]any)["owner"].(map[string]any)["fullName"])
	pdfr := h.do(request{method: "GET", path: "/v1/parcels/" + id + "/certificate", token: f.agent, header: map[string]string{"Accept": "application/pdf"}})
	require.Equal(t, 200, pdfr.status, string(pdfr.body))
	require.Equal(t, "application/pdf", pdfr.header.Get("Content-Type"))
	require.True(t, bytes.HasPrefix(pdfr.body, []byte("%PDF-")))
	require.Contains(t, pdfr.header.Get("Vary"), "Accept")
	// The PDF embeds the signed certificate as served; it verifies offline against
	// the issuer's address, and its hash is the parcel's.
	embedded, err := pdf.ExtractCertificate(pdfr.body)
	require.NoError(t, err)
	var signed parcel.SignedCertificate
	require.NoError(t, json.Unmarshal(embedded, &signed))
	res, err := parcel.VerifyCertificate(&signed, parcel.VerifyOptions{TrustedIssuers: []common.Address{crypto.PubkeyToAddress(h.issuerKey.PublicKey)}})
	require.NoError(t, err)
	require.Equal(t, hash1, parcel.HashString(res.Hash))
	require.Equal(t, parcel.CertificateCurrent, res.Status)
	// A client that prefers JSON, or names no type, gets JSON.
	for _, accept := range []string{"", "*/*", "application/json, application/pdf;q=0.5", "application/*"} {
		r := h.do(request{method: "GET", path: "/v1/parcels/" + id + "/certificate", token: f.agent, header: map[string]string{"Accept": accept}})
		require.Equal(t, mediaJSONAPI, r.header.Get("Content-Type"), accept)
	}

	// Public registry answers, without a token and without personal data.
	status, v := f.verify(t, hash1)
	require.Equal(t, 200, status)
	require.Equal(t, true, v["authentic"])
	require.Equal(t, "CURRENT", v["status"])
	require.Equal(t, id, v["parcelId"])
	require.Equal(t, "Abuja", v["city"])
	require.Equal(t, parcelNotary, v["notary"])
	verifyRaw := h.do(request{method: "GET", path: "/v1/registry/verify/" + strings.ToUpper(hash1[:2]) + strings.ToUpper(hash1[2:])})
	require.Equal(t, 200, verifyRaw.status, "hex digits in either case")
	require.NotContains(t, string(verifyRaw.body), ownerName)
	tokenID := token1["tokenId"].(string)
	meta := h.do(request{method: "GET", path: "/v1/tokens/" + tokenID})
	require.Equal(t, 200, meta.status)
	require.Equal(t, "application/json", meta.header.Get("Content-Type"))
	require.Equal(t, true, meta.json(t)["locked"])
	require.NotContains(t, string(meta.body), ownerName)

	// Transfer: 202 PENDING_NOTARY; a second open transfer is 409.
	tr := h.do(request{method: "POST", path: "/v1/parcels/" + id + "/transfer", token: f.agent, body: transferBody(parcelNotary)})
	require.Equal(t, 202, tr.status, string(tr.body))
	transfer := attrs(t, tr)
	trID := transfer["id"].(string)
	require.Regexp(t, `^trf_[a-z2-7]{26}$`, trID)
	require.Equal(t, "PENDING_NOTARY", transfer["status"])
	require.Equal(t, "/v1/transfers/"+trID, tr.header.Get("Location"))
	require.Equal(t, "invalid_state", f.post(t, "/v1/parcels/"+id+"/transfer", f.agent, transferBody(parcelNotary), 409)["code"])
	require.Len(t, dataList(t, h.do(request{method: "GET", path: "/v1/parcels/" + id + "/transfers", token: f.agent})), 1)
	require.Equal(t, "PENDING_NOTARY", attrs(t, h.do(request{method: "GET", path: "/v1/transfers/" + trID, token: f.agent}))["status"])

	// Approval by the wrong notary is 403; by the named one, COMPLETED.
	require.Equal(t, "forbidden", f.post(t, "/v1/transfers/"+trID+"/approve", f.otherNotary, nil, 403)["code"])
	done := f.post(t, "/v1/transfers/"+trID+"/approve", f.notary, nil, 200)
	require.Equal(t, "COMPLETED", done["status"])
	require.Equal(t, "invalid_state", f.post(t, "/v1/transfers/"+trID+"/cancel", f.agent, nil, 409)["code"])

	after := attrs(t, h.do(request{method: "GET", path: "/v1/parcels/" + id, token: f.agent}))
	require.EqualValues(t, 2, after["version"])
	require.Equal(t, buyerName, after["owner"].(map[string]any)["fullName"])
	hash2 := after["certificateHash"].(string)
	require.NotEqual(t, hash1, hash2)
	_, old := f.verify(t, hash1)
	require.Equal(t, "SUPERSEDED", old["status"], "the old certificate's hash says SUPERSEDED")
	_, cur := f.verify(t, hash2)
	require.Equal(t, "CURRENT", cur["status"])
	require.Equal(t, "BURNED", h.do(request{method: "GET", path: "/v1/tokens/" + tokenID}).json(t)["attributes"].([]any)[3].(map[string]any)["value"])

	hist := dataList(t, h.do(request{method: "GET", path: "/v1/parcels/" + id + "/history", token: f.agent}))
	require.Len(t, hist, 2)
	v1 := hist[0].(map[string]any)["attributes"].(map[string]any)
	require.Equal(t, "SUPERSEDED", v1["status"])
	require.Equal(t, trID, v1["closedBy"])

	// The signed status list names the superseded hash.
	sl := h.do(request{method: "GET", path: "/v1/registry/statuses"})
	require.Equal(t, 200, sl.status)
	require.Contains(t, string(sl.body), hash1)
	require.NotContains(t, string(sl.body), hash2)
	require.Equal(t, 400, h.do(request{method: "GET", path: "/v1/registry/statuses?since=yesterday"}).status)

	// Revocation: admin only; the current hash then verifies REVOKED.
	require.Equal(t, "forbidden", f.post(t, "/v1/parcels/"+id+"/revoke", f.notary, `{"reason":"fraud"}`, 403)["code"])
	revoked := f.post(t, "/v1/parcels/"+id+"/revoke", f.admin, `{"reason":"court order 2026/114"}`, 200)
	require.Equal(t, "REVOKED", revoked["status"])
	_, rv := f.verify(t, hash2)
	require.Equal(t, "REVOKED", rv["status"])
	require.Equal(t, "invalid_state", f.post(t, "/v1/parcels/"+id+"/transfer", f.agent, transferBody(parcelNotary), 409)["code"])

	// Every change is in the audit log, without personal data.
	audit := h.do(request{method: "GET", path: "/v1/audit?limit=100", token: f.admin})
	for _, action := range []string{"parcel.created", "parcel.certified", "transfer.requested", "transfer.completed", "parcel.revoked"} {
		require.Contains(t, string(audit.body), `"`+action+`"`)
	}
	require.NotContains(t, string(audit.body), ownerName)
	require.NotContains(t, string(audit.body), ownerIDDoc)
}

func TestParcelRejectAndTransferRejectCancel(t *testing.T) {
	h := newHarness(t)
	f := newParcelFlow(h, veriland.Production)

	rejected := f.create(t, parcelNotary)
	out := f.post(t, "/v1/parcels/"+rejected["id"].(string)+"/reject", f.notary, `{"reason":"survey does not match"}`, 200)
	require.Equal(t, "REJECTED", out["status"])
	require.Equal(t, "survey does not match", out["reason"])
	require.Equal(t, "invalid_state", f.post(t, "/v1/parcels/"+rejected["id"].(string)+"/certify", f.notary, nil, 409)["code"])
	require.Equal(t, "invalid_state", f.post(t, "/v1/parcels/"+rejected["id"].(string)+"/transfer", f.agent, transferBody(parcelNotary), 409)["code"])

	id := f.create(t, parcelNotary)["id"].(string)
	f.post(t, "/v1/parcels/"+id+"/certify", f.admin, `{}`, 200)

	first := f.post(t, "/v1/parcels/"+id+"/transfer", f.agent, transferBody(parcelNotary), 202)
	require.Equal(t, "REJECTED", f.post(t, "/v1/transfers/"+first["id"].(string)+"/reject", f.notary, `{"reason":"seller absent"}`, 200)["status"])
	second := f.post(t, "/v1/parcels/"+id+"/transfer", f.agent, transferBody(parcelNotary), 202)
	require.Equal(t, "not_found", f.post(t, "/v1/transfers/"+second["id"].(string)+"/cancel", f.otherAcct, nil, 404)["code"])
	require.Equal(t, "CANCELLED", f.post(t, "/v1/transfers/"+second["id"].(string)+"/cancel", f.agent, nil, 200)["status"])
	p := attrs(t, h.do(request{method: "GET", path: "/v1/parcels/" + id, token: f.agent}))
	require.EqualValues(t, 1, p["version"], "a rejected or cancelled transfer changes nothing")
	require.Len(t, dataList(t, h.do(request{method: "GET", path: "/v1/parcels/" + id + "/transfers", token: f.agent})), 2)
}

func TestParcelIdempotencyUnderConcurrency(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.RateLimits.Disabled = true })
	f := newParcelFlow(h, veriland.Production)
	h.sameKeyConcurrently(t, 100, request{method: "POST", path: "/v1/parcels", token: f.agent, body: parcelBody(parcelNotary),
		header: map[string]string{"Idempotency-Key": "9f1c6f0e-5d0a-4c1e-9a57-0d8f3f0e2b11"}})
	require.Len(t, dataList(t, h.do(request{method: "GET", path: "/v1/parcels", token: f.agent})), 1, "exactly one parcel")
}

func TestParcelValidation(t *testing.T) {
	h := newHarness(t)
	f := newParcelFlow(h, veriland.Sandbox)
	tests := []struct {
		name, body string
		status     int
		pointers   []string
	}{
		{"everything wrong", `{"owner":{"fullName":"","id_doc":""},"parcel":{"gps":[91,181],"area_m2":0,"city":""},"notary":"NOTARY-1"}`, 400,
			[]string{"/owner/fullName", "/owner/id_doc", "/parcel/gps/0", "/parcel/gps/1", "/parcel/area_m2", "/parcel/city", "/notary"}},
		{"missing members", `{}`, 400, []string{"/owner", "/parcel", "/notary"}},
		{"gps of three", `{"owner":{"fullName":"A","id_doc":"B"},"parcel":{"gps":[1,2,3],"area_m2":1,"city":"C"},"notary":"NOT-AB-1"}`, 400, []string{"/parcel/gps"}},
		{"unknown member", `{"owner":{"fullName":"A","id_doc":"B","dob":"1990"},"parcel":{"gps":[1,2],"area_m2":1,"city":"C"},"notary":"NOT-AB-1"}`, 400, []string{"/owner/dob"}},
		{"wrong type", `{"owner":{"fullName":"A","id_doc":"B"},"parcel":{"gps":[1,2],"area_m2":"big","city":"C"},"notary":"NOT-AB-1"}`, 400, []string{"/parcel/area_m2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := h.do(request{method: "POST", path: "/v1/parcels", token: f.agent, body: tt.body})
			require.Equal(t, tt.status, r.status, string(r.body))
			require.ElementsMatch(t, tt.pointers, errorPointers(t, r))
		})
	}
	r := h.do(request{method: "POST", path: "/v1/parcels", token: f.agent, body: "x", header: map[string]string{"Content-Type": "text/plain"}})
	require.Equal(t, 415, r.status)
	require.Equal(t, 401, h.do(request{method: "POST", path: "/v1/parcels", body: parcelBody(parcelNotary)}).status)
	tr := h.do(request{method: "POST", path: "/v1/parcels/prc_aaaaaaaaaaaaaaaaaaaaaaaaaa/transfer", token: f.agent, body: `{"newOwner":{"fullName":"A"},"notary":"x"}`})
	require.Equal(t, 400, tr.status)
	require.ElementsMatch(t, []string{"/newOwner/id_doc", "/notary"}, errorPointers(t, tr))
}

func TestParcelEnvironmentIsolation(t *testing.T) {
	h := newHarness(t)
	prod := newParcelFlow(h, veriland.Production)
	sbx := newParcelFlow(h, veriland.Sandbox)
	id := prod.create(t, parcelNotary)["id"].(string)
	hash := prod.post(t, "/v1/parcels/"+id+"/certify", prod.notary, nil, 200)["certificateHash"].(string)

	// A SANDBOX token, of any role, never sees the PRODUCTION parcel.
	for _, tok := range []string{sbx.agent, sbx.notary, sbx.admin} {
		for _, path := range []string{"/v1/parcels/" + id, "/v1/parcels/" + id + "/certificate", "/v1/parcels/" + id + "/history", "/v1/parcels/" + id + "/transfers"} {
			require.Equal(t, 404, h.do(request{method: "GET", path: path, token: tok}).status, path)
		}
		require.Equal(t, 404, h.do(request{method: "POST", path: "/v1/parcels/" + id + "/transfer", token: tok, body: transferBody(parcelNotary)}).status)
		for _, it := range dataList(t, h.do(request{method: "GET", path: "/v1/parcels", token: tok})) {
			require.NotEqual(t, id, it.(map[string]any)["id"], "a SANDBOX list shows the PRODUCTION parcel")
		}
	}
	require.Equal(t, 404, h.do(request{method: "POST", path: "/v1/parcels/" + id + "/revoke", token: sbx.admin}).status)
	require.Equal(t, 404, h.do(request{method: "GET", path: "/v1/registry/verify/" + hash, token: sbx.agent}).status)
	require.Equal(t, 404, h.do(request{method: "GET", path: "/v1/registry/verify/" + hash, header: map[string]string{"Veriland-Environment": "SANDBOX"}}).status)
	require.Equal(t, 200, h.do(request{method: "GET", path: "/v1/registry/verify/" + hash, header: map[string]string{"Veriland-Environment": "PRODUCTION"}}).status)
}

func TestRegistryVerifyRefusesBadHashes(t *testing.T) {
	h := newHarness(t)
	newParcelFlow(h, veriland.Production)
	for _, bad := range []string{"abc", "0x1234", "0x" + strings.Repeat("g", 64), strings.Repeat("a", 66), "0x" + strings.Repeat("a", 65)} {
		r := h.do(request{method: "GET", path: "/v1/registry/verify/" + bad})
		require.Equal(t, 400, r.status, bad)
		require.Equal(t, "validation_failed", r.errorCode(t))
		require.Equal(t, []string{"/hash"}, errorPointers(t, r))
	}
	unknown := "0x" + strings.Repeat("ab", 32)
	r := h.do(request{method: "GET", path: "/v1/registry/verify/" + unknown})
	require.Equal(t, 404, r.status)
	require.Equal(t, "not_found", r.errorCode(t))
	page := h.do(request{method: "GET", path: "/v1/registry/verify/" + unknown, header: map[string]string{"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}})
	require.Equal(t, 404, page.status)
	require.Equal(t, "text/html; charset=utf-8", page.header.Get("Content-Type"))
	require.Contains(t, string(page.body), "Certificate not found")
	require.NotEmpty(t, page.header.Get("Content-Security-Policy"))
	require.Equal(t, 400, h.do(request{method: "GET", path: "/v1/tokens/0123"}).status)
	require.Equal(t, 404, h.do(request{method: "GET", path: "/v1/tokens/12345"}).status)
}

func TestParcelSandboxNotaries(t *testing.T) {
	h := newHarness(t)
	f := newParcelFlow(h, veriland.Sandbox)
	require.Equal(t, "CERTIFIED", f.create(t, "NOT-SBX-1")["status"])
	require.Equal(t, "REJECTED", f.create(t, "NOT-SBX-2")["status"])
	require.Equal(t, "PENDING_NOTARY", f.create(t, "NOT-SBX-3")["status"])
}

// TestParcelPersonalDataNotAtRest: after a full flow (create with an Idempotency-Key,
// certify, transfer with one, approve), the bbolt file holds neither owner's name
// nor id_doc (SPEC S9, S2.4).
func TestParcelPersonalDataNotAtRest(t *testing.T) {
	h := newHarness(t)
	f := newParcelFlow(h, veriland.Production)
	r := h.do(request{method: "POST", path: "/v1/parcels", token: f.agent, body: parcelBody(parcelNotary),
		header: map[string]string{"Idempotency-Key": "create-1"}})
	require.Equal(t, 201, r.status)
	id := attrs(t, r)["id"].(string)
	again := h.do(request{method: "POST", path: "/v1/parcels", token: f.agent, body: parcelBody(parcelNotary),
		header: map[string]string{"Idempotency-Key": "create-1"}})
	require.Equal(t, "true", again.header.Get("Idempotent-Replayed"))
	require.Equal(t, r.body, again.body, "replayed byte for byte, from the sealed record")
	f.post(t, "/v1/parcels/"+id+"/certify", f.notary, nil, 200)
	tr := h.do(request{method: "POST", path: "/v1/parcels/" + id + "/transfer", token: f.agent, body: transferBody(parcelNotary),
		header: map[string]string{"Idempotency-Key": "transfer-1"}})
	require.Equal(t, 202, tr.status)
	f.post(t, "/v1/transfers/"+attrs(t, tr)["id"].(string)+"/approve", f.notary, nil, 200)
	require.Equal(t, 200, h.do(request{method: "GET", path: "/v1/parcels/" + id + "/certificate", token: f.agent, header: map[string]string{"Accept": "application/pdf"}}).status)

	h.ts.Close()
	require.NoError(t, h.store.Close())
	raw, err := os.ReadFile(h.storePath)
	require.NoError(t, err)
	require.Greater(t, len(raw), 0)
	for _, secret := range []string{ownerName, ownerIDDoc, buyerName, buyerIDDoc, "Amina", "Chukwuemeka", "83920174655", "55501928374"} {
		require.False(t, bytes.Contains(raw, []byte(secret)), "%q is in the database file", secret)
	}
}
