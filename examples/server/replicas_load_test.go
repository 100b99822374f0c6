package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/veriland/veriland/internal/ethsig"
)

// consentScope is what every verification request of the load asks for and every
// approval discloses.
var consentScope = []string{"is_adult", "nationality"}

var sandboxHeader = map[string]string{"Veriland-Environment": "SANDBOX"}

// loader is one load client with its identity: a verifier token of its own (so that
// per-wallet limits and webhook secrets are its own), a holder wallet bound to a
// SANDBOX identity, and the secret that signs its callbacks.
type loader struct {
	*client
	verifier string
	wallet   *ecdsa.PrivateKey
	did      string
	secret   string // whsec_… of the verifier
	callback string
	seq      int
	ledger   *ledger
}

// sourceIP gives load client i a loopback address of its own (127.0.0.10 on).
func sourceIP(i int) net.IP { return net.IPv4(127, 0, 0, byte(10+i)) }

// setup issues the client's identity and reads its webhook secret.
func (l *loader) setup(ctx context.Context) error {
	l.wallet, _ = crypto.GenerateKey()
	holder := crypto.PubkeyToAddress(l.wallet.PublicKey).Hex()
	res := l.write(ctx, call{method: "POST", path: "/identity/issue", header: sandboxHeader, key: l.newKey("identity"), first: -1,
		body: mustJSON(map[string]any{"subjectRef": fmt.Sprintf("replica-subject-%d-%s", l.id, randomHex(4)), "countryCode": "NG",
			"walletAddress": holder, "payload": map[string]any{"scenario": "success"}})})
	if !res.acked {
		return fmt.Errorf("client %d: POST /identity/issue: %s", l.id, res.answer)
	}
	var issued struct{ DID, Status string }
	if err := decode(res.answer, &issued); err != nil || issued.DID == "" || issued.Status != "ACTIVE" {
		return fmt.Errorf("client %d: POST /identity/issue: %s (%v)", l.id, res.answer, err)
	}
	l.did = issued.DID
	a, err := l.read(ctx, call{method: "GET", path: "/v1/webhooks/secret", token: l.verifier, first: -1})
	if err != nil {
		return err
	}
	attrs, err := attributes(a)
	if err != nil {
		return err
	}
	l.secret, _ = attrs["secret"].(string)
	if !strings.HasPrefix(l.secret, "whsec_") {
		return fmt.Errorf("client %d: GET /v1/webhooks/secret: %s", l.id, a)
	}
	return nil
}

func (l *loader) newKey(kind string) string {
	l.seq++
	return fmt.Sprintf("replicas-%s-%d-%d-%s", kind, l.id, l.seq, randomHex(4))
}

// run does operations until stop is done: consent approvals, parcel creations and
// idempotent replays, in turn. The operation under way when stop ends is finished
// under ctx, so that no answer is lost to the end of the load.
func (l *loader) run(stop, ctx context.Context) {
	for n := 0; stop.Err() == nil; n++ {
		switch (n + l.id) % 5 {
		case 0, 2:
			l.consent(ctx)
		case 1, 3:
			l.parcel(ctx)
		case 4:
			l.replay(ctx, n%2 == 0)
		}
	}
}

