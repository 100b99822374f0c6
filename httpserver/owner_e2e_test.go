package httpserver

import (
	"bytes"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/webhook"
	"github.com/veriland/veriland/internal/ethsig"
)

// ownerWorld is one account's land registry with owners who hold wallets (SPEC S13),
// driven through the server: an API key of the account named "Abuja Land Agency"
// creates parcels and asks for transfers, the named notary decides, and the seller,
// the buyer and a stranger hold wallets. With a receiver, parcels are created with a
// callbackUrl to it.
type ownerWorld struct {
	h                       *harness
	env                     veriland.Environment
	agent                   string // the account's API key (verifier role)
	notary, otherNotary     string // NOT-ABJ-0042 (named on every parcel) and NOT-LAG-7
	admin, admin2           string // two admins of the account
	seller, buyer, stranger *ecdsa.PrivateKey
	rc                      *receiver
}

const requesterName = "Abuja Land Agency"

func newOwnerWorld(t *testing.T, h *harness, env veriland.Environment, rc *receiver) *ownerWorld {
	t.Helper()
	w := &ownerWorld{h: h, env: env, rc: rc,
		notary:      h.token(veriland.RoleNotary, env, parcelNotary),
		otherNotary: h.token(veriland.RoleNotary, env, "NOT-LAG-7", func(p *veriland.Principal) { p.Account = "" }),
		admin:       h.token(veriland.RoleAdmin, env, "admin"),
		admin2:      h.token(veriland.RoleAdmin, env, "second-admin"),
		seller:      mustKey(t), buyer: mustKey(t), stranger: mustKey(t),
	}
	_, w.agent = createNamedKey(t, h, w.admin, "verifier", "agency-abuja", requesterName)
	return w
}

func addressOf(k *ecdsa.PrivateKey) string { return crypto.PubkeyToAddress(k.PublicKey).Hex() }

func lowerAddress(k *ecdsa.PrivateKey) string { return strings.ToLower(addressOf(k)) }

// create posts a parcel as tok whose owner holds owner's wallet (nil: none) and
// returns its attributes.
func (w *ownerWorld) create(t *testing.T, tok string, owner *ecdsa.PrivateKey, notary string) map[string]any {
	t.Helper()
	o := map[string]any{"fullName": ownerName, "id_doc": ownerIDDoc}
	if owner != nil {
		o["walletAddress"] = addressOf(owner)
	}
	body := map[string]any{"owner": o, "parcel": map[string]any{"gps": []float64{9.0765, 7.3986}, "area_m2": 1200, "city": "Abuja"}, "notary": notary}
	if w.rc != nil {
		body["callbackUrl"] = w.rc.srv.URL + "/parcels"
	}
	r := w.h.do(request{method: "POST", path: "/v1/parcels", token: tok, body: body})
	require.Equal(t, http.StatusCreated, r.status, string(r.body))
	return attrs(t, r)
}

// post sends body to path as tok, checks the status, and returns the exchange.
func (w *ownerWorld) post(t *testing.T, path, tok string, body any, want int) response {
	t.Helper()
	r := w.h.do(request{method: "POST", path: path, token: tok, body: body})
	require.Equal(t, want, r.status, string(r.body))
	return r
}

// walletParcel creates a parcel of owner (nil: without a wallet) as the agent and has
// the named notary certify it; it returns the certified parcel's attributes.
func (w *ownerWorld) walletParcel(t *testing.T, owner *ecdsa.PrivateKey) map[string]any {
	t.Helper()
	id := w.create(t, w.agent, owner, parcelNotary)["id"].(string)
	return attrs(t, w.post(t, "/v1/parcels/"+id+"/certify", w.notary, `{}`, http.StatusOK))
}

// transferBody is a transfer request to the buyer (with its wallet unless
// withoutWallet) before parcelNotary, with extra's members.
func (w *ownerWorld) transferBody(extra map[string]any, withoutWallet bool) map[string]any {
	no := map[string]any{"fullName": buyerName, "id_doc": buyerIDDoc}
	if !withoutWallet {
		no["walletAddress"] = addressOf(w.buyer)
	}
	body := map[string]any{"newOwner": no, "notary": parcelNotary}
	for k, v := range extra {
		body[k] = v
	}
	return body
}

// transfer asks, as tok, for the transfer of parcel id to the buyer and returns the
// transfer's attributes (202).
func (w *ownerWorld) transfer(t *testing.T, tok, id string, extra map[string]any) map[string]any {
	t.Helper()
	return attrs(t, w.post(t, "/v1/parcels/"+id+"/transfer", tok, w.transferBody(extra, false), http.StatusAccepted))
}

// ownerDecision plays the owner's wallet on a transfer as served (its attributes):
// the served typed data plus the decision, hashed by go-ethereum, signed by key.
func ownerDecision(t testing.TB, transfer map[string]any, key *ecdsa.PrivateKey, decision string) map[string]any {
	t.Helper()
	oc, ok := transfer["ownerConsent"].(map[string]any)
	require.True(t, ok, "no ownerConsent in %v", transfer)
	raw, err := json.Marshal(oc["typedData"])
	require.NoError(t, err)
	var td apitypes.TypedData
	require.NoError(t, json.Unmarshal(raw, &td))
	require.NotContains(t, td.Message, "decision", "the transfer serves the message without the decision")
	td.Message["decision"] = decision
	digest, _, err := apitypes.TypedDataAndHash(td)
	require.NoError(t, err)
	sig, err := ethsig.Sign(key, [32]byte(digest))
	require.NoError(t, err)
	return map[string]any{"decision": decision, "ownerSignature": hexutil.Encode(sig), "ownerAddress": addressOf(key)}
}

