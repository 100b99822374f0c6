package goclient_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver"
	"github.com/veriland/veriland/httpserver/auth"
	"github.com/veriland/veriland/interop/goclient"
	"github.com/veriland/veriland/storage/bolt"
)

// flow is a running server and the generated client pointed at it.
type flow struct {
	t      *testing.T
	ctx    context.Context
	api    *goclient.ClientWithResponses
	tokens *auth.Tokens
	issuer string // the attestation issuer's address
}

func newFlow(t *testing.T) *flow {
	t.Helper()
	store, err := bolt.Open(filepath.Join(t.TempDir(), "veriland.db"), bolt.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = store.Close() })
	issuerKey, err := crypto.GenerateKey()
	require.NoError(t, err)
	tokens := &auth.Tokens{Rand: rand.Reader, Secrets: auth.Secrets{
		Sandbox: bytes.Repeat([]byte("s"), 32), Production: bytes.Repeat([]byte("p"), 32)}}
	cfg, err := httpserver.WithDefaultServices(httpserver.Config{Store: store, Tokens: tokens, PublicOrigin: "https://veriland.example"},
		httpserver.Keys{Pepper: bytes.Repeat([]byte("k"), 32), IssuerKey: issuerKey})
	require.NoError(t, err)
	srv, err := httpserver.New(cfg)
	require.NoError(t, err)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	api, err := goclient.NewClientWithResponses(ts.URL, goclient.WithHTTPClient(ts.Client()))
	require.NoError(t, err)
	return &flow{t: t, ctx: t.Context(), api: api, tokens: tokens, issuer: crypto.PubkeyToAddress(issuerKey.PublicKey).Hex()}
}

// bearer authenticates one call.
func bearer(token string) goclient.RequestEditorFn {
	return func(_ context.Context, r *http.Request) error {
		r.Header.Set("Authorization", "Bearer "+token)
		return nil
	}
}

func (f *flow) mint(role veriland.Role, sub string) string {
	tok, _, err := f.tokens.Mint(veriland.Principal{Subject: sub, Role: role, Env: veriland.Sandbox, Account: "acct_goclient"}, time.Hour)
	require.NoError(f.t, err)
	return tok
}

// verifier creates an API key of the verifier role through the generated client.
func (f *flow) verifier() string {
	res, err := f.api.CreateApiKeyWithResponse(f.ctx, nil, goclient.CreateApiKeyJSONRequestBody{
		Role: goclient.CreateApiKeyRoleVerifier, Sub: "verifier-goclient", Name: "Go Client Verifier"}, bearer(f.mint(veriland.RoleAdmin, "admin")))
	require.NoError(f.t, err)
	require.Equal(f.t, http.StatusCreated, res.StatusCode(), "%s", res.Body)
	require.NotEmpty(f.t, res.ApplicationvndApiJSON201.Data.Attributes.Token)
	return res.ApplicationvndApiJSON201.Data.Attributes.Token
}

// holder issues a SANDBOX identity bound to a fresh wallet and returns its DID.
func (f *flow) holder(key *ecdsa.PrivateKey) string {
	wallet := crypto.PubkeyToAddress(key.PublicKey).Hex()
	sandbox := goclient.SANDBOX
	res, err := f.api.IssueIdentityWithResponse(f.ctx, &goclient.IssueIdentityParams{VerilandEnvironment: &sandbox}, goclient.IssueIdentityJSONRequestBody{
		SubjectRef: "goclient-" + hexutil.Encode(crypto.Keccak256([]byte(wallet)))[2:14], WalletAddress: &wallet,
		Payload: map[string]any{"scenario": "success"}})
	require.NoError(f.t, err)
	require.Equal(f.t, http.StatusCreated, res.StatusCode(), "%s", res.Body)
	return res.JSON201.Did
}

// ask creates a PENDING verification request about did.
func (f *flow) ask(verifierToken, did string) string {
	scope := []goclient.ScopeItem{goclient.Identity, goclient.IsAdult}
	mode := goclient.PROOFONLY
	res, err := f.api.CreateVerificationRequestWithResponse(f.ctx, nil, goclient.CreateVerificationRequestJSONRequestBody{
		SubjectRef: did, Scope: scope, Reason: "Go client: generated from the OpenAPI document", Mode: &mode}, bearer(verifierToken))
	require.NoError(f.t, err)
	require.Equal(f.t, http.StatusCreated, res.StatusCode(), "%s", res.Body)
	return res.JSON201.RequestId
}

