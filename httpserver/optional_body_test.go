package httpserver

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
)

// optionalBodyOperation is one documented POST/PUT/PATCH/DELETE whose request body
// is absent or not required.
type optionalBodyOperation struct {
	method, path string
	hasBody      bool // the document describes a (non-required) body
}

// documentedBodies reads the embedded OpenAPI document: for every POST, PUT, PATCH
// and DELETE operation, whether its request body is required.
func documentedBodies(t *testing.T) map[string]*bool {
	t.Helper()
	type requestBody struct {
		Ref      string `json:"$ref"`
		Required bool   `json:"required"`
	}
	var doc struct {
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			RequestBodies map[string]requestBody `json:"requestBodies"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal(openAPIDocument, &doc))
	out := map[string]*bool{} // "METHOD /path" → required; nil: no requestBody
	for path, ops := range doc.Paths {
		for method, raw := range ops {
			switch method {
			case "post", "put", "patch", "delete":
			default:
				continue
			}
			var op struct {
				RequestBody *requestBody `json:"requestBody"`
			}
			require.NoError(t, json.Unmarshal(raw, &op))
			key := strings.ToUpper(method) + " " + path
			if op.RequestBody == nil {
				out[key] = nil
				continue
			}
			rb := *op.RequestBody
			if rb.Ref != "" {
				name := strings.TrimPrefix(rb.Ref, "#/components/requestBodies/")
				var ok bool
				rb, ok = doc.Components.RequestBodies[name]
				require.True(t, ok, "%s: unresolved %s", key, op.RequestBody.Ref)
			}
			out[key] = &rb.Required
		}
	}
	return out
}

// TestOptionalBodiesAccepted walks the OpenAPI document (SPEC S15): every operation
// whose body is absent or optional accepts a request with no body and no
// Content-Type, an empty JSON body and {} — never 415, never 400 invalid_json — and
// the routes' optionalBody flags agree with the document's required.
func TestOptionalBodiesAccepted(t *testing.T) {
	h := newHarness(t, noRateLimits)
	bodies := documentedBodies(t)

	var ops []optionalBodyOperation
	for key, required := range bodies {
		if required != nil && *required {
			continue
		}
		method, path, _ := strings.Cut(key, " ")
		ops = append(ops, optionalBodyOperation{method: method, path: path, hasBody: required != nil})
	}
	slices.SortFunc(ops, func(a, b optionalBodyOperation) int { return strings.Compare(a.method+a.path, b.method+b.path) })
	for _, named := range []string{"POST /verify/request/{id}/cancel", "POST /v1/webhooks/secret/rotate", "POST /v1/webhooks/deliveries/{id}/replay"} {
		require.Contains(t, bodies, named)
		require.False(t, *bodies[named], "%s declares its body optional", named)
	}

	routes := map[string]route{}
	for _, rt := range h.srv.routes {
		routes[rt.method+" "+rt.path] = rt
	}
	// The flags agree with the document: optionalBody exactly where a body-carrying
	// method's body is not required.
	for key, required := range bodies {
		rt, ok := routes[key]
		require.True(t, ok, "%s is documented but not registered", key)
		if !hasBodyMethod(rt.method) {
			require.False(t, rt.optionalBody, "%s: optionalBody on a method without a body", key)
			continue
		}
		require.Equal(t, required == nil || !*required, rt.optionalBody,
			"%s: optionalBody disagrees with the document's requestBody.required", key)
	}

	param := regexp.MustCompile(`\{[^}]+\}`)
	for _, op := range ops {
		rt := routes[op.method+" "+op.path]
		var tok string
		if len(rt.roles) > 0 {
			role := rt.roles[0]
			if slices.Contains(rt.roles, veriland.RoleAdmin) {
				role = veriland.RoleAdmin
			}
			tok = h.token(role, veriland.Sandbox, "optional-body-"+string(role))
		}
		path := param.ReplaceAllString(op.path, "x_0000000000000000")
		variants := []struct {
			name string
			body any
			ct   string
		}{
			{"no body, no Content-Type", nil, ""},
			{"empty body", "", "application/json"},
			{"{}", "{}", "application/json"},
		}
		for _, v := range variants {
			if !op.hasBody && v.body != nil {
				continue // DELETE without a documented body: only the bodiless request
			}
			t.Run(op.method+" "+op.path+"/"+v.name, func(t *testing.T) {
				r := h.do(request{method: op.method, path: path, token: tok, body: v.body, skipSpec: true})
				require.NotEqual(t, http.StatusUnsupportedMediaType, r.status, string(r.body))
				if r.status == http.StatusBadRequest {
					require.NotEqual(t, "invalid_json", r.errorCode(t), string(r.body))
				}
			})
		}
	}

	// The named routes succeed without a body, not merely avoid 415.
	verifier := h.token(veriland.RoleVerifier, veriland.Sandbox, "optional-body-verifier")
	r := h.do(request{method: "POST", path: "/v1/webhooks/secret/rotate", token: verifier})
	require.Equal(t, http.StatusOK, r.status, string(r.body))
}

func hasBodyMethod(m string) bool {
	return m == http.MethodPost || m == http.MethodPut || m == http.MethodPatch
}
