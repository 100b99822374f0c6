package httpserver

import (
	"bytes"
	"crypto/ecdsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/chipauth/binding"
	"github.com/veriland/veriland/identity/siwe"
	"github.com/veriland/veriland/internal/ethsig"
)

// The identity routes of seed 001, driven with the seed's own request shapes: every
// member, every JSON type of "any", both edges of every bound (seed 001 §8).

func TestSeed001IdentityIssue(t *testing.T) {
	h := newHarness(t)
	wallet, _ := crypto.GenerateKey()
	walletHex := crypto.PubkeyToAddress(wallet.PublicKey).Hex()
	big := `{"photo":"` + strings.Repeat("A", 512<<10) + `"}` // over 512 KiB, under the 1 MiB body limit

	tests := []struct {
		name     string
		body     string // raw JSON, so that every JSON type of payload is sent as is
		status   int
		state    string   // identity status on success
		members  []string // members of the 201 body
		pointers []string // on 400
	}{
		{"every member", `{"subjectRef":"seed-all","countryCode":"NG","walletAddress":"` + walletHex + `",` +
			`"payload":{"scenario":"success","fullName":"Ada Obi","dateOfBirth":"1990-05-17"}}`,
			201, "ACTIVE", []string{"did", "status", "walletAddress"}, nil},
		{"subjectRef only", `{"subjectRef":"seed-min"}`, 201, "ACTIVE", []string{"did", "status"}, nil},
		{"payload object", `{"subjectRef":"p-object","payload":{"documents":[{"type":"passport"}]}}`, 201, "ACTIVE", []string{"did", "status"}, nil},
		{"payload array", `{"subjectRef":"p-array","payload":[1,"two",{"three":3}]}`, 201, "ACTIVE", []string{"did", "status"}, nil},
		{"payload string", `{"subjectRef":"p-string","payload":"scan-0042"}`, 201, "ACTIVE", []string{"did", "status"}, nil},
		{"payload number", `{"subjectRef":"p-number","payload":-12.5e2}`, 201, "ACTIVE", []string{"did", "status"}, nil},
		{"payload boolean", `{"subjectRef":"p-bool","payload":false}`, 201, "ACTIVE", []string{"did", "status"}, nil},
		{"payload null", `{"subjectRef":"p-null","payload":null}`, 201, "ACTIVE", []string{"did", "status"}, nil},
		{"countryCode null", `{"subjectRef":"c-null","countryCode":null}`, 201, "ACTIVE", []string{"did", "status"}, nil},
		{"countryCode 2 letters", `{"subjectRef":"c-2","countryCode":"FR"}`, 201, "ACTIVE", []string{"did", "status"}, nil},
		{"countryCode 3 letters", `{"subjectRef":"c-3","countryCode":"FRA"}`, 201, "ACTIVE", []string{"did", "status"}, nil},
		{"countryCode 1 letter", `{"subjectRef":"c-1","countryCode":"F"}`, 400, "", nil, []string{"/countryCode"}},
		{"countryCode 4 letters", `{"subjectRef":"c-4","countryCode":"FRAN"}`, 400, "", nil, []string{"/countryCode"}},
		{"countryCode lower case", `{"subjectRef":"c-lc","countryCode":"fr"}`, 400, "", nil, []string{"/countryCode"}},
		{"countryCode a number", `{"subjectRef":"c-num","countryCode":33}`, 400, "", nil, []string{"/countryCode"}},
		{"subjectRef 1 character", `{"subjectRef":"x"}`, 201, "ACTIVE", []string{"did", "status"}, nil},
		{"subjectRef 256 characters", `{"subjectRef":"` + strings.Repeat("s", 256) + `"}`, 201, "ACTIVE", []string{"did", "status"}, nil},
		{"subjectRef 257 characters", `{"subjectRef":"` + strings.Repeat("t", 257) + `"}`, 400, "", nil, []string{"/subjectRef"}},
		{"no subjectRef", `{"countryCode":"FR"}`, 400, "", nil, []string{"/subjectRef"}},
		{"bad checksum", `{"subjectRef":"w-bad","walletAddress":"0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"}`, 400, "", nil, []string{"/walletAddress"}},
		{"payload over 512 KiB", `{"subjectRef":"p-big","payload":` + big + `}`, 400, "", nil, []string{"/payload"}},
		{"unknown member", `{"subjectRef":"u","country":"FR"}`, 400, "", nil, []string{"/country"}},
		{"scenario review", `{"subjectRef":"s-review","payload":{"scenario":"review"}}`, 201, "PENDING_REVIEW", []string{"did", "reviewId", "status"}, nil},
		{"scenario failure", `{"subjectRef":"s-failure","payload":{"scenario":"failure"}}`, 201, "REJECTED", []string{"did", "status"}, nil},
		{"scenario timeout", `{"subjectRef":"s-timeout","payload":{"scenario":"timeout"}}`, 201, "PENDING_KYC", []string{"did", "status"}, nil},
		{"scenario unknown", `{"subjectRef":"s-bogus","payload":{"scenario":"bogus"}}`, 400, "", nil, []string{"/payload/scenario"}},
		{"dateOfBirth not a date", `{"subjectRef":"dob-bad","payload":{"dateOfBirth":"17/05/1990"}}`, 400, "", nil, []string{"/payload/dateOfBirth"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := h.do(request{method: "POST", path: "/identity/issue", body: tt.body, header: sandboxHeader})
			require.Equal(t, tt.status, r.status, string(r.body))
			if tt.status != 201 {
				require.Equal(t, tt.pointers, errorPointers(t, r), string(r.body))
				return
			}
			m := r.json(t)
			require.Equal(t, tt.members, members(m))
			require.Equal(t, tt.state, m["status"])
			require.True(t, strings.HasPrefix(m["did"].(string), "did:veriland:"))
			require.NotContains(t, string(r.body), "Ada Obi")
		})
	}

	t.Run("status shapes", func(t *testing.T) {
		with := h.do(request{method: "POST", path: "/identity/issue", header: sandboxHeader,
			body: map[string]any{"subjectRef": "st-with", "countryCode": "GHA"}}).json(t)
		st := h.do(request{method: "GET", path: "/identity/" + with["did"].(string) + "/status"})
		require.Equal(t, 200, st.status)
		m := st.json(t)
		require.Equal(t, []string{"countryCode", "createdAt", "did", "status", "updatedAt", "walletBound"}, members(m))
		require.Equal(t, "GHA", m["countryCode"])
		require.Equal(t, false, m["walletBound"])

		// Without a countryCode, the member is omitted (not null).
		without := h.do(request{method: "POST", path: "/identity/issue", header: sandboxHeader,
			body: map[string]any{"subjectRef": "st-without", "walletAddress": strings.ToLower(crypto.PubkeyToAddress(mustKey(t).PublicKey).Hex())}}).json(t)
		st = h.do(request{method: "GET", path: "/identity/" + without["did"].(string) + "/status"})
		require.Equal(t, 200, st.status)
		m = st.json(t)
		require.Equal(t, []string{"createdAt", "did", "status", "updatedAt", "walletBound"}, members(m))
		require.Equal(t, true, m["walletBound"])
	})

	t.Run("review shapes", func(t *testing.T) {
		rev := h.do(request{method: "POST", path: "/identity/issue", header: sandboxHeader,
			body: `{"subjectRef":"rv-shape","payload":{"scenario":"review","fullName":"Ada Obi"}}`}).json(t)
		g := h.do(request{method: "GET", path: "/identity/review/" + rev["reviewId"].(string)})
		require.Equal(t, 200, g.status)
		require.Equal(t, []string{"createdAt", "did", "id", "status"}, members(g.json(t)))
		require.Equal(t, "OPEN", g.json(t)["status"])
		require.NotContains(t, string(g.body), "Ada Obi")
		admin := h.token(veriland.RoleAdmin, veriland.Sandbox, "admin")
		d := h.do(request{method: "POST", path: "/identity/review/" + rev["reviewId"].(string) + "/decision", token: admin,
			body: map[string]any{"decision": "APPROVED"}})
		require.Equal(t, 200, d.status, string(d.body))
		g = h.do(request{method: "GET", path: "/identity/review/" + rev["reviewId"].(string)})
		require.Equal(t, []string{"createdAt", "decidedAt", "did", "id", "status"}, members(g.json(t)))
		require.Equal(t, "APPROVED", g.json(t)["status"])
	})

	t.Run("derived claims", func(t *testing.T) {
		// The harness clock is 2026-11-21: born 2008-11-22 is 17, 18 tomorrow.
		r := h.do(request{method: "POST", path: "/identity/issue", header: sandboxHeader,
			body: `{"subjectRef":"claims-minor","countryCode":"NG","payload":{"dateOfBirth":"2008-11-22"}}`})
		require.Equal(t, 201, r.status, string(r.body))
		id, err := h.srv.cfg.Identity.Get(t.Context(), veriland.Sandbox, r.json(t)["did"].(string))
		require.NoError(t, err)
		require.Equal(t, map[string]any{"is_adult": false, "age_over_16": true, "age_over_18": false, "age_over_21": false,
			"kyc_level": "standard", "nationality": "NG", "document_country": "NG"}, id.Claims)
	})

	t.Run("PRODUCTION without a KYC provider names the configuration", func(t *testing.T) {
		r := h.do(request{method: "POST", path: "/identity/issue", body: `{"subjectRef":"prod-1","countryCode":"NG"}`})
		require.Equal(t, http.StatusServiceUnavailable, r.status, string(r.body))
		require.Equal(t, "unavailable", r.errorCode(t))
		detail := r.json(t)["errors"].([]any)[0].(map[string]any)["detail"].(string)
		for _, want := range []string{"PRODUCTION", "-kyc-url", "-kyc-secret", "VERILAND_KYC_URL", "identity.Service.KYC"} {
			require.Contains(t, detail, want)
		}
		require.NotContains(t, detail, "retry later")
	})

	// No payload content and no date of birth at rest.
	h.ts.Close()
	require.NoError(t, h.store.Close())
	raw, err := os.ReadFile(h.storePath)
	require.NoError(t, err)
	for _, s := range []string{"Ada Obi", "1990-05-17", "2008-11-22", "scan-0042", "passport", "seed-all"} {
		require.False(t, bytes.Contains(raw, []byte(s)), "%q is in the database file", s)
	}
}

