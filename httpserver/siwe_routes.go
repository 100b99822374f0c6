package httpserver

import (
	"net/http"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/identity"
)

// holderTokenTTL is the life of a wallet-login token (SPEC S2.3).
const holderTokenTTL = time.Hour

// siweNonceBody is the optional body of POST /auth/siwe/nonce. environment is
// accepted for compatibility, checked, and ignored: a nonce is good for a login into
// either environment (SPEC S2.3).
type siweNonceBody struct {
	Environment veriland.Environment `json:"environment"`
}

type siweNonceJSON struct {
	Nonce     string    `json:"nonce"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// siweNonce answers POST /auth/siwe/nonce (public): a single-use nonce good for one
// login into either environment, which the login (POST /auth/siwe) names. No body is
// needed; {} and {"environment": …} are accepted too.
func (s *Server) siweNonce(w http.ResponseWriter, r *http.Request) error {
	var body siweNonceBody
	if err := decodeJSON(r, &body); err != nil {
		return err
	}
	if body.Environment != "" && !body.Environment.Valid() {
		return veriland.Invalid("/environment", "environment must be SANDBOX or PRODUCTION")
	}
	nonce, exp, err := s.cfg.SIWE.NewNonce(r.Context())
	if err != nil {
		return err
	}
	s.writeJSON(w, r, http.StatusCreated, siweNonceJSON{Nonce: nonce, ExpiresAt: exp.UTC()})
	return nil
}

type siweLoginBody struct {
	Message     string               `json:"message"`
	Signature   string               `json:"signature"`
	Environment veriland.Environment `json:"environment"`
}

type siweLoginJSON struct {
	Token     string    `json:"token"`
	ExpiresAt time.Time `json:"expiresAt"`
	DID       string    `json:"did"`
}

// siweLogin answers POST /auth/siwe (public): Sign-In with Ethereum. The token's sub
// is the DID of the identity whose wallet signed, else the wallet's did:pkh.
func (s *Server) siweLogin(w http.ResponseWriter, r *http.Request) error {
	var body siweLoginBody
	if err := decodeJSON(r, &body); err != nil {
		return err
	}
	env := body.Environment
	if env == "" {
		env = veriland.Production
	}
	if !env.Valid() {
		return veriland.Invalid("/environment", "environment must be SANDBOX or PRODUCTION")
	}
	login, err := s.cfg.SIWE.Verify(r.Context(), env, body.Message, body.Signature)
	if err != nil {
		s.metrics.verification("siwe", "refused")
		if veriland.IsCode(err, veriland.CodeUnauthenticated) {
			s.coalesce(env, "siwe:"+s.clientIP(r), auditFailure(env, "auth.siwe_refused", string(veriland.CodeOf(err))))
		}
		return err
	}
	did := identity.PKHDID(s.cfg.ChainID, login.Address)
	if id, err := s.cfg.Identity.ByWallet(r.Context(), env, login.Address); err == nil {
		did = id.DID
	} else if !veriland.IsCode(err, veriland.CodeNotFound) {
		return err
	}
	tok, p, err := s.cfg.Tokens.Mint(veriland.Principal{Subject: did, Role: veriland.RoleHolder, Env: env, Wallet: login.Address}, holderTokenTTL)
	if err != nil {
		return err
	}
	s.metrics.verification("siwe", "accepted")
	s.writeJSON(w, r, http.StatusCreated, siweLoginJSON{Token: tok, ExpiresAt: p.ExpiresAt, DID: did})
	return nil
}
