package sandbox

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/veriland/veriland/httpserver/ratelimit"
	"github.com/veriland/veriland/httpserver/webhook"
	"github.com/veriland/veriland/identity"
	"github.com/veriland/veriland/parcel"
)

// Scenario is one sandbox behaviour: the exact request that triggers it and what the
// sandbox answers (GET /v1/sandbox/scenarios, member "scenarios"). A string of the
// request written "<…>" is a placeholder (IsPlaceholder): a value the caller computes
// (a token, a signature, a session id), described in its text and in Prerequisites;
// so is a path segment written so (PathTransferID, PathParcelID): the id of a record
// the prerequisites make. Everything else is sent as listed.
type Scenario struct {
	ID          string `json:"id"`          // stable, "family.case"
	Family      string `json:"family"`      // kyc, liveness, consent, chip, parcels, owners, webhooks, ratelimit
	Name        string `json:"name"`        // a short title
	Description string `json:"description"` // what it shows, in words
	// Prerequisites says what must happen first, in words, when the request alone
	// cannot trigger the outcome.
	Prerequisites string          `json:"prerequisites,omitempty"`
	Request       ScenarioRequest `json:"request"`
	Expected      Expectation     `json:"expected"`
	// Curl is the request as a ready-to-run curl command, when it has no placeholder
	// (the sandbox provider's signed event, webhooks.inbound).
	Curl string `json:"curl,omitempty"`
}