func mustKey(t testing.TB) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.GenerateKey()
	require.NoError(t, err)
	return k
}

func TestSeed001ChipVerify(t *testing.T) {
	h := newHarness(t)
	wallet := mustKey(t)
	h.issueIdentity(t, "chip-seed", wallet, "success")
	tok, did := h.login(t, wallet, veriland.Sandbox)
	live := h.livenessAttestation(t, did, "L2")
	sod, dg1, dg2 := h.passport(t, chipDocNumber)
	b64 := base64.StdEncoding.EncodeToString
	group := func(n int, content []byte) map[string]any {
		return map[string]any{"number": n, "contentBase64": b64(content)}
	}

	// seed is the seed's body with every member; edit changes it.
	seed := func(edit func(m map[string]any)) map[string]any {
		m := map[string]any{
			"sodBase64":             b64(sod),
			"dataGroups":            []any{group(1, dg1), group(2, dg2)},
			"livenessAttestationId": live,
			"liveFaceTemplate":      template(1),
			"chipFaceTemplate":      template(1.01),
		}
		if edit != nil {
			edit(m)
		}
		return m
	}
	noTemplates := func(m map[string]any) { delete(m, "liveFaceTemplate"); delete(m, "chipFaceTemplate") }

	tests := []struct {
		name     string
		body     any
		status   int
		mode     string
		code     string
		pointers []string
	}{
		{"both templates: PA_FACE", seed(nil), 201, "PA_FACE", "", nil},
		{"no template: PA_ONLY", seed(noTemplates), 201, "PA_ONLY", "", nil},
		{"live template only: PA_ONLY", seed(func(m map[string]any) { delete(m, "chipFaceTemplate") }), 201, "PA_ONLY", "", nil},
		{"chip template only: PA_ONLY", seed(func(m map[string]any) { delete(m, "liveFaceTemplate") }), 201, "PA_ONLY", "", nil},
		{"group 1 only", seed(func(m map[string]any) { noTemplates(m); m["dataGroups"] = []any{group(1, dg1)} }), 201, "PA_ONLY", "", nil},
		{"groups in any order, URL base64", seed(func(m map[string]any) {
			m["dataGroups"] = []any{map[string]any{"number": 2, "contentBase64": base64.RawURLEncoding.EncodeToString(dg2)}, group(1, dg1)}
		}), 201, "PA_FACE", "", nil},
		{"without group 1", seed(func(m map[string]any) { noTemplates(m); m["dataGroups"] = []any{group(2, dg2)} }),
			400, "", "validation_failed", []string{"/dataGroups"}},
		{"empty dataGroups", seed(func(m map[string]any) { m["dataGroups"] = []any{} }),
			400, "", "validation_failed", []string{"/dataGroups"}},
		{"no dataGroups", seed(func(m map[string]any) { delete(m, "dataGroups") }),
			400, "", "validation_failed", []string{"/dataGroups"}},
		{"duplicate number", seed(func(m map[string]any) { m["dataGroups"] = []any{group(1, dg1), group(2, dg2), group(2, dg2)} }),
			400, "", "validation_failed", []string{"/dataGroups/2/number"}},
		{"number 0", seed(func(m map[string]any) { noTemplates(m); m["dataGroups"] = []any{group(1, dg1), group(0, dg2)} }),
			400, "", "validation_failed", []string{"/dataGroups/1/number"}},
		{"number 17", seed(func(m map[string]any) { m["dataGroups"] = []any{group(1, dg1), group(2, dg2), group(17, dg2)} }),
			400, "", "validation_failed", []string{"/dataGroups/2/number"}},
		{"number 16 (not in the SOD)", seed(func(m map[string]any) { noTemplates(m); m["dataGroups"] = []any{group(1, dg1), group(16, dg2)} }),
			422, "", "passive_auth_failed", nil},
		{"number as a string", seed(func(m map[string]any) {
			m["dataGroups"] = []any{map[string]any{"number": "1", "contentBase64": b64(dg1)}}
		}), 400, "", "validation_failed", []string{"/dataGroups/0/number"}},
		{"number not an integer", seed(func(m map[string]any) {
			m["dataGroups"] = []any{group(1, dg1), map[string]any{"number": 2.5, "contentBase64": b64(dg2)}}
		}), 400, "", "validation_failed", []string{"/dataGroups/1/number"}},
		{"content not base64", seed(func(m map[string]any) {
			noTemplates(m)
			m["dataGroups"] = []any{map[string]any{"number": 1, "contentBase64": "%%%"}}
		}), 400, "", "validation_failed", []string{"/dataGroups/0/contentBase64"}},
		{"element not an object", seed(func(m map[string]any) { m["dataGroups"] = []any{b64(dg1)} }),
			400, "", "validation_failed", []string{"/dataGroups/0"}},
		{"unknown member in an element", seed(func(m map[string]any) {
			m["dataGroups"] = []any{map[string]any{"number": 1, "contentBase64": b64(dg1), "name": "DG1"}}
		}), 400, "", "unknown_field", []string{"/dataGroups/0/name"}},
		{"face match without group 2", seed(func(m map[string]any) { m["dataGroups"] = []any{group(1, dg1)} }),
			400, "", "validation_failed", []string{"/dataGroups"}},
		{"template dimension mismatch", seed(func(m map[string]any) {
			v := make([]float32, 64)
			for i := range v {
				v[i] = 1
			}
			m["chipFaceTemplate"] = binding.EncodeTemplate(v)
		}), 400, "", "validation_failed", []string{"/chipFaceTemplate"}},
		{"sodBase64 not base64", seed(func(m map[string]any) { m["sodBase64"] = "not base64!" }),
			400, "", "validation_failed", []string{"/sodBase64"}},
		{"the old shape is refused", map[string]any{
			"sod": b64(sod), "dataGroups": map[string]string{"1": b64(dg1)}, "livenessAttestationId": live, "faceTemplate": template(1),
		}, 400, "", "unknown_field", []string{"/faceTemplate", "/sod"}},
		{"a map of data groups is refused", seed(func(m map[string]any) { m["dataGroups"] = map[string]string{"1": b64(dg1)} }),
			400, "", "validation_failed", []string{"/dataGroups"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := h.do(request{method: "POST", path: "/identity/chip-verify", token: tok, body: tt.body})
			require.Equal(t, tt.status, r.status, string(r.body))
			if tt.status != 201 {
				require.Equal(t, tt.code, r.errorCode(t), string(r.body))
				if tt.pointers != nil {
					require.Equal(t, tt.pointers, errorPointers(t, r), string(r.body))
				}
				return
			}
			m := r.json(t)
			require.Equal(t, []string{"attestation", "mode", "status"}, members(m))
			require.Equal(t, "VERIFIED", m["status"])
			require.Equal(t, tt.mode, m["mode"])
			att := m["attestation"].(map[string]any)
			require.Equal(t, "CHIP_BINDING", att["kind"])
			require.Equal(t, did, att["subject"])
			require.Equal(t, tt.mode, att["claims"].(map[string]any)["mode"])
		})
	}

	mine := h.do(request{method: "GET", path: "/identity/chip-bindings/me", token: tok})
	require.Equal(t, 200, mine.status)
	items := mine.json(t)["items"].([]any)
	require.Len(t, items, 6, "one per successful binding above")
	for _, it := range items {
		require.Equal(t, "CHIP_BINDING", it.(map[string]any)["kind"])
		require.Equal(t, "VALID", it.(map[string]any)["status"])
	}

	// The binding recorded the claims derived from DG1 on the identity (born
	// 1974-08-12, 52 at the harness's clock); the chip's nationality wins over the
	// KYC's "NG".
	id, err := h.srv.cfg.Identity.Get(t.Context(), veriland.Sandbox, did)
	require.NoError(t, err)
	for k, v := range map[string]any{"nationality": "UTO", "document_country": "UTO", "document_type": "P", "chip_bound": true,
		"is_adult": true, "age_over_16": true, "age_over_18": true, "age_over_21": true, "kyc_level": "standard"} {
		require.Equal(t, v, id.Claims[k], k)
	}
	require.Equal(t, "NG", id.KYCClaims["nationality"])

	t.Run("a did:pkh holder binds without claims", func(t *testing.T) {
		other := mustKey(t)
		ptok, pkh := h.login(t, other, veriland.Sandbox)
		require.True(t, strings.HasPrefix(pkh, "did:pkh:"))
		psod, pdg1, pdg2 := h.passport(t, "P1234567Q")
		r := h.do(request{method: "POST", path: "/identity/chip-verify", token: ptok, body: map[string]any{
			"sodBase64": b64(psod), "dataGroups": []any{group(1, pdg1), group(2, pdg2)},
			"livenessAttestationId": h.livenessAttestation(t, pkh, "L2"),
		}})
		require.Equal(t, 201, r.status, string(r.body))
		require.Equal(t, "PA_ONLY", r.json(t)["mode"])
	})

	// No document number, MRZ name or date of birth anywhere in the database file.
	h.ts.Close()
	require.NoError(t, h.store.Close())
	raw, err := os.ReadFile(h.storePath)
	require.NoError(t, err)
	for _, s := range []string{chipDocNumber, "P1234567Q", "ERIKSSON", "ANNA<MARIA", "740812", "1974-08-12", "19740812"} {
		require.False(t, bytes.Contains(raw, []byte(s)), "%q is in the database file", s)
	}
}

