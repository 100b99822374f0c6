package httpserver

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
)

// The OpenAPI document states every bound the server enforces (maxLength, maxItems,
// minimum, maximum, pattern). These tests read each bound from the document itself
// and send, through the real server, a value one past it: the server must refuse it
// (400, 413 or 422; a malformed path id 404). Where practical a value at the bound is
// accepted, and that exchange is checked against the document like every other.

// boundsDoc is httpserver/openapi.json, decoded once.
var boundsDoc = func() map[string]any {
	b, err := os.ReadFile("openapi.json")
	if err != nil {
		panic(err)
	}
	var d map[string]any
	if err := json.Unmarshal(b, &d); err != nil {
		panic(err)
	}
	return d
}()

// deref follows $ref and a single-member allOf.
func deref(s map[string]any) map[string]any {
	for {
		if ref, ok := s["$ref"].(string); ok {
			var x any = boundsDoc
			for _, p := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
				x = x.(map[string]any)[p]
			}
			s = x.(map[string]any)
			continue
		}
		if all, ok := s["allOf"].([]any); ok && len(all) == 1 && s["type"] == nil {
			s = all[0].(map[string]any)
			continue
		}
		return s
	}
}

// bodySchema returns the schema of a member of an operation's JSON request body,
// located by a JSON pointer into the body ("/owner/fullName", "/parcel/gps/0",
// "/scope/-" for an array's items).
func bodySchema(t *testing.T, method, path, pointer string) map[string]any {
	t.Helper()
	op := boundsDoc["paths"].(map[string]any)[path].(map[string]any)[strings.ToLower(method)].(map[string]any)
	rb := op["requestBody"].(map[string]any)
	s := deref(rb["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any))
	for _, p := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		if p == "" {
			continue
		}
		if props, ok := s["properties"].(map[string]any); ok && props[p] != nil {
			s = deref(props[p].(map[string]any))
			continue
		}
		if _, err := strconv.Atoi(p); err == nil || p == "-" {
			if pre, ok := s["prefixItems"].([]any); ok && p != "-" {
				if i, _ := strconv.Atoi(p); i < len(pre) {
					s = deref(pre[i].(map[string]any))
					continue
				}
			}
			s = deref(s["items"].(map[string]any))
			continue
		}
		t.Fatalf("%s %s: no member %q on the way to %s", method, path, p, pointer)
	}
	return s
}

// paramSchema returns the schema of an operation's parameter.
func paramSchema(t *testing.T, method, path, name string) map[string]any {
	t.Helper()
	op := boundsDoc["paths"].(map[string]any)[path].(map[string]any)[strings.ToLower(method)].(map[string]any)
	for _, p := range op["parameters"].([]any) {
		pm := deref(p.(map[string]any))
		if pm["name"] == name {
			return deref(pm["schema"].(map[string]any))
		}
	}
	t.Fatalf("%s %s has no parameter %s", method, path, name)
	return nil
}

func bound(t *testing.T, s map[string]any, kw string) int {
	t.Helper()
	v, ok := s[kw].(float64)
	require.True(t, ok, "the schema states %s: %v", kw, s)
	return int(v)
}

// setAt sets the member at a JSON pointer of a body decoded from JSON.
func setAt(body map[string]any, pointer string, v any) {
	parts := strings.Split(strings.TrimPrefix(pointer, "/"), "/")
	var x any = body
	for _, p := range parts[:len(parts)-1] {
		switch c := x.(type) {
		case map[string]any:
			x = c[p]
		case []any:
			i, _ := strconv.Atoi(p)
			x = c[i]
		}
	}
	last := parts[len(parts)-1]
	switch c := x.(type) {
	case map[string]any:
		c[last] = v
	case []any:
		i, _ := strconv.Atoi(last)
		c[i] = v
	}
}

func decodeBody(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(s), &m))
	return m
}

