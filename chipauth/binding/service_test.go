package binding_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/chipauth"
	"github.com/veriland/veriland/chipauth/binding"
	"github.com/veriland/veriland/chipauth/sandbox"
	"github.com/veriland/veriland/liveness"
	"github.com/veriland/veriland/storage"
)

var ctx = context.Background()

func TestBindPAOnly(t *testing.T) {
	f := newFixture(t, sandbox.P256)
	doc := f.issueDocument(t, f.ds, mrzFields(docNumber))
	live := f.liveness(t, veriland.Sandbox, holderA, "L2")

	res, err := f.svc.Bind(ctx, veriland.Sandbox, holder(holderA, veriland.Sandbox), doc.request(live))
	require.NoError(t, err)
	assert.Equal(t, binding.StatusVerified, res.Status)
	assert.Equal(t, binding.ModePAOnly, res.Mode)

	att := res.Attestation
	assert.Equal(t, attestation.KindChipBinding, att.Kind)
	assert.Equal(t, holderA, att.Subject)
	assert.Empty(t, att.Verifier)
	assert.Equal(t, []string{binding.ScopeChipBinding}, att.Scope)
	assert.Equal(t, sha256.Sum256(doc.sod), [32]byte(att.EvidenceHash))
	require.NotNil(t, att.ExpiresAt)
	assert.Equal(t, f.clock.Now().Add(binding.DefaultBindingValidity), *att.ExpiresAt)
	require.NoError(t, attestation.Verify(att, attestation.VerifyOptions{
		TrustedIssuers: []common.Address{f.atts.Issuer.Address()}, Now: f.clock.Now(),
	}))

	claims, err := binding.ClaimsOf(att)
	require.NoError(t, err)
	assert.Equal(t, binding.Claims{
		Mode: binding.ModePAOnly, IssuingState: "UTO", DocumentType: "P",
		DSCertificateFingerprint: fingerprint(f.ds.DER), DigestAlgorithm: "SHA-256",
		SignatureAlgorithm: "ECDSA-SHA-256", LivenessAttestationID: live,
	}, claims)
	assert.Contains(t, string(att.Claims), `"faceScore":null`)

	ev := f.lastEvent()
	assert.Equal(t, binding.Event{Env: veriland.Sandbox, Action: binding.ActionBound, Holder: holderA,
		AttestationID: att.ID, Mode: binding.ModePAOnly, At: f.clock.Now()}, ev)

	list, err := f.svc.ListBindings(ctx, veriland.Sandbox, holder(holderA, veriland.Sandbox))
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, att.ID, list[0].ID)
}

func TestBindPAFace(t *testing.T) {
	f := newFixture(t, sandbox.P256)
	doc := f.issueDocument(t, f.ds, mrzFields(docNumber))
	live := f.liveness(t, veriland.Sandbox, holderA, "L2")
	req := doc.request(live)
	req.LiveFaceTemplate = binding.EncodeTemplate(template(512, 0))
	req.ChipFaceTemplate = binding.EncodeTemplate(template(512, 0.05)) // the same face, seen again

	res, err := f.svc.Bind(ctx, veriland.Sandbox, holder(holderA, veriland.Sandbox), req)
	require.NoError(t, err)
	assert.Equal(t, binding.ModePAFace, res.Mode)
	claims, err := binding.ClaimsOf(res.Attestation)
	require.NoError(t, err)
	require.NotNil(t, claims.FaceScore)
	assert.Greater(t, *claims.FaceScore, 0.99)
	assert.LessOrEqual(t, *claims.FaceScore, 1.0)
	assert.Equal(t, binding.ModePAFace, claims.Mode)
}

func TestBindOneTemplateIsPAOnly(t *testing.T) {
	f := newFixture(t, sandbox.P256)
	doc := f.issueDocument(t, f.ds, mrzFields(docNumber))
	req := doc.request(f.liveness(t, veriland.Sandbox, holderA, "L2"))
	req.LiveFaceTemplate = binding.EncodeTemplate(template(128, 0))
	res, err := f.svc.Bind(ctx, veriland.Sandbox, holder(holderA, veriland.Sandbox), req)
	require.NoError(t, err)
	assert.Equal(t, binding.ModePAOnly, res.Mode)
}

