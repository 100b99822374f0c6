package httpserver

import (
	"crypto/ecdsa"
	"encoding/binary"
	"encoding/json"
	"fmt"
	gomath "math"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
)

// The end-to-end proof of SPEC S4 through the real server: a test device enrols with
// MOCK, starts a session, signs a LivenessProof it hashes with go-ethereum's own
// EIP-712 code (never the liveness package's encoder), and the server judges it.

// lvDevice plays a holder's phone: its secp256k1 signing key, known to the server
// by its address.
type lvDevice struct {
	key  *ecdsa.PrivateKey
	addr common.Address
}

func newLvDevice(t testing.TB) *lvDevice {
	t.Helper()
	key, err := crypto.GenerateKey()
	require.NoError(t, err)
	return &lvDevice{key: key, addr: crypto.PubkeyToAddress(key.PublicKey)}
}

// lvHolder is a signed-in holder (SIWE) with an identity bound to its wallet.
type lvHolder struct {
	wallet *ecdsa.PrivateKey
	tok    string
	did    string
}

// newLvHolder issues a sandbox identity bound to a fresh wallet and signs in with it.
func newLvHolder(t testing.TB, h *harness, name string) *lvHolder {
	t.Helper()
	wallet, err := crypto.GenerateKey()
	require.NoError(t, err)
	did := h.issueIdentity(t, name, wallet, "success")["did"].(string)
	tok, got := h.login(t, wallet, veriland.Sandbox)
	require.Equal(t, did, got)
	return &lvHolder{wallet: wallet, tok: tok, did: did}
}

// lvEnrollBody is the seed's enrolment body for dev on platform with an attestation
// of type typ carrying token.
func lvEnrollBody(dev *lvDevice, platform, typ, token string) map[string]any {
	return map[string]any{
		"platform": platform, "publicKey": dev.addr.Hex(),
		"attestation": map[string]any{"type": typ, "token": token},
	}
}

// lvEnroll posts the device's address with a MOCK attestation, as an ANDROID phone.
func (h *harness) lvEnroll(tok string, dev *lvDevice) response {
	return h.do(request{method: "POST", path: "/liveness/device/enroll", token: tok,
		body: lvEnrollBody(dev, "ANDROID", "MOCK", "mock-attestation-token")})
}

// lvSession is the part of POST /liveness/session's answer a device needs.
type lvSession struct {
	ID      string
	Nonce   string
	Level   string
	Start   int64 // unix ms, from the test clock when the session started
	Expires time.Time
}

func (h *harness) lvStartSession(t testing.TB, tok, level string) lvSession {
	t.Helper()
	var body any = `{}`
	if level != "" {
		body = map[string]any{"requestedLevel": level}
	}
	start := h.clock.Now().UnixMilli()
	r := h.do(request{method: "POST", path: "/liveness/session", token: tok, body: body})
	require.Equal(t, http.StatusCreated, r.status, string(r.body))
	m := r.json(t)
	exp, err := time.Parse(time.RFC3339Nano, m["expiresAt"].(string))
	require.NoError(t, err)
	want := level
	if want == "" {
		want = "L2"
	}
	require.Equal(t, want, m["level"])
	require.True(t, strings.HasPrefix(m["sessionId"].(string), "lvs_"))
	require.Equal(t, time.UnixMilli(start).Add(120*time.Second).UTC(), exp.UTC())
	return lvSession{ID: m["sessionId"].(string), Nonce: m["nonce"].(string), Level: m["level"].(string), Start: start, Expires: exp}
}

// lvProof is a verification body under construction plus what signs it.
type lvProof struct {
	sess lvSession
	dev  *lvDevice
	body map[string]any
}

// lvGoodEvidence is the seed's evidence object with scores that clear every level's
// thresholds (SPEC S4 table); timing is filled in by newLvProof.
func lvGoodEvidence() map[string]any {
	return map[string]any{
		"challenge": map[string]any{"hueScore": 0.91, "latencyMs": 420.0},
		"sensor":    map[string]any{"parallaxScore": 0.93, "imuCorrelation": 0.82},
		"camera":    map[string]any{"physicalSensorId": "back-wide-0", "virtualSourceSuspected": false},
		"timing":    map[string]any{"frameJitterMs": 9.5},
	}
}

// lvScoreGroup names the evidence group of each score.
var lvScoreGroup = map[string]string{
	"hueScore": "challenge", "latencyMs": "challenge",
	"parallaxScore": "sensor", "imuCorrelation": "sensor",
	"frameJitterMs": "timing",
}

// newLvProof captures frames frames every intervalMs ms from 50.25 ms after the
// session started (fractional milliseconds, as the seed allows) and signs the proof
// with dev. Call h.lvCaptureDone before posting it.
func newLvProof(t testing.TB, sess lvSession, dev *lvDevice, frames int, intervalMs float64) *lvProof {
	t.Helper()
	ts := make([]float64, frames)
	for i := range ts {
		ts[i] = float64(sess.Start) + 50.25 + float64(i)*intervalMs
	}
	ev := lvGoodEvidence()
	tm := ev["timing"].(map[string]any)
	tm["frameCount"] = int64(frames)
	tm["sessionDurationMs"] = int64(gomath.Round(ts[len(ts)-1] - ts[0]))
	p := &lvProof{sess: sess, dev: dev, body: map[string]any{
		"sessionId":       sess.ID,
		"devicePublicKey": dev.addr.Hex(),
		"attestation":     map[string]any{"type": "MOCK", "token": "mock-attestation-token"},
		"merkleRoot":      hexutil.Encode(lvMerkleRoot(ts)),
		"frameTimestamps": ts,
		"evidence":        ev,
	}}
	p.sign(t, dev.key)
	return p
}

