package httpserver

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/liveness/deviceattest"
)

// The liveness routes of seed 001, driven with the seed's own request shapes through
// the real server: every member, every enum value, both edges of every bound of seed
// 001 §8, and the seed's success statuses and response shapes.

// lvEchoVerifier stands in for a hardware attestation verifier: it accepts a token
// that is the hex of the enrolment challenge, as a real attestation carries it, and
// refuses anything else with invalid_signature.
type lvEchoVerifier struct{ platform string }

func (v lvEchoVerifier) Verify(_ context.Context, token string, challenge [32]byte) (*deviceattest.Result, error) {
	if token != hex.EncodeToString(challenge[:]) {
		return nil, veriland.Errorf(veriland.CodeInvalidSignature, "the attestation was made for another challenge")
	}
	return &deviceattest.Result{Trust: deviceattest.TrustStrong, Platform: v.platform, SecurityLevel: "TEE"}, nil
}

// newSeedLvHarness is a server without rate limits; with echo set, the three
// hardware attestation types are verified by lvEchoVerifier (the reference server
// registers MOCK only, and answers the others 422 attestation_unsupported).
func newSeedLvHarness(t *testing.T, echo bool) *harness {
	h := newHarness(t, func(c *Config) { c.RateLimits.Disabled = true })
	if echo {
		vs := h.srv.cfg.Liveness.Verifiers
		vs[deviceattest.KeyAttestation] = lvEchoVerifier{deviceattest.PlatformAndroid}
		vs[deviceattest.PlayIntegrity] = lvEchoVerifier{deviceattest.PlatformAndroid}
		vs[deviceattest.AppAttest] = lvEchoVerifier{deviceattest.PlatformIOS}
	}
	return h
}

// lvPointers lists the pointers of an error answer, sorted, each with its code.
func lvPointers(t testing.TB, r response) []string {
	t.Helper()
	var out []string
	for _, e := range r.json(t)["errors"].([]any) {
		m := e.(map[string]any)
		src, _ := m["source"].(map[string]any)
		p, _ := src["pointer"].(string)
		out = append(out, m["code"].(string)+" "+p)
	}
	slices.Sort(out)
	return out
}

// lvChallengeToken is the token lvEchoVerifier accepts for holder and dev.
func lvChallengeToken(holder string, dev *lvDevice) string {
	ch := deviceattest.EnrollChallenge(holder, dev.addr.Hex())
	return hex.EncodeToString(ch[:])
}

var lvDeviceMembers = []string{"attestationType", "deviceId", "enrolledAt", "platform", "publicKey", "trust"}