func TestBindFaceMismatch(t *testing.T) {
	f := newFixture(t, sandbox.P256)
	doc := f.issueDocument(t, f.ds, mrzFields(docNumber))
	live := f.liveness(t, veriland.Sandbox, holderA, "L2")
	req := doc.request(live)
	req.LiveFaceTemplate = binding.EncodeTemplate(template(256, 0))
	req.ChipFaceTemplate = binding.EncodeTemplate(template(256, 1.2)) // another face: cos(1.2) ≈ 0.36

	_, err := f.svc.Bind(ctx, veriland.Sandbox, holder(holderA, veriland.Sandbox), req)
	ve := requireCode(t, err, veriland.CodeFaceMismatch)
	score, ok := ve.Meta["score"].(float64)
	require.True(t, ok, "meta %v", ve.Meta)
	assert.Less(t, score, binding.DefaultFaceThreshold)
	assert.Equal(t, binding.DefaultFaceThreshold, ve.Meta["threshold"])
	assert.Equal(t, binding.Event{Env: veriland.Sandbox, Action: binding.ActionRejected, Holder: holderA,
		Code: veriland.CodeFaceMismatch, At: f.clock.Now()}, f.lastEvent())

	// Nothing was bound: the document is still free for the same holder.
	list, err := f.svc.ListBindings(ctx, veriland.Sandbox, holder(holderA, veriland.Sandbox))
	require.NoError(t, err)
	assert.Empty(t, list)
	_, err = f.svc.Bind(ctx, veriland.Sandbox, holder(holderA, veriland.Sandbox), doc.request(live))
	require.NoError(t, err)

	// A lower threshold accepts the same pair.
	require.Greater(t, score, 0.3)
	f.svc.FaceThreshold = score - 0.01
	res, err := f.svc.Bind(ctx, veriland.Sandbox, holder(holderA, veriland.Sandbox), req)
	require.NoError(t, err)
	claims, err := binding.ClaimsOf(res.Attestation)
	require.NoError(t, err)
	assert.Equal(t, score, *claims.FaceScore)
}

func TestBindTemplateDimensionMismatch(t *testing.T) {
	f := newFixture(t, sandbox.P256)
	doc := f.issueDocument(t, f.ds, mrzFields(docNumber))
	req := doc.request(f.liveness(t, veriland.Sandbox, holderA, "L2"))
	req.LiveFaceTemplate = binding.EncodeTemplate(template(128, 0))
	req.ChipFaceTemplate = binding.EncodeTemplate(template(256, 0))
	_, err := f.svc.Bind(ctx, veriland.Sandbox, holder(holderA, veriland.Sandbox), req)
	ve := requireCode(t, err, veriland.CodeValidationFailed)
	assert.Equal(t, "/chipFaceTemplate", ve.Pointer)
}

func TestBindDocumentAlreadyBound(t *testing.T) {
	f := newFixture(t, sandbox.P256)
	doc := f.issueDocument(t, f.ds, mrzFields(docNumber))
	liveA := f.liveness(t, veriland.Sandbox, holderA, "L2")
	liveB := f.liveness(t, veriland.Sandbox, holderB, "L2")

	first, err := f.svc.Bind(ctx, veriland.Sandbox, holder(holderA, veriland.Sandbox), doc.request(liveA))
	require.NoError(t, err)

	_, err = f.svc.Bind(ctx, veriland.Sandbox, holder(holderB, veriland.Sandbox), doc.request(liveB))
	ve := requireCode(t, err, veriland.CodeDocumentAlreadyBound)
	assert.NotContains(t, ve.Message, holderA)
	assert.Equal(t, binding.ActionRejected, f.lastEvent().Action)

	// The same document signed again (a re-issued SOD) is the same document.
	again := f.issueDocument(t, f.ds, mrzFields(docNumber))
	_, err = f.svc.Bind(ctx, veriland.Sandbox, holder(holderB, veriland.Sandbox), again.request(liveB))
	requireCode(t, err, veriland.CodeDocumentAlreadyBound)

	// The same holder binding it again gets a new attestation; both stay valid.
	second, err := f.svc.Bind(ctx, veriland.Sandbox, holder(holderA, veriland.Sandbox), again.request(liveA))
	require.NoError(t, err)
	assert.NotEqual(t, first.Attestation.ID, second.Attestation.ID)
	ev := f.lastEvent()
	assert.Equal(t, binding.ActionBound, ev.Action)
	assert.True(t, ev.Rebound)
	list, err := f.svc.ListBindings(ctx, veriland.Sandbox, holder(holderA, veriland.Sandbox))
	require.NoError(t, err)
	assert.Len(t, list, 2)

	// Holder B may still bind a document of their own.
	other := f.issueDocument(t, f.ds, mrzFields("Y1234567"))
	_, err = f.svc.Bind(ctx, veriland.Sandbox, holder(holderB, veriland.Sandbox), other.request(liveB))
	require.NoError(t, err)
}