func (p *lvProof) evidence() map[string]any    { return p.body["evidence"].(map[string]any) }
func (p *lvProof) timing() map[string]any      { return p.evidence()["timing"].(map[string]any) }
func (p *lvProof) camera() map[string]any      { return p.evidence()["camera"].(map[string]any) }
func (p *lvProof) attestation() map[string]any { return p.body["attestation"].(map[string]any) }
func (p *lvProof) timestamps() []float64       { return p.body["frameTimestamps"].([]float64) }

// setScore sets a score in its evidence group (lvScoreGroup).
func (p *lvProof) setScore(name string, v any) {
	p.evidence()[lvScoreGroup[name]].(map[string]any)[name] = v
}

// deleteScore removes a score from its evidence group.
func (p *lvProof) deleteScore(name string) {
	delete(p.evidence()[lvScoreGroup[name]].(map[string]any), name)
}

// lvUint writes a whole JSON number as the decimal string typed data wants.
func lvUint(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case json.Number:
		return x.String()
	}
	return fmt.Sprint(v)
}

// typedData builds the LivenessProof typed data by hand from SPEC S4: frameCount and
// sessionDurationMs come from evidence.timing.
func (p *lvProof) typedData() apitypes.TypedData {
	tm := p.timing()
	return apitypes.TypedData{
		Types: apitypes.Types{
			"EIP712Domain": {
				{Name: "name", Type: "string"},
				{Name: "version", Type: "string"},
				{Name: "chainId", Type: "uint256"},
			},
			"LivenessProof": {
				{Name: "sessionId", Type: "string"},
				{Name: "nonce", Type: "bytes32"},
				{Name: "merkleRoot", Type: "bytes32"},
				{Name: "frameCount", Type: "uint256"},
				{Name: "sessionDurationMs", Type: "uint256"},
			},
		},
		PrimaryType: "LivenessProof",
		Domain:      apitypes.TypedDataDomain{Name: "Identity Liveness", Version: "1", ChainId: math.NewHexOrDecimal256(1)},
		Message: apitypes.TypedDataMessage{
			"sessionId":         p.body["sessionId"],
			"nonce":             p.sess.Nonce,
			"merkleRoot":        p.body["merkleRoot"],
			"frameCount":        lvUint(tm["frameCount"]),
			"sessionDurationMs": lvUint(tm["sessionDurationMs"]),
		},
	}
}

// sign signs the proof's current sessionId, merkleRoot and timing with key
// (v = 27/28, as wallets send it) into deviceSignature.
func (p *lvProof) sign(t testing.TB, key *ecdsa.PrivateKey) {
	t.Helper()
	digest, _, err := apitypes.TypedDataAndHash(p.typedData())
	require.NoError(t, err)
	sig, err := crypto.Sign(digest, key)
	require.NoError(t, err)
	sig[64] += 27
	p.body["deviceSignature"] = hexutil.Encode(sig)
}

// lvHighS returns the malleable twin of a 65-byte signature: s' = n − s, v flipped.
// go-ethereum's recovery alone accepts it.
func lvHighS(t testing.TB, sigHex string) string {
	t.Helper()
	sig, err := hexutil.Decode(sigHex)
	require.NoError(t, err)
	n := crypto.S256().Params().N
	s := new(big.Int).SetBytes(sig[32:64])
	twin := append([]byte(nil), sig...)
	new(big.Int).Sub(n, s).FillBytes(twin[32:64])
	twin[64] = 27 + 28 - sig[64] // 27 ↔ 28
	// The twin is a valid signature of the same digest by the same key.
	rec := append([]byte(nil), twin...)
	rec[64] -= 27
	require.False(t, crypto.ValidateSignatureValues(rec[64], new(big.Int).SetBytes(rec[:32]), new(big.Int).SetBytes(rec[32:64]), true))
	return hexutil.Encode(twin)
}

// lvMerkleRoot is the root of OpenZeppelin's StandardMerkleTree (leaves in capture
// order, double-hashed leaves, sorted pairs) over (uint256 index, uint256
// timestampMicros, bytes32 frameDigest), timestampMicros being the timestamp in whole
// microseconds, with a made-up digest per frame. The server only records it.
func lvMerkleRoot(ts []float64) []byte {
	n := len(ts)
	tree := make([][]byte, 2*n-1)
	enc := make([]byte, 96)
	for i, t := range ts {
		clear(enc)
		binary.BigEndian.PutUint64(enc[24:32], uint64(i))
		binary.BigEndian.PutUint64(enc[56:64], uint64(gomath.Round(t*1000)))
		copy(enc[64:], crypto.Keccak256([]byte(fmt.Sprintf("frame %d", i))))
		tree[len(tree)-1-i] = crypto.Keccak256(crypto.Keccak256(enc))
	}
	for i := len(tree) - 1 - n; i >= 0; i-- {
		a, b := tree[2*i+1], tree[2*i+2]
		if string(a) > string(b) {
			a, b = b, a
		}
		tree[i] = crypto.Keccak256(a, b)
	}
	return tree[0]
}

// lvCaptureDone advances the frozen clock past the proof's last frame, as the
// capture takes that long.
func (h *harness) lvCaptureDone(p *lvProof) {
	ts := p.timestamps()
	if d := time.Duration(gomath.Ceil(ts[len(ts)-1])-float64(h.clock.Now().UnixMilli())+100) * time.Millisecond; d > 0 {
		h.clock.Advance(d)
	}
}

func (h *harness) lvVerify(tok string, p *lvProof) response {
	return h.do(request{method: "POST", path: "/liveness/verify", token: tok, body: p.body})
}

// lvClone deep-copies a JSON body, so that a test may edit nested members.
func lvClone(t testing.TB, body map[string]any) map[string]any {
	t.Helper()
	raw, err := json.Marshal(body)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(raw, &out))
	return out
}

// lvGroup returns the evidence object of a cloned body (group "") or one of its
// groups.
func lvGroup(body map[string]any, group string) map[string]any {
	ev := body["evidence"].(map[string]any)
	if group == "" {
		return ev
	}
	return ev[group].(map[string]any)
}