// ScenarioRequest is the HTTP request of a scenario. Path is relative to the server's
// origin; Body is JSON.
type ScenarioRequest struct {
	Method  string            `json:"method"`
	Path    string            `json:"path"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    any               `json:"body,omitempty"`
}

// Expectation is what the sandbox answers a scenario's request: its HTTP status, the
// SPEC S2.2 error code when Status ≥ 400, and the outcome in words (including what
// follows later, such as webhook attempts).
type Expectation struct {
	Status  int    `json:"status"`
	Code    string `json:"code,omitempty"`
	Outcome string `json:"outcome"`
}

// The scenario families, in the order Scenarios lists them.
const (
	FamilyKYC       = "kyc"
	FamilyLiveness  = "liveness"
	FamilyConsent   = "consent"
	FamilyChip      = "chip"
	FamilyParcels   = "parcels"
	FamilyOwners    = "owners" // SPEC S13: owner wallets and owner-signed transfers
	FamilyWebhooks  = "webhooks"
	FamilyRateLimit = "ratelimit"
)

// Families lists every scenario family, in the order Scenarios lists them.
func Families() []string {
	return []string{FamilyKYC, FamilyLiveness, FamilyConsent, FamilyChip, FamilyParcels, FamilyOwners, FamilyWebhooks, FamilyRateLimit}
}

// Authorization header placeholders: which SANDBOX token a scenario needs.
const (
	// AuthAccount is any SANDBOX API key of the account (POST /v1/api-keys).
	AuthAccount = "Bearer <SANDBOX API key of your account>"
	// AuthVerifier is a SANDBOX API key of the account with role verifier.
	AuthVerifier = "Bearer <SANDBOX verifier API key of your account>"
	// AuthNotary is a SANDBOX API key of the account with role notary and sub
	// NOT-SBX-3, the sandbox notary that never answers on its own.
	AuthNotary = "Bearer <SANDBOX notary API key of your account, sub NOT-SBX-3>"
	// AuthNotaryCertifies is a SANDBOX API key of the account with role notary and sub
	// NOT-SBX-1, the sandbox notary that certified the seeded parcels.
	AuthNotaryCertifies = "Bearer <SANDBOX notary API key of your account, sub NOT-SBX-1>"
	// AuthAdmin is a SANDBOX API key of the account with role admin.
	AuthAdmin = "Bearer <SANDBOX admin API key of your account>"
	// AuthHolder is the seeded holder's token: sign in with POST /auth/siwe
	// (environment SANDBOX) using the seeded holder's private key.
	AuthHolder = "Bearer <SANDBOX holder token: POST /auth/siwe signed with the seeded holder's privateKey>"
)

// Path placeholders: the id of a record that a scenario's prerequisites make, in
// place of a path segment.
const (
	// PathTransferID is the transfer the prerequisites request (trf_…).
	PathTransferID = "<transferId>"
	// PathParcelID is the parcel the prerequisites create (prc_…).
	PathParcelID = "<parcelId>"
	// PathInboundProvider is the account's sandbox provider (seeded.inboundWebhook),
	// in a list made without one.
	PathInboundProvider = "<inboundProvider>"
)

// HeaderEnvironment names the environment of a public request (SPEC S2).
const HeaderEnvironment = "Veriland-Environment"

// LivenessFrameIntervalMs is the spacing of the frames of the liveness scenarios.
const LivenessFrameIntervalMs = 33

// IsPlaceholder reports whether s is a placeholder of a scenario's request: a value
// written "<…>" that the caller computes.
func IsPlaceholder(s string) bool {
	return len(s) > 2 && strings.HasPrefix(s, "<") && strings.HasSuffix(s, ">")
}

// SessionPlaceholder is the sessionId placeholder of a liveness verification: a
// session started at level.
func SessionPlaceholder(level string) string {
	return fmt.Sprintf(`<sessionId of POST /liveness/session {"requestedLevel":"%s"}, started just before the capture>`, level)
}

// Scenarios returns every sandbox scenario, with s's seeded ids filled in where one is
// needed (the seeded pending request for a consent decision, the seeded holder's DID
// and wallet, …). origin is the server's public origin, used in the descriptions. The
// list is stable: the same ids, in the same order, for every account.
func Scenarios(origin string, s Seeded) []Scenario {
	origin = strings.TrimRight(origin, "/")
	var out []Scenario
	out = append(out, kycScenarios(s)...)
	out = append(out, livenessScenarios(s)...)
	out = append(out, consentScenarios(origin, s)...)
	out = append(out, chipScenarios()...)
	out = append(out, parcelScenarios(s)...)
	out = append(out, ownerScenarios(origin, s)...)
	out = append(out, webhookScenarios(s)...)
	out = append(out, inboundScenario(origin, s))
	out = append(out, rateLimitScenarios()...)
	return out
}

// subjectPrefix is the account's prefix of fresh subjectRefs: the seeded holder's,
// without its role.
func subjectPrefix(s Seeded) string {
	if p, ok := strings.CutSuffix(s.Holder.SubjectRef, ":holder"); ok && p != "" {
		return p
	}
	return "sandbox"
}

func kycScenarios(s Seeded) []Scenario {
	prefix := subjectPrefix(s)
	issue := func(id, name, description string, scenario string, exp Expectation) Scenario {
		return Scenario{
			ID: "kyc." + id, Family: FamilyKYC, Name: name,
			Description: description + " The subjectRef must be new: an identity exists once per subjectRef " +
				"(a second call answers 409 already_exists), so change it to run the scenario again.",
			Request: ScenarioRequest{
				Method: "POST", Path: "/identity/issue", Headers: map[string]string{HeaderEnvironment: "SANDBOX"},
				Body: map[string]any{
					"subjectRef": prefix + ":kyc-" + id, "countryCode": "NG",
					"payload": map[string]any{"scenario": scenario},
				},
			},
			Expected: exp,
		}
	}
	return []Scenario{
		issue("success", "KYC approved", "The sandbox KYC provider approves at once.", identity.ScenarioSuccess,
			Expectation{Status: 201, Outcome: "status ACTIVE: a did:veriland identity whose KYC is approved"}),
		issue("failure", "KYC rejected", "The sandbox KYC provider rejects.", identity.ScenarioFailure,
			Expectation{Status: 201, Outcome: "status REJECTED: the identity exists, refused, final"}),
		issue("review", "KYC sent to manual review", "The sandbox KYC provider asks for a manual review.", identity.ScenarioReview,
			Expectation{Status: 201, Outcome: "status PENDING_REVIEW with a reviewId; an admin decides with POST /identity/review/{id}/decision"}),
		issue("timeout", "KYC never answers", "The sandbox KYC provider never completes the check.", identity.ScenarioTimeout,
			Expectation{Status: 201, Outcome: "status PENDING_KYC, and it stays so: no answer ever comes"}),
		issue("unavailable", "KYC provider down", "The sandbox KYC provider fails.", identity.ScenarioUnavailable,
			Expectation{Status: 503, Code: "unavailable", Outcome: "503 unavailable: nothing is kept, the same subjectRef may be used again"}),
	}
}

// livenessEvidence is the evidence of a liveness scenario with frames frames: scores
// that clear every level's thresholds (SPEC S4), edited by edit.
func livenessEvidence(frames int, edit func(ev map[string]map[string]any)) map[string]map[string]any {
	ev := map[string]map[string]any{
		"challenge": {"hueScore": 0.91, "latencyMs": 420},
		"sensor":    {"parallaxScore": 0.93, "imuCorrelation": 0.82},
		"camera":    {"physicalSensorId": "back-wide-0", "virtualSourceSuspected": false},
		"timing": {"frameJitterMs": 9.5, "frameCount": frames,
			"sessionDurationMs": (frames - 1) * LivenessFrameIntervalMs},
	}
	if edit != nil {
		edit(ev)
	}
	return ev
}

func livenessScenarios(s Seeded) []Scenario {
	device := s.Holder.WalletAddress
	mock := map[string]any{"type": "MOCK", "token": "mock-attestation-token"}
	const enrolled = "The seeded holder's device is enrolled (liveness.enroll); its key is the holder's privateKey. "
	verify := func(id, name, description, level string, frames int, edit func(map[string]map[string]any), exp Expectation) Scenario {
		return Scenario{
			ID: "liveness." + id, Family: FamilyLiveness, Name: name, Description: description,
			Prerequisites: enrolled + fmt.Sprintf(
				`Start a session with POST /liveness/session {"requestedLevel":"%s"}, capture %d frames %d ms apart within it, `+
					"and sign the EIP-712 LivenessProof (domain Identity Liveness, version 1, chainId 1: sessionId, nonce, merkleRoot, "+
					"frameCount, sessionDurationMs) with the device key.", level, frames, LivenessFrameIntervalMs),
			Request: ScenarioRequest{
				Method: "POST", Path: "/liveness/verify", Headers: map[string]string{"Authorization": AuthHolder},
				Body: map[string]any{
					"sessionId":       SessionPlaceholder(level),
					"devicePublicKey": device,
					"attestation":     mock,
					"merkleRoot":      "<0x… Merkle root of the frames (index, timestamp in µs, frame digest)>",
					"frameTimestamps": fmt.Sprintf("<%d capture times, unix ms, %d ms apart, after the session started>", frames, LivenessFrameIntervalMs),
					"deviceSignature": "<0x… EIP-712 LivenessProof signature by the device key>",
					"evidence":        livenessEvidence(frames, edit),
				},
			},
			Expected: exp,
		}
	}
	low := func(ev map[string]map[string]any) {
		ev["sensor"]["parallaxScore"] = 0.6
		ev["challenge"]["hueScore"] = 0.6
	}
	virtual := func(ev map[string]map[string]any) { ev["camera"]["virtualSourceSuspected"] = true }
	return []Scenario{
		{
			ID: "liveness.enroll", Family: FamilyLiveness, Name: "Enrol a device with a MOCK attestation",
			Description: "MOCK device attestation is accepted in SANDBOX only, on any platform, with trust BASIC. " +
				"The device key here is the seeded holder's wallet key, so that the one privateKey signs everything.",
			Prerequisites: "Sign in as the seeded holder (POST /auth/siwe, environment SANDBOX) with its privateKey.",
			Request: ScenarioRequest{
				Method: "POST", Path: "/liveness/device/enroll", Headers: map[string]string{"Authorization": AuthHolder},
				Body: map[string]any{"platform": "ANDROID", "publicKey": device, "attestation": mock},
			},
			Expected: Expectation{Status: 201, Outcome: "a device dev_… with attestationType MOCK and trust BASIC (200 with the same device when enrolled already)"},
		},
		{
			ID: "liveness.session", Family: FamilyLiveness, Name: "Start a liveness session",
			Description:   "A session lasts 120 seconds and carries the nonce the proof signs.",
			Prerequisites: "Sign in as the seeded holder (POST /auth/siwe, environment SANDBOX) with its privateKey.",
			Request: ScenarioRequest{
				Method: "POST", Path: "/liveness/session", Headers: map[string]string{"Authorization": AuthHolder},
				Body: map[string]any{"requestedLevel": "L2"},
			},
			Expected: Expectation{Status: 201, Outcome: "a session lvs_… at level L2 with its nonce and expiresAt 120 s later"},
		},
		verify("verify_l1", "Liveness passes at L1", "Scores that clear L1 (parallax ≥ 0.50, jitter ≤ 80 ms) over 12 frames.", "L1", 12, nil,
			Expectation{Status: 201, Outcome: "status VERIFIED at level L1, with a LIVENESS attestation of the holder"}),
		verify("verify_l2", "Liveness passes at L2", "Scores that clear L2 (parallax ≥ 0.65, hue ≥ 0.70, latency ≤ 1500 ms, imu ≥ 0.60, jitter ≤ 50 ms) over 36 frames.", "L2", 36, nil,
			Expectation{Status: 201, Outcome: "status VERIFIED at level L2, with a LIVENESS attestation of the holder"}),
		verify("verify_l3_basic_device", "L3 refused to a MOCK device", "L3 needs a device enrolled with trust STRONG; a MOCK device is BASIC, whatever its scores.", "L3", 72, nil,
			Expectation{Status: 422, Code: "liveness_rejected", Outcome: "422 liveness_rejected, reasons: device_trust_too_low"}),
		verify("verify_low_scores", "Liveness fails on its scores", "parallaxScore 0.6 and hueScore 0.6 are below L2's thresholds.", "L2", 36, low,
			Expectation{Status: 422, Code: "liveness_rejected", Outcome: "422 liveness_rejected, reasons: parallax_too_low, hue_too_low"}),
		verify("verify_virtual_camera", "Virtual camera detected", "A capture the device flags as coming from a virtual camera is refused.", "L2", 36, virtual,
			Expectation{Status: 422, Code: "liveness_rejected", Outcome: "422 liveness_rejected, reasons: virtual_camera"}),
	}
}

func consentScenarios(origin string, s Seeded) []Scenario {
	pending := s.VerificationRequests.Pending
	decide := func(id, name, decision string, disclosed []string, exp Expectation) Scenario {
		return Scenario{
			ID: "consent." + id, Family: FamilyConsent, Name: name,
			Description: fmt.Sprintf("The seeded holder answers the seeded pending request %s (scope is_adult, nationality). "+
				"A request is decided once: reset the sandbox (POST /v1/sandbox/reset) to try the other answer. "+
				"A person does the same on the consent page, %s/consent/%s.", pending, origin, pending),
			Prerequisites: "Read the typed data with GET /consent/" + pending + ", set its message's decision to " + decision +
				" and disclosedScopeHash to keccak256 of the keccak256 of each disclosed item, and sign its EIP-712 digest " +
				"with the seeded holder's privateKey.",
			Request: ScenarioRequest{
				Method: "POST", Path: "/consent/" + pending,
				Body: map[string]any{
					"holderAddress": s.Holder.WalletAddress, "decision": decision, "disclosedScope": disclosed,
					"holderSignature": "<0x… EIP-712 signature of the ConsentDecision by the seeded holder's privateKey>",
				},
			},
			Expected: exp,
		}
	}
	return []Scenario{
		decide("approve", "Holder approves", "APPROVED", []string{"is_adult", "nationality"},
			Expectation{Status: 201, Outcome: "status APPROVED with a CONSENT attestation of the holder (is_adult true, nationality verified)"}),
		decide("reject", "Holder rejects", "REJECTED", []string{},
			Expectation{Status: 200, Outcome: "status REJECTED, no attestation"}),
		{
			ID: "consent.unknown_subject", Family: FamilyConsent, Name: "Request for an unknown subject",
			Description: "A verification request must name an identity (or a did:pkh wallet) of the environment.",
			Request: ScenarioRequest{
				Method: "POST", Path: "/verify/request", Headers: map[string]string{"Authorization": AuthVerifier},
				Body: map[string]any{"subjectRef": "did:veriland:1111111111111111111111", "scope": []string{"is_adult"},
					"reason": "Sandbox: unknown subject"},
			},
			Expected: Expectation{Status: 422, Code: "unknown_subject", Outcome: "422 unknown_subject at /subjectRef: nothing is created"},
		},
		{
			ID: "consent.expired", Family: FamilyConsent, Name: "Request left to expire",
			Description: "The shortest lifetime is 60 seconds; a request nobody answers in time expires.",
			Request: ScenarioRequest{
				Method: "POST", Path: "/verify/request", Headers: map[string]string{"Authorization": AuthVerifier},
				Body: map[string]any{"subjectRef": s.Holder.DID, "scope": []string{"is_adult"},
					"reason": "Sandbox: left to expire", "expiresInSeconds": 60},
			},
			Expected: Expectation{Status: 201, Outcome: "status PENDING; 60 s later GET /verify/request/{id} reads EXPIRED and a decision is refused with 409 invalid_state"},
		},
	}
}

func chipScenarios() []Scenario {
	const build = "Pass liveness first (liveness.verify_l2) and keep its attestation id. Build the chip read with the sandbox SOD " +
		"builder: go run ./examples/sandbox-sod -pki <the server's data directory> -liveness <that id> (a DG1 with the MRZ " +
		"of ANNA MARIA ERIKSSON, document L898902C3, and a stand-in DG2, signed by the sandbox Document Signer the server trusts)."
	body := func() map[string]any {
		return map[string]any{
			"sodBase64": "<EF.SOD, base64, from examples/sandbox-sod>",
			"dataGroups": []map[string]any{
				{"number": 1, "contentBase64": "<DG1, base64, from examples/sandbox-sod>"},
				{"number": 2, "contentBase64": "<DG2, base64, from examples/sandbox-sod>"},
			},
			"livenessAttestationId": "<att_… of the holder's LIVENESS attestation from the last 24 hours>",
		}
	}
	return []Scenario{
		{
			ID: "chip.success", Family: FamilyChip, Name: "Passport chip read verified",
			Description:   "Passive authentication of a sandbox passport: the SOD's signature chains to the sandbox CSCA and every data group matches its digest.",
			Prerequisites: build,
			Request:       ScenarioRequest{Method: "POST", Path: "/identity/chip-verify", Headers: map[string]string{"Authorization": AuthHolder}, Body: body()},
			Expected:      Expectation{Status: 201, Outcome: "mode PA_ONLY with a CHIP_BINDING attestation (issuingState UTO); the document is bound to the holder"},
		},
		{
			ID: "chip.tampered", Family: FamilyChip, Name: "Tampered data group",
			Description:   "A data group changed after signing no longer matches its digest in the SOD.",
			Prerequisites: build + " Then change one byte of the decoded DG1 before encoding it again.",
			Request:       ScenarioRequest{Method: "POST", Path: "/identity/chip-verify", Headers: map[string]string{"Authorization": AuthHolder}, Body: body()},
			Expected:      Expectation{Status: 422, Code: "passive_auth_failed", Outcome: "422 passive_auth_failed, meta.step digest_mismatch:DG1: nothing is bound"},
		},
	}
}

func parcelScenarios(s Seeded) []Scenario {
	create := func(id, name, notary, city string, exp Expectation) Scenario {
		return Scenario{
			ID: "parcels." + id, Family: FamilyParcels, Name: name,
			Description: "A certification request naming the sandbox notary " + notary + ".",
			Request: ScenarioRequest{
				Method: "POST", Path: "/v1/parcels", Headers: map[string]string{"Authorization": AuthAccount},
				Body: map[string]any{
					"owner":  map[string]any{"fullName": "Sandbox Owner", "id_doc": "SBX-ID-0001"},
					"parcel": map[string]any{"gps": cityGPS(city), "area_m2": 1200, "city": city},
					"notary": notary,
				},
			},
			Expected: exp,
		}
	}
	return append([]Scenario{
		create("certified", "Notary certifies at once", NotaryCertifies, "Abuja",
			Expectation{Status: 201, Outcome: "status CERTIFIED at once, version 1, with its certificate hash and ERC-5192 token"}),
		create("rejected", "Notary rejects at once", NotaryRejects, "Kano",
			Expectation{Status: 201, Outcome: "status REJECTED at once"}),
		create("pending", "Notary never answers", NotarySilent, "Lagos",
			Expectation{Status: 201, Outcome: "status PENDING_NOTARY, and it stays so until a token of notary NOT-SBX-3 (or an admin) certifies or rejects it"}),
		{
			ID: "parcels.transfer_completed", Family: FamilyParcels, Name: "Transfer approved at once",
			Description: fmt.Sprintf("A transfer of the seeded certified parcel %s to a new owner, naming the sandbox notary %s. "+
				"A parcel is transferred once at a time: reset the sandbox to run it again.", s.Parcels.Certified, NotaryCertifies),
			Request: ScenarioRequest{
				Method: "POST", Path: "/v1/parcels/" + s.Parcels.Certified + "/transfer", Headers: map[string]string{"Authorization": AuthAccount},
				Body: map[string]any{
					"newOwner": map[string]any{"fullName": "Sandbox Buyer", "id_doc": "SBX-ID-0003"},
					"notary":   NotaryCertifies,
				},
			},
			Expected: Expectation{Status: 202, Outcome: "status COMPLETED at once: the parcel is re-certified to the new owner (version 2)"},
		},
		{
			ID: "parcels.certify_pending", Family: FamilyParcels, Name: "Notary certifies the pending parcel",
			Description: fmt.Sprintf("The seeded pending parcel %s names %s, which never answers on its own; its notary certifies it "+
				"by hand, as on the dashboard.", s.Parcels.Pending, NotarySilent),
			Request: ScenarioRequest{
				Method: "POST", Path: "/v1/parcels/" + s.Parcels.Pending + "/certify", Headers: map[string]string{"Authorization": AuthNotary},
			},
			Expected: Expectation{Status: 200, Outcome: "status CERTIFIED, version 1, with its certificate hash"},
		},
		{
			ID: "parcels.approve_open_transfer", Family: FamilyParcels, Name: "Notary approves the open transfer",
			Description: fmt.Sprintf("The seeded open transfer %s (of parcel %s) waits for %s; its notary approves it by hand.",
				s.Transfers.Open, s.Parcels.WithOpenTransfer, NotarySilent),
			Request: ScenarioRequest{
				Method: "POST", Path: "/v1/transfers/" + s.Transfers.Open + "/approve", Headers: map[string]string{"Authorization": AuthNotary},
			},
			Expected: Expectation{Status: 200, Outcome: "status COMPLETED: the parcel now belongs to the new owner (id_doc ending 0002)"},
		},
	}, separationScenarios(s)...)
}

// separationScenarios are the refusals of SPEC S13's four eyes: no principal both
// asks for a decision on land and takes it.
func separationScenarios(s Seeded) []Scenario {
	walletOwned := s.WalletOwnedParcel.ID
	const why = "403 forbidden with meta.reason separation_of_duties"
	return []Scenario{
		{
			ID: "parcels.notary_requests_transfer", Family: FamilyParcels, Name: "A notary asks for a transfer",
			Description: fmt.Sprintf("Notary %s, which certified the seeded wallet-owned parcel %s, asks to transfer it. "+
				"A notary decides on transfers and never asks for one: the parcel's account does.", NotaryCertifies, walletOwned),
			Request: ScenarioRequest{
				Method: "POST", Path: "/v1/parcels/" + walletOwned + "/transfer", Headers: map[string]string{"Authorization": AuthNotaryCertifies},
				Body: map[string]any{
					"newOwner": map[string]any{"fullName": "Sandbox Buyer", "id_doc": "SBX-ID-0006"},
					"notary":   NotaryCertifies,
				},
			},
			Expected: Expectation{Status: 403, Code: "forbidden", Outcome: why + ": no transfer is opened"},
		},
		{
			ID: "parcels.requester_approves", Family: FamilyParcels, Name: "The requester approves its own transfer",
			Description: "An admin key that asked for a transfer tries to approve it too. Whoever asked for a transfer " +
				"never approves it, admins included: the named notary (or another admin) must.",
			Prerequisites: fmt.Sprintf("With the same admin key, request a transfer of the seeded certified parcel %s naming %s "+
				"(POST /v1/parcels/%s/transfer {\"newOwner\":{\"fullName\":\"Sandbox Buyer\",\"id_doc\":\"SBX-ID-0007\"},\"notary\":\"%s\"}): "+
				"its owner has no wallet, so it waits for the notary at once. %s is its id.",
				s.Parcels.Certified, NotarySilent, s.Parcels.Certified, NotarySilent, PathTransferID),
			Request: ScenarioRequest{
				Method: "POST", Path: "/v1/transfers/" + PathTransferID + "/approve", Headers: map[string]string{"Authorization": AuthAdmin},
			},
			Expected: Expectation{Status: 403, Code: "forbidden", Outcome: why + ": the transfer stays PENDING_NOTARY"},
		},
		{
			ID: "parcels.creator_certifies", Family: FamilyParcels, Name: "The creator certifies its own parcel",
			Description: "An admin key that created a certification request tries to certify it too. Whoever asked for a " +
				"certification never grants it, admins included.",
			Prerequisites: fmt.Sprintf("With the same admin key, create a parcel naming %s, as in parcels.pending; %s is its id.",
				NotarySilent, PathParcelID),
			Request: ScenarioRequest{
				Method: "POST", Path: "/v1/parcels/" + PathParcelID + "/certify", Headers: map[string]string{"Authorization": AuthAdmin},
			},
			Expected: Expectation{Status: 403, Code: "forbidden", Outcome: why + ": the parcel stays PENDING_NOTARY"},
		},
	}
}

// ownerScenarios are SPEC S13's: a transfer of the seeded wallet-owned parcel waits
// for its owner, who signs with the seeded holder's key.
func ownerScenarios(origin string, s Seeded) []Scenario {
	wp := s.WalletOwnedParcel
	request := func(notary, idDoc string, expires int) ScenarioRequest {
		body := map[string]any{
			"newOwner": map[string]any{"fullName": "Sandbox Buyer", "id_doc": idDoc},
			"notary":   notary,
		}
		if expires > 0 {
			body["expiresInSeconds"] = expires
		}
		return ScenarioRequest{
			Method: "POST", Path: "/v1/parcels/" + wp.ID + "/transfer", Headers: map[string]string{"Authorization": AuthAccount}, Body: body,
		}
	}
	requested := func(notary string) string {
		return fmt.Sprintf("Request a transfer of the seeded wallet-owned parcel %s as in owners.transfer_requested, naming notary %s; "+
			"%s is its id.", wp.ID, notary, PathTransferID)
	}
	const holderKey = "the seeded holder's privateKey"
	sign := func(decision, key string) string {
		return fmt.Sprintf(" Take the transfer's ownerConsent.typedData (GET /v1/transfers/%s/owner-consent serves the same), add "+
			"\"decision\": \"%s\" to its message, and sign it with eth_signTypedData_v4 (EIP-712 domain Land Transfer, version 1) "+
			"using %s. A person does the same with a wallet on the owner's page, ownerConsent.url "+
			"(%s/v1/transfers/%s/owner-consent).", PathTransferID, decision, key, origin, PathTransferID)
	}
	decide := func(id, name, description, prerequisites, decision string, exp Expectation) Scenario {
		return Scenario{
			ID: "owners." + id, Family: FamilyOwners, Name: name, Description: description, Prerequisites: prerequisites,
			Request: ScenarioRequest{
				Method: "POST", Path: "/v1/transfers/" + PathTransferID + "/owner-consent",
				Body: map[string]any{
					"decision":       decision,
					"ownerSignature": "<0x… EIP-712 TransferConsent signature of the decision>",
					"ownerAddress":   wp.OwnerWallet,
				},
			},
			Expected: exp,
		}
	}
	once := " A parcel has one open transfer at a time: after a scenario that leaves one open, reset the sandbox (or cancel it " +
		"with POST /v1/transfers/{id}/cancel) to run another."
	return []Scenario{
		{
			ID: "owners.my_parcels", Family: FamilyOwners, Name: "The owner lists its parcels",
			Description: fmt.Sprintf("The seeded holder, signed in with its wallet, lists the parcels whose owner's bound wallet is its own: "+
				"the seeded wallet-owned parcel %s, in every account of the environment.", wp.ID),
			Prerequisites: "Sign in as the seeded holder (POST /auth/siwe, environment SANDBOX) with its privateKey.",
			Request: ScenarioRequest{
				Method: "GET", Path: "/v1/me/parcels", Headers: map[string]string{"Authorization": AuthHolder},
			},
			Expected: Expectation{Status: 200, Outcome: fmt.Sprintf("parcel %s, status CERTIFIED, owner binding %s with the holder's DID, and no owner name; "+
				"a transfer waiting for the owner's signature shows as openTransfer, with its page in links.ownerConsent", wp.ID, wp.Binding)},
		},
		{
			ID: "owners.transfer_requested", Family: FamilyOwners, Name: "A transfer waits for the owner's signature",
			Description: fmt.Sprintf("The account asks to transfer the seeded wallet-owned parcel %s, whose owner holds the wallet %s: "+
				"the owner must sign before any notary decides, even %s, which approves at once otherwise.", wp.ID, wp.OwnerWallet, NotaryCertifies) + once,
			Request: request(NotaryCertifies, "SBX-ID-0004", 0),
			Expected: Expectation{Status: 202, Outcome: "status PENDING_OWNER, with ownerConsent {method OWNER_SIGNATURE, url (the owner's page), " +
				"typedData (the TransferConsent to sign, without its decision), deadline 7 days later, ownerWallet}"},
		},
		decide("approve", "The owner approves: the sandbox notary completes it",
			fmt.Sprintf("The owner signs APPROVED with the wallet bound to parcel %s; %s then approves at once.", wp.ID, NotaryCertifies),
			requested(NotaryCertifies)+sign("APPROVED", holderKey), "APPROVED",
			Expectation{Status: 200, Outcome: "status COMPLETED at once: the owner's signature moves the transfer to PENDING_NOTARY and " +
				NotaryCertifies + " approves it in the same step; ownerConsent keeps decision APPROVED, the signer and the signature, and the " +
				"parcel is re-certified to the new owner (version 2), so it leaves the holder's GET /v1/me/parcels"}),
		decide("approve_notary_waits", "The owner approves: the notary decides next",
			fmt.Sprintf("The owner signs APPROVED; the named notary %s never answers on its own, so the transfer now waits for it.", NotarySilent),
			requested(NotarySilent)+sign("APPROVED", holderKey), "APPROVED",
			Expectation{Status: 200, Outcome: "status PENDING_NOTARY with ownerConsent.decision APPROVED: notary " + NotarySilent +
				" (or an admin who did not request it) approves or rejects it next, as in parcels.approve_open_transfer"}),
		decide("reject", "The owner refuses",
			fmt.Sprintf("The owner signs REJECTED with the wallet bound to parcel %s: no notary can complete the transfer any more.", wp.ID),
			requested(NotaryCertifies)+sign("REJECTED", holderKey), "REJECTED",
			Expectation{Status: 200, Outcome: "status REJECTED with rejectedBy OWNER and ownerConsent.decision REJECTED; the parcel stays the owner's " +
				"and is free for another transfer"}),
		decide("wrong_signer", "Signed by another wallet",
			"A signature by any wallet other than the owner's bound one is refused, as is one over another message (a changed notary, "+
				"new owner or deadline) or a high-s signature.",
			requested(NotaryCertifies)+sign("APPROVED", "any other key than "+holderKey+" (ownerAddress stays the owner's wallet)"), "APPROVED",
			Expectation{Status: 422, Code: "invalid_signature", Outcome: "422 invalid_signature at /ownerSignature: the signature recovers to " +
				"another wallet than the owner's; nothing changes, the transfer stays PENDING_OWNER"}),
		{
			ID: "owners.approve_before_owner", Family: FamilyOwners, Name: "The notary approves before the owner signed",
			Description:   "A notary's approval comes after the owner's signature, never instead of it.",
			Prerequisites: requested(NotarySilent),
			Request: ScenarioRequest{
				Method: "POST", Path: "/v1/transfers/" + PathTransferID + "/approve", Headers: map[string]string{"Authorization": AuthNotary},
			},
			Expected: Expectation{Status: 409, Code: "invalid_state", Outcome: "409 invalid_state with meta.status PENDING_OWNER: nothing changes " +
				"until the owner signs"},
		},
		{
			ID: "owners.deadline", Family: FamilyOwners, Name: "The owner never answers",
			Description: fmt.Sprintf("A transfer of parcel %s with the shortest owner's deadline, 60 seconds (expiresInSeconds "+
				"%d..%d, default %d).", wp.ID, parcel.MinOwnerDeadline, parcel.MaxOwnerDeadline, parcel.DefaultOwnerDeadline) + once,
			Request: request(NotaryCertifies, "SBX-ID-0005", parcel.MinOwnerDeadline),
			Expected: Expectation{Status: 202, Outcome: "status PENDING_OWNER with ownerConsent.deadline 60 s later; once it passes, the sweeper " +
				"makes the transfer EXPIRED (decidedAt is the deadline) and the audit log records transfer.expired, with the signed webhook " +
				"transfer.expired to the parcel's callbackUrl when it has one (the seeded parcel has none); an owner's signature that " +
				"comes later is refused with 409 invalid_state"},
		},
	}
}

func webhookScenarios(s Seeded) []Scenario {
	request := func(id, name, path, description, outcome string) Scenario {
		return Scenario{
			ID: "webhooks." + id, Family: FamilyWebhooks, Name: name, Description: description,
			Prerequisites: "Once created, have the seeded holder approve it as in consent.approve (on this request's id); " +
				"the outbox then delivers verification.approved to the callbackUrl. Watch it with GET /v1/webhooks/deliveries.",
			Request: ScenarioRequest{
				Method: "POST", Path: "/verify/request", Headers: map[string]string{"Authorization": AuthVerifier},
				Body: map[string]any{"subjectRef": s.Holder.DID, "scope": []string{"is_adult", "nationality"},
					"reason": "Sandbox: webhook " + path, "callbackUrl": "https://hooks.example.com/veriland" + path},
			},
			Expected: Expectation{Status: 201, Outcome: outcome},
		}
	}
	return []Scenario{
		request("fail", "Callback answered 500", webhook.SandboxFailPath,
			"In SANDBOX a callbackUrl whose path ends in /fail is answered by the sandbox test receiver, without any network call.",
			fmt.Sprintf("status PENDING; every delivery attempt is recorded with statusCode 500 and error %q, retried on the schedule "+
				"(0 s, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h) and FAILED 24 h after the first", webhook.SandboxFailError)),
		request("timeout", "Callback times out", webhook.SandboxTimeoutPath,
			"In SANDBOX a callbackUrl whose path ends in /timeout is answered as a receiver that never answers, without any network call or wait.",
			fmt.Sprintf("status PENDING; every delivery attempt is recorded with no statusCode, latencyMs %d and error %q, retried on the "+
				"schedule and FAILED 24 h after the first", webhook.DeliveryTimeout.Milliseconds(), webhook.SandboxTimeoutError)),
	}
}

func rateLimitScenarios() []Scenario {
	p := ratelimit.WalletPolicy()
	interval := p.Window / time.Duration(p.Limit)
	retry := int(math.Ceil(interval.Seconds()))
	k := ratelimit.KeyPolicy()
	return []Scenario{{
		ID: "ratelimit.wallet", Family: FamilyRateLimit, Name: "Per-wallet rate limit",
		Description: fmt.Sprintf("Holders (and other tokens that carry a wallet) are limited per wallet: %d a minute, burst %d "+
			"(RateLimit-Policy: \"%s\";q=%d;w=%d). Sandbox quotas are unlimited except this limit.",
			p.Limit, p.Burst, p.Name, p.Limit, int(p.Window.Seconds())),
		Prerequisites: fmt.Sprintf("Send %d requests with the same token within a moment (the burst), then this one.", p.Burst),
		Request: ScenarioRequest{
			Method: "GET", Path: "/v1/parcels", Headers: map[string]string{"Authorization": AuthHolder},
		},
		Expected: Expectation{Status: 429, Code: "rate_limited",
			Outcome: fmt.Sprintf("429 rate_limited with Retry-After: %d (one request is allowed again every %s) and RateLimit headers", retry, interval)},
	}, {
		ID: "ratelimit.key", Family: FamilyRateLimit, Name: "Per-key rate limit",
		Description: fmt.Sprintf("API keys and other tokens without a wallet (verifiers, notaries, admins) are limited per key, "+
			"like a server-to-server API: %d a second, burst %d (RateLimit-Policy: \"%s\";q=%d;w=%d).",
			k.Limit, k.Burst, k.Name, k.Limit, int(k.Window.Seconds())),
		Prerequisites: fmt.Sprintf("Send %d requests with the same API key within a moment (the burst), then this one.", k.Burst),
		Request: ScenarioRequest{
			Method: "GET", Path: "/v1/parcels", Headers: map[string]string{"Authorization": AuthAccount},
		},
		Expected: Expectation{Status: 429, Code: "rate_limited",
			Outcome: fmt.Sprintf("429 rate_limited with Retry-After: 1 (one request is allowed again every %s) and RateLimit headers", k.Window/time.Duration(k.Limit))},
	}}
}