func TestBindConcurrentHoldersOneWins(t *testing.T) {
	f := newFixture(t, sandbox.P256)
	doc := f.issueDocument(t, f.ds, mrzFields(docNumber))
	const n = 8
	subjects, lives := make([]string, n), make([]string, n)
	for i := range n {
		subjects[i] = "did:veriland:CCCCCCCCCCCCCCCCCCCCC" + string(rune('a'+i))
		lives[i] = f.liveness(t, veriland.Sandbox, subjects[i], "L2")
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			_, errs[i] = f.svc.Bind(ctx, veriland.Sandbox, holder(subjects[i], veriland.Sandbox), doc.request(lives[i]))
		})
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
		} else {
			requireCode(t, err, veriland.CodeDocumentAlreadyBound)
		}
	}
	assert.Equal(t, 1, ok)
}

func TestBindLivenessRequired(t *testing.T) {
	f := newFixture(t, sandbox.P256)
	doc := f.issueDocument(t, f.ds, mrzFields(docNumber))
	hA := holder(holderA, veriland.Sandbox)

	fresh := f.liveness(t, veriland.Sandbox, holderA, "L2")
	ofB := f.liveness(t, veriland.Sandbox, holderB, "L3")
	inProduction := f.liveness(t, veriland.Production, holderA, "L2")
	revoked := f.liveness(t, veriland.Sandbox, holderA, "L2")
	_, err := f.atts.Revoke(ctx, veriland.Sandbox, revoked, "test", hA)
	require.NoError(t, err)
	var notLiveness string
	require.NoError(t, f.store.Update(ctx, func(tx storage.Tx) error {
		att, err := f.atts.Issue(ctx, tx, veriland.Sandbox, attestation.Draft{Kind: attestation.KindConsent, Subject: holderA, Verifier: "vrf"})
		notLiveness = att.ID
		return err
	}))

	for name, id := range map[string]string{
		"unknown":      "att_aaaaaaaaaaaaaaaaaaaaaaaaaa",
		"other holder": ofB,
		"other env":    inProduction,
		"revoked":      revoked,
		"not LIVENESS": notLiveness,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := f.svc.Bind(ctx, veriland.Sandbox, hA, doc.request(id))
			ve := requireCode(t, err, veriland.CodeLivenessRequired)
			assert.Equal(t, "/livenessAttestationId", ve.Pointer)
			assert.Equal(t, int64(86400), ve.Meta["maxAgeSeconds"])
		})
	}

	f.clock.Advance(24*time.Hour + time.Second)
	_, err = f.svc.Bind(ctx, veriland.Sandbox, hA, doc.request(fresh))
	requireCode(t, err, veriland.CodeLivenessRequired)
	assert.Equal(t, binding.Event{Env: veriland.Sandbox, Action: binding.ActionRejected, Holder: holderA,
		Code: veriland.CodeLivenessRequired, At: f.clock.Now()}, f.lastEvent())

	// A longer window, configured, accepts it.
	f.svc.LivenessMaxAge = 48 * time.Hour
	_, err = f.svc.Bind(ctx, veriland.Sandbox, hA, doc.request(fresh))
	require.NoError(t, err)
}

