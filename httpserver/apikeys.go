package httpserver

import (
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/internal/ids"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/audit"
)

// apiKey is the public view of an API key. The token itself is shown once and never
// stored; apiKeyRecord keeps its jti so that revocation can refuse it.
type apiKey struct {
	ID        string               `json:"id"`
	Role      veriland.Role        `json:"role"`
	Subject   string               `json:"sub"`
	Name      string               `json:"name"`
	Env       veriland.Environment `json:"environment"`
	Account   string               `json:"account,omitempty"`
	CreatedAt time.Time            `json:"createdAt"`
	ExpiresAt time.Time            `json:"expiresAt"`
	RevokedAt *time.Time           `json:"revokedAt,omitempty"`
	CreatedBy string               `json:"createdBy"`
}

// apiKeyRecord is the stored form (it keeps the jti the JSON view hides).
type apiKeyRecord struct {
	apiKey
	JTI string `json:"jti"`
}

type apiKeyCreated struct {
	apiKey
	Token string `json:"token"`
}

type createAPIKeyBody struct {
	Role    veriland.Role `json:"role"`
	Sub     string        `json:"sub"`
	Name    string        `json:"name"`
	TTLDays *int          `json:"ttlDays"`
}

var notaryID = regexp.MustCompile(`^NOT-[A-Z]{2,5}-[0-9]{1,10}$`)

func (b createAPIKeyBody) validate() error {
	var errs veriland.Errors
	switch b.Role {
	case veriland.RoleVerifier, veriland.RoleNotary, veriland.RoleAdmin:
	default:
		errs = append(errs, veriland.Invalid("/role", "role must be verifier, notary or admin (holders sign in with their wallet)"))
	}
	switch {
	case len(b.Sub) == 0 || len(b.Sub) > 256:
		errs = append(errs, veriland.Invalid("/sub", "sub must be 1..256 characters"))
	case b.Role == veriland.RoleNotary && !notaryID.MatchString(b.Sub):
		errs = append(errs, veriland.Invalid("/sub", "a notary's sub is its notary identifier, like NOT-ABJ-0042"))
	}
	if len(b.Name) == 0 || len(b.Name) > 100 {
		errs = append(errs, veriland.Invalid("/name", "name must be 1..100 characters"))
	}
	if b.TTLDays != nil && (*b.TTLDays < 1 || *b.TTLDays > 365) {
		errs = append(errs, veriland.Invalid("/ttlDays", "ttlDays must be from 1 to 365"))
	}
	return errs.Err()
}

func apiKeysBucket(env veriland.Environment) string    { return storage.Bucket(env, "api_keys") }
func revokedJTIBucket(env veriland.Environment) string { return storage.Bucket(env, "revoked_jti") }

// apiKeyJTIBucket indexes API keys by the jti of their token (jti → key id), so that
// a request can find the key of its own token (verifierName, SPEC S5).
func apiKeyJTIBucket(env veriland.Environment) string { return storage.Bucket(env, "api_key_jti") }

// createAPIKey answers POST /v1/api-keys (admin): the token is in this response only.
func (s *Server) createAPIKey(w http.ResponseWriter, r *http.Request) error {
	var body createAPIKeyBody
	if err := decodeJSON(r, &body); err != nil {
		return err
	}
	if err := body.validate(); err != nil {
		return err
	}
	ttlDays := 90
	if body.TTLDays != nil {
		ttlDays = *body.TTLDays
	}
	admin := principal(r)
	id, err := ids.New(s.cfg.Rand, "key")
	if err != nil {
		return err
	}
	token, minted, err := s.cfg.Tokens.Mint(veriland.Principal{
		Subject: body.Sub, Role: body.Role, Env: admin.Env, Account: admin.Account,
	}, time.Duration(ttlDays)*24*time.Hour)
	if err != nil {
		return err
	}
	rec := apiKeyRecord{apiKey: apiKey{
		ID: id, Role: body.Role, Subject: body.Sub, Name: body.Name, Env: admin.Env, Account: admin.Account,
		CreatedAt: s.cfg.Now().UTC().Truncate(time.Second), ExpiresAt: minted.ExpiresAt, CreatedBy: admin.Subject,
	}, JTI: minted.TokenID}
	raw, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	err = s.cfg.Store.Update(r.Context(), func(tx storage.Tx) error {
		if err := tx.Put(apiKeysBucket(admin.Env), []byte(id), raw); err != nil {
			return err
		}
		if err := tx.Put(apiKeyJTIBucket(admin.Env), []byte(rec.JTI), []byte(id)); err != nil {
			return err
		}
		return s.audit(r.Context(), tx, audit.Entry{
			Env: admin.Env, Action: "api_key.create", ResourceType: "api_key", ResourceID: id,
			Severity: audit.SeverityNotice, Outcome: audit.OutcomeSuccess,
			Detail: map[string]any{"role": string(body.Role), "keySub": body.Sub},
		})
	})
	if err != nil {
		return err
	}
	s.writeResource(w, r, http.StatusCreated, "api-keys", id, apiKeyCreated{apiKey: rec.apiKey, Token: token}, "/v1/api-keys/"+id)
	return nil
}