// sign signs the served consent typed data with decision and the preset of that
// decision, with go-ethereum's generic EIP-712 encoder, and returns the body to post.
func (f *flow) sign(key *ecdsa.PrivateKey, ctx *goclient.ConsentContext, decision goclient.DecisionPresetDecision) goclient.DecideConsentJSONRequestBody {
	var preset *goclient.DecisionPreset
	for i, p := range *ctx.Presets {
		if p.Decision == decision {
			preset = &(*ctx.Presets)[i]
		}
	}
	require.NotNil(f.t, preset, "a preset for %s", decision)
	d, h := goclient.ConsentTypedDataMessageDecision(decision), preset.DisclosedScopeHash
	td := ctx.TypedData
	td.Message.Decision, td.Message.DisclosedScopeHash = &d, &h
	raw, err := json.Marshal(td)
	require.NoError(f.t, err)
	var typed apitypes.TypedData
	require.NoError(f.t, json.Unmarshal(raw, &typed))
	digest, _, err := apitypes.TypedDataAndHash(typed)
	require.NoError(f.t, err)
	sig, err := crypto.Sign(digest, key)
	require.NoError(f.t, err)
	sig[64] += 27
	return goclient.DecideConsentJSONRequestBody{
		Decision: goclient.ConsentDecisionDecision(decision), DisclosedScope: preset.DisclosedScope,
		HolderAddress: crypto.PubkeyToAddress(key.PublicKey).Hex(), HolderSignature: hexutil.Encode(sig)}
}

func (f *flow) consentContext(requestID string) *goclient.ConsentContext {
	res, err := f.api.GetConsentContextWithResponse(f.ctx, requestID, nil)
	require.NoError(f.t, err)
	require.Equal(f.t, http.StatusOK, res.StatusCode(), "%s", res.Body)
	return res.JSON200
}

// TestConsentFlow drives a whole consent flow through the generated client: a verifier
// key, a holder identity, a request, the consent context's typed data signed as served,
// the approval's CONSENT attestation (its signature recovering to the issuer, its
// claims typed), its public status, and the request's final state.
func TestConsentFlow(t *testing.T) {
	f := newFlow(t)
	verifierToken := f.verifier()
	holderKey, err := crypto.GenerateKey()
	require.NoError(t, err)
	did := f.holder(holderKey)
	requestID := f.ask(verifierToken, did)

	ctx := f.consentContext(requestID)
	require.Equal(t, goclient.VerificationStatusPENDING, ctx.Status)
	require.Equal(t, "Go Client Verifier", ctx.Verifier.Name)
	require.Equal(t, did, ctx.TypedData.Message.Subject)
	require.Nil(t, ctx.TypedData.Message.Decision, "decision is the holder's to add")

	res, err := f.api.DecideConsentWithResponse(f.ctx, requestID, nil, f.sign(holderKey, ctx, goclient.DecisionPresetDecisionAPPROVED))
	require.NoError(t, err)
	require.Equal(t, http.StatusCreated, res.StatusCode(), "%s", res.Body)
	require.NotEmpty(t, res.HTTPResponse.Header.Get("X-Request-Id"))
	att := res.JSON201.Attestation
	require.NotNil(t, att)
	require.Equal(t, requestID, att.Claims.Consent.RequestId)
	require.Equal(t, goclient.PROOFONLY, att.Claims.Consent.Mode)
	require.NotNil(t, att.Claims.IsAdult)
	require.True(t, *att.Claims.IsAdult)

	// The attestation's typed data and signature recover to the issuer.
	require.NotNil(t, att.TypedData)
	raw, err := json.Marshal(att.TypedData)
	require.NoError(t, err)
	var typed apitypes.TypedData
	require.NoError(t, json.Unmarshal(raw, &typed))
	digest, _, err := apitypes.TypedDataAndHash(typed)
	require.NoError(t, err)
	sig, err := hexutil.Decode(att.Signature)
	require.NoError(t, err)
	sig[64] -= 27
	pub, err := crypto.SigToPub(digest, sig)
	require.NoError(t, err)
	require.Equal(t, f.issuer, crypto.PubkeyToAddress(*pub).Hex())

	status, err := f.api.GetAttestationStatusWithResponse(f.ctx, att.Id, nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, status.StatusCode(), "%s", status.Body)
	require.Equal(t, goclient.AttestationStatusViewStatusVALID, status.JSON200.Status)

	req, err := f.api.GetVerificationRequestWithResponse(f.ctx, requestID, nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, req.StatusCode(), "%s", req.Body)
	require.Equal(t, goclient.VerificationStatusAPPROVED, req.JSON200.Status)
}