func TestBindLivenessLevelAndGate(t *testing.T) {
	f := newFixture(t, sandbox.P256)
	doc := f.issueDocument(t, f.ds, mrzFields(docNumber))
	hA := holder(holderA, veriland.Sandbox)
	l2 := f.liveness(t, veriland.Sandbox, holderA, "L2")
	require.Equal(t, liveness.L2, liveness.LevelOf(mustGet(t, f, l2)))

	f.svc.Liveness = &liveness.Gate{Attestations: f.atts, Now: f.clock.Now}
	f.svc.LivenessMinLevel = "L3"
	_, err := f.svc.Bind(ctx, veriland.Sandbox, hA, doc.request(l2))
	ve := requireCode(t, err, veriland.CodeLivenessRequired)
	assert.Equal(t, "L3", ve.Meta["minLevel"])

	f.svc.LivenessMinLevel = "L2"
	_, err = f.svc.Bind(ctx, veriland.Sandbox, hA, doc.request(l2))
	require.NoError(t, err)

	// The gate's own refusal is passed on.
	f.svc.Liveness = binding.LivenessGate(gateFunc(func() error {
		return veriland.Errorf(veriland.CodeLivenessRequired, "gate says no")
	}))
	_, err = f.svc.Bind(ctx, veriland.Sandbox, hA, doc.request(l2))
	ve = requireCode(t, err, veriland.CodeLivenessRequired)
	assert.Equal(t, "gate says no", ve.Message)
}

type gateFunc func() error

func (g gateFunc) Check(context.Context, storage.Tx, veriland.Environment, string, string, time.Duration) error {
	return g()
}

func mustGet(t *testing.T, f *fixture, id string) *attestation.Attestation {
	att, err := f.atts.Get(ctx, veriland.Sandbox, id)
	require.NoError(t, err)
	return att
}

func TestBindAlteredDG1(t *testing.T) {
	f := newFixture(t, sandbox.P256)
	doc := f.issueDocument(t, f.ds, mrzFields(docNumber))
	forged, err := sandbox.BuildDG1(mrzFields("Z9999999"))
	require.NoError(t, err)
	doc.dg1 = forged
	_, err = f.svc.Bind(ctx, veriland.Sandbox, holder(holderA, veriland.Sandbox),
		doc.request(f.liveness(t, veriland.Sandbox, holderA, "L2")))
	ve := requireCode(t, err, veriland.CodePassiveAuthFailed)
	assert.Equal(t, "digest_mismatch:DG1", ve.Meta["step"])
	assert.ErrorIs(t, err, chipauth.DigestMismatch(1))
	assert.Equal(t, binding.Event{Env: veriland.Sandbox, Action: binding.ActionRejected, Holder: holderA,
		Code: veriland.CodePassiveAuthFailed, Step: "digest_mismatch:DG1", At: f.clock.Now()}, f.lastEvent())
}

func TestBindUntrustedCSCA(t *testing.T) {
	f := newFixture(t, sandbox.P256)
	rogue, err := sandbox.NewTestCSCA(sandbox.P256, sandbox.CertOptions{Now: f.clock.Now})
	require.NoError(t, err)
	rogueDS, err := rogue.NewDS(sandbox.P256, sandbox.CertOptions{Now: f.clock.Now})
	require.NoError(t, err)
	doc := f.issueDocument(t, rogueDS, mrzFields(docNumber))
	_, err = f.svc.Bind(ctx, veriland.Sandbox, holder(holderA, veriland.Sandbox),
		doc.request(f.liveness(t, veriland.Sandbox, holderA, "L2")))
	ve := requireCode(t, err, veriland.CodePassiveAuthFailed)
	assert.Equal(t, "csca_not_found", ve.Meta["step"])
	assert.ErrorIs(t, err, chipauth.ErrCSCANotFound)

	// An environment without a trust store trusts nothing.
	f.svc.Trust = func(veriland.Environment) *chipauth.TrustStore { return nil }
	good := f.issueDocument(t, f.ds, mrzFields(docNumber))
	_, err = f.svc.Bind(ctx, veriland.Sandbox, holder(holderA, veriland.Sandbox),
		good.request(f.liveness(t, veriland.Sandbox, holderA, "L2")))
	assert.ErrorIs(t, err, chipauth.ErrCSCANotFound)
}