// lvReasons returns meta.reasons of a 422 liveness_rejected answer.
func lvReasons(t testing.TB, r response) []string {
	t.Helper()
	require.Equal(t, http.StatusUnprocessableEntity, r.status, string(r.body))
	require.Equal(t, "liveness_rejected", r.errorCode(t), string(r.body))
	meta := r.json(t)["errors"].([]any)[0].(map[string]any)["meta"].(map[string]any)
	var out []string
	for _, x := range meta["reasons"].([]any) {
		out = append(out, x.(string))
	}
	return out
}

// lvFirstError returns the first error object of an error answer.
func lvFirstError(t testing.TB, r response) map[string]any {
	t.Helper()
	errs := r.json(t)["errors"].([]any)
	require.NotEmpty(t, errs)
	return errs[0].(map[string]any)
}

// lvPass runs one passing session at level for a holder whose device is already
// enrolled and returns the LIVENESS attestation issued.
func (h *harness) lvPass(t testing.TB, hl *lvHolder, dev *lvDevice, level string) *attestation.Attestation {
	t.Helper()
	sess := h.lvStartSession(t, hl.tok, level)
	frames := map[string]int{"L1": 12, "L2": 36, "L3": 72}[level]
	p := newLvProof(t, sess, dev, frames, 33)
	h.lvCaptureDone(p)
	r := h.lvVerify(hl.tok, p)
	require.Equal(t, http.StatusCreated, r.status, string(r.body))
	m := r.json(t)
	require.Equal(t, "VERIFIED", m["status"])
	require.Equal(t, level, m["level"])
	raw, err := json.Marshal(m["attestation"])
	require.NoError(t, err)
	var att attestation.Attestation
	require.NoError(t, json.Unmarshal(raw, &att))
	return &att
}

func TestLivenessEndToEnd(t *testing.T) {
	h := newHarness(t)
	hl := newLvHolder(t, h, "liveness-e2e")
	dev := newLvDevice(t)

	en := h.lvEnroll(hl.tok, dev)
	require.Equal(t, http.StatusCreated, en.status, string(en.body))
	d := en.json(t)
	require.True(t, strings.HasPrefix(d["deviceId"].(string), "dev_"))
	require.Equal(t, strings.ToLower(dev.addr.Hex()), d["publicKey"])
	require.Equal(t, "MOCK", d["attestationType"])
	require.Equal(t, "BASIC", d["trust"])

	// The proof is hashed by go-ethereum's apitypes from typed data built by hand from
	// SPEC S4: the server accepting its signature checks the liveness package's
	// hand-written encoder from the outside.
	sess := h.lvStartSession(t, hl.tok, "") // default level L2
	p := newLvProof(t, sess, dev, 36, 33)
	h.lvCaptureDone(p)
	r := h.lvVerify(hl.tok, p)
	require.Equal(t, http.StatusCreated, r.status, string(r.body))
	res := r.json(t)
	require.Equal(t, "VERIFIED", res["status"])
	require.Equal(t, "L2", res["level"])
	raw, err := json.Marshal(res["attestation"])
	require.NoError(t, err)
	var att attestation.Attestation
	require.NoError(t, json.Unmarshal(raw, &att))

	require.Equal(t, attestation.KindLiveness, att.Kind)
	require.Equal(t, hl.did, att.Subject)
	require.Equal(t, attestation.StatusValid, att.Status)
	require.Equal(t, p.body["merkleRoot"], hexutil.Encode(att.EvidenceHash[:]), "evidenceHash is the proof's Merkle root")
	require.NotNil(t, att.ExpiresAt)
	require.Equal(t, 365*24*time.Hour, att.ExpiresAt.Sub(att.IssuedAt))
	var claims map[string]any
	require.NoError(t, json.Unmarshal(att.Claims, &claims))
	require.Equal(t, "L2", claims["level"])
	require.Equal(t, "BASIC", claims["deviceTrust"])
	require.Equal(t, "MOCK", claims["attestationType"])
	require.EqualValues(t, 36, claims["frameCount"])
	require.EqualValues(t, 0.93, claims["scores"].(map[string]any)["parallaxScore"])
	require.NotContains(t, string(r.body), "frameTimestamps")

	// The offline verifier accepts it with only the issuer's published address.
	issuer := h.do(request{method: "GET", path: "/attestation/issuer"}).json(t)
	trusted := common.HexToAddress(issuer["address"].(string))
	require.Equal(t, crypto.PubkeyToAddress(h.issuerKey.PublicKey), trusted)
	require.NoError(t, attestation.Verify(&att, attestation.VerifyOptions{TrustedIssuers: []common.Address{trusted}, ChainID: 1, Now: h.clock.Now()}))
	// …and refuses it for another issuer or after its expiry.
	require.Error(t, attestation.Verify(&att, attestation.VerifyOptions{TrustedIssuers: []common.Address{dev.addr}, ChainID: 1, Now: h.clock.Now()}))
	require.Error(t, attestation.Verify(&att, attestation.VerifyOptions{TrustedIssuers: []common.Address{trusted}, ChainID: 1, Now: att.ExpiresAt.Add(time.Second)}))

	// GET /liveness/attestations/me lists it, newest first (issuedAt has a
	// resolution of a second: ties are ordered by id).
	h.clock.Advance(time.Second)
	att2 := h.lvPass(t, hl, dev, "L1")
	me := h.do(request{method: "GET", path: "/liveness/attestations/me", token: hl.tok})
	require.Equal(t, http.StatusOK, me.status, string(me.body))
	items := me.json(t)["items"].([]any)
	require.Len(t, items, 2)
	require.Equal(t, att2.ID, items[0].(map[string]any)["id"])
	require.Equal(t, att.ID, items[1].(map[string]any)["id"])

	// Another holder sees none of them; a verifier token may not call the route.
	other := newLvHolder(t, h, "liveness-e2e-other")
	r = h.do(request{method: "GET", path: "/liveness/attestations/me", token: other.tok})
	require.Equal(t, http.StatusOK, r.status)
	require.Empty(t, r.json(t)["items"])
	vtok := h.token(veriland.RoleVerifier, veriland.Sandbox, "verifier-x")
	require.Equal(t, http.StatusForbidden, h.do(request{method: "GET", path: "/liveness/attestations/me", token: vtok}).status)

	// The subject may revoke it; it then drops out of the list.
	rv := h.do(request{method: "POST", path: "/attestation/" + att2.ID + "/revoke", token: hl.tok, body: `{}`})
	require.Equal(t, http.StatusOK, rv.status, string(rv.body))
	items = h.do(request{method: "GET", path: "/liveness/attestations/me", token: hl.tok}).json(t)["items"].([]any)
	require.Len(t, items, 1)
	require.Equal(t, att.ID, items[0].(map[string]any)["id"])
}