// TestConsentErrors checks that the generated client reads the typed error documents:
// the code, the request id (the X-Request-Id header) and the code's meta.
func TestConsentErrors(t *testing.T) {
	f := newFlow(t)
	verifierToken := f.verifier()
	holderKey, err := crypto.GenerateKey()
	require.NoError(t, err)
	did := f.holder(holderKey)
	otherKey, err := crypto.GenerateKey()
	require.NoError(t, err)

	cases := []struct {
		name   string
		call   func(requestID string) (*http.Response, []byte, error)
		status int
		code   goclient.ErrorCode
		meta   func(t *testing.T, m goclient.ErrorMeta)
	}{
		{
			name: "unknown request", status: http.StatusNotFound, code: goclient.NotFound,
			call: func(string) (*http.Response, []byte, error) {
				r, err := f.api.GetVerificationRequestWithResponse(f.ctx, "vrq_aaaaaaaaaaaaaaaaaaaaaaaaaa", nil)
				if err != nil {
					return nil, nil, err
				}
				return r.HTTPResponse, r.Body, nil
			},
		},
		{
			name: "signed by another wallet", status: http.StatusUnprocessableEntity, code: goclient.InvalidSignature,
			call: func(requestID string) (*http.Response, []byte, error) {
				body := f.sign(otherKey, f.consentContext(requestID), goclient.DecisionPresetDecisionAPPROVED)
				body.HolderAddress = crypto.PubkeyToAddress(holderKey.PublicKey).Hex()
				r, err := f.api.DecideConsentWithResponse(f.ctx, requestID, nil, body)
				if err != nil {
					return nil, nil, err
				}
				return r.HTTPResponse, r.Body, nil
			},
			meta: func(t *testing.T, m goclient.ErrorMeta) {
				require.NotNil(t, m.Recovered)
				require.Equal(t, crypto.PubkeyToAddress(otherKey.PublicKey).Hex(), *m.Recovered)
			},
		},
		{
			name: "decided twice", status: http.StatusConflict, code: goclient.InvalidState,
			call: func(requestID string) (*http.Response, []byte, error) {
				body := f.sign(holderKey, f.consentContext(requestID), goclient.DecisionPresetDecisionREJECTED)
				first, err := f.api.DecideConsentWithResponse(f.ctx, requestID, nil, body)
				if err != nil || first.StatusCode() != http.StatusOK {
					return nil, nil, fmt.Errorf("first decision: %v %v", err, first)
				}
				r, err := f.api.DecideConsentWithResponse(f.ctx, requestID, nil, body)
				if err != nil {
					return nil, nil, err
				}
				return r.HTTPResponse, r.Body, nil
			},
			meta: func(t *testing.T, m goclient.ErrorMeta) {
				require.NotNil(t, m.Status)
				require.Equal(t, "REJECTED", *m.Status)
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, body, err := c.call(f.ask(verifierToken, did))
			require.NoError(t, err)
			require.Equal(t, c.status, resp.StatusCode, "%s", body)
			var doc goclient.ErrorDocument
			require.NoError(t, json.Unmarshal(body, &doc))
			require.Len(t, doc.Errors, 1)
			e := doc.Errors[0]
			require.Equal(t, c.code, e.Code)
			require.Equal(t, fmt.Sprint(c.status), e.Status)
			require.Equal(t, resp.Header.Get("X-Request-Id"), e.Id)
			if c.meta != nil {
				c.meta(t, e.Meta)
			}
		})
	}
}
