package httpserver

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
)

// TestOpenTransfersRoute covers GET /v1/transfers?status=PENDING_NOTARY: a notary
// named only by a transfer (not the parcel's certifying notary) finds it there,
// although GET /v1/parcels does not list the parcel to it.
func TestOpenTransfersRoute(t *testing.T) {
	h := newHarness(t)
	f := newParcelFlow(h, veriland.Production)
	open := func() string {
		t.Helper()
		id := f.create(t, parcelNotary)["id"].(string)
		f.post(t, "/v1/parcels/"+id+"/certify", f.notary, nil, 200)
		h.clock.Advance(60e9)
		return f.post(t, "/v1/parcels/"+id+"/transfer", f.agent, transferBody("NOT-LAG-7"), 202)["id"].(string)
	}
	older, newer := open(), open()
	// Notaries without an account: only the notary rule lets them read.
	noAcct := func(p *veriland.Principal) { p.Account = "" }
	transferNotary := h.token(veriland.RoleNotary, veriland.Production, "NOT-LAG-7", noAcct)
	certifyingNotary := h.token(veriland.RoleNotary, veriland.Production, parcelNotary, noAcct)
	const path = "/v1/transfers?status=PENDING_NOTARY"
	list := func(t *testing.T, tok, path string) ([]string, map[string]any) {
		t.Helper()
		r := h.do(request{method: "GET", path: path, token: tok})
		require.Equal(t, http.StatusOK, r.status, string(r.body))
		doc := r.json(t)
		ids := []string{}
		for _, item := range doc["data"].([]any) {
			res := item.(map[string]any)
			require.Equal(t, "transfers", res["type"])
			require.Equal(t, "PENDING_NOTARY", res["attributes"].(map[string]any)["status"])
			ids = append(ids, res["id"].(string))
		}
		return ids, doc
	}

	for _, tc := range []struct {
		name, token string
		want        []string
	}{
		{"the transfers' notary", transferNotary, []string{newer, older}},
		{"the parcels' certifying notary", certifyingNotary, []string{}},
		{"the account", f.agent, []string{newer, older}},
		{"another account", f.otherAcct, []string{}},
		{"admin", f.admin, []string{newer, older}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ids, _ := list(t, tc.token, path)
			require.Equal(t, tc.want, ids)
		})
	}
	t.Run("the same account's sandbox", func(t *testing.T) {
		ids, _ := list(t, h.token(veriland.RoleAdmin, veriland.Sandbox, "admin"), path)
		require.NotContains(t, ids, older)
		require.NotContains(t, ids, newer)
	})

	t.Run("the notary does not find the parcels in GET /v1/parcels", func(t *testing.T) {
		r := h.do(request{method: "GET", path: "/v1/parcels", token: transferNotary})
		require.Equal(t, http.StatusOK, r.status)
		require.Empty(t, r.json(t)["data"])
	})

	t.Run("pages", func(t *testing.T) {
		ids, doc := list(t, transferNotary, path+"&limit=1")
		require.Equal(t, []string{newer}, ids)
		require.Equal(t, true, doc["meta"].(map[string]any)["has_more"])
		ids, doc = list(t, transferNotary, doc["links"].(map[string]any)["next"].(string))
		require.Equal(t, []string{older}, ids)
		require.Equal(t, false, doc["meta"].(map[string]any)["has_more"])
	})

	t.Run("closed transfers leave the list", func(t *testing.T) {
		f.post(t, "/v1/transfers/"+newer+"/approve", transferNotary, nil, 200)
		ids, _ := list(t, transferNotary, path)
		require.Equal(t, []string{older}, ids)
	})

	for _, tc := range []struct {
		name, path, param string
	}{
		{"no status", "/v1/transfers", "status"},
		{"another status", "/v1/transfers?status=COMPLETED", "status"},
		{"bad limit", path + "&limit=0", "limit"},
		{"bad cursor", path + "&cursor=cHJjX2FhYWFhYWFh", "cursor"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := h.do(request{method: "GET", path: tc.path, token: transferNotary})
			require.Equal(t, http.StatusBadRequest, r.status, string(r.body))
			e := r.json(t)["errors"].([]any)[0].(map[string]any)
			require.Equal(t, tc.param, e["meta"].(map[string]any)["parameter"], string(r.body))
		})
	}
	require.Equal(t, http.StatusUnauthorized, h.do(request{method: "GET", path: path}).status)
}