func TestSeed001LivenessEnroll(t *testing.T) {
	const did = "did:veriland:SeedEnro11HolderAAAAAAA"
	for _, echo := range []bool{false, true} {
		name := "reference verifiers (MOCK only)"
		if echo {
			name = "hardware verifiers"
		}
		t.Run(name, func(t *testing.T) {
			h := newSeedLvHarness(t, echo)
			tok := h.token(veriland.RoleHolder, veriland.Sandbox, did)
			hw := func(ok int) int { // the status of a hardware type with a good token
				if echo {
					return ok
				}
				return http.StatusUnprocessableEntity
			}
			tests := []struct {
				name     string
				body     func(dev *lvDevice) any
				status   int
				code     string   // error code when status ≥ 400
				pointers []string // "code pointer", sorted, on 400
				trust    string   // on success
			}{
				{"ANDROID, MOCK, token of 8", func(d *lvDevice) any { return lvEnrollBody(d, "ANDROID", "MOCK", "12345678") },
					201, "", nil, "BASIC"},
				{"IOS, MOCK, token of 16384", func(d *lvDevice) any { return lvEnrollBody(d, "IOS", "MOCK", strings.Repeat("t", 16384)) },
					201, "", nil, "BASIC"},
				{"WEB, MOCK, token of 16384 multi-byte characters", func(d *lvDevice) any {
					return lvEnrollBody(d, "WEB", "MOCK", strings.Repeat("é", 16384))
				}, 201, "", nil, "BASIC"},
				{"ANDROID, KEY_ATTESTATION", func(d *lvDevice) any {
					return lvEnrollBody(d, "ANDROID", "KEY_ATTESTATION", lvChallengeToken(did, d))
				}, hw(201), "attestation_unsupported", nil, "STRONG"},
				{"ANDROID, PLAY_INTEGRITY", func(d *lvDevice) any {
					return lvEnrollBody(d, "ANDROID", "PLAY_INTEGRITY", lvChallengeToken(did, d))
				}, hw(201), "attestation_unsupported", nil, "STRONG"},
				{"IOS, APP_ATTEST", func(d *lvDevice) any {
					return lvEnrollBody(d, "IOS", "APP_ATTEST", lvChallengeToken(did, d))
				}, hw(201), "attestation_unsupported", nil, "STRONG"},
				{"KEY_ATTESTATION made for another challenge", func(d *lvDevice) any {
					return lvEnrollBody(d, "ANDROID", "KEY_ATTESTATION", strings.Repeat("ab", 32))
				}, 422, map[bool]string{false: "attestation_unsupported", true: "invalid_signature"}[echo], nil, ""},
				// Token bounds, for every type.
				{"MOCK token of 7", func(d *lvDevice) any { return lvEnrollBody(d, "ANDROID", "MOCK", "1234567") },
					400, "validation_failed", []string{"validation_failed /attestation/token"}, ""},
				{"MOCK token of 16385", func(d *lvDevice) any { return lvEnrollBody(d, "WEB", "MOCK", strings.Repeat("t", 16385)) },
					400, "validation_failed", []string{"validation_failed /attestation/token"}, ""},
				{"KEY_ATTESTATION token of 7", func(d *lvDevice) any { return lvEnrollBody(d, "ANDROID", "KEY_ATTESTATION", "1234567") },
					400, "validation_failed", []string{"validation_failed /attestation/token"}, ""},
				{"PLAY_INTEGRITY token of 16385", func(d *lvDevice) any {
					return lvEnrollBody(d, "ANDROID", "PLAY_INTEGRITY", strings.Repeat("e", 16385))
				}, 400, "validation_failed", []string{"validation_failed /attestation/token"}, ""},
				{"APP_ATTEST token of 7", func(d *lvDevice) any { return lvEnrollBody(d, "IOS", "APP_ATTEST", "o2NmbXQ") },
					400, "validation_failed", []string{"validation_failed /attestation/token"}, ""},
				{"APP_ATTEST token of 16385", func(d *lvDevice) any { return lvEnrollBody(d, "IOS", "APP_ATTEST", strings.Repeat("A", 16385)) },
					400, "validation_failed", []string{"validation_failed /attestation/token"}, ""},
				// Platform and type must fit.
				{"WEB, KEY_ATTESTATION", func(d *lvDevice) any {
					return lvEnrollBody(d, "WEB", "KEY_ATTESTATION", lvChallengeToken(did, d))
				}, 400, "validation_failed", []string{"validation_failed /platform"}, ""},
				{"IOS, PLAY_INTEGRITY", func(d *lvDevice) any {
					return lvEnrollBody(d, "IOS", "PLAY_INTEGRITY", lvChallengeToken(did, d))
				}, 400, "validation_failed", []string{"validation_failed /platform"}, ""},
				{"ANDROID, APP_ATTEST", func(d *lvDevice) any {
					return lvEnrollBody(d, "ANDROID", "APP_ATTEST", lvChallengeToken(did, d))
				}, 400, "validation_failed", []string{"validation_failed /platform"}, ""},
				// Shape.
				{"unknown platform", func(d *lvDevice) any { return lvEnrollBody(d, "WINDOWS", "MOCK", "12345678") },
					400, "validation_failed", []string{"validation_failed /platform"}, ""},
				{"unknown attestation type", func(d *lvDevice) any { return lvEnrollBody(d, "ANDROID", "SAFETYNET", "12345678") },
					400, "validation_failed", []string{"validation_failed /attestation/type"}, ""},
				{"no attestation", func(d *lvDevice) any { return map[string]any{"platform": "ANDROID", "publicKey": d.addr.Hex()} },
					400, "validation_failed", []string{"validation_failed /attestation"}, ""},
				{"publicKey not <hex40>", func(d *lvDevice) any {
					b := lvEnrollBody(d, "ANDROID", "MOCK", "12345678")
					b["publicKey"] = "0x" + strings.Repeat("ab", 33)
					return b
				}, 400, "validation_failed", []string{"validation_failed /publicKey"}, ""},
				{"token not a string", func(d *lvDevice) any {
					return map[string]any{"platform": "ANDROID", "publicKey": d.addr.Hex(), "attestation": map[string]any{"type": "MOCK", "token": 12345678}}
				}, 400, "validation_failed", []string{"validation_failed /attestation/token"}, ""},
				{"the flat members of the old shape", func(d *lvDevice) any {
					return map[string]any{"platform": "ANDROID", "publicKey": d.addr.Hex(), "attestationType": "MOCK", "attestationToken": "12345678"}
				}, 400, "unknown_field", []string{"unknown_field /attestationToken", "unknown_field /attestationType"}, ""},
				{"an unknown member in attestation", func(d *lvDevice) any {
					b := lvEnrollBody(d, "ANDROID", "MOCK", "12345678")
					b["attestation"].(map[string]any)["selfie"] = "AAAA"
					return b
				}, 400, "unknown_field", []string{"unknown_field /attestation/selfie"}, ""},
			}
			for _, tc := range tests {
				t.Run(tc.name, func(t *testing.T) {
					dev := newLvDevice(t)
					body := tc.body(dev)
					r := h.do(request{method: "POST", path: "/liveness/device/enroll", token: tok, body: body})
					require.Equal(t, tc.status, r.status, string(r.body))
					if tc.status >= 400 {
						require.Equal(t, tc.code, r.errorCode(t), string(r.body))
						if tc.pointers != nil {
							require.Equal(t, tc.pointers, lvPointers(t, r))
						}
						return
					}
					m := r.json(t)
					require.Equal(t, lvDeviceMembers, members(m))
					sent := body.(map[string]any)
					require.Equal(t, strings.ToLower(dev.addr.Hex()), m["publicKey"])
					require.Equal(t, sent["platform"], m["platform"])
					require.Equal(t, sent["attestation"].(map[string]any)["type"], m["attestationType"])
					require.Equal(t, tc.trust, m["trust"])
					// The same body again: 200 with the same record.
					again := h.do(request{method: "POST", path: "/liveness/device/enroll", token: tok, body: body})
					require.Equal(t, http.StatusOK, again.status, string(again.body))
					require.Equal(t, m, again.json(t))
				})
			}
		})
	}
	t.Run("MOCK in PRODUCTION, every platform: 422", func(t *testing.T) {
		h := newSeedLvHarness(t, false)
		tok := h.token(veriland.RoleHolder, veriland.Production, did)
		for _, platform := range []string{"ANDROID", "IOS", "WEB"} {
			r := h.do(request{method: "POST", path: "/liveness/device/enroll", token: tok, body: lvEnrollBody(newLvDevice(t), platform, "MOCK", "12345678")})
			require.Equal(t, http.StatusUnprocessableEntity, r.status, string(r.body))
			require.Equal(t, "attestation_unsupported", r.errorCode(t))
		}
	})
}