// decide posts an owner's decision (no token: the signature is the authentication).
func (w *ownerWorld) decide(t *testing.T, id string, body any, want int) response {
	t.Helper()
	r := w.h.do(request{method: "POST", path: "/v1/transfers/" + id + "/owner-consent", body: body})
	require.Equal(t, want, r.status, string(r.body))
	return r
}

// ownerContext reads GET /v1/transfers/{id}/owner-consent as JSON, without a token.
func (w *ownerWorld) ownerContext(t *testing.T, id string) (response, map[string]any) {
	t.Helper()
	r := w.h.do(request{method: "GET", path: "/v1/transfers/" + id + "/owner-consent", header: map[string]string{headerEnvironment: string(w.env)}})
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	require.Equal(t, mediaJSONAPI, r.header.Get("Content-Type"))
	return r, attrs(t, r)
}

func (w *ownerWorld) transferStatus(t *testing.T, id string) string {
	t.Helper()
	r := w.h.do(request{method: "GET", path: "/v1/transfers/" + id, token: w.agent})
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	return attrs(t, r)["status"].(string)
}

// audit lists the audit entries of action about resource id (newest first).
func (w *ownerWorld) audit(t *testing.T, action, id string) []map[string]any {
	t.Helper()
	r := w.h.do(request{method: "GET", path: "/v1/audit?limit=100&action=" + action, token: w.admin})
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	var out []map[string]any
	for _, it := range dataList(t, r) {
		a := it.(map[string]any)["attributes"].(map[string]any)
		require.Equal(t, action, a["action"])
		if a["resourceId"] == id {
			out = append(out, a)
		}
	}
	return out
}

// ownerHook is a webhook the receiver got: its type and data.
type ownerHook struct {
	typ  string
	data map[string]any
}

// hooks delivers what is due and returns every webhook the receiver got, checking
// each one's signature with the agent's secret and that it names no one.
func (w *ownerWorld) hooks(t *testing.T) []ownerHook {
	t.Helper()
	w.h.runOutbox(t)
	sr := w.h.do(request{method: "GET", path: "/v1/webhooks/secret", token: w.agent})
	require.Equal(t, http.StatusOK, sr.status, string(sr.body))
	secret, err := webhook.ParseSecret(attrs(t, sr)["secret"].(string))
	require.NoError(t, err)
	var out []ownerHook
	for _, hk := range w.rc.got() {
		require.NoError(t, webhook.Verify(hk.header, hk.body, []webhook.Secret{secret}, w.h.clock.Now()))
		for _, personal := range []string{ownerName, ownerIDDoc, buyerName, buyerIDDoc} {
			require.NotContains(t, string(hk.body), personal)
		}
		var p struct {
			Type string         `json:"type"`
			Data map[string]any `json:"data"`
		}
		require.NoError(t, json.Unmarshal(hk.body, &p))
		out = append(out, ownerHook{typ: p.Type, data: p.Data})
	}
	return out
}

// hooksOf returns the webhooks of type typ about transfer id.
func hooksOf(all []ownerHook, typ, id string) []ownerHook {
	var out []ownerHook
	for _, h := range all {
		if h.typ == typ && h.data["transferId"] == id {
			out = append(out, h)
		}
	}
	return out
}

// ownerErr returns the first error object of r.
func ownerErr(t *testing.T, r response) map[string]any {
	t.Helper()
	errs, _ := r.json(t)["errors"].([]any)
	require.NotEmpty(t, errs, string(r.body))
	return errs[0].(map[string]any)
}

func ownerErrMeta(t *testing.T, r response, key string) any {
	t.Helper()
	meta, _ := ownerErr(t, r)["meta"].(map[string]any)
	return meta[key]
}

// noNames fails when b holds a name or an id_doc of the owner or of the buyer.
func noNames(t *testing.T, b []byte) {
	t.Helper()
	for _, s := range []string{ownerName, ownerIDDoc, buyerName, buyerIDDoc, "Amina", "Chukwuemeka", "83920174655", "55501928374", "fullName"} {
		require.NotContains(t, string(b), s)
	}
}