// refused sends a request deliberately outside the document and wants a 4xx.
func refused(t *testing.T, h *harness, req request, what string) response {
	t.Helper()
	req.skipSpec = true
	r := h.do(req)
	require.Contains(t, []int{400, 404, 413, 422}, r.status, "%s: %s %s answered %d: %s", what, req.method, req.path, r.status, r.body)
	return r
}

// boundCase is one member of a request body and the values around its bound.
type boundCase struct {
	pointer string
	kind    string // maxLength, maxItems, maximum, minimum, pattern
	over    any    // nil: derived from the document's bound
	at      any    // nil: derived (maxLength, maximum, minimum); skipAt: not sent
	skipAt  bool
	filler  func(n int) any // maxItems: an array of n valid items
}

// checkBodyBounds sends, for each case, base with the member one past its bound
// (refused, with the member's pointer among the errors when the answer is 400) and,
// unless skipAt, at its bound (wantAt).
func checkBodyBounds(t *testing.T, h *harness, method, path, route, token string, header map[string]string, base func() map[string]any, wantAt int, cases []boundCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(strings.TrimPrefix(c.pointer, "/")+"_"+c.kind, func(t *testing.T) {
			s := bodySchema(t, method, route, c.pointer)
			over, at := c.over, c.at
			switch c.kind {
			case "maxLength":
				n := bound(t, s, "maxLength")
				if over == nil {
					over = strings.Repeat("a", n+1)
				}
				if at == nil {
					at = strings.Repeat("a", n)
				}
			case "maxItems":
				n := bound(t, s, "maxItems")
				over, at = c.filler(n+1), c.filler(n)
			case "maximum":
				n := bound(t, s, "maximum")
				if over == nil {
					over = n + 1
				}
				if at == nil {
					at = n
				}
			case "minimum":
				n := bound(t, s, "minimum")
				if over == nil {
					over = n - 1
				}
				if at == nil {
					at = n
				}
			case "pattern":
				require.True(t, s["pattern"] != nil || s["enum"] != nil, "the schema states a pattern or an enum: %v", s)
			}
			body := base()
			setAt(body, c.pointer, over)
			r := refused(t, h, request{method: method, path: path, token: token, header: header, body: body}, c.pointer+" past "+c.kind)
			if r.status == 400 {
				require.Contains(t, errorPointers(t, r), c.pointer, "%s", r.body)
			}
			if c.skipAt {
				return
			}
			body = base()
			setAt(body, c.pointer, at)
			r = h.do(request{method: method, path: path, token: token, header: header, body: body})
			require.Equal(t, wantAt, r.status, "%s at its %s: %s", c.pointer, c.kind, r.body)
		})
	}
}

func noBoundsRateLimits(c *Config) { c.RateLimits.Disabled = true }