// listAPIKeys answers GET /v1/api-keys (admin): the keys of the caller's environment
// and account, never their tokens, newest first (creation time, then id).
func (s *Server) listAPIKeys(w http.ResponseWriter, r *http.Request) error {
	pg, err := parsePage(r)
	if err != nil {
		return err
	}
	admin := principal(r)
	var all []keyedResource
	err = s.cfg.Store.View(r.Context(), func(tx storage.Tx) error {
		all = all[:0]
		return tx.Scan(apiKeysBucket(admin.Env), storage.Range{}, func(_, v []byte) error {
			var rec apiKeyRecord
			if err := json.Unmarshal(v, &rec); err != nil {
				return err
			}
			if rec.Account == admin.Account {
				all = append(all, keyedResource{
					key: newestFirstKey(rec.CreatedAt, rec.ID),
					res: newResource("api-keys", rec.ID, rec.apiKey, "/v1/api-keys/"+rec.ID),
				})
			}
			return nil
		})
	})
	if err != nil {
		return err
	}
	// An account's keys are few (an admin creates each one): sort them in memory,
	// newest first, rather than keep a second index.
	items, next := pg.sorted(all)
	s.writeCollection(w, r, items, next)
	return nil
}

// revokeAPIKey answers DELETE /v1/api-keys/{id} (admin): the key's jti is refused
// from then on. Revoking a revoked key is a no-op.
func (s *Server) revokeAPIKey(w http.ResponseWriter, r *http.Request) error {
	admin := principal(r)
	id := r.PathValue("id")
	now := s.cfg.Now().UTC().Truncate(time.Second)
	err := s.cfg.Store.Update(r.Context(), func(tx storage.Tx) error {
		raw, err := tx.Get(apiKeysBucket(admin.Env), []byte(id))
		if errors.Is(err, storage.ErrNotFound) {
			return veriland.Errorf(veriland.CodeNotFound, "no API key %s", id)
		}
		if err != nil {
			return err
		}
		var rec apiKeyRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return err
		}
		if rec.Account != admin.Account {
			return veriland.Errorf(veriland.CodeNotFound, "no API key %s", id)
		}
		if rec.RevokedAt != nil {
			return nil
		}
		rec.RevokedAt = &now
		if raw, err = json.Marshal(rec); err != nil {
			return err
		}
		if err := tx.Put(apiKeysBucket(admin.Env), []byte(id), raw); err != nil {
			return err
		}
		exp, _ := rec.ExpiresAt.MarshalText()
		if err := tx.Put(revokedJTIBucket(admin.Env), []byte(rec.JTI), exp); err != nil {
			return err
		}
		return s.audit(r.Context(), tx, audit.Entry{
			Env: admin.Env, Action: "api_key.revoke", ResourceType: "api_key", ResourceID: id,
			Severity: audit.SeverityNotice, Outcome: audit.OutcomeSuccess,
		})
	})
	if err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// apiKeyName returns the name of the API key whose token p carries, or "" when p's
// token is not an API key's (a token minted from the command line, a holder's login).
func (s *Server) apiKeyName(r *http.Request, p veriland.Principal) (string, error) {
	if p.TokenID == "" || !p.Env.Valid() {
		return "", nil
	}
	name := ""
	err := s.cfg.Store.View(r.Context(), func(tx storage.Tx) error {
		id, err := tx.Get(apiKeyJTIBucket(p.Env), []byte(p.TokenID))
		if errors.Is(err, storage.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		raw, err := tx.Get(apiKeysBucket(p.Env), id)
		if errors.Is(err, storage.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		var rec apiKeyRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			return err
		}
		if rec.JTI == p.TokenID && rec.Subject == p.Subject && rec.Account == p.Account {
			name = rec.Name
		}
		return nil
	})
	return name, err
}

// tokenRevoked reports whether p's jti has been revoked.
func (s *Server) tokenRevoked(r *http.Request, p veriland.Principal) (bool, error) {
	revoked := false
	err := s.cfg.Store.View(r.Context(), func(tx storage.Tx) error {
		_, err := tx.Get(revokedJTIBucket(p.Env), []byte(p.TokenID))
		if errors.Is(err, storage.ErrNotFound) {
			return nil
		}
		revoked = err == nil
		return err
	})
	return revoked, err
}