func TestBindExpiredDocument(t *testing.T) {
	f := newFixture(t, sandbox.P256)
	fields := mrzFields(docNumber)
	fields.Expiry = f.clock.Now().AddDate(0, 0, -2)
	doc := f.issueDocument(t, f.ds, fields)
	live := f.liveness(t, veriland.Sandbox, holderA, "L2")
	_, err := f.svc.Bind(ctx, veriland.Sandbox, holder(holderA, veriland.Sandbox), doc.request(live))
	ve := requireCode(t, err, veriland.CodePassiveAuthFailed)
	assert.Equal(t, binding.StepDocumentExpired, ve.Meta["step"])

	f.svc.AllowExpiredDocuments = true
	_, err = f.svc.Bind(ctx, veriland.Sandbox, holder(holderA, veriland.Sandbox), doc.request(live))
	require.NoError(t, err)
}

func TestBindRSADocument(t *testing.T) {
	f := newFixture(t, sandbox.RSA2048)
	doc := f.issueDocument(t, f.ds, mrzFields(docNumber))
	res, err := f.svc.Bind(ctx, veriland.Sandbox, holder(holderA, veriland.Sandbox),
		doc.request(f.liveness(t, veriland.Sandbox, holderA, "L1")))
	require.NoError(t, err)
	claims, err := binding.ClaimsOf(res.Attestation)
	require.NoError(t, err)
	assert.Equal(t, "RSA-PKCS1v15-SHA-256", claims.SignatureAlgorithm)
}

func TestEnvironmentIsolation(t *testing.T) {
	f := newFixture(t, sandbox.P256)
	doc := f.issueDocument(t, f.ds, mrzFields(docNumber))
	sbA, prodB := holder(holderA, veriland.Sandbox), holder(holderB, veriland.Production)

	_, err := f.svc.Bind(ctx, veriland.Sandbox, sbA, doc.request(f.liveness(t, veriland.Sandbox, holderA, "L2")))
	require.NoError(t, err)
	// The same document binds another identity in the other environment.
	_, err = f.svc.Bind(ctx, veriland.Production, prodB, doc.request(f.liveness(t, veriland.Production, holderB, "L2")))
	require.NoError(t, err)

	list, err := f.svc.ListBindings(ctx, veriland.Production, holder(holderA, veriland.Production))
	require.NoError(t, err)
	assert.Empty(t, list)
	list, err = f.svc.ListBindings(ctx, veriland.Sandbox, holder(holderB, veriland.Sandbox))
	require.NoError(t, err)
	assert.Empty(t, list)

	// A token of one environment cannot act in the other.
	_, err = f.svc.Bind(ctx, veriland.Production, sbA, doc.request(f.liveness(t, veriland.Production, holderA, "L2")))
	requireCode(t, err, veriland.CodeForbidden)
	_, err = f.svc.ListBindings(ctx, veriland.Sandbox, prodB)
	requireCode(t, err, veriland.CodeForbidden)

	// A SANDBOX-only CSCA does not verify in PRODUCTION.
	f.trust[veriland.Production] = chipauth.NewTrustStore()
	_, err = f.svc.Bind(ctx, veriland.Production, prodB, doc.request(f.liveness(t, veriland.Production, holderB, "L2")))
	assert.ErrorIs(t, err, chipauth.ErrCSCANotFound)
}