// TestOwnerTransferThroughServer walks an owner-signed transfer through every route
// of SPEC S13 in PRODUCTION: a wallet on the parcel, bound at certification; the
// transfer waits for the owner; the owner's page; the refusals (the notary approving
// too early, signatures by another wallet or over another message); the owner's
// signed approval; the notary's approval; the new owner's wallet listing the parcel.
func TestOwnerTransferThroughServer(t *testing.T) {
	h := newHarness(t)
	w := newOwnerWorld(t, h, veriland.Production, nil)

	// A mixed-case wallet with a bad EIP-55 checksum is refused.
	good := addressOf(w.seller)
	bad := []byte(good)
	for i := 2; i < len(bad); i++ {
		if c := bad[i]; (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') {
			bad[i] ^= 0x20
			break
		}
	}
	r := h.do(request{method: "POST", path: "/v1/parcels", token: w.agent, body: map[string]any{
		"owner":  map[string]any{"fullName": ownerName, "id_doc": ownerIDDoc, "walletAddress": string(bad)},
		"parcel": map[string]any{"gps": []float64{9.0765, 7.3986}, "area_m2": 1200, "city": "Abuja"}, "notary": parcelNotary}})
	require.Equal(t, http.StatusBadRequest, r.status, string(r.body))
	require.Equal(t, "validation_failed", r.errorCode(t))
	require.Equal(t, []string{"/owner/walletAddress"}, errorPointers(t, r))

	// Created with the wallet: not bound yet.
	created := w.create(t, w.agent, w.seller, parcelNotary)
	id := created["id"].(string)
	owner := created["owner"].(map[string]any)
	require.Equal(t, lowerAddress(w.seller), owner["walletAddress"])
	require.Equal(t, "NONE", owner["binding"])
	require.NotContains(t, owner, "did")

	// The named notary certifies: the wallet is bound and holds the token.
	certified := attrs(t, w.post(t, "/v1/parcels/"+id+"/certify", w.notary, `{}`, http.StatusOK))
	owner = certified["owner"].(map[string]any)
	require.Equal(t, "NOTARY_VERIFIED", owner["binding"])
	require.Equal(t, lowerAddress(w.seller), certified["token"].(map[string]any)["holder"])
	cert := attrs(t, h.do(request{method: "GET", path: "/v1/parcels/" + id + "/certificate", token: w.agent}))
	require.Equal(t, lowerAddress(w.seller), cert["certificate"].(map[string]any)["owner"].(map[string]any)["walletAddress"])
	require.Equal(t, addressOf(w.seller), cert["typedData"].(map[string]any)["message"].(map[string]any)["ownerWallet"])
	_, verified := newParcelFlow(h, w.env).verify(t, certified["certificateHash"].(string))
	require.Equal(t, lowerAddress(w.seller), verified["ownerWallet"])
	require.Equal(t, "NOTARY_VERIFIED", verified["ownerBinding"])

	// The seller's wallet, signed in, lists the parcel.
	sellerTok, _ := h.login(t, w.seller, w.env)
	mine := h.do(request{method: "GET", path: "/v1/me/parcels", token: sellerTok})
	require.Equal(t, http.StatusOK, mine.status, string(mine.body))
	list := dataList(t, mine)
	require.Len(t, list, 1)
	require.Equal(t, "owned-parcels", list[0].(map[string]any)["type"])
	require.Equal(t, id, list[0].(map[string]any)["id"])
	noNames(t, mine.body)
	for _, tok := range []string{w.agent, w.notary, w.admin} {
		require.Equal(t, http.StatusForbidden, h.do(request{method: "GET", path: "/v1/me/parcels", token: tok}).status)
	}

	// A notary never asks for a transfer.
	nr := w.post(t, "/v1/parcels/"+id+"/transfer", w.notary, w.transferBody(nil, false), http.StatusForbidden)
	require.Equal(t, "forbidden", nr.errorCode(t))
	require.Equal(t, "separation_of_duties", ownerErrMeta(t, nr, "reason"))

	// The account asks: PENDING_OWNER, with what the owner signs.
	tr := w.transfer(t, w.agent, id, nil)
	trID := tr["id"].(string)
	require.Equal(t, "PENDING_OWNER", tr["status"])
	oc := tr["ownerConsent"].(map[string]any)
	require.Equal(t, "OWNER_SIGNATURE", oc["method"])
	require.Equal(t, "http://veriland.test/v1/transfers/"+trID+"/owner-consent", oc["url"])
	require.Equal(t, lowerAddress(w.seller), oc["ownerWallet"])
	require.Equal(t, h.clock.Now().Add(7*24*time.Hour), jsonTime(t, oc["deadline"]), "seven days by default")
	td := oc["typedData"].(map[string]any)
	require.Equal(t, "TransferConsent", td["primaryType"])
	require.Equal(t, "Land Transfer", td["domain"].(map[string]any)["name"])
	require.NotContains(t, td["message"], "decision")
	require.Equal(t, trID, td["message"].(map[string]any)["transferId"])
	require.Equal(t, addressOf(w.buyer), td["message"].(map[string]any)["newOwnerWallet"])

	// The open transfers awaiting owners, for the notary and the account.
	for _, tok := range []string{w.notary, w.agent, w.admin} {
		pending := dataList(t, h.do(request{method: "GET", path: "/v1/transfers?status=PENDING_OWNER", token: tok}))
		require.Len(t, pending, 1)
		require.Equal(t, trID, pending[0].(map[string]any)["id"])
		require.Empty(t, dataList(t, h.do(request{method: "GET", path: "/v1/transfers?status=PENDING_NOTARY", token: tok})))
	}
	require.Empty(t, dataList(t, h.do(request{method: "GET", path: "/v1/transfers?status=PENDING_OWNER", token: w.otherNotary})))
	// The owner's list shows the transfer to sign and where.
	mine = h.do(request{method: "GET", path: "/v1/me/parcels", token: sellerTok})
	item := dataList(t, mine)[0].(map[string]any)
	require.Equal(t, trID, item["attributes"].(map[string]any)["openTransfer"].(map[string]any)["id"])
	require.Equal(t, "PENDING_OWNER", item["attributes"].(map[string]any)["openTransfer"].(map[string]any)["status"])
	require.Equal(t, "http://veriland.test/v1/transfers/"+trID+"/owner-consent", item["links"].(map[string]any)["ownerConsent"])

	// The owner's page: who asks, for what, never a name.
	raw, ctx := w.ownerContext(t, trID)
	noNames(t, raw.body)
	require.Equal(t, "owner-consents", raw.json(t)["data"].(map[string]any)["type"])
	require.Equal(t, trID, ctx["transferId"])
	require.Equal(t, "PENDING_OWNER", ctx["status"])
	require.Equal(t, map[string]any{"id": id, "city": "Abuja", "version": float64(1), "area_m2": float64(1200)}, ctx["parcel"])
	require.Equal(t, parcelNotary, ctx["notary"])
	require.Equal(t, requesterName, ctx["requester"].(map[string]any)["name"])
	require.Equal(t, map[string]any{"idDocLast4": "8374", "walletAddress": lowerAddress(w.buyer)}, ctx["newOwner"])
	require.Equal(t, lowerAddress(w.seller), ctx["ownerWallet"])
	require.Nil(t, ctx["ownerDecision"])
	require.Equal(t, td, ctx["typedData"], "the page signs what the transfer serves")
	page := h.do(request{method: "GET", path: "/v1/transfers/" + trID + "/owner-consent", header: map[string]string{"Accept": "text/html"}})
	require.Equal(t, http.StatusOK, page.status)
	require.True(t, strings.HasPrefix(page.header.Get("Content-Type"), "text/html"))
	noNames(t, page.body)
	require.Equal(t, http.StatusNotFound, h.do(request{method: "GET", path: "/v1/transfers/trf_aaaaaaaaaaaaaaaaaaaaaaaaaa/owner-consent"}).status)

	// The notary cannot approve before the owner signed.
	early := w.post(t, "/v1/transfers/"+trID+"/approve", w.notary, `{}`, http.StatusConflict)
	require.Equal(t, "invalid_state", early.errorCode(t))
	require.Equal(t, "PENDING_OWNER", ownerErrMeta(t, early, "status"))

	// Refusals: another wallet, another message, a high-s twin, a stranger's address,
	// a malformed body, an unknown transfer.
	approve := ownerDecision(t, tr, w.seller, "APPROVED")
	withSig := func(sig string) map[string]any {
		return map[string]any{"decision": "APPROVED", "ownerSignature": sig, "ownerAddress": addressOf(w.seller)}
	}
	sig := hexutil.MustDecode(approve["ownerSignature"].(string))
	n := crypto.S256().Params().N
	s := new(big.Int).SetBytes(sig[32:64])
	high := append(append(append([]byte{}, sig[:32]...), new(big.Int).Sub(n, s).FillBytes(make([]byte, 32))...), 27+28-sig[64])
	refusals := []struct {
		name    string
		body    any
		status  int
		code    string
		pointer string
	}{
		{"signed by another wallet", withSig(ownerDecision(t, tr, w.stranger, "APPROVED")["ownerSignature"].(string)), 422, "invalid_signature", "/ownerSignature"},
		{"signed by the buyer", withSig(ownerDecision(t, tr, w.buyer, "APPROVED")["ownerSignature"].(string)), 422, "invalid_signature", "/ownerSignature"},
		{"signed over another message", withSig(ownerDecision(t, tr, w.seller, "REJECTED")["ownerSignature"].(string)), 422, "invalid_signature", "/ownerSignature"},
		{"high-s twin", withSig(hexutil.Encode(high)), 422, "invalid_signature", "/ownerSignature"},
		{"another wallet's address", ownerDecision(t, tr, w.stranger, "APPROVED"), 422, "invalid_signature", "/ownerAddress"},
		{"decision MAYBE", map[string]any{"decision": "MAYBE", "ownerSignature": approve["ownerSignature"], "ownerAddress": addressOf(w.seller)}, 400, "validation_failed", "/decision"},
		{"unknown member", map[string]any{"decision": "APPROVED", "ownerSignature": approve["ownerSignature"], "ownerAddress": addressOf(w.seller), "holderSignature": "0x"}, 400, "unknown_field", ""},
	}
	for _, rf := range refusals {
		t.Run(rf.name, func(t *testing.T) {
			r := w.decide(t, trID, rf.body, rf.status)
			require.Equal(t, rf.code, r.errorCode(t))
			if rf.pointer != "" {
				require.Equal(t, []string{rf.pointer}, errorPointers(t, r))
			}
		})
	}
	w.decide(t, "trf_aaaaaaaaaaaaaaaaaaaaaaaaaa", approve, http.StatusNotFound)
	require.Equal(t, "PENDING_OWNER", w.transferStatus(t, trID), "no refusal changed anything")

	// The owner approves: PENDING_NOTARY; a second answer is 409.
	ok := attrs(t, w.decide(t, trID, approve, http.StatusOK))
	require.Equal(t, "PENDING_NOTARY", ok["status"])
	require.Equal(t, "APPROVED", ok["ownerConsent"].(map[string]any)["decision"])
	require.Equal(t, lowerAddress(w.seller), ok["ownerConsent"].(map[string]any)["signer"])
	again := w.decide(t, trID, approve, http.StatusConflict)
	require.Equal(t, "invalid_state", again.errorCode(t))
	require.Equal(t, "PENDING_NOTARY", ownerErrMeta(t, again, "status"))
	_, ctx = w.ownerContext(t, trID)
	require.Equal(t, "APPROVED", ctx["ownerDecision"].(map[string]any)["decision"])
	require.Len(t, w.audit(t, "transfer.owner_approved", trID), 1)

	// The wrong notary is refused; the named notary completes.
	w.post(t, "/v1/transfers/"+trID+"/approve", w.otherNotary, `{}`, http.StatusForbidden)
	done := attrs(t, w.post(t, "/v1/transfers/"+trID+"/approve", w.notary, `{}`, http.StatusOK))
	require.Equal(t, "COMPLETED", done["status"])
	after := attrs(t, h.do(request{method: "GET", path: "/v1/parcels/" + id, token: w.agent}))
	require.Equal(t, lowerAddress(w.buyer), after["owner"].(map[string]any)["walletAddress"])
	require.Equal(t, "NOTARY_VERIFIED", after["owner"].(map[string]any)["binding"])
	require.Equal(t, lowerAddress(w.buyer), after["token"].(map[string]any)["holder"])
	hist := dataList(t, h.do(request{method: "GET", path: "/v1/parcels/" + id + "/history", token: w.agent}))
	require.Len(t, hist, 2)
	v2 := hist[1].(map[string]any)["attributes"].(map[string]any)
	require.Equal(t, trID, v2["transferId"])
	require.Equal(t, "OWNER_SIGNATURE", v2["ownerConsent"])
	require.Equal(t, lowerAddress(w.buyer), v2["ownerWallet"])
	// The public verification page shows the new owner's wallet, never a name.
	vp := h.do(request{method: "GET", path: "/v1/registry/verify/" + after["certificateHash"].(string), header: map[string]string{"Accept": "text/html"}})
	require.Equal(t, http.StatusOK, vp.status)
	require.Contains(t, string(vp.body), lowerAddress(w.buyer))
	noNames(t, vp.body)
	completed := w.audit(t, "transfer.completed", trID)
	require.Len(t, completed, 1)
	require.Equal(t, "OWNER_SIGNATURE", completed[0]["detail"].(map[string]any)["ownerConsent"])

	// The seller's wallet no longer lists the parcel; the buyer's does.
	require.Empty(t, dataList(t, h.do(request{method: "GET", path: "/v1/me/parcels", token: sellerTok})))
	buyerTok, _ := h.login(t, w.buyer, w.env)
	bl := dataList(t, h.do(request{method: "GET", path: "/v1/me/parcels", token: buyerTok}))
	require.Len(t, bl, 1)
	require.Equal(t, id, bl[0].(map[string]any)["id"])
	// And the next transfer waits for the buyer's signature.
	next := w.transfer(t, w.agent, id, nil)
	require.Equal(t, lowerAddress(w.buyer), next["ownerConsent"].(map[string]any)["ownerWallet"])
	w.decide(t, next["id"].(string), ownerDecision(t, next, w.seller, "APPROVED"), http.StatusUnprocessableEntity)
}