// siweLogin signs in with a given nonce into env and returns the exchange.
func (h *harness) siweLogin(t testing.TB, wallet *ecdsa.PrivateKey, nonce string, env veriland.Environment) response {
	t.Helper()
	msg := siwe.Message{
		Domain: "veriland.test", Address: crypto.PubkeyToAddress(wallet.PublicKey).Hex(),
		Statement: "Sign in to veriland", URI: "http://veriland.test/login", Version: "1", ChainID: 1,
		Nonce: nonce, IssuedAt: h.clock.Now(),
	}
	sig, err := ethsig.Sign(wallet, ethsig.PersonalDigest([]byte(msg.String())))
	require.NoError(t, err)
	return h.do(request{method: "POST", path: "/auth/siwe", body: map[string]any{
		"message": msg.String(), "signature": hexutil.Encode(sig), "environment": env}})
}

func TestSeed001SIWENonceEitherEnvironment(t *testing.T) {
	h := newHarness(t)
	wallet := mustKey(t)
	nonceOf := func(t *testing.T, body any) string {
		t.Helper()
		r := h.do(request{method: "POST", path: "/auth/siwe/nonce", body: body})
		require.Equal(t, http.StatusCreated, r.status, string(r.body))
		m := r.json(t)
		require.Equal(t, []string{"expiresAt", "nonce"}, members(m))
		return m["nonce"].(string)
	}
	tests := []struct {
		name string
		body any
		env  veriland.Environment
	}{
		{"no body, SANDBOX login", nil, veriland.Sandbox},
		{"no body, PRODUCTION login", nil, veriland.Production},
		{"{}, SANDBOX login", "{}", veriland.Sandbox},
		{"{}, PRODUCTION login", "{}", veriland.Production},
		{"environment PRODUCTION, SANDBOX login", map[string]any{"environment": "PRODUCTION"}, veriland.Sandbox},
		{"environment SANDBOX, PRODUCTION login", map[string]any{"environment": "SANDBOX"}, veriland.Production},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nonce := nonceOf(t, tt.body)
			r := h.siweLogin(t, wallet, nonce, tt.env)
			require.Equal(t, http.StatusCreated, r.status, string(r.body))
			p, err := h.tokens.Verify(r.json(t)["token"].(string))
			require.NoError(t, err)
			require.Equal(t, tt.env, p.Env)
			// Single use across both environments.
			for _, again := range []veriland.Environment{veriland.Sandbox, veriland.Production} {
				r := h.siweLogin(t, wallet, nonce, again)
				require.Equal(t, http.StatusUnauthorized, r.status, string(r.body))
			}
		})
	}
	t.Run("an invalid environment is still refused", func(t *testing.T) {
		r := h.do(request{method: "POST", path: "/auth/siwe/nonce", body: map[string]any{"environment": "STAGING"}})
		require.Equal(t, 400, r.status)
		require.Equal(t, []string{"/environment"}, errorPointers(t, r))
	})
	t.Run("the nonce body is strict", func(t *testing.T) {
		r := h.do(request{method: "POST", path: "/auth/siwe/nonce", body: map[string]any{"env": "SANDBOX"}})
		require.Equal(t, 400, r.status)
		require.Equal(t, "unknown_field", r.errorCode(t))
	})
}