// consent creates a verification request with a callback on the test's receiver,
// reads its consent context, signs the approval with the holder's wallet (EIP-712) and
// posts it.
func (l *loader) consent(ctx context.Context) {
	create := l.write(ctx, call{method: "POST", path: "/verify/request", token: l.verifier, key: l.newKey("request"), first: -1,
		body: mustJSON(map[string]any{"subjectRef": l.did, "scope": consentScope, "reason": "replica load test", "callbackUrl": l.callback})})
	if !l.settled(create, "POST /verify/request", http.StatusCreated) {
		if create.unknown || create.cut > 0 {
			l.ledger.add(record{kind: kindRequest, client: l.id, unknown: true, replica: create.replica})
		}
		return
	}
	var created struct{ RequestID, Status string }
	if err := decode(create.answer, &created); err != nil || created.RequestID == "" {
		l.traffic.note(&l.traffic.unexpected, "POST /verify/request: %s", create.answer)
		return
	}
	l.ledger.add(record{kind: kindRequest, client: l.id, id: created.RequestID, acked: true, replica: create.replica})
	path := "/consent/" + created.RequestID
	cx, err := l.read(ctx, call{method: "GET", path: path, first: -1})
	if err != nil || cx.status != http.StatusOK {
		if ctx.Err() == nil {
			l.traffic.note(&l.traffic.unexpected, "GET %s: %s %v", path, cx, err)
		}
		return
	}
	body, err := approval(cx.body, l.wallet)
	if err != nil {
		l.traffic.note(&l.traffic.unexpected, "signing %s: %v", path, err)
		return
	}
	decided := l.write(ctx, call{method: "POST", path: path, key: l.newKey("approval"), body: body, first: -1})
	rec := record{kind: kindApproval, client: l.id, id: created.RequestID, replica: decided.replica, unknown: decided.unknown}
	if !l.settled(decided, "POST "+path, http.StatusCreated) {
		if decided.unknown || decided.cut > 0 {
			rec.unknown = true
			l.ledger.add(rec)
		}
		return
	}
	var out struct {
		Status      string `json:"status"`
		Attestation struct {
			ID string `json:"id"`
		} `json:"attestation"`
	}
	if err := decode(decided.answer, &out); err != nil || out.Status != "APPROVED" || out.Attestation.ID == "" {
		l.traffic.note(&l.traffic.unexpected, "POST %s: %s", path, decided.answer)
		return
	}
	rec.acked, rec.attestation = true, out.Attestation.ID
	l.ledger.add(rec)
}

// parcel creates one parcel whose owner's name is unique to it, so that the checks
// can count the parcels each creation made.
func (l *loader) parcel(ctx context.Context) {
	name := l.ownerName()
	res := l.write(ctx, call{method: "POST", path: "/v1/parcels", token: l.verifier, key: l.newKey("parcel"), body: parcelRequest(name), first: -1})
	l.recordParcel(kindParcel, name, res)
}

// replay sends one parcel creation, with one Idempotency-Key and one body, to two
// different replicas: both at once, or one after the other. Both answers must name
// the same parcel.
func (l *loader) replay(ctx context.Context, together bool) {
	name, key := l.ownerName(), l.newKey("replay")
	body := parcelRequest(name)
	a := int(l.next.Add(1) % uint64(len(l.bases)))
	b := (a + 1) % len(l.bases)
	var siblings atomic.Int32
	send := func(first int) writeResult {
		return l.write(ctx, call{method: "POST", path: "/v1/parcels", token: l.verifier, key: key, body: body, first: first, siblings: &siblings})
	}
	var ra, rb writeResult
	if together {
		var wg sync.WaitGroup
		wg.Go(func() { ra = send(a) })
		wg.Go(func() { rb = send(b) })
		wg.Wait()
	} else {
		ra = send(a)
		rb = send(b)
	}
	ida, idb := l.recordParcel(kindReplay, name, ra), l.recordParcel(kindReplay, name, rb)
	pair := replayPair{together: together, name: name}
	if ida != "" && idb != "" {
		pair.both = true
		pair.same = ida == idb
		pair.replayed = ra.header.Get("Idempotent-Replayed") == "true" || rb.header.Get("Idempotent-Replayed") == "true"
		if !pair.same {
			pair.detail = fmt.Sprintf("key %s: %s (%s) and %s (%s)", key, ida, ra.replica, idb, rb.replica)
		}
	}
	l.ledger.addPair(pair)
}

// recordParcel records a parcel creation's outcome and returns the parcel's id when
// acknowledged.
func (l *loader) recordParcel(kind string, name string, res writeResult) string {
	if !l.settled(res, "POST /v1/parcels", http.StatusCreated) {
		if res.unknown || res.cut > 0 {
			l.ledger.add(record{kind: kind, client: l.id, name: name, unknown: true, replica: res.replica})
		}
		return ""
	}
	attrs, err := attributes(res.answer)
	id, _ := attrs["id"].(string)
	if err != nil || id == "" {
		l.traffic.note(&l.traffic.unexpected, "POST /v1/parcels: %s", res.answer)
		return ""
	}
	l.ledger.add(record{kind: kind, client: l.id, id: id, name: name, acked: true, replica: res.replica})
	return id
}