func TestLivenessEnrolment(t *testing.T) {
	h := newHarness(t)
	hl := newLvHolder(t, h, "liveness-enrol")
	dev := newLvDevice(t)

	first := h.lvEnroll(hl.tok, dev)
	require.Equal(t, http.StatusCreated, first.status, string(first.body))
	id := first.json(t)["deviceId"]

	t.Run("MOCK refused in PRODUCTION", func(t *testing.T) {
		wallet, _ := crypto.GenerateKey()
		prodTok, did := h.login(t, wallet, veriland.Production)
		require.True(t, strings.HasPrefix(did, "did:pkh:"))
		r := h.lvEnroll(prodTok, newLvDevice(t))
		require.Equal(t, http.StatusUnprocessableEntity, r.status, string(r.body))
		require.Equal(t, "attestation_unsupported", r.errorCode(t))
		// The sandbox device's key is no more welcome there.
		r = h.lvEnroll(prodTok, dev)
		require.Equal(t, http.StatusUnprocessableEntity, r.status, string(r.body))
	})
	t.Run("same holder again: 200, same device", func(t *testing.T) {
		// Any case of the address is the same key.
		body := lvEnrollBody(dev, "ANDROID", "MOCK", "another-mock-token")
		body["publicKey"] = strings.ToLower(dev.addr.Hex())
		r := h.do(request{method: "POST", path: "/liveness/device/enroll", token: hl.tok, body: body})
		require.Equal(t, http.StatusOK, r.status, string(r.body))
		require.Equal(t, id, r.json(t)["deviceId"])
		require.Equal(t, first.json(t)["enrolledAt"], r.json(t)["enrolledAt"])
	})
	t.Run("same key, another holder: 409", func(t *testing.T) {
		other := newLvHolder(t, h, "liveness-enrol-other")
		r := h.lvEnroll(other.tok, dev)
		require.Equal(t, http.StatusConflict, r.status, string(r.body))
		e := lvFirstError(t, r)
		require.Equal(t, "already_exists", e["code"])
		require.Equal(t, "/publicKey", e["source"].(map[string]any)["pointer"])
		require.NotContains(t, string(r.body), hl.did, "the 409 does not reveal the other holder")
	})
	t.Run("shape", func(t *testing.T) {
		r := h.do(request{method: "POST", path: "/liveness/device/enroll", token: hl.tok, body: map[string]any{
			"publicKey": "0x1234", "platform": "IOS", "attestation": map[string]any{"type": "KEY_ATTESTATION", "token": ""}}})
		require.Equal(t, http.StatusBadRequest, r.status, string(r.body))
		var ptrs []string
		for _, e := range r.json(t)["errors"].([]any) {
			ptrs = append(ptrs, e.(map[string]any)["source"].(map[string]any)["pointer"].(string))
		}
		require.ElementsMatch(t, []string{"/publicKey", "/attestation/token", "/platform"}, ptrs)
		r = h.do(request{method: "POST", path: "/liveness/device/enroll", token: hl.tok,
			body: lvEnrollBody(newLvDevice(t), "ANDROID", "MOCK", "short")})
		require.Equal(t, http.StatusBadRequest, r.status, string(r.body))
		require.Equal(t, "validation_failed", r.errorCode(t))
		require.Equal(t, "/attestation/token", lvFirstError(t, r)["source"].(map[string]any)["pointer"])
	})
}