// The chip-verify decoder never panics, and refuses with pointers.
func FuzzChipVerifyDecode(f *testing.F) {
	f.Add([]byte(`{"sodBase64":"dw==","dataGroups":[{"number":1,"contentBase64":"YQA="},{"number":2,"contentBase64":"dQA"}],"livenessAttestationId":"att_abcdefghijklmnopqrstuvwxyz","liveFaceTemplate":"","chipFaceTemplate":""}`))
	f.Add([]byte(`{"sodBase64":"dw==","dataGroups":[{"number":1,"contentBase64":"YQA="},{"number":1,"contentBase64":"YQA="}]}`))
	f.Add([]byte(`{"sod":"dw==","dataGroups":{"1":"AA=="},"faceTemplate":"x"}`))
	f.Add([]byte(`{"dataGroups":[1,"a",null,[],{"number":1.5},{"number":"1"},{"x":{"y":[]}}]}`))
	f.Add([]byte(`{"dataGroups":null}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(``))
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := decodeChipVerify(body)
		if err != nil {
			var list []*veriland.Error
			var ve *veriland.Error
			var ves veriland.Errors
			switch {
			case errors.As(err, &ves):
				list = ves
			case errors.As(err, &ve):
				list = []*veriland.Error{ve}
			default:
				t.Fatalf("not a veriland error: %v", err)
			}
			for _, e := range list {
				switch e.Code {
				case veriland.CodeInvalidJSON:
				case veriland.CodeValidationFailed, veriland.CodeUnknownField:
					if e.Pointer == "" || !strings.HasPrefix(e.Pointer, "/") {
						t.Fatalf("no pointer: %#v", e)
					}
				default:
					t.Fatalf("code %s", e.Code)
				}
			}
			return
		}
		_ = req.Validate() // must not panic either
		if _, err := json.Marshal(req); err != nil {
			t.Fatal(err)
		}
	})
}