func TestSeed001LivenessSession(t *testing.T) {
	h := newSeedLvHarness(t, false)
	tok := h.token(veriland.RoleHolder, veriland.Sandbox, "did:veriland:SeedSess1onHolderAAAAAA")
	steps := map[string]int{"L1": 1, "L2": 3, "L3": 5}
	tests := []struct {
		name   string
		body   any               // nil: no body at all
		header map[string]string // Content-Type, when not the harness's
		status int
		level  string
		ptrs   []string
	}{
		{"no body, no Content-Type", nil, nil, 201, "L2", nil},
		{"empty object", `{}`, nil, 201, "L2", nil},
		{"L1", map[string]any{"requestedLevel": "L1"}, nil, 201, "L1", nil},
		{"L2", map[string]any{"requestedLevel": "L2"}, nil, 201, "L2", nil},
		{"L3", map[string]any{"requestedLevel": "L3"}, nil, 201, "L3", nil},
		{"application/json with charset", `{"requestedLevel":"L1"}`, map[string]string{"Content-Type": "application/json; charset=utf-8"}, 201, "L1", nil},
		{"unknown level", map[string]any{"requestedLevel": "L4"}, nil, 400, "", []string{"validation_failed /requestedLevel"}},
		{"lower-case level", map[string]any{"requestedLevel": "l2"}, nil, 400, "", []string{"validation_failed /requestedLevel"}},
		{"level not a string", map[string]any{"requestedLevel": 2}, nil, 400, "", []string{"validation_failed /requestedLevel"}},
		{"unknown member", map[string]any{"requestedLevel": "L2", "selfie": "AAAA"}, nil, 400, "", []string{"unknown_field /selfie"}},
		{"a body of another type", `requestedLevel=L1`, map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415, "", nil},
		{"a body without Content-Type", `{}`, map[string]string{"Content-Type": ""}, 415, "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := h.do(request{method: "POST", path: "/liveness/session", token: tok, body: tc.body, header: tc.header})
			require.Equal(t, tc.status, r.status, string(r.body))
			switch {
			case tc.status == 415:
				require.Equal(t, "unsupported_media_type", r.errorCode(t))
				return
			case tc.status >= 400:
				require.Equal(t, tc.ptrs, lvPointers(t, r))
				return
			}
			m := r.json(t)
			require.Equal(t, []string{"createdAt", "expiresAt", "level", "nonce", "script", "sessionId"}, members(m))
			require.Equal(t, tc.level, m["level"])
			require.Len(t, m["script"], steps[tc.level])
			require.Regexp(t, `^0x[0-9a-f]{64}$`, m["nonce"])
		})
	}
	// A body of unknown length (sent chunked unless empty) with no Content-Type:
	// empty is no body (201), anything else is a body of no type (415).
	for body, status := range map[string]int{"": 201, "{}": 415} {
		req, err := http.NewRequest("POST", h.ts.URL+"/liveness/session", io.MultiReader(bytes.NewReader([]byte(body))))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := h.ts.Client().Do(req)
		require.NoError(t, err)
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.Equal(t, status, resp.StatusCode, "chunked %q: %s", body, out)
	}
}