func TestLivenessConsentGate(t *testing.T) {
	h := newHarness(t)
	f := newConsentFlow(t, h)
	holderAddr := crypto.PubkeyToAddress(f.wallet.PublicKey)
	tok, did := h.login(t, f.wallet, veriland.Sandbox)
	require.Equal(t, f.did, did)
	hl := &lvHolder{wallet: f.wallet, tok: tok, did: did}
	dev := newLvDevice(t)
	require.Equal(t, http.StatusCreated, h.lvEnroll(hl.tok, dev).status)
	scope := []string{"is_adult", "nationality"}

	// approve creates a request whose requireLiveness is req (the seed's object
	// {minLevel, maxAgeDays?}) and approves it.
	approve := func(t *testing.T, req map[string]any) response {
		t.Helper()
		id := f.request(t, map[string]any{"requireLiveness": req})
		ctx := h.do(request{method: "GET", path: "/consent/" + id}).json(t)
		got, ok := ctx["requireLiveness"].(map[string]any)
		require.True(t, ok, "consent context requireLiveness: %v", ctx["requireLiveness"])
		require.Equal(t, req["minLevel"], got["minLevel"])
		return f.decide(t, id, f.wallet, holderAddr, "APPROVED", scope)
	}
	required := func(t *testing.T, r response, minLevel string) {
		t.Helper()
		require.Equal(t, http.StatusUnprocessableEntity, r.status, string(r.body))
		e := lvFirstError(t, r)
		require.Equal(t, "liveness_required", e["code"])
		require.Equal(t, minLevel, e["meta"].(map[string]any)["minLevel"])
	}

	// No LIVENESS attestation yet.
	required(t, approve(t, map[string]any{"minLevel": "L1"}), "L1")
	// A rejected decision needs none.
	id := f.request(t, map[string]any{"requireLiveness": map[string]any{"minLevel": "L3"}})
	require.Equal(t, http.StatusOK, f.decide(t, id, f.wallet, holderAddr, "REJECTED", []string{}).status)

	// An L1 pass does not meet minLevel L2, but meets L1.
	h.lvPass(t, hl, dev, "L1")
	required(t, approve(t, map[string]any{"minLevel": "L2"}), "L2")
	ok := approve(t, map[string]any{"minLevel": "L1"})
	require.Equal(t, http.StatusCreated, ok.status, string(ok.body))

	// A fresh L2 pass meets L2 and L1, with maxAgeDays given or defaulted (30).
	l2 := h.lvPass(t, hl, dev, "L2")
	ok = approve(t, map[string]any{"minLevel": "L2", "maxAgeDays": 30})
	require.Equal(t, http.StatusCreated, ok.status, string(ok.body))
	require.Equal(t, "APPROVED", ok.json(t)["status"])
	ok = approve(t, map[string]any{"minLevel": "L2"})
	require.Equal(t, http.StatusCreated, ok.status, string(ok.body))

	// Too old: 31 days later, maxAgeDays 30 (given or defaulted) refuses it; 365
	// still accepts it.
	h.clock.Advance(31 * 24 * time.Hour)
	required(t, approve(t, map[string]any{"minLevel": "L2", "maxAgeDays": 30}), "L2")
	required(t, approve(t, map[string]any{"minLevel": "L2"}), "L2")
	r := approve(t, map[string]any{"minLevel": "L2", "maxAgeDays": 365})
	require.Equal(t, http.StatusCreated, r.status, string(r.body))

	// A fresh pass meets maxAgeDays 30 again, until its subject revokes it.
	hl.tok, _ = h.login(t, f.wallet, veriland.Sandbox) // the old token expired
	fresh := h.lvPass(t, hl, dev, "L2")
	require.NotEqual(t, l2.ID, fresh.ID)
	r = approve(t, map[string]any{"minLevel": "L2", "maxAgeDays": 30})
	require.Equal(t, http.StatusCreated, r.status, string(r.body))
	rv := h.do(request{method: "POST", path: "/attestation/" + fresh.ID + "/revoke", token: hl.tok, body: map[string]any{"reason": "lost phone"}})
	require.Equal(t, http.StatusOK, rv.status, string(rv.body))
	required(t, approve(t, map[string]any{"minLevel": "L2", "maxAgeDays": 30}), "L2")
	// The older, unrevoked L2 pass still serves a request that tolerates its age.
	r = approve(t, map[string]any{"minLevel": "L2", "maxAgeDays": 365})
	require.Equal(t, http.StatusCreated, r.status, string(r.body))

	// Revoke that one too: nothing is left.
	rv = h.do(request{method: "POST", path: "/attestation/" + l2.ID + "/revoke", token: hl.tok, body: `{}`})
	require.Equal(t, http.StatusOK, rv.status, string(rv.body))
	required(t, approve(t, map[string]any{"minLevel": "L2", "maxAgeDays": 365}), "L2")
}