func TestOpenAPIBoundsParcels(t *testing.T) {
	h := newHarness(t, noBoundsRateLimits)
	f := newParcelFlow(h, veriland.Production)
	base := func() map[string]any { return decodeBody(t, parcelBody(parcelNotary)) }
	checkBodyBounds(t, h, "POST", "/v1/parcels", "/v1/parcels", f.agent, nil, base, 201, []boundCase{
		{pointer: "/owner/fullName", kind: "maxLength"},
		{pointer: "/owner/id_doc", kind: "maxLength"},
		{pointer: "/parcel/city", kind: "maxLength"},
		{pointer: "/parcel/gps", kind: "maxItems", skipAt: true, filler: func(n int) any {
			out := make([]any, n)
			for i := range out {
				out[i] = 7.0
			}
			return out
		}},
		{pointer: "/parcel/gps/0", kind: "maximum", over: 90.0001, at: 90.0},
		{pointer: "/parcel/gps/0", kind: "minimum", over: -90.0001, at: -90.0},
		{pointer: "/parcel/gps/1", kind: "maximum", over: 180.0001, at: 180.0},
		{pointer: "/parcel/area_m2", kind: "maximum", over: 1e10 + 1, at: 1e10},
		{pointer: "/notary", kind: "pattern", over: "not-a-notary", skipAt: true},
		{pointer: "/owner/walletAddress", kind: "pattern", over: "0x1234", skipAt: true},
		{pointer: "/callbackUrl", kind: "pattern", over: "ftp://example.org/hook", skipAt: true},
		{pointer: "/callbackUrl", kind: "maxLength", over: "https://example.org/" + strings.Repeat("a", 2048), skipAt: true},
	})
	t.Run("boundary_maxItems", func(t *testing.T) {
		s := bodySchema(t, "POST", "/v1/parcels", "/parcel/boundary/coordinates/0")
		n := bound(t, s, "maxItems")
		positions := make([]any, n+1)
		for i := range positions {
			positions[i] = []any{7.3986, 9.0765}
		}
		body := base()
		body["parcel"].(map[string]any)["boundary"] = map[string]any{"type": "Polygon", "coordinates": []any{positions}}
		refused(t, h, request{method: "POST", path: "/v1/parcels", token: f.agent, body: body}, "a ring one past maxItems")
		rings := bound(t, bodySchema(t, "POST", "/v1/parcels", "/parcel/boundary/coordinates"), "maxItems")
		body = base()
		square := []any{[]any{7.0, 9.0}, []any{7.001, 9.0}, []any{7.001, 9.001}, []any{7.0, 9.0}}
		two := make([]any, rings+1)
		for i := range two {
			two[i] = square
		}
		body["parcel"].(map[string]any)["boundary"] = map[string]any{"type": "Polygon", "coordinates": two}
		refused(t, h, request{method: "POST", path: "/v1/parcels", token: f.agent, body: body}, "rings one past maxItems")
		lat := bound(t, bodySchema(t, "POST", "/v1/parcels", "/parcel/boundary/coordinates/0/0/1"), "maximum")
		body = base()
		north := []any{[]any{7.0, 89.999}, []any{7.001, 89.999}, []any{7.001, float64(lat) + 0.0001}, []any{7.0, 89.999}}
		body["parcel"].(map[string]any)["boundary"] = map[string]any{"type": "Polygon", "coordinates": []any{north}}
		refused(t, h, request{method: "POST", path: "/v1/parcels", token: f.agent, body: body}, "a latitude past maximum")
	})

	// Transfers of a certified parcel.
	id := f.create(t, parcelNotary)["id"].(string)
	f.post(t, "/v1/parcels/"+id+"/certify", f.notary, "{}", 200)
	tbase := func() map[string]any { return decodeBody(t, transferBody(parcelNotary)) }
	checkBodyBounds(t, h, "POST", "/v1/parcels/"+id+"/transfer", "/v1/parcels/{id}/transfer", f.agent, nil, tbase, 202, []boundCase{
		{pointer: "/newOwner/fullName", kind: "maxLength", skipAt: true},
		{pointer: "/newOwner/id_doc", kind: "maxLength", skipAt: true},
		{pointer: "/expiresInSeconds", kind: "minimum", skipAt: true},
		{pointer: "/notary", kind: "pattern", over: "NOT-x-1", skipAt: true},
		{pointer: "/expiresInSeconds", kind: "maximum"}, // last: at the bound it opens the transfer
	})

	// A rejection's reason.
	pending := f.create(t, parcelNotary)["id"].(string)
	checkBodyBounds(t, h, "POST", "/v1/parcels/"+pending+"/reject", "/v1/parcels/{id}/reject", f.notary, nil,
		func() map[string]any { return map[string]any{} }, 200, []boundCase{{pointer: "/reason", kind: "maxLength"}})

	// Path and query parameters.
	for _, p := range []string{"/v1/parcels/prc_x", "/v1/parcels/" + strings.Repeat("a", 31), "/v1/transfers/trf_1"} {
		refused(t, h, request{method: "GET", path: p, token: f.agent}, "an id outside its pattern")
	}
	limit := paramSchema(t, "GET", "/v1/parcels", "limit")
	refused(t, h, request{method: "GET", path: fmt.Sprintf("/v1/parcels?limit=%d", bound(t, limit, "maximum")+1), token: f.agent}, "limit past maximum")
	refused(t, h, request{method: "GET", path: fmt.Sprintf("/v1/parcels?limit=%d", bound(t, limit, "minimum")-1), token: f.agent}, "limit past minimum")
	require.Equal(t, 200, h.do(request{method: "GET", path: fmt.Sprintf("/v1/parcels?limit=%d", bound(t, limit, "maximum")), token: f.agent}).status)
	cursor := paramSchema(t, "GET", "/v1/parcels", "cursor")
	refused(t, h, request{method: "GET", path: "/v1/parcels?cursor=" + strings.Repeat("A", bound(t, cursor, "maxLength")+1), token: f.agent}, "cursor past maxLength")
	tok := paramSchema(t, "GET", "/v1/tokens/{tokenId}", "tokenId")
	refused(t, h, request{method: "GET", path: "/v1/tokens/" + strings.Repeat("9", bound(t, tok, "maxLength")+1)}, "tokenId past maxLength")
	refused(t, h, request{method: "GET", path: "/v1/tokens/12a"}, "tokenId outside its pattern")
	refused(t, h, request{method: "GET", path: "/v1/registry/verify/0x1234"}, "hash outside its pattern")
}