// TestOwnerSeparationOfDutiesRoutes: no single principal moves land, admins included:
// a notary's transfer request, the requester approving, the creator certifying are
// 403 with meta.reason separation_of_duties; another principal may; the sandbox
// notaries still decide at once.
func TestOwnerSeparationOfDutiesRoutes(t *testing.T) {
	h := newHarness(t)
	w := newOwnerWorld(t, h, veriland.Production, nil)
	requireSeparation := func(t *testing.T, r response) {
		t.Helper()
		require.Equal(t, http.StatusForbidden, r.status, string(r.body))
		require.Equal(t, "forbidden", r.errorCode(t))
		require.Equal(t, "separation_of_duties", ownerErrMeta(t, r, "reason"))
	}

	// The creator (an admin of the account) never certifies its own parcel.
	id := w.create(t, w.admin, w.seller, parcelNotary)["id"].(string)
	requireSeparation(t, h.do(request{method: "POST", path: "/v1/parcels/" + id + "/certify", token: w.admin, body: `{}`}))
	require.Equal(t, "PENDING_NOTARY", attrs(t, h.do(request{method: "GET", path: "/v1/parcels/" + id, token: w.admin}))["status"])
	w.post(t, "/v1/parcels/"+id+"/certify", w.admin2, `{}`, http.StatusOK)

	// A notary never asks, not even the parcel's own notary.
	requireSeparation(t, h.do(request{method: "POST", path: "/v1/parcels/" + id + "/transfer", token: w.notary, body: w.transferBody(nil, false)}))

	// The requester (an admin) never approves, even after the owner signed.
	tr := w.transfer(t, w.admin, id, nil)
	trID := tr["id"].(string)
	w.decide(t, trID, ownerDecision(t, tr, w.seller, "APPROVED"), http.StatusOK)
	requireSeparation(t, h.do(request{method: "POST", path: "/v1/transfers/" + trID + "/approve", token: w.admin, body: `{}`}))
	require.Equal(t, "PENDING_NOTARY", w.transferStatus(t, trID))
	require.Equal(t, "COMPLETED", attrs(t, w.post(t, "/v1/transfers/"+trID+"/approve", w.admin2, `{}`, http.StatusOK))["status"])

	// An owner without a wallet: the admin's request is approved by the notary.
	plain := w.create(t, w.admin, nil, parcelNotary)["id"].(string)
	w.post(t, "/v1/parcels/"+plain+"/certify", w.notary, `{}`, http.StatusOK)
	ptr := w.transfer(t, w.admin, plain, nil)
	require.Equal(t, "PENDING_NOTARY", ptr["status"])
	requireSeparation(t, h.do(request{method: "POST", path: "/v1/transfers/" + ptr["id"].(string) + "/approve", token: w.admin, body: `{}`}))
	w.post(t, "/v1/transfers/"+ptr["id"].(string)+"/approve", w.notary, `{}`, http.StatusOK)

	// Sandbox notaries keep deciding at once, whoever asks.
	sbx := newOwnerWorld(t, h, veriland.Sandbox, nil)
	for _, tok := range []string{sbx.agent, sbx.admin} {
		p := sbx.create(t, tok, nil, "NOT-SBX-1")
		require.Equal(t, "CERTIFIED", p["status"])
		done := sbx.transfer(t, tok, p["id"].(string), map[string]any{"notary": "NOT-SBX-1"})
		require.Equal(t, "COMPLETED", done["status"])
		require.Equal(t, "REJECTED", sbx.create(t, tok, nil, "NOT-SBX-2")["status"])
	}
	// With a wallet owner the owner signs first, then NOT-SBX-1 completes at once.
	p := sbx.create(t, sbx.agent, sbx.seller, "NOT-SBX-1")
	str := sbx.transfer(t, sbx.agent, p["id"].(string), map[string]any{"notary": "NOT-SBX-1"})
	require.Equal(t, "PENDING_OWNER", str["status"])
	require.Equal(t, "COMPLETED", attrs(t, sbx.decide(t, str["id"].(string), ownerDecision(t, str, sbx.seller, "APPROVED"), http.StatusOK))["status"])
}

