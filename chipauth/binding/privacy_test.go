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
)

// TestStorageHoldsNoDocumentData binds a document (and fails to bind it for a
// second identity), closes the store and scans every byte of the bbolt file: the
// document number, the MRZ lines, the DG1 file, the SOD, DG2 and the face templates
// must not be there in any form a reader could search for.
func TestStorageHoldsNoDocumentData(t *testing.T) {
	f := newFixture(t, sandbox.P256)
	fields := mrzFields(docNumber)
	doc := f.issueDocument(t, f.ds, fields)
	req := doc.request(f.liveness(t, veriland.Sandbox, holderA, "L2"))
	face, chip := template(128, 0), template(128, 0.01)
	req.FaceTemplate, req.ChipFaceTemplate = binding.EncodeTemplate(face), binding.EncodeTemplate(chip)
	_, err := f.svc.Bind(ctx, veriland.Sandbox, holder(holderA, veriland.Sandbox), req)
	require.NoError(t, err)
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
	faceBytes, _ := base64.StdEncoding.DecodeString(req.FaceTemplate)
	chipBytes, _ := base64.StdEncoding.DecodeString(req.ChipFaceTemplate)
	forbidden := map[string][]byte{
		"document number":       []byte(docNumber),
		"full MRZ":              []byte(mrz),
		"MRZ line 1":            []byte(mrz[:44]),
		"MRZ line 2":            []byte(mrz[44:]),
		"surname":               []byte("ERIKSSON"),
		"birth date":            []byte("740812"),
		"DG1":                   doc.dg1,
		"SOD":                   doc.sod,
		"SOD (base64)":          []byte(req.SOD),
		"face template":         faceBytes[:64],
		"chip face template":    chipBytes[:64],
		"face template (b64)":   []byte(req.FaceTemplate[:64]),
		"document number (b64)": []byte(base64.StdEncoding.EncodeToString([]byte(docNumber))[:8]),
	}
	for what, b := range forbidden {
		require.Falsef(t, bytes.Contains(raw, b), "the bbolt file holds the %s", what)
	}
}