func TestLivenessVerifyChecks(t *testing.T) {
	h := newHarness(t)
	hl := newLvHolder(t, h, "liveness-checks")
	dev := newLvDevice(t)
	require.Equal(t, http.StatusCreated, h.lvEnroll(hl.tok, dev).status)

	// fresh starts an L2 session and returns a passing proof for it, signed.
	fresh := func(t *testing.T) *lvProof {
		t.Helper()
		return newLvProof(t, h.lvStartSession(t, hl.tok, "L2"), dev, 36, 33)
	}
	// rejected posts p after its capture and checks the exact reasons.
	rejected := func(t *testing.T, p *lvProof, want ...string) {
		t.Helper()
		h.lvCaptureDone(p)
		require.Equal(t, want, lvReasons(t, h.lvVerify(hl.tok, p)))
	}
	// consumed checks that p's session can no longer be verified.
	consumed := func(t *testing.T, p *lvProof) {
		t.Helper()
		good := newLvProof(t, p.sess, dev, 36, 33)
		h.lvCaptureDone(good)
		require.Contains(t, lvReasons(t, h.lvVerify(hl.tok, good)), "session_used")
	}

	t.Run("expired session", func(t *testing.T) {
		p := fresh(t)
		h.clock.Advance(121 * time.Second)
		rejected(t, p, "session_expired")
	})
	t.Run("reused session", func(t *testing.T) {
		p := fresh(t)
		h.lvCaptureDone(p)
		require.Equal(t, http.StatusCreated, h.lvVerify(hl.tok, p).status)
		rejected(t, p, "session_used")
	})
	t.Run("a failed verification consumes the session too", func(t *testing.T) {
		p := fresh(t)
		p.camera()["virtualSourceSuspected"] = true
		rejected(t, p, "virtual_camera")
		consumed(t, p)
	})
	t.Run("another holder's session", func(t *testing.T) {
		other := newLvHolder(t, h, "liveness-checks-other")
		otherDev := newLvDevice(t)
		require.Equal(t, http.StatusCreated, h.lvEnroll(other.tok, otherDev).status)
		theirs := h.lvStartSession(t, other.tok, "L2")
		// The holder's own device signs a proof for the other holder's session.
		p := newLvProof(t, theirs, dev, 36, 33)
		rejected(t, p, "session_not_owned")
		// It was not consumed: its holder still passes with it.
		mine := newLvProof(t, theirs, otherDev, 36, 33)
		r := h.lvVerify(other.tok, mine)
		require.Equal(t, http.StatusCreated, r.status, string(r.body))
	})
	t.Run("unknown session", func(t *testing.T) {
		p := fresh(t)
		p.body["sessionId"] = "lvs_" + strings.Repeat("a", 26)
		p.sign(t, dev.key)
		rejected(t, p, "session_not_found")
	})
	t.Run("unenrolled device", func(t *testing.T) {
		stranger := newLvDevice(t)
		p := newLvProof(t, h.lvStartSession(t, hl.tok, "L2"), stranger, 36, 33)
		rejected(t, p, "device_not_enrolled")
	})
	t.Run("another holder's device", func(t *testing.T) {
		other := newLvHolder(t, h, "liveness-checks-other-2")
		otherDev := newLvDevice(t)
		require.Equal(t, http.StatusCreated, h.lvEnroll(other.tok, otherDev).status)
		p := newLvProof(t, h.lvStartSession(t, hl.tok, "L2"), otherDev, 36, 33)
		rejected(t, p, "device_not_enrolled")
	})
	t.Run("attestation type differs from enrolment", func(t *testing.T) {
		p := fresh(t)
		p.attestation()["type"] = "KEY_ATTESTATION"
		rejected(t, p, "device_attestation_type_mismatch")
	})
	t.Run("signature by another key", func(t *testing.T) {
		p := fresh(t)
		p.sign(t, newLvDevice(t).key)
		rejected(t, p, "signature_mismatch")
	})
	t.Run("signature over other values", func(t *testing.T) {
		p := fresh(t)
		p.body["merkleRoot"] = hexutil.Encode(crypto.Keccak256([]byte("another capture")))
		rejected(t, p, "signature_mismatch")
	})
	t.Run("signature over another chain", func(t *testing.T) {
		p := fresh(t)
		td := p.typedData()
		td.Domain.ChainId = math.NewHexOrDecimal256(5)
		digest, _, err := apitypes.TypedDataAndHash(td)
		require.NoError(t, err)
		sig, err := crypto.Sign(digest, dev.key)
		require.NoError(t, err)
		p.body["deviceSignature"] = hexutil.Encode(sig) // v 0/1 is accepted too
		rejected(t, p, "signature_mismatch")
	})
	t.Run("v 0/1 accepted", func(t *testing.T) {
		p := fresh(t)
		sig, err := hexutil.Decode(p.body["deviceSignature"].(string))
		require.NoError(t, err)
		sig[64] -= 27
		p.body["deviceSignature"] = hexutil.Encode(sig)
		h.lvCaptureDone(p)
		r := h.lvVerify(hl.tok, p)
		require.Equal(t, http.StatusCreated, r.status, string(r.body))
	})
	t.Run("high-s signature", func(t *testing.T) {
		p := fresh(t)
		p.body["deviceSignature"] = lvHighS(t, p.body["deviceSignature"].(string))
		rejected(t, p, "signature_high_s")
	})
	t.Run("garbage signature", func(t *testing.T) {
		p := fresh(t)
		p.body["deviceSignature"] = "0x" + strings.Repeat("00", 65)
		rejected(t, p, "signature_invalid")
	})
	t.Run("timestamps not increasing", func(t *testing.T) {
		p := fresh(t)
		ts := p.timestamps()
		ts[10], ts[11] = ts[11], ts[10] // same count and span; the signature still holds
		rejected(t, p, "timestamps_not_increasing")
		p = fresh(t)
		p.timestamps()[20] = p.timestamps()[19] // a repeated instant
		rejected(t, p, "timestamps_not_increasing")
	})
	t.Run("count differs from frameCount", func(t *testing.T) {
		p := fresh(t)
		p.timing()["frameCount"] = int64(37)
		p.sign(t, dev.key)
		rejected(t, p, "frame_count_mismatch")
	})
	t.Run("span outside 10%", func(t *testing.T) {
		p := fresh(t)
		span := p.timing()["sessionDurationMs"].(int64) // 35 × 33 = 1155 ms
		// Within 10%: passes.
		p.timing()["sessionDurationMs"] = span * 110 / 100
		p.sign(t, dev.key)
		h.lvCaptureDone(p)
		r := h.lvVerify(hl.tok, p)
		require.Equal(t, http.StatusCreated, r.status, string(r.body))
		// Outside.
		for _, d := range []int64{span * 2, span * 80 / 100} {
			p = fresh(t)
			p.timing()["sessionDurationMs"] = d
			p.sign(t, dev.key)
			rejected(t, p, "duration_mismatch")
		}
	})
	t.Run("frames outside the session", func(t *testing.T) {
		p := fresh(t)
		p.timestamps()[0] = float64(p.sess.Start) - 1000.5 // before it started; span off as well
		rejected(t, p, "duration_mismatch", "timestamps_outside_session")
		// A last frame later than now.
		p = fresh(t)
		h.lvCaptureDone(p)
		ts := p.timestamps()
		for i := range ts {
			ts[i] += 5000
		}
		require.Equal(t, []string{"timestamps_outside_session"}, lvReasons(t, h.lvVerify(hl.tok, p)))
	})
	t.Run("virtual camera", func(t *testing.T) {
		p := fresh(t)
		p.camera()["virtualSourceSuspected"] = true
		rejected(t, p, "virtual_camera")
	})
	t.Run("empty sensor id", func(t *testing.T) {
		p := fresh(t)
		p.camera()["physicalSensorId"] = ""
		rejected(t, p, "physical_sensor_missing")
		p = fresh(t)
		p.camera()["physicalSensorId"] = "   "
		rejected(t, p, "physical_sensor_missing")
	})
	t.Run("scores out of range", func(t *testing.T) {
		for _, c := range []struct {
			name string
			v    float64
			want []string
		}{
			{"parallaxScore", 1.5, nil},
			{"parallaxScore", -0.1, []string{"parallax_too_low"}}, // below L2's threshold as well
			{"hueScore", 1.2, nil},
			{"imuCorrelation", 1.01, nil},
			{"imuCorrelation", -0.5, []string{"imu_correlation_too_low"}}, // a 0..1 score
			{"latencyMs", -1, nil},
			{"frameJitterMs", -0.5, nil},
		} {
			p := fresh(t)
			p.setScore(c.name, c.v)
			rejected(t, p, append([]string{"evidence_out_of_range"}, c.want...)...)
		}
		// Numbers JSON cannot carry finitely (1e400) do not decode: 400.
		p := fresh(t)
		raw, err := json.Marshal(p.body)
		require.NoError(t, err)
		raw = []byte(strings.Replace(string(raw), `"parallaxScore":0.93`, `"parallaxScore":1e400`, 1))
		r := h.do(request{method: "POST", path: "/liveness/verify", token: hl.tok, body: raw})
		require.Equal(t, http.StatusBadRequest, r.status, string(r.body))
	})
	t.Run("level policy", func(t *testing.T) {
		p := fresh(t)
		for name, v := range map[string]float64{"parallaxScore": 0.6, "hueScore": 0.6, "latencyMs": 1600, "imuCorrelation": 0.5, "frameJitterMs": 60} {
			p.setScore(name, v)
		}
		rejected(t, p, "parallax_too_low", "hue_too_low", "latency_too_high", "imu_correlation_too_low", "frame_jitter_too_high")
		// A missing score fails its threshold.
		p = fresh(t)
		p.deleteScore("hueScore")
		rejected(t, p, "hue_too_low")
		// Too few frames for L2.
		p = newLvProof(t, h.lvStartSession(t, hl.tok, "L2"), dev, 20, 33)
		rejected(t, p, "too_few_frames")
		// L3 needs a STRONG device; MOCK is BASIC.
		p = newLvProof(t, h.lvStartSession(t, hl.tok, "L3"), dev, 72, 33)
		rejected(t, p, "device_trust_too_low")
	})
	t.Run("every failure is listed", func(t *testing.T) {
		p := fresh(t)
		p.timing()["frameCount"] = int64(99)
		p.camera()["virtualSourceSuspected"] = true
		p.camera()["physicalSensorId"] = ""
		p.setScore("parallaxScore", 7.0)
		rejected(t, p, "signature_mismatch", "frame_count_mismatch", "evidence_out_of_range", "virtual_camera", "physical_sensor_missing")
	})
	t.Run("10,001 timestamps: 400", func(t *testing.T) {
		p := fresh(t)
		ts := make([]float64, 10001)
		for i := range ts {
			ts[i] = float64(p.sess.Start) + float64(i) + 0.5
		}
		p.body["frameTimestamps"] = ts
		p.timing()["frameCount"] = int64(len(ts))
		p.timing()["sessionDurationMs"] = int64(10000)
		p.sign(t, dev.key)
		h.lvCaptureDone(p)
		r := h.lvVerify(hl.tok, p)
		require.Equal(t, http.StatusBadRequest, r.status, string(r.body))
		e := lvFirstError(t, r)
		require.Equal(t, "validation_failed", e["code"])
		require.Equal(t, "/frameTimestamps", e["source"].(map[string]any)["pointer"])
		require.EqualValues(t, 10000, e["meta"].(map[string]any)["max"])
		// A shape failure does not consume the session.
		good := newLvProof(t, p.sess, dev, 36, 33)
		r = h.lvVerify(hl.tok, good)
		require.Equal(t, http.StatusCreated, r.status, string(r.body))
	})
	t.Run("shape: 400 with pointers", func(t *testing.T) {
		p := fresh(t)
		h.lvCaptureDone(p)
		p.body["deviceSignature"] = "0x00"
		p.body["merkleRoot"] = "root"
		p.body["devicePublicKey"] = "0xabc"
		p.body["frameTimestamps"] = []float64{}
		delete(p.evidence(), "camera")
		r := h.lvVerify(hl.tok, p)
		require.Equal(t, http.StatusBadRequest, r.status, string(r.body))
		var ptrs []string
		for _, e := range r.json(t)["errors"].([]any) {
			m := e.(map[string]any)
			require.Equal(t, "validation_failed", m["code"])
			ptrs = append(ptrs, m["source"].(map[string]any)["pointer"].(string))
		}
		require.ElementsMatch(t, []string{"/devicePublicKey", "/deviceSignature", "/merkleRoot", "/frameTimestamps", "/evidence/camera"}, ptrs)
		// Wrong JSON types too.
		r = h.do(request{method: "POST", path: "/liveness/verify", token: hl.tok,
			body: `{"sessionId": 7, "devicePublicKey": "0x", "attestation": {"type": "MOCK", "token": "mock-token"}, "merkleRoot": "0x", "frameTimestamps": [], "deviceSignature": "0x", "evidence": {"challenge": {}, "sensor": {}, "camera": {}, "timing": {}}}`})
		require.Equal(t, http.StatusBadRequest, r.status, string(r.body))
		require.Equal(t, "/sessionId", lvFirstError(t, r)["source"].(map[string]any)["pointer"])
		// The session of the first body was not consumed.
		good := newLvProof(t, p.sess, dev, 36, 33)
		require.Equal(t, http.StatusCreated, h.lvVerify(hl.tok, good).status)
	})
	t.Run("a holder token is required", func(t *testing.T) {
		p := fresh(t)
		h.lvCaptureDone(p)
		r := h.do(request{method: "POST", path: "/liveness/verify", body: p.body})
		require.Equal(t, http.StatusUnauthorized, r.status, string(r.body))
		vtok := h.token(veriland.RoleVerifier, veriland.Sandbox, "verifier-x")
		r = h.do(request{method: "POST", path: "/liveness/verify", token: vtok, body: p.body})
		require.Equal(t, http.StatusForbidden, r.status, string(r.body))
		// The session is still the holder's to use.
		require.Equal(t, http.StatusCreated, h.lvVerify(hl.tok, p).status)
	})
}