// TestOwnerEventsWebhooksAndAudit: each owner event — transfer.owner_approved,
// transfer.owner_rejected, transfer.expired (by the sweeper, nobody reading) — writes
// its audit entry and sends its signed webhook to the parcel's callbackUrl; a
// transfer of an owner without a wallet says NOTARY_WITNESSED in its audit entries,
// its webhooks and the history.
func TestOwnerEventsWebhooksAndAudit(t *testing.T) {
	h := newHarness(t, noRateLimits)
	rc := newReceiver(t)
	w := newOwnerWorld(t, h, veriland.Sandbox, rc) // a loopback callback is a sandbox one
	id := w.walletParcel(t, w.seller)["id"].(string)

	// transfer.owner_approved, then transfer.completed.
	tr := w.transfer(t, w.agent, id, nil)
	approved := tr["id"].(string)
	w.decide(t, approved, ownerDecision(t, tr, w.seller, "APPROVED"), http.StatusOK)
	w.post(t, "/v1/transfers/"+approved+"/approve", w.notary, `{}`, http.StatusOK)

	// transfer.owner_rejected, by the new owner.
	tr = w.transfer(t, w.agent, id, nil)
	rejected := tr["id"].(string)
	out := attrs(t, w.decide(t, rejected, ownerDecision(t, tr, w.buyer, "REJECTED"), http.StatusOK))
	require.Equal(t, "REJECTED", out["status"])
	require.Equal(t, "OWNER", out["rejectedBy"])

	// transfer.expired: the owner has a minute and does not answer; the sweeper ends it.
	tr = w.transfer(t, w.agent, id, map[string]any{"expiresInSeconds": 60})
	expired := tr["id"].(string)
	require.Equal(t, h.clock.Now().Add(time.Minute), jsonTime(t, tr["ownerConsent"].(map[string]any)["deadline"]))
	h.clock.Advance(61 * time.Second)
	before := len(hooksOf(w.hooks(t), "transfer.expired", expired))
	require.Zero(t, before, "nothing before the sweep")
	h.srv.sweep(t.Context())
	h.srv.sweep(t.Context()) // a second sweep (another replica) changes nothing
	require.Len(t, hooksOf(w.hooks(t), "transfer.expired", expired), 1, "the sweeper expired it, nobody reading")
	require.Equal(t, "EXPIRED", w.transferStatus(t, expired))
	late := w.decide(t, expired, ownerDecision(t, tr, w.buyer, "APPROVED"), http.StatusConflict)
	require.Equal(t, "EXPIRED", ownerErrMeta(t, late, "status"))

	// NOTARY_WITNESSED: an owner without a wallet.
	plain := w.walletParcel(t, nil)["id"].(string)
	ntr := attrs(t, w.post(t, "/v1/parcels/"+plain+"/transfer", w.agent, w.transferBody(nil, true), http.StatusAccepted))
	witnessed := ntr["id"].(string)
	require.Equal(t, "PENDING_NOTARY", ntr["status"])
	require.Equal(t, map[string]any{"method": "NOTARY_WITNESSED"}, ntr["ownerConsent"])
	w.post(t, "/v1/transfers/"+witnessed+"/approve", w.notary, `{}`, http.StatusOK)

	hooks := w.hooks(t)
	events := []struct {
		typ, parcel, transfer, status, consent, wallet, severity string
	}{
		{"transfer.owner_approved", id, approved, "PENDING_NOTARY", "OWNER_SIGNATURE", lowerAddress(w.seller), "INFO"},
		{"transfer.completed", id, approved, "COMPLETED", "OWNER_SIGNATURE", lowerAddress(w.buyer), "INFO"},
		{"transfer.owner_rejected", id, rejected, "REJECTED", "OWNER_SIGNATURE", lowerAddress(w.buyer), "NOTICE"},
		{"transfer.expired", id, expired, "EXPIRED", "OWNER_SIGNATURE", "", "NOTICE"},
		{"transfer.requested", plain, witnessed, "PENDING_NOTARY", "NOTARY_WITNESSED", "", "INFO"},
		{"transfer.completed", plain, witnessed, "COMPLETED", "NOTARY_WITNESSED", "", "INFO"},
	}
	for _, ev := range events {
		t.Run(ev.typ+" "+ev.consent, func(t *testing.T) {
			got := hooksOf(hooks, ev.typ, ev.transfer)
			require.Len(t, got, 1, "one webhook")
			data := got[0].data
			require.Equal(t, ev.status, data["status"])
			require.Equal(t, ev.consent, data["ownerConsent"])
			require.Equal(t, ev.parcel, data["parcelId"])
			entries := w.audit(t, ev.typ, ev.transfer)
			require.Len(t, entries, 1, "one audit entry")
			e := entries[0]
			require.Equal(t, "transfer", e["resourceType"])
			require.Equal(t, ev.severity, e["severity"])
			detail := e["detail"].(map[string]any)
			require.Equal(t, ev.status, detail["status"])
			require.Equal(t, ev.consent, detail["ownerConsent"])
			if ev.wallet != "" {
				require.Equal(t, ev.wallet, detail["ownerWallet"])
				require.Equal(t, ev.wallet, data["ownerWallet"])
			} else {
				require.NotContains(t, detail, "ownerWallet")
			}
		})
	}
	require.Equal(t, "system", w.audit(t, "transfer.expired", expired)[0]["actor"])
	require.Equal(t, lowerAddress(w.seller), w.audit(t, "transfer.owner_approved", approved)[0]["actor"])
	require.Len(t, w.audit(t, "transfer.requested", approved), 1)
	require.Equal(t, "OWNER_SIGNATURE", w.audit(t, "transfer.requested", approved)[0]["detail"].(map[string]any)["ownerConsent"])
	hist := dataList(t, h.do(request{method: "GET", path: "/v1/parcels/" + plain + "/history", token: w.agent}))
	require.Equal(t, "NOTARY_WITNESSED", hist[1].(map[string]any)["attributes"].(map[string]any)["ownerConsent"])
	require.Equal(t, witnessed, hist[1].(map[string]any)["attributes"].(map[string]any)["transferId"])
	al := h.do(request{method: "GET", path: "/v1/audit?limit=100", token: w.admin})
	noNames(t, al.body)
}

