package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/veriland/veriland/identity/siwe"
	"github.com/veriland/veriland/internal/ethsig"
)

// consentScope is what every verification request asks for; the holder discloses all of it.
var consentScope = []string{"is_adult", "nationality"}

var sandboxHeader = map[string]string{"Veriland-Environment": "SANDBOX"}

// health: GET /v1/health.
func (l *loader) health(ctx context.Context) (*report, error) {
	return l.measure(ctx, "health", l.o.n, func(ctx context.Context, _ int) outcome {
		a, err := l.do(ctx, call{method: http.MethodGet, path: "/v1/health"})
		if err != nil {
			return outcome{err: err}
		}
		if a.status != http.StatusOK {
			return outcome{statuses: []int{a.status}, err: statusError("GET /v1/health", a, http.StatusOK)}
		}
		return outcome{statuses: []int{a.status}}
	}), nil
}

// consent prepares n signed approvals (not timed), then times POST /consent/{id}.
func (l *loader) consent(ctx context.Context) (*report, error) {
	setupStart := time.Now()
	setupCtx, cancel := context.WithTimeout(ctx, l.o.duration)
	defer cancel()
	tag, err := randomTag()
	if err != nil {
		return nil, err
	}

	// A verifier API key made with the admin token.
	a, err := l.postJSON(setupCtx, "/v1/api-keys", l.o.token, nil,
		map[string]any{"role": "verifier", "sub": "loadgen-verifier-" + tag, "name": "loadgen " + tag})
	if err != nil {
		return nil, fmt.Errorf("setup: POST /v1/api-keys: %w", err)
	}
	if a.status != http.StatusCreated {
		return nil, statusError("setup: POST /v1/api-keys", a, http.StatusCreated)
	}
	var key struct {
		Data struct {
			Attributes struct {
				Token string `json:"token"`
			} `json:"attributes"`
		} `json:"data"`
	}
	if err := json.Unmarshal(a.body, &key); err != nil || key.Data.Attributes.Token == "" {
		return nil, fmt.Errorf("setup: POST /v1/api-keys: no token in %s", a.body)
	}
	verifier := key.Data.Attributes.Token

	// A holder wallet and a SANDBOX identity bound to it.
	wallet, err := crypto.GenerateKey()
	if err != nil {
		return nil, err
	}
	holder := crypto.PubkeyToAddress(wallet.PublicKey).Hex()
	a, err = l.postJSON(setupCtx, "/identity/issue", "", sandboxHeader, map[string]any{
		"subjectRef": "loadgen-subject-" + tag, "countryCode": "NG", "walletAddress": holder,
		"payload": map[string]any{"scenario": "success"}})
	if err != nil {
		return nil, fmt.Errorf("setup: POST /identity/issue: %w", err)
	}
	if a.status != http.StatusCreated {
		return nil, statusError("setup: POST /identity/issue", a, http.StatusCreated)
	}
	var issued struct {
		DID    string `json:"did"`
		Status string `json:"status"`
	}
	if err := json.Unmarshal(a.body, &issued); err != nil || issued.DID == "" {
		return nil, fmt.Errorf("setup: POST /identity/issue: no did in %s", a.body)
	}
	if issued.Status != "ACTIVE" {
		return nil, fmt.Errorf("setup: the issued identity is %s, not ACTIVE", issued.Status)
	}

	// n verification requests, each read and signed by the holder.
	type prepared struct {
		path string
		body []byte
	}
	reqs := make([]prepared, l.o.n)
	create := map[string]any{"subjectRef": issued.DID, "scope": consentScope, "reason": "loadgen"}
	if l.o.callback != "" {
		create["callbackUrl"] = l.o.callback
	}
	err = parallel(setupCtx, l.o.n, l.o.c, func(ctx context.Context, i int) error {
		a, err := l.postJSON(ctx, "/verify/request", verifier, nil, create)
		if err != nil {
			return fmt.Errorf("setup: POST /verify/request: %w", err)
		}
		if a.status != http.StatusCreated {
			return statusError("setup: POST /verify/request", a, http.StatusCreated)
		}
		var created struct {
			RequestID string `json:"requestId"`
		}
		if err := json.Unmarshal(a.body, &created); err != nil || created.RequestID == "" {
			return fmt.Errorf("setup: POST /verify/request: no requestId in %s", a.body)
		}
		path := "/consent/" + url.PathEscape(created.RequestID)
		a, err = l.do(ctx, call{method: http.MethodGet, path: path})
		if err != nil {
			return fmt.Errorf("setup: GET %s: %w", path, err)
		}
		if a.status != http.StatusOK {
			return statusError("setup: GET "+path, a, http.StatusOK)
		}
		body, err := approve(a.body, wallet)
		if err != nil {
			return fmt.Errorf("setup: signing %s: %w", path, err)
		}
		reqs[i] = prepared{path: path, body: body}
		return nil
	})
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("setup did not finish within -duration %s", l.o.duration)
		}
		return nil, err
	}
	fmt.Fprintf(l.stderr, "loadgen: setup: %d signed approvals prepared in %.1fs\n", l.o.n, time.Since(setupStart).Seconds())

	return l.measure(ctx, "consent", l.o.n, func(ctx context.Context, i int) outcome {
		p := reqs[i]
		a, err := l.do(ctx, call{method: http.MethodPost, path: p.path, body: p.body})
		if err != nil {
			return outcome{err: err}
		}
		if a.status != http.StatusCreated {
			return outcome{statuses: []int{a.status}, err: statusError("POST "+p.path, a, http.StatusCreated)}
		}
		return outcome{statuses: []int{a.status}}
	}), nil
}