func TestSeed001LivenessVerify(t *testing.T) {
	h := newSeedLvHarness(t, true)
	const did = "did:veriland:SeedVer1fyHolderAAAAAAAA"
	tok := h.token(veriland.RoleHolder, veriland.Sandbox, did)
	mock, strong := newLvDevice(t), newLvDevice(t)
	require.Equal(t, http.StatusCreated, h.do(request{method: "POST", path: "/liveness/device/enroll", token: tok,
		body: lvEnrollBody(mock, "WEB", "MOCK", "mock-attestation-token")}).status)
	require.Equal(t, http.StatusCreated, h.do(request{method: "POST", path: "/liveness/device/enroll", token: tok,
		body: lvEnrollBody(strong, "ANDROID", "KEY_ATTESTATION", lvChallengeToken(did, strong))}).status)

	// raw marshals a proof's body and applies textual replacements (for JSON that a
	// Go map cannot spell, such as 36.0 or a string among numbers).
	raw := func(t *testing.T, p *lvProof, oldNew ...string) string {
		b, err := json.Marshal(p.body)
		require.NoError(t, err)
		s := string(b)
		for i := 0; i < len(oldNew); i += 2 {
			require.Contains(t, s, oldNew[i])
			s = strings.Replace(s, oldNew[i], oldNew[i+1], 1)
		}
		return s
	}
	tests := []struct {
		name    string
		level   string
		dev     *lvDevice
		frames  int
		edit    func(t *testing.T, p *lvProof) any // the body to send; nil edit sends p.body
		status  int
		reasons []string // on 422
		ptrs    []string // "code pointer", sorted, on 400
	}{
		{"every member, L2", "L2", mock, 36, nil, 201, nil, nil},
		{"L1", "L1", mock, 12, nil, 201, nil, nil},
		{"L3 with a STRONG device", "L3", strong, 72, nil, 201, nil, nil},
		{"L3 with a BASIC device", "L3", mock, 72, nil, 422, []string{"device_trust_too_low"}, nil},
		// frameTimestamps: 1..10000 items, numbers with fractions.
		{"1 timestamp", "L1", mock, 1, nil, 422, []string{"too_few_frames"}, nil},
		{"10000 timestamps", "L2", mock, 10000, nil, 201, nil, nil},
		{"0 timestamps", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			p.body["frameTimestamps"] = []float64{}
			return p.body
		}, 400, nil, []string{"validation_failed /frameTimestamps"}},
		{"10001 timestamps", "L2", mock, 10001, nil, 400, nil, []string{"validation_failed /frameTimestamps"}},
		{"whole-millisecond timestamps", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			ts := p.timestamps()
			for i := range ts {
				ts[i] = float64(p.sess.Start + 100 + int64(i)*33)
			}
			p.timing()["sessionDurationMs"] = int64(35 * 33)
			p.sign(t, p.dev.key)
			return p.body
		}, 201, nil, nil},
		{"a string among the timestamps", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			ts := p.timestamps()
			return raw(t, p, `,`+lvUint(ts[3])+`,`, `,"`+lvUint(ts[3])+`",`)
		}, 400, nil, []string{"validation_failed /frameTimestamps/3"}},
		{"null among the timestamps", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			ts := p.timestamps()
			return raw(t, p, `,`+lvUint(ts[1])+`,`, `,null,`)
		}, 400, nil, []string{"validation_failed /frameTimestamps/1"}},
		{"a negative timestamp", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			p.timestamps()[5] = -0.5
			return p.body
		}, 400, nil, []string{"validation_failed /frameTimestamps/5"}},
		// attestation: the enrolled type, every type value, token 8..16384.
		{"token of 8", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			p.attestation()["token"] = "12345678"
			return p.body
		}, 201, nil, nil},
		{"token of 16384", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			p.attestation()["token"] = strings.Repeat("t", 16384)
			return p.body
		}, 201, nil, nil},
		{"token of 7", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			p.attestation()["token"] = "1234567"
			return p.body
		}, 400, nil, []string{"validation_failed /attestation/token"}},
		{"token of 16385", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			p.attestation()["token"] = strings.Repeat("t", 16385)
			return p.body
		}, 400, nil, []string{"validation_failed /attestation/token"}},
		{"KEY_ATTESTATION for a MOCK device", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			p.attestation()["type"] = "KEY_ATTESTATION"
			return p.body
		}, 422, []string{"device_attestation_type_mismatch"}, nil},
		{"PLAY_INTEGRITY for a MOCK device", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			p.attestation()["type"] = "PLAY_INTEGRITY"
			return p.body
		}, 422, []string{"device_attestation_type_mismatch"}, nil},
		{"APP_ATTEST for a MOCK device", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			p.attestation()["type"] = "APP_ATTEST"
			return p.body
		}, 422, []string{"device_attestation_type_mismatch"}, nil},
		{"MOCK for a KEY_ATTESTATION device", "L2", strong, 36, func(t *testing.T, p *lvProof) any {
			p.attestation()["type"] = "MOCK"
			return p.body
		}, 422, []string{"device_attestation_type_mismatch"}, nil},
		{"unknown attestation type", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			p.attestation()["type"] = "SAFETYNET"
			return p.body
		}, 400, nil, []string{"validation_failed /attestation/type"}},
		{"no attestation", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			delete(p.body, "attestation")
			return p.body
		}, 400, nil, []string{"validation_failed /attestation"}},
		// The hex members.
		{"deviceSignature of 64 bytes", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			p.body["deviceSignature"] = p.body["deviceSignature"].(string)[:130]
			return p.body
		}, 400, nil, []string{"validation_failed /deviceSignature"}},
		{"merkleRoot of 31 bytes", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			p.body["merkleRoot"] = p.body["merkleRoot"].(string)[:64]
			return p.body
		}, 400, nil, []string{"validation_failed /merkleRoot"}},
		{"devicePublicKey not <hex40>", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			p.body["devicePublicKey"] = "0x1234"
			return p.body
		}, 400, nil, []string{"validation_failed /devicePublicKey"}},
		// evidence.timing: whole numbers, signed as uint256.
		{"frameCount written 36.0", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			return raw(t, p, `"frameCount":36`, `"frameCount":36.0`)
		}, 201, nil, nil},
		{"fractional frameCount", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			return raw(t, p, `"frameCount":36`, `"frameCount":36.5`)
		}, 400, nil, []string{"validation_failed /evidence/timing/frameCount"}},
		{"fractional sessionDurationMs", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			p.timing()["sessionDurationMs"] = 1163.75
			return p.body
		}, 400, nil, []string{"validation_failed /evidence/timing/sessionDurationMs"}},
		{"no timing", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			delete(p.evidence(), "timing")
			return p.body
		}, 400, nil, []string{"validation_failed /evidence/timing"}},
		{"span off sessionDurationMs by more than 10%", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			p.timing()["sessionDurationMs"] = int64(2000)
			p.sign(t, p.dev.key)
			return p.body
		}, 422, []string{"duration_mismatch"}, nil},
		// Scores: 0..1, imuCorrelation included.
		{"every score at 1", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			for _, s := range []string{"hueScore", "parallaxScore", "imuCorrelation"} {
				p.setScore(s, 1.0)
			}
			return p.body
		}, 201, nil, nil},
		{"imuCorrelation above 1", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			p.setScore("imuCorrelation", 1.01)
			return p.body
		}, 422, []string{"evidence_out_of_range"}, nil},
		{"imuCorrelation below 0", "L1", mock, 12, func(t *testing.T, p *lvProof) any {
			p.setScore("imuCorrelation", -0.2)
			return p.body
		}, 422, []string{"evidence_out_of_range"}, nil},
		{"L1 without challenge and sensor.imuCorrelation", "L1", mock, 12, func(t *testing.T, p *lvProof) any {
			delete(p.evidence(), "challenge")
			p.deleteScore("imuCorrelation")
			return p.body
		}, 201, nil, nil},
		{"virtualSourceSuspected", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			p.camera()["virtualSourceSuspected"] = true
			return p.body
		}, 422, []string{"virtual_camera"}, nil},
		// Strict decoding, nested members included.
		{"an image in evidence.camera", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			p.camera()["image"] = "iVBORw0KGgo"
			return p.body
		}, 400, nil, []string{"unknown_field /evidence/camera/image"}},
		{"the members of the old shape", "L2", mock, 36, func(t *testing.T, p *lvProof) any {
			p.body["signature"], p.body["timing"] = p.body["deviceSignature"], p.timing()
			return p.body
		}, 400, nil, []string{"unknown_field /signature", "unknown_field /timing"}},
	}
	passed := 0
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sess := h.lvStartSession(t, tok, tc.level)
			interval := 33.25
			if tc.frames > 1000 {
				interval = 10.25 // 10,000 frames in 102.5 s, inside the 120 s session
			}
			p := newLvProof(t, sess, tc.dev, tc.frames, interval)
			if tc.dev == strong { // the type it enrolled with
				p.attestation()["type"] = "KEY_ATTESTATION"
			}
			h.lvCaptureDone(p)
			var body any = p.body
			if tc.edit != nil {
				body = tc.edit(t, p)
			}
			r := h.do(request{method: "POST", path: "/liveness/verify", token: tok, body: body})
			require.Equal(t, tc.status, r.status, string(r.body))
			switch tc.status {
			case 201:
				passed++
				m := r.json(t)
				require.Equal(t, []string{"attestation", "level", "status"}, members(m))
				require.Equal(t, "VERIFIED", m["status"])
				require.Equal(t, tc.level, m["level"])
				att := m["attestation"].(map[string]any)
				require.Equal(t, "LIVENESS", att["kind"])
				require.Equal(t, did, att["subject"])
				require.Equal(t, "VALID", att["status"])
				require.Equal(t, p.body["merkleRoot"], att["evidenceHash"])
			case 422:
				require.Equal(t, tc.reasons, lvReasons(t, r))
			case 400:
				require.Equal(t, tc.ptrs, lvPointers(t, r))
			}
		})
	}

	// GET /liveness/attestations/me: {items: [...]}, every pass, newest first.
	r := h.do(request{method: "GET", path: "/liveness/attestations/me", token: tok})
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	m := r.json(t)
	require.Equal(t, []string{"items"}, members(m))
	items := m["items"].([]any)
	require.Len(t, items, passed)
	for i, it := range items {
		att := it.(map[string]any)
		require.Equal(t, "LIVENESS", att["kind"])
		require.Equal(t, did, att["subject"])
		if i > 0 {
			require.GreaterOrEqual(t, items[i-1].(map[string]any)["issuedAt"], att["issuedAt"])
		}
	}
	// A holder with none: {items: []}.
	r = h.do(request{method: "GET", path: "/liveness/attestations/me", token: h.token(veriland.RoleHolder, veriland.Sandbox, "did:veriland:NobodyHo1derAAAAAAAAAA")})
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	require.Equal(t, map[string]any{"items": []any{}}, r.json(t))
}