// TestOwnerConsentConcurrentPosts: 100 simultaneous posts of the owner's one valid
// signature (and a few by another wallet) make one transition, one audit entry and
// one webhook.
func TestOwnerConsentConcurrentPosts(t *testing.T) {
	h := newHarness(t, noRateLimits)
	rc := newReceiver(t)
	w := newOwnerWorld(t, h, veriland.Sandbox, rc)
	id := w.walletParcel(t, w.seller)["id"].(string)
	tr := w.transfer(t, w.agent, id, nil)
	trID := tr["id"].(string)
	valid := ownerDecision(t, tr, w.seller, "APPROVED")
	forged := ownerDecision(t, tr, w.stranger, "APPROVED")
	forged["ownerAddress"] = addressOf(w.seller)

	const n, bad = 100, 10
	statuses := make([]int, n+bad)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n + bad {
		body := valid
		if i >= n {
			body = forged
		}
		wg.Go(func() {
			<-start
			statuses[i] = h.do(request{method: "POST", path: "/v1/transfers/" + trID + "/owner-consent", body: body}).status
		})
	}
	close(start)
	wg.Wait()
	count := map[int]int{}
	for _, s := range statuses[:n] {
		count[s]++
	}
	require.Equal(t, map[int]int{http.StatusOK: 1, http.StatusConflict: n - 1}, count, "one transition")
	for _, s := range statuses[n:] {
		// Refused as forged while the transfer waits, as too late once decided.
		require.Contains(t, []int{http.StatusUnprocessableEntity, http.StatusConflict}, s)
	}
	forgedLate := w.decide(t, trID, forged, http.StatusConflict)
	require.Equal(t, "invalid_state", forgedLate.errorCode(t))
	require.Equal(t, "PENDING_NOTARY", w.transferStatus(t, trID))
	require.Len(t, w.audit(t, "transfer.owner_approved", trID), 1, "one audit entry")
	require.Len(t, hooksOf(w.hooks(t), "transfer.owner_approved", trID), 1, "one webhook")
	h.runOutbox(t)
	require.Len(t, hooksOf(w.hooks(t), "transfer.owner_approved", trID), 1, "still one")
}