// TestLivenessPrivacy: a verification body carrying anything that could hold an image
// or a biometric is refused with 400 unknown_field and its pointer, before anything
// else runs: the session is not consumed and nothing else is judged.
func TestLivenessPrivacy(t *testing.T) {
	h := newHarness(t)
	hl := newLvHolder(t, h, "liveness-privacy")
	dev := newLvDevice(t)
	require.Equal(t, http.StatusCreated, h.lvEnroll(hl.tok, dev).status)

	sess := h.lvStartSession(t, hl.tok, "L2")
	p := newLvProof(t, sess, dev, 36, 33)
	h.lvCaptureDone(p)

	extras := []struct {
		pointer string
		set     func(body map[string]any)
	}{
		{"/image", func(b map[string]any) { b["image"] = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk" }},
		{"/faceTemplate", func(b map[string]any) { b["faceTemplate"] = []float64{0.12, -0.4, 0.33, 0.9} }},
		{"/frames", func(b map[string]any) { b["frames"] = []string{"/9j/4AAQSkZJRgABAQ", "/9j/4AAQSkZJRgABAg"} }},
		{"/evidence/faceEmbedding", func(b map[string]any) { lvGroup(b, "")["faceEmbedding"] = []float64{0.1, 0.2} }},
		{"/evidence/camera/frame", func(b map[string]any) { lvGroup(b, "camera")["frame"] = "AAAA" }},
		{"/evidence/challenge/faceTemplate", func(b map[string]any) { lvGroup(b, "challenge")["faceTemplate"] = []float64{0.5} }},
		{"/evidence/sensor/depthMap", func(b map[string]any) { lvGroup(b, "sensor")["depthMap"] = "AAAA" }},
		{"/evidence/timing/frames", func(b map[string]any) { lvGroup(b, "timing")["frames"] = []string{"AAAA"} }},
		{"/attestation/image", func(b map[string]any) { b["attestation"].(map[string]any)["image"] = "AAAA" }},
		// The members of the shape before the seed's are unknown now.
		{"/signature", func(b map[string]any) { b["signature"] = b["deviceSignature"] }},
		{"/attestationType", func(b map[string]any) { b["attestationType"] = "MOCK" }},
		{"/camera", func(b map[string]any) { b["camera"] = lvGroup(b, "camera") }},
		{"/timing", func(b map[string]any) { b["timing"] = lvGroup(b, "timing") }},
		{"/evidence/parallaxScore", func(b map[string]any) { lvGroup(b, "")["parallaxScore"] = 0.9 }},
	}
	for _, x := range extras {
		t.Run(x.pointer, func(t *testing.T) {
			body := lvClone(t, p.body)
			x.set(body)
			r := h.do(request{method: "POST", path: "/liveness/verify", token: hl.tok, body: body})
			require.Equal(t, http.StatusBadRequest, r.status, string(r.body))
			errs := r.json(t)["errors"].([]any)
			require.Len(t, errs, 1, string(r.body))
			e := errs[0].(map[string]any)
			require.Equal(t, "unknown_field", e["code"])
			require.Equal(t, x.pointer, e["source"].(map[string]any)["pointer"])
			require.NotContains(t, string(r.body), "iVBOR", "the refusal does not echo the data")
		})
	}
	t.Run("before any other check", func(t *testing.T) {
		// A body that is wrong in every other way as well answers only unknown_field.
		r := h.do(request{method: "POST", path: "/liveness/verify", token: hl.tok, body: map[string]any{
			"sessionId": "nope", "deviceSignature": "0x00", "image": "AAAA", "frameTimestamps": make([]float64, 10001)}})
		require.Equal(t, http.StatusBadRequest, r.status, string(r.body))
		errs := r.json(t)["errors"].([]any)
		require.Len(t, errs, 1, string(r.body))
		require.Equal(t, "unknown_field", errs[0].(map[string]any)["code"])
		require.Equal(t, "/image", errs[0].(map[string]any)["source"].(map[string]any)["pointer"])
	})

	t.Run("a repeated member cannot hide one", func(t *testing.T) {
		raw, err := json.Marshal(p.body)
		require.NoError(t, err)
		// {"evidence": {"camera": {…, "frame": "…"}}, …, "evidence": {…}}:
		// json.Unmarshal keeps the last.
		body := `{"evidence": {"camera": {"virtualSourceSuspected": false, "physicalSensorId": "back-wide-0", "frame": "/9j/4AAQSkZJRg"}},` + string(raw[1:])
		r := h.do(request{method: "POST", path: "/liveness/verify", token: hl.tok, body: body})
		require.Equal(t, http.StatusBadRequest, r.status, string(r.body))
		require.Equal(t, "unknown_field", r.errorCode(t))
		require.Equal(t, "/evidence/camera/frame", lvFirstError(t, r)["source"].(map[string]any)["pointer"])
	})

	// None of the refusals consumed the session: the clean proof passes.
	r := h.lvVerify(hl.tok, p)
	require.Equal(t, http.StatusCreated, r.status, string(r.body))
	// Nor is there a member case-insensitive matching could smuggle through.
	sess = h.lvStartSession(t, hl.tok, "L2")
	p = newLvProof(t, sess, dev, 36, 33)
	h.lvCaptureDone(p)
	body := lvClone(t, p.body)
	body["SessionID"] = body["sessionId"]
	r = h.do(request{method: "POST", path: "/liveness/verify", token: hl.tok, body: body})
	require.Equal(t, http.StatusBadRequest, r.status, string(r.body))
	require.Equal(t, "unknown_field", r.errorCode(t))
}