func TestOpenAPIBoundsConsent(t *testing.T) {
	h := newHarness(t, noBoundsRateLimits)
	f := newConsentFlow(t, h)

	// POST /identity/issue
	ibase := func() map[string]any {
		return map[string]any{"subjectRef": "customer-bounds", "countryCode": "NG", "payload": map[string]any{"scenario": "success", "fullName": "Ada Obi"}}
	}
	checkBodyBounds(t, h, "POST", "/identity/issue", "/identity/issue", "", sandboxHeader, ibase, 201, []boundCase{
		{pointer: "/subjectRef", kind: "maxLength"},
		{pointer: "/countryCode", kind: "maxLength", over: "NGAX", skipAt: true},
		{pointer: "/countryCode", kind: "pattern", over: "ng", skipAt: true},
		{pointer: "/walletAddress", kind: "pattern", over: "0x12", skipAt: true},
	})

	// POST /verify/request
	vbase := func() map[string]any {
		return map[string]any{"subjectRef": f.did, "scope": []any{"is_adult"}, "reason": "account opening",
			"requireLiveness": map[string]any{"minLevel": "L1"}}
	}
	checkBodyBounds(t, h, "POST", "/verify/request", "/verify/request", f.verifierTok, nil, vbase, 201, []boundCase{
		{pointer: "/subjectRef", kind: "maxLength", skipAt: true},
		{pointer: "/subjectRef", kind: "pattern", over: "Jane Doe", skipAt: true},
		{pointer: "/reason", kind: "maxLength"},
		{pointer: "/expiresInSeconds", kind: "maximum"},
		{pointer: "/expiresInSeconds", kind: "minimum"},
		{pointer: "/callbackUrl", kind: "pattern", over: "ftp://example.org/hook", skipAt: true},
		{pointer: "/callbackUrl", kind: "maxLength", over: "https://example.org/" + strings.Repeat("a", 2048), skipAt: true},
		{pointer: "/scope", kind: "maxItems", skipAt: true, filler: func(n int) any {
			out := make([]any, n)
			for i := range out {
				out[i] = "is_adult"
			}
			return out
		}},
		{pointer: "/requireLiveness/maxAgeDays", kind: "maximum", over: 366, skipAt: true},
	})

	// POST /consent/{requestId}
	id := f.request(t, nil)
	cbase := func() map[string]any {
		return map[string]any{"holderAddress": "0x" + strings.Repeat("ab", 20), "decision": "APPROVED", "disclosedScope": []any{"is_adult"}, "holderSignature": "0x" + strings.Repeat("11", 65)}
	}
	checkBodyBounds(t, h, "POST", "/consent/"+id, "/consent/{requestId}", "", nil, cbase, 0, []boundCase{
		{pointer: "/holderSignature", kind: "maxLength", over: "0x" + strings.Repeat("11", 1025), skipAt: true},
		{pointer: "/holderSignature", kind: "pattern", over: "0xzz", skipAt: true},
		{pointer: "/holderAddress", kind: "pattern", over: "0x12", skipAt: true},
		{pointer: "/disclosedScope/0", kind: "maxLength", skipAt: true},
	})
	refused(t, h, request{method: "POST", path: "/consent/vrq_1", body: cbase()}, "requestId outside its pattern")
	refused(t, h, request{method: "GET", path: "/attestation/att_1", token: f.verifierTok}, "attestation id outside its pattern")
}