// approve completes a consent context's typed data with the decision APPROVED and the
// hash of the whole disclosed scope, signs it, and returns the body for
// POST /consent/{requestId} — exactly what examples/wallet consent does.
func approve(contextBody []byte, key *ecdsa.PrivateKey) ([]byte, error) {
	var ctx struct {
		Scope     []string           `json:"scope"`
		TypedData apitypes.TypedData `json:"typedData"`
	}
	if err := json.Unmarshal(contextBody, &ctx); err != nil {
		return nil, fmt.Errorf("reading the consent context: %w", err)
	}
	if ctx.TypedData.Message == nil {
		return nil, errors.New("the consent context has no typedData.message")
	}
	disclosed := ctx.Scope
	if disclosed == nil {
		disclosed = []string{}
	}
	items := make([]byte, 0, 32*len(disclosed))
	for _, d := range disclosed {
		items = append(items, crypto.Keccak256([]byte(d))...)
	}
	ctx.TypedData.Message["decision"] = "APPROVED"
	ctx.TypedData.Message["disclosedScopeHash"] = hexutil.Encode(crypto.Keccak256(items))
	digest, _, err := apitypes.TypedDataAndHash(ctx.TypedData)
	if err != nil {
		return nil, err
	}
	var d [32]byte
	copy(d[:], digest)
	sig, err := ethsig.Sign(key, d)
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]any{
		"holderAddress": crypto.PubkeyToAddress(key.PublicKey).Hex(), "decision": "APPROVED",
		"disclosedScope": disclosed, "holderSignature": hexutil.Encode(sig),
	})
}

// siwe times Sign-In with Ethereum round trips for one wallet: a nonce, the signed
// message, the login. One request is one round trip (two HTTP calls).
func (l *loader) siwe(ctx context.Context) (*report, error) {
	wallet, err := crypto.GenerateKey()
	if err != nil {
		return nil, err
	}
	address := crypto.PubkeyToAddress(wallet.PublicKey).Hex()
	origin, err := url.Parse(l.o.origin)
	if err != nil {
		return nil, err
	}
	return l.measure(ctx, "siwe", l.o.n, func(ctx context.Context, _ int) outcome {
		var out outcome
		a, err := l.postJSON(ctx, "/auth/siwe/nonce", "", nil, map[string]any{"environment": "SANDBOX"})
		if err != nil {
			out.err = err
			return out
		}
		out.statuses = append(out.statuses, a.status)
		if a.status != http.StatusCreated {
			out.err = statusError("POST /auth/siwe/nonce", a, http.StatusCreated)
			return out
		}
		var nonce struct {
			Nonce string `json:"nonce"`
		}
		if err := json.Unmarshal(a.body, &nonce); err != nil || nonce.Nonce == "" {
			out.err = fmt.Errorf("POST /auth/siwe/nonce: no nonce in %s", a.body)
			return out
		}
		msg := siwe.Message{
			Domain: origin.Host, Address: address, Statement: "Sign in to veriland", URI: l.o.origin,
			Version: "1", ChainID: l.o.chainID, Nonce: nonce.Nonce, IssuedAt: time.Now().UTC().Truncate(time.Second),
		}
		text := msg.String()
		sig, err := ethsig.Sign(wallet, ethsig.PersonalDigest([]byte(text)))
		if err != nil {
			out.err = err
			return out
		}
		a, err = l.postJSON(ctx, "/auth/siwe", "", nil,
			map[string]any{"message": text, "signature": hexutil.Encode(sig), "environment": "SANDBOX"})
		if err != nil {
			out.err = err
			return out
		}
		out.statuses = append(out.statuses, a.status)
		if a.status != http.StatusCreated {
			out.err = statusError("POST /auth/siwe", a, http.StatusCreated)
		}
		return out
	}), nil
}

func (l *loader) postJSON(ctx context.Context, path, token string, header map[string]string, v any) (answer, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return answer{}, err
	}
	return l.do(ctx, call{method: http.MethodPost, path: path, token: token, header: header, body: body})
}

func randomTag() (string, error) {
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}
