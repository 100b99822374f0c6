package sandbox_test

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/httpserver/sandbox"
)

// seeded is an account's seeded records as the lead's seeding returns them.
var seeded = sandbox.Seeded{
	Parcels: sandbox.SeededParcels{Certified: "prc_aaaaaaaaaaaaaaaaaaaaaaaaaa", Rejected: "prc_bbbbbbbbbbbbbbbbbbbbbbbbbb",
		Pending: "prc_cccccccccccccccccccccccccc", WithOpenTransfer: "prc_dddddddddddddddddddddddddd"},
	Transfers:            sandbox.SeededTransfer{Open: "trf_aaaaaaaaaaaaaaaaaaaaaaaaaa"},
	VerificationRequests: sandbox.SeededRequests{Approved: "vrq_aaaaaaaaaaaaaaaaaaaaaaaaaa", Pending: "vrq_bbbbbbbbbbbbbbbbbbbbbbbbbb"},
	Attestations:         sandbox.SeededConsent{Consent: "att_aaaaaaaaaaaaaaaaaaaaaaaaaa"},
	Holder: sandbox.SeededHolder{SubjectRef: "sandbox:acct_1:holder", DID: "did:veriland:2Tq8x1m3Qv4Xy7Zb9Cd1Ef",
		WalletAddress: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F", PrivateKey: "0x" + strings.Repeat("ab", 32)},
	WalletOwnedParcel: sandbox.SeededWalletParcel{ID: "prc_eeeeeeeeeeeeeeeeeeeeeeeeee", OwnerWallet: "0x71c7656ec7ab88b098defb751b7401b5f6d8976f",
		Binding: "IDENTITY_VERIFIED", OwnerDID: "did:veriland:2Tq8x1m3Qv4Xy7Zb9Cd1Ef"},
}

// documentedRoutes reads the OpenAPI document's operations as "METHOD /path/{param}".
func documentedRoutes(t *testing.T) []string {
	t.Helper()
	raw, err := os.ReadFile("../openapi.json")
	require.NoError(t, err)
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	var out []string
	for path, ops := range doc.Paths {
		for method := range ops {
			out = append(out, strings.ToUpper(method)+" "+path)
		}
	}
	return out
}

// documented reports whether method and path match an operation of routes.
func documented(routes []string, method, path string) bool {
	param := regexp.MustCompile(`\\\{[^}]+\\\}`)
	for _, r := range routes {
		m, tmpl, _ := strings.Cut(r, " ")
		if m != method {
			continue
		}
		re := "^" + param.ReplaceAllString(regexp.QuoteMeta(tmpl), `[^/]+`) + "$"
		if regexp.MustCompile(re).MatchString(path) {
			return true
		}
	}
	return false
}

func TestScenarioCatalogue(t *testing.T) {
	list := sandbox.Scenarios("http://veriland.test/", seeded)
	routes := documentedRoutes(t)
	doc, err := openapi3.NewLoader().LoadFromFile("../openapi.json")
	require.NoError(t, err)
	ref, ok := doc.Components.Schemas["SandboxScenario"]
	require.True(t, ok, "no schema SandboxScenario in the OpenAPI document")
	schema := ref.Value
	ids := map[string]bool{}
	families := map[string]int{}
	idPattern := regexp.MustCompile(`^[a-z]+\.[a-z0-9_]+$`)
	for _, sc := range list {
		t.Run(sc.ID, func(t *testing.T) {
			require.False(t, ids[sc.ID], "duplicate id")
			ids[sc.ID] = true
			families[sc.Family]++
			require.Regexp(t, idPattern, sc.ID)
			require.True(t, strings.HasPrefix(sc.ID, sc.Family+"."), "the id starts with its family")
			require.Contains(t, sandbox.Families(), sc.Family)
			require.NotEmpty(t, sc.Name)
			require.NotEmpty(t, sc.Description)
			require.NotEmpty(t, sc.Expected.Outcome)
			require.True(t, documented(routes, sc.Request.Method, sc.Request.Path),
				"%s %s is not a documented route", sc.Request.Method, sc.Request.Path)
			if sc.Expected.Status >= 400 {
				require.NotEmpty(t, sc.Expected.Code, "an error scenario names its code")
			} else {
				require.Empty(t, sc.Expected.Code)
			}
			raw, err := json.Marshal(sc)
			require.NoError(t, err)
			var back map[string]any
			require.NoError(t, json.Unmarshal(raw, &back))
			require.NoError(t, schema.VisitJSON(back, openapi3.MultiErrors()), "the OpenAPI schema SandboxScenario")
			require.Equal(t, []string{"description", "expected", "family", "id", "name", "request"},
				without(without(keys(back), "prerequisites"), "curl"))
			// A body with placeholders says in words how to fill them (a token placeholder
			// is self-explanatory).
			if hasPlaceholder(back["request"].(map[string]any)["body"]) {
				require.NotEmpty(t, sc.Prerequisites, "placeholders need prerequisites")
			}
			// A path placeholder is a whole segment, one of the listed ones, and the
			// prerequisites say which record it names.
			for _, seg := range strings.Split(sc.Request.Path, "/") {
				if strings.ContainsAny(seg, "<>") {
					require.Contains(t, []string{sandbox.PathTransferID, sandbox.PathParcelID, sandbox.PathInboundProvider}, seg)
					require.Contains(t, sc.Prerequisites, seg, "the prerequisites name the record of %s", seg)
				}
			}
		})
	}
	for _, f := range sandbox.Families() {
		require.Positive(t, families[f], "family %s has no scenario", f)
	}
	// The seeded ids are filled in where they are needed.
	raw, err := json.Marshal(list)
	require.NoError(t, err)
	for _, id := range []string{seeded.VerificationRequests.Pending, seeded.Holder.DID, seeded.Holder.WalletAddress,
		seeded.WalletOwnedParcel.ID, seeded.WalletOwnedParcel.OwnerWallet} {
		require.Contains(t, string(raw), id)
	}
	require.NotContains(t, string(raw), seeded.Holder.PrivateKey, "the key is in seeded, not repeated in every scenario")
	// Stable: the same list for the same input.
	require.Equal(t, list, sandbox.Scenarios("http://veriland.test", seeded))
}

// The owner scenarios (SPEC S13) run on the seeded wallet-owned parcel and its
// owner's wallet, and the separation-of-duties refusals say why.
func TestScenarioOwners(t *testing.T) {
	byID := map[string]sandbox.Scenario{}
	for _, sc := range sandbox.Scenarios("http://veriland.test", seeded) {
		byID[sc.ID] = sc
	}
	wp := seeded.WalletOwnedParcel
	for _, tc := range []struct {
		id, method, path string
		status           int
		decision         string // the owner's decision, for POST owner-consent
		outcome          []string
	}{
		{"owners.my_parcels", "GET", "/v1/me/parcels", 200, "", []string{wp.ID, "IDENTITY_VERIFIED", "links.ownerConsent"}},
		{"owners.transfer_requested", "POST", "/v1/parcels/" + wp.ID + "/transfer", 202, "", []string{"status PENDING_OWNER", "ownerConsent", "url"}},
		{"owners.approve", "POST", "/v1/transfers/<transferId>/owner-consent", 200, "APPROVED", []string{"status COMPLETED", "NOT-SBX-1"}},
		{"owners.approve_notary_waits", "POST", "/v1/transfers/<transferId>/owner-consent", 200, "APPROVED", []string{"status PENDING_NOTARY", "NOT-SBX-3"}},
		{"owners.reject", "POST", "/v1/transfers/<transferId>/owner-consent", 200, "REJECTED", []string{"status REJECTED", "rejectedBy OWNER"}},
		{"owners.wrong_signer", "POST", "/v1/transfers/<transferId>/owner-consent", 422, "APPROVED", []string{"invalid_signature", "PENDING_OWNER"}},
		{"owners.approve_before_owner", "POST", "/v1/transfers/<transferId>/approve", 409, "", []string{"invalid_state", "meta.status PENDING_OWNER"}},
		{"owners.deadline", "POST", "/v1/parcels/" + wp.ID + "/transfer", 202, "", []string{"60 s", "EXPIRED", "sweeper", "transfer.expired", "webhook"}},
		{"parcels.notary_requests_transfer", "POST", "/v1/parcels/" + wp.ID + "/transfer", 403, "", []string{"separation_of_duties"}},
		{"parcels.requester_approves", "POST", "/v1/transfers/<transferId>/approve", 403, "", []string{"separation_of_duties"}},
		{"parcels.creator_certifies", "POST", "/v1/parcels/<parcelId>/certify", 403, "", []string{"separation_of_duties"}},
	} {
		t.Run(tc.id, func(t *testing.T) {
			sc, ok := byID[tc.id]
			require.True(t, ok, "no scenario %s", tc.id)
			require.Equal(t, tc.method, sc.Request.Method)
			require.Equal(t, tc.path, sc.Request.Path)
			require.Equal(t, tc.status, sc.Expected.Status)
			for _, s := range tc.outcome {
				require.Contains(t, sc.Expected.Outcome, s)
			}
			body, _ := sc.Request.Body.(map[string]any)
			if tc.decision != "" {
				require.Equal(t, tc.decision, body["decision"])
				require.Equal(t, wp.OwnerWallet, body["ownerAddress"], "the owner's bound wallet signs")
				require.True(t, sandbox.IsPlaceholder(body["ownerSignature"].(string)))
				require.Empty(t, sc.Request.Headers, "the owner's decision is public: the signature authenticates it")
				require.Contains(t, sc.Prerequisites, "privateKey")
				require.Contains(t, sc.Prerequisites, `"decision": "`+tc.decision+`"`)
			}
			if strings.HasSuffix(tc.path, "/transfer") {
				require.Contains(t, body, "newOwner")
			}
		})
	}
	require.Equal(t, 60, byID["owners.deadline"].Request.Body.(map[string]any)["expiresInSeconds"])
	require.Equal(t, sandbox.AuthNotaryCertifies, byID["parcels.notary_requests_transfer"].Request.Headers["Authorization"])
	require.Equal(t, sandbox.AuthAdmin, byID["parcels.requester_approves"].Request.Headers["Authorization"])
}

func TestScenarioPlaceholders(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"<sessionId>", true},
		{"<>", false},
		{"<a", false},
		{"a>", false},
		{"NOT-SBX-1", false},
		{sandbox.AuthHolder, false}, // a header value: "Bearer <…>"
		{sandbox.SessionPlaceholder("L3"), true},
	} {
		require.Equal(t, tc.want, sandbox.IsPlaceholder(tc.s), tc.s)
	}
}