// TestOwnerLivenessThroughServer: an owner whose wallet is an ACTIVE identity is
// IDENTITY_VERIFIED with its DID; a transfer asking requireLiveness is approved only
// once that identity holds a liveness attestation (422 liveness_required before).
func TestOwnerLivenessThroughServer(t *testing.T) {
	h := newHarness(t)
	w := newOwnerWorld(t, h, veriland.Sandbox, nil)
	did := h.issueIdentity(t, "seller-1", w.seller, "success")["did"].(string)
	p := w.walletParcel(t, w.seller)
	owner := p["owner"].(map[string]any)
	require.Equal(t, "IDENTITY_VERIFIED", owner["binding"])
	require.Equal(t, did, owner["did"])

	tr := w.transfer(t, w.agent, p["id"].(string), map[string]any{"requireLiveness": map[string]any{"minLevel": "L2", "maxAgeDays": 30}})
	trID := tr["id"].(string)
	require.Equal(t, map[string]any{"minLevel": "L2", "maxAgeDays": float64(30)}, tr["requireLiveness"])
	_, ctx := w.ownerContext(t, trID)
	require.Equal(t, tr["requireLiveness"], ctx["requireLiveness"])
	approve := ownerDecision(t, tr, w.seller, "APPROVED")
	r := w.decide(t, trID, approve, http.StatusUnprocessableEntity)
	require.Equal(t, "liveness_required", r.errorCode(t))
	require.Equal(t, "PENDING_OWNER", w.transferStatus(t, trID))
	h.livenessAttestation(t, did, "L1")
	require.Equal(t, "liveness_required", w.decide(t, trID, approve, http.StatusUnprocessableEntity).errorCode(t), "L1 is below L2")
	h.livenessAttestation(t, did, "L2")
	require.Equal(t, "PENDING_NOTARY", attrs(t, w.decide(t, trID, approve, http.StatusOK))["status"])

	// An owner without a wallet cannot be asked for liveness.
	plain := w.walletParcel(t, nil)["id"].(string)
	r = w.post(t, "/v1/parcels/"+plain+"/transfer", w.agent, w.transferBody(map[string]any{"requireLiveness": map[string]any{"minLevel": "L2"}}, false), http.StatusUnprocessableEntity)
	require.Equal(t, []string{"/requireLiveness"}, errorPointers(t, r))
	// Out-of-bounds deadlines and liveness are 400.
	for _, extra := range []map[string]any{{"expiresInSeconds": 59}, {"expiresInSeconds": 2592001}, {"requireLiveness": map[string]any{"minLevel": "L4"}}} {
		r := w.post(t, "/v1/parcels/"+plain+"/transfer", w.agent, w.transferBody(extra, false), http.StatusBadRequest)
		require.Equal(t, "validation_failed", r.errorCode(t), "%v", extra)
	}
}

