package httpserver

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/webhook"
)

// A parcel created with a callbackUrl tells its creator of every later transition
// with a Standard Webhooks delivery signed with the creator's secret, written in the
// transition's transaction; the payload names ids, states and hashes, never an owner.
func TestParcelWebhooks(t *testing.T) {
	h := newHarness(t, noRateLimits)
	f := newParcelFlow(h, veriland.Sandbox)
	rc := newReceiver(t)
	body := func(callback string) string {
		return fmt.Sprintf(`{"owner":{"fullName":%q,"id_doc":%q},"parcel":{"gps":[9.0765,7.3986],"area_m2":1200,"city":"Abuja"},"notary":%q,"callbackUrl":%q}`,
			ownerName, ownerIDDoc, parcelNotary, callback)
	}
	r := h.do(request{method: "POST", path: "/v1/parcels", token: f.agent, body: body(rc.srv.URL + "/parcels")})
	require.Equal(t, 201, r.status, string(r.body))
	id := attrs(t, r)["id"].(string)
	require.NotContains(t, string(r.body), "callbackUrl", "the callback URL is not part of the parcel's view")

	cert := f.post(t, "/v1/parcels/"+id+"/certify", f.notary, `{}`, 200)
	require.NotEmpty(t, cert["certificateHash"])
	tr := f.post(t, "/v1/parcels/"+id+"/transfer", f.agent, transferBody(parcelNotary), 202)
	f.post(t, "/v1/transfers/"+tr["id"].(string)+"/approve", f.notary, `{}`, 200)
	h.runOutbox(t)

	sr := h.do(request{method: "GET", path: "/v1/webhooks/secret", token: f.agent})
	require.Equal(t, 200, sr.status, string(sr.body))
	secret, err := webhook.ParseSecret(attrs(t, sr)["secret"].(string))
	require.NoError(t, err)

	var types []string
	for _, hook := range rc.got() {
		require.NoError(t, webhook.Verify(hook.header, hook.body, []webhook.Secret{secret}, h.clock.Now()))
		for _, personal := range []string{ownerName, ownerIDDoc, buyerName, buyerIDDoc} {
			require.NotContains(t, string(hook.body), personal)
		}
		var p struct {
			Type string         `json:"type"`
			Data map[string]any `json:"data"`
		}
		require.NoError(t, json.Unmarshal(hook.body, &p))
		require.Equal(t, id, p.Data["parcelId"])
		types = append(types, p.Type)
		if p.Type == "parcel.certified" {
			require.Equal(t, cert["certificateHash"], p.Data["certificateHash"])
			require.Equal(t, "CERTIFIED", p.Data["status"])
		}
		if p.Type == "transfer.completed" {
			require.Equal(t, tr["id"], p.Data["transferId"])
		}
	}
	require.ElementsMatch(t, []string{"parcel.certified", "transfer.requested", "transfer.completed"}, types)

	// PRODUCTION refuses a plain-http or loopback callback.
	prod := newParcelFlow(h, veriland.Production)
	r = h.do(request{method: "POST", path: "/v1/parcels", token: prod.agent, body: body(rc.srv.URL + "/parcels")})
	require.Equal(t, 400, r.status, string(r.body))
	require.Equal(t, []string{"/callbackUrl"}, errorPointers(t, r))
}