func TestOpenAPIBoundsAssistant(t *testing.T) {
	h := newHarness(t, noBoundsRateLimits)
	tok := h.token(veriland.RoleVerifier, veriland.Sandbox, "agency-1")
	base := func() map[string]any { return map[string]any{"text": "hello"} }
	checkBodyBounds(t, h, "POST", "/v1/assistant/messages", "/v1/assistant/messages", tok, nil, base, 201, []boundCase{
		{pointer: "/text", kind: "maxLength"},
		{pointer: "/sessionId", kind: "pattern", over: "ses_1", skipAt: true},
		{pointer: "/sessionId", kind: "maxLength", skipAt: true},
		{pointer: "/language", kind: "pattern", over: "english!", skipAt: true},
		{pointer: "/language", kind: "maxLength", over: "en-" + strings.Repeat("a", 30), skipAt: true},
	})
	refused(t, h, request{method: "GET", path: "/v1/assistant/sessions/ses_1", token: tok}, "session id outside its pattern")
}

func TestOpenAPIBoundsLiveness(t *testing.T) {
	h := newHarness(t, noBoundsRateLimits)
	tok := h.token(veriland.RoleHolder, veriland.Sandbox, "did:veriland:11111111111111111111bounds")
	refused(t, h, request{method: "POST", path: "/liveness/session", token: tok, body: map[string]any{"requestedLevel": "L9"}}, "a level outside its enum")
	vbase := func() map[string]any {
		return map[string]any{
			"sessionId": "lvs_abcdefghijklmnopqrstuvwxyz", "devicePublicKey": "0x" + strings.Repeat("ab", 20),
			"attestation":     map[string]any{"type": "MOCK", "token": "mock-token-bounds"},
			"merkleRoot":      "0x" + strings.Repeat("ab", 32),
			"frameTimestamps": []any{0, 33},
			"deviceSignature": "0x" + strings.Repeat("ab", 65),
			"evidence": map[string]any{"camera": map[string]any{"physicalSensorId": "cam0", "virtualSourceSuspected": false},
				"timing": map[string]any{"sessionDurationMs": 3000, "frameCount": 2}},
		}
	}
	checkBodyBounds(t, h, "POST", "/liveness/verify", "/liveness/verify", tok, nil, vbase, 0, []boundCase{
		{pointer: "/sessionId", kind: "maxLength", skipAt: true},
		{pointer: "/merkleRoot", kind: "pattern", over: "0x12", skipAt: true},
		{pointer: "/deviceSignature", kind: "pattern", over: "0x12", skipAt: true},
		{pointer: "/attestation/token", kind: "maxLength", skipAt: true},
		{pointer: "/evidence/camera/physicalSensorId", kind: "maxLength", skipAt: true},
		{pointer: "/frameTimestamps", kind: "maxItems", skipAt: true, filler: func(n int) any {
			out := make([]any, n)
			for i := range out {
				out[i] = i
			}
			return out
		}},
	})
}