// TestOwnerCancelRejectAndReaders: the requester may cancel and the notary reject a
// transfer that waits for its owner; a reader after the deadline sees it EXPIRED.
func TestOwnerCancelRejectAndReaders(t *testing.T) {
	h := newHarness(t)
	w := newOwnerWorld(t, h, veriland.Production, nil)
	id := w.walletParcel(t, w.seller)["id"].(string)

	tr := w.transfer(t, w.agent, id, nil)
	require.Equal(t, "CANCELLED", attrs(t, w.post(t, "/v1/transfers/"+tr["id"].(string)+"/cancel", w.agent, `{}`, http.StatusOK))["status"])
	w.decide(t, tr["id"].(string), ownerDecision(t, tr, w.seller, "APPROVED"), http.StatusConflict)

	tr = w.transfer(t, w.agent, id, nil)
	rej := attrs(t, w.post(t, "/v1/transfers/"+tr["id"].(string)+"/reject", w.notary, `{"reason":"papers missing"}`, http.StatusOK))
	require.Equal(t, "REJECTED", rej["status"])
	require.Equal(t, "NOTARY", rej["rejectedBy"])

	tr = w.transfer(t, w.agent, id, map[string]any{"expiresInSeconds": 3600})
	trID := tr["id"].(string)
	h.clock.Advance(time.Hour)
	_, ctx := w.ownerContext(t, trID)
	require.Equal(t, "EXPIRED", ctx["status"], "the owner's page shows it expired, without a sweep")
	require.Equal(t, "EXPIRED", w.transferStatus(t, trID))
	require.Len(t, w.audit(t, "transfer.expired", trID), 1)
	require.Empty(t, dataList(t, h.do(request{method: "GET", path: "/v1/transfers?status=PENDING_OWNER", token: w.notary})))
	// The parcel is free again.
	w.transfer(t, w.agent, id, nil)
}

// TestOwnerPersonalDataNotAtRest: after owner-signed flows (with Idempotency-Keys, so
// that stored responses count too) the database file holds neither the owner's nor
// the new owner's name nor id_doc.
func TestOwnerPersonalDataNotAtRest(t *testing.T) {
	h := newHarness(t)
	w := newOwnerWorld(t, h, veriland.Production, nil)
	key := 0
	idem := func() map[string]string {
		key++
		return map[string]string{"Idempotency-Key": fmt.Sprintf("owner-flow-%d", key)}
	}
	do := func(path, tok string, body any, want int) map[string]any {
		r := h.do(request{method: "POST", path: path, token: tok, body: body, header: idem()})
		require.Equal(t, want, r.status, string(r.body))
		return attrs(t, r)
	}
	p := do("/v1/parcels", w.agent, map[string]any{
		"owner":  map[string]any{"fullName": ownerName, "id_doc": ownerIDDoc, "walletAddress": addressOf(w.seller)},
		"parcel": map[string]any{"gps": []float64{9.0765, 7.3986}, "area_m2": 1200, "city": "Abuja"}, "notary": parcelNotary}, http.StatusCreated)
	id := p["id"].(string)
	do("/v1/parcels/"+id+"/certify", w.notary, `{}`, http.StatusOK)
	tr := do("/v1/parcels/"+id+"/transfer", w.agent, w.transferBody(nil, false), http.StatusAccepted)
	trID := tr["id"].(string)
	w.ownerContext(t, trID)
	h.do(request{method: "GET", path: "/v1/transfers/" + trID + "/owner-consent", header: map[string]string{"Accept": "text/html"}})
	do("/v1/transfers/"+trID+"/owner-consent", "", ownerDecision(t, tr, w.seller, "APPROVED"), http.StatusOK)
	do("/v1/transfers/"+trID+"/approve", w.notary, `{}`, http.StatusOK)
	// A refused and an expired one too.
	tr = do("/v1/parcels/"+id+"/transfer", w.agent, w.transferBody(nil, false), http.StatusAccepted)
	do("/v1/transfers/"+tr["id"].(string)+"/owner-consent", "", ownerDecision(t, tr, w.buyer, "REJECTED"), http.StatusOK)
	do("/v1/parcels/"+id+"/transfer", w.agent, w.transferBody(map[string]any{"expiresInSeconds": 60}, false), http.StatusAccepted)
	h.clock.Advance(time.Minute)
	h.srv.sweep(t.Context())
	got := attrs(t, h.do(request{method: "GET", path: "/v1/parcels/" + id, token: w.agent}))
	require.Equal(t, buyerName, got["owner"].(map[string]any)["fullName"], "sealed, not lost")

	h.ts.Close()
	require.NoError(t, h.store.Close())
	raw, err := os.ReadFile(h.storePath)
	require.NoError(t, err)
	for _, secret := range []string{ownerName, ownerIDDoc, buyerName, buyerIDDoc, "Amina", "Chukwuemeka", "83920174655", "55501928374"} {
		require.False(t, bytes.Contains(raw, []byte(secret)), "%q is in the database file", secret)
	}
}