// The liveness scenarios' timing matches the frames they ask for, so that a proof
// built from the prerequisites has a consistent duration.
func TestScenarioLivenessTiming(t *testing.T) {
	for _, sc := range sandbox.Scenarios("", seeded) {
		if sc.Request.Path != "/liveness/verify" {
			continue
		}
		body := sc.Request.Body.(map[string]any)
		timing := body["evidence"].(map[string]map[string]any)["timing"]
		frames := timing["frameCount"].(int)
		require.Equal(t, (frames-1)*sandbox.LivenessFrameIntervalMs, timing["sessionDurationMs"], sc.ID)
		level := regexp.MustCompile(`\{"requestedLevel":"L[123]"\}`).FindString(body["sessionId"].(string))
		require.NotEmpty(t, level, sc.ID)
		require.Contains(t, sc.Prerequisites, level, "%s: the session of the placeholder is the prerequisites'", sc.ID)
	}
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func without(s []string, drop string) []string {
	return slices.DeleteFunc(s, func(x string) bool { return x == drop })
}

// hasPlaceholder reports whether a decoded JSON value holds a placeholder string.
func hasPlaceholder(v any) bool {
	switch x := v.(type) {
	case string:
		return sandbox.IsPlaceholder(x)
	case map[string]any:
		for _, e := range x {
			if hasPlaceholder(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if hasPlaceholder(e) {
				return true
			}
		}
	}
	return false
}