// settled reports whether res is the expected acknowledgement; an unexpected
// definitive answer is noted (the checks fail on any), an unknown outcome is not.
func (l *loader) settled(res writeResult, what string, want int) bool {
	if res.acked && res.status == want {
		return true
	}
	if !res.unknown && res.status != 0 {
		l.traffic.note(&l.traffic.unexpected, "%s: %s", what, res.answer)
	}
	return false
}

func (l *loader) ownerName() string {
	l.seq++
	return fmt.Sprintf("Replica Owner %d-%d-%s", l.id, l.seq, randomHex(3))
}

// parcelRequest is seed 000 §2's body with the given owner name.
func parcelRequest(owner string) []byte {
	return mustJSON(map[string]any{
		"owner":  map[string]any{"fullName": owner, "id_doc": "NIN-83920174655"},
		"parcel": map[string]any{"gps": []float64{9.0765, 7.3986}, "area_m2": 1200, "city": "Abuja"},
		"notary": "NOT-ABJ-0042",
	})
}

// approval completes a consent context's typed data with the decision APPROVED and
// the hash of the disclosed scope, signs it as the holder's wallet does, and returns
// the body of POST /consent/{requestId}.
func approval(contextBody []byte, key *ecdsa.PrivateKey) ([]byte, error) {
	var cx struct {
		Scope     []string           `json:"scope"`
		TypedData apitypes.TypedData `json:"typedData"`
	}
	if err := json.Unmarshal(contextBody, &cx); err != nil {
		return nil, err
	}
	if cx.TypedData.Message == nil {
		return nil, errors.New("the consent context has no typedData.message")
	}
	items := make([]byte, 0, 32*len(cx.Scope))
	for _, d := range cx.Scope {
		items = append(items, crypto.Keccak256([]byte(d))...)
	}
	cx.TypedData.Message["decision"] = "APPROVED"
	cx.TypedData.Message["disclosedScopeHash"] = hexutil.Encode(crypto.Keccak256(items))
	digest, _, err := apitypes.TypedDataAndHash(cx.TypedData)
	if err != nil {
		return nil, err
	}
	sig, err := ethsig.Sign(key, [32]byte(digest))
	if err != nil {
		return nil, err
	}
	return mustJSON(map[string]any{
		"holderAddress": crypto.PubkeyToAddress(key.PublicKey).Hex(), "decision": "APPROVED",
		"disclosedScope": cx.Scope, "holderSignature": hexutil.Encode(sig),
	}), nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// The kinds of writes the ledger records.
const (
	kindRequest  = "verification requests"
	kindApproval = "consent approvals"
	kindParcel   = "parcels"
	kindReplay   = "replayed parcel creations"
)

// record is one write of the load: acknowledged (a 2xx was received) or unknown.
type record struct {
	kind        string
	client      int
	id          string // request id, parcel id
	name        string // parcels: the unique owner name
	attestation string // approvals: the attestation issued
	acked       bool
	unknown     bool
	replica     string // the replica that answered, or whose answer was lost
}

// replayPair is the outcome of one replay operation (two sends of one key).
type replayPair struct {
	together, both, same, replayed bool
	name, detail                   string
}

// ledger keeps every write of the load.
type ledger struct {
	mu      sync.Mutex
	records []record
	pairs   []replayPair
}

func (lg *ledger) add(r record) {
	lg.mu.Lock()
	defer lg.mu.Unlock()
	lg.records = append(lg.records, r)
}

func (lg *ledger) addPair(p replayPair) {
	lg.mu.Lock()
	defer lg.mu.Unlock()
	lg.pairs = append(lg.pairs, p)
}

// receiver is the verifiers' callback endpoint: it records every webhook it gets and
// answers 204.
type receiver struct {
	srv *httptest.Server
	mu  sync.Mutex
	got []hook
}

// hook is one webhook received.
type hook struct {
	client int
	id     string // webhook-id
	header http.Header
	body   []byte
	at     time.Time
}

func newReceiver() *receiver {
	rc := &receiver{}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		client, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/hooks/"))
		rc.mu.Lock()
		rc.got = append(rc.got, hook{client: client, id: r.Header.Get("webhook-id"), header: r.Header.Clone(), body: body, at: time.Now()})
		rc.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	return rc
}

func (rc *receiver) hooks() []hook {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]hook(nil), rc.got...)
}