func TestListBindingsSkipsRevokedAndExpired(t *testing.T) {
	f := newFixture(t, sandbox.P256)
	hA := holder(holderA, veriland.Sandbox)
	f.svc.BindingValidity = 48 * time.Hour
	live := f.liveness(t, veriland.Sandbox, holderA, "L2")
	r1, err := f.svc.Bind(ctx, veriland.Sandbox, hA, f.issueDocument(t, f.ds, mrzFields(docNumber)).request(live))
	require.NoError(t, err)
	r2, err := f.svc.Bind(ctx, veriland.Sandbox, hA, f.issueDocument(t, f.ds, mrzFields("Y1234567")).request(live))
	require.NoError(t, err)
	_, err = f.atts.Revoke(ctx, veriland.Sandbox, r1.Attestation.ID, "", hA)
	require.NoError(t, err)

	list, err := f.svc.ListBindings(ctx, veriland.Sandbox, hA)
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, r2.Attestation.ID, list[0].ID)

	f.clock.Advance(48 * time.Hour)
	list, err = f.svc.ListBindings(ctx, veriland.Sandbox, hA)
	require.NoError(t, err)
	assert.NotNil(t, list)
	assert.Empty(t, list)
}

func TestOnEventErrorRollsBack(t *testing.T) {
	f := newFixture(t, sandbox.P256)
	boom := errors.New("audit down")
	f.svc.OnEvent = func(context.Context, storage.Tx, binding.Event) error { return boom }
	doc := f.issueDocument(t, f.ds, mrzFields(docNumber))
	liveA := f.liveness(t, veriland.Sandbox, holderA, "L2")
	_, err := f.svc.Bind(ctx, veriland.Sandbox, holder(holderA, veriland.Sandbox), doc.request(liveA))
	require.ErrorIs(t, err, boom)

	// Nothing committed: no attestation, and the document is free for holder B.
	all, err := f.atts.ListBySubject(ctx, veriland.Sandbox, holderA, attestation.KindChipBinding)
	require.NoError(t, err)
	assert.Empty(t, all)
	f.svc.OnEvent = nil
	_, err = f.svc.Bind(ctx, veriland.Sandbox, holder(holderB, veriland.Sandbox),
		doc.request(f.liveness(t, veriland.Sandbox, holderB, "L2")))
	require.NoError(t, err)
}

func TestBindCallerAndConfiguration(t *testing.T) {
	f := newFixture(t, sandbox.P256)
	doc := f.issueDocument(t, f.ds, mrzFields(docNumber))
	req := doc.request(f.liveness(t, veriland.Sandbox, holderA, "L2"))

	_, err := f.svc.Bind(ctx, veriland.Sandbox, veriland.Principal{Role: veriland.RoleHolder}, req)
	requireCode(t, err, veriland.CodeUnauthenticated)
	_, err = f.svc.Bind(ctx, veriland.Sandbox, veriland.Principal{Subject: "vrf_1", Role: veriland.RoleVerifier}, req)
	requireCode(t, err, veriland.CodeForbidden)

	bad := *f.svc
	bad.Pepper = []byte("short")
	_, err = bad.Bind(ctx, veriland.Sandbox, holder(holderA, veriland.Sandbox), req)
	require.Error(t, err)
	assert.Equal(t, veriland.CodeInternal, veriland.CodeOf(err))
	_, err = f.svc.Bind(ctx, "STAGING", holder(holderA, ""), req)
	assert.Equal(t, veriland.CodeInternal, veriland.CodeOf(err))
}

func TestBindValidationErrorsHavePointers(t *testing.T) {
	f := newFixture(t, sandbox.P256)
	_, err := f.svc.Bind(ctx, veriland.Sandbox, holder(holderA, veriland.Sandbox), binding.Request{
		SODBase64: "not base64!",
		DataGroups: []binding.DataGroup{{Number: 2, ContentBase64: base64.StdEncoding.EncodeToString(dg2)},
			{Number: 17, ContentBase64: "AA=="}},
	})
	var list veriland.Errors
	require.ErrorAs(t, err, &list)
	var pointers []string
	for _, e := range list {
		assert.Equal(t, veriland.CodeValidationFailed, e.Code)
		pointers = append(pointers, e.Pointer)
	}
	assert.Equal(t, []string{"/sodBase64", "/dataGroups/1/number", "/dataGroups", "/livenessAttestationId"}, pointers)
	assert.Empty(t, f.events, "malformed requests are not reported")
}

func fingerprint(der []byte) string {
	sum := sha256.Sum256(der)
	return hex.EncodeToString(sum[:])
}
