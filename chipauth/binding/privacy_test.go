package binding_test

import (
	"bytes"
	"encoding/base64"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/chipauth/binding"
	"github.com/veriland/veriland/chipauth/sandbox"
	"github.com/veriland/veriland/identity"
)

// TestStorageHoldsNoDocumentData binds a document (and fails to bind it for a
// second identity), closes the store and scans every byte of the bbolt file: the
// document number, the MRZ lines, the names, the date of birth, the DG1 file, the
// SOD, DG2 and the face templates must not be there in any form a reader could
// search for.
func TestStorageHoldsNoDocumentData(t *testing.T) {
	f := newFixture(t, sandbox.P256)
	// The holder has an identity, so the claims derived from DG1 are stored too.
	ids := &identity.Service{Store: f.store, Pepper: testPepper, KYC: identity.SandboxKYC{Now: f.clock.Now}, Now: f.clock.Now}
	f.svc.Identities = ids
	issued, err := ids.Issue(ctx, veriland.Sandbox, identity.IssueRequest{SubjectRef: "privacy-holder"})
	require.NoError(t, err)
	holderA := issued.DID
	fields := mrzFields(docNumber)
	doc := f.issueDocument(t, f.ds, fields)
	req := doc.request(f.liveness(t, veriland.Sandbox, holderA, "L2"))
	face, chip := template(128, 0), template(128, 0.01)
	req.LiveFaceTemplate, req.ChipFaceTemplate = binding.EncodeTemplate(face), binding.EncodeTemplate(chip)
	_, err = f.svc.Bind(ctx, veriland.Sandbox, holder(holderA, veriland.Sandbox), req)
	require.NoError(t, err)
	id, err := ids.Get(ctx, veriland.Sandbox, holderA)
	require.NoError(t, err)
	require.Equal(t, true, id.Claims["chip_bound"], "the claims were stored")
	_, err = f.svc.Bind(ctx, veriland.Sandbox, holder(holderB, veriland.Sandbox),
		doc.request(f.liveness(t, veriland.Sandbox, holderB, "L2")))
	requireCode(t, err, veriland.CodeDocumentAlreadyBound)
	require.NoError(t, f.store.Close())

	raw, err := os.ReadFile(f.path)
	require.NoError(t, err)
	// The scan sees plain records: the holder's DID is there.
	require.True(t, bytes.Contains(raw, []byte(holderA)), "the scan cannot see records")
	mrz, err := sandbox.BuildMRZ(fields)
	require.NoError(t, err)
	faceBytes, _ := base64.StdEncoding.DecodeString(req.LiveFaceTemplate)
	chipBytes, _ := base64.StdEncoding.DecodeString(req.ChipFaceTemplate)
	forbidden := map[string][]byte{
		"document number":       []byte(docNumber),
		"full MRZ":              []byte(mrz),
		"MRZ line 1":            []byte(mrz[:44]),
		"MRZ line 2":            []byte(mrz[44:]),
		"surname":               []byte("ERIKSSON"),
		"birth date":            []byte("740812"),
		"birth date (ISO)":      []byte("1974-08-12"),
		"birth date (digits)":   []byte("19740812"),
		"given names":           []byte("ANNA<MARIA"),
		"DG1":                   doc.dg1,
		"SOD":                   doc.sod,
		"SOD (base64)":          []byte(req.SODBase64),
		"face template":         faceBytes[:64],
		"chip face template":    chipBytes[:64],
		"face template (b64)":   []byte(req.LiveFaceTemplate[:64]),
		"document number (b64)": []byte(base64.StdEncoding.EncodeToString([]byte(docNumber))[:8]),
	}
	for what, b := range forbidden {
		require.Falsef(t, bytes.Contains(raw, b), "the bbolt file holds the %s", what)
	}
}
