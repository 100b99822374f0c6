package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	ethcrypto "github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/attestation"
	"github.com/veriland/veriland/chipauth"
	"github.com/veriland/veriland/chipauth/binding"
	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

const holderDID = "did:veriland:AAAAAAAAAAAAAAAAAAAAAA"

func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// decodeBody decodes the printed body strictly, as the server does.
func decodeBody(t *testing.T, out string) binding.Request {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader([]byte(out)))
	dec.DisallowUnknownFields()
	var req binding.Request
	require.NoError(t, dec.Decode(&req))
	return req
}

func TestNewPairSavedAndVerifiable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pki")
	cscaOut := filepath.Join(t.TempDir(), "csca.pem")
	code, out, errOut := runCmd(t, "-new", "-save", dir, "-csca-out", cscaOut, "-doc-number", "c01x00t47",
		"-nationality", "D", "-sex", "M", "-birth", "1990-02-03", "-digest", "sha384")
	require.Equal(t, 0, code, errOut)
	req := decodeBody(t, out)
	assert.Equal(t, LivenessPlaceholder, req.LivenessAttestationID)
	assert.Empty(t, req.LiveFaceTemplate)
	assert.Equal(t, []int{1, 2}, []int{req.DataGroups[0].Number, req.DataGroups[1].Number})
	err := req.Validate()
	var ve *veriland.Error
	require.ErrorAs(t, err, &ve, "only the placeholder is invalid")
	assert.Equal(t, "/livenessAttestationId", ve.Pointer)

	csca, ds, err := binding.LoadSandboxPKI(dir)
	require.NoError(t, err)
	pem, err := os.ReadFile(cscaOut)
	require.NoError(t, err)
	assert.Equal(t, csca.PEM(), pem)
	trust := chipauth.NewTrustStore()
	_, err = trust.AddCertificates(pem)
	require.NoError(t, err)

	sod, _ := base64.StdEncoding.DecodeString(req.SODBase64)
	dg1, _ := base64.StdEncoding.DecodeString(req.DataGroups[0].ContentBase64)
	dg2, _ := base64.StdEncoding.DecodeString(req.DataGroups[1].ContentBase64)
	res, err := chipauth.Verify(sod, map[int][]byte{1: dg1, 2: dg2}, trust, chipauth.Options{})
	require.NoError(t, err)
	assert.Equal(t, "SHA-384", res.DigestAlgorithm)
	assert.Equal(t, "UTO", res.IssuingState)
	assert.Equal(t, []int{1, 2}, res.DataGroupsVerified)
	assert.Contains(t, string(dg1), "C01X00T47")
	assert.Contains(t, string(dg1), "900203")
	assert.NotEmpty(t, ds.DER)

	// -save refuses to replace a pair.
	code, _, errOut = runCmd(t, "-new", "-save", dir)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "already holds")
}

// TestBodyBindsThroughTheService binds the printed bodies with a binding.Service
// that trusts the server's sandbox CSCA, as the reference server's SANDBOX does.
func TestBodyBindsThroughTheService(t *testing.T) {
	dir := t.TempDir()
	csca, _, err := binding.LoadOrCreateSandboxPKI(dir)
	require.NoError(t, err)
	trust := chipauth.NewTrustStore()
	_, err = trust.AddCertificates(csca.PEM())
	require.NoError(t, err)
	store, err := bolt.Open(filepath.Join(dir, "veriland.db"), bolt.Options{NoSync: true})
	require.NoError(t, err)
	defer store.Close()
	key, err := ethcrypto.GenerateKey()
	require.NoError(t, err)
	atts := &attestation.Service{Store: store, Issuer: &attestation.Issuer{Key: key, ChainID: 1}}
	svc := &binding.Service{Store: store, Pepper: []byte("sixteen bytes at least"), Attestations: atts,
		Trust: func(veriland.Environment) *chipauth.TrustStore { return trust }}
	ctx := context.Background()
	var live string
	require.NoError(t, store.Update(ctx, func(tx storage.Tx) error {
		att, err := atts.Issue(ctx, tx, veriland.Sandbox, attestation.Draft{Kind: attestation.KindLiveness,
			Subject: holderDID, Claims: map[string]any{"level": "L2"}})
		if err == nil {
			live = att.ID
		}
		return err
	}))
	holder := veriland.Principal{Subject: holderDID, Role: veriland.RoleHolder, Env: veriland.Sandbox}

	code, out, errOut := runCmd(t, "-pki", dir, "-liveness", live, "-face-dim", "128")
	require.Equal(t, 0, code, errOut)
	res, err := svc.Bind(ctx, veriland.Sandbox, holder, decodeBody(t, out))
	require.NoError(t, err)
	assert.Equal(t, binding.ModePAFace, res.Mode)

	code, out, errOut = runCmd(t, "-pki", dir, "-liveness", live, "-face-dim", "128", "-face-mismatch")
	require.Equal(t, 0, code, errOut)
	_, err = svc.Bind(ctx, veriland.Sandbox, holder, decodeBody(t, out))
	assert.Equal(t, veriland.CodeFaceMismatch, veriland.CodeOf(err))

	code, out, errOut = runCmd(t, "-pki", dir, "-liveness", live, "-doc-number", "OTHER1")
	require.Equal(t, 0, code, errOut)
	res, err = svc.Bind(ctx, veriland.Sandbox, holder, decodeBody(t, out))
	require.NoError(t, err)
	assert.Equal(t, binding.ModePAOnly, res.Mode)

	// A fresh pair is not what the server trusts.
	code, out, errOut = runCmd(t, "-new", "-liveness", live)
	require.Equal(t, 0, code, errOut)
	_, err = svc.Bind(ctx, veriland.Sandbox, holder, decodeBody(t, out))
	assert.ErrorIs(t, err, chipauth.ErrCSCANotFound)
}

func TestPost(t *testing.T) {
	dir := t.TempDir()
	_, _, err := binding.LoadOrCreateSandboxPKI(dir)
	require.NoError(t, err)
	status := http.StatusCreated
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, http.MethodPost, r.Method)
		assert.Equal(t, chipVerifyPath, r.URL.Path)
		assert.Equal(t, "Bearer tok", r.Header.Get("Authorization"))
		assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
		body, _ := io.ReadAll(r.Body)
		req := decodeBody(t, string(body))
		assert.Equal(t, "att_abcdefghijklmnopqrstuvwxyz", req.LivenessAttestationID)
		w.WriteHeader(status)
		io.WriteString(w, `{"status":"VERIFIED","mode":"PA_ONLY"}`)
	}))
	defer srv.Close()

	code, out, errOut := runCmd(t, "-pki", dir, "-liveness", "att_abcdefghijklmnopqrstuvwxyz", "-post", srv.URL, "-token", "tok")
	assert.Equal(t, 0, code, errOut)
	assert.Equal(t, "{\"status\":\"VERIFIED\",\"mode\":\"PA_ONLY\"}\n", out)
	assert.Contains(t, errOut, "201")

	status = http.StatusUnprocessableEntity
	t.Setenv("VERILAND_TOKEN", "tok")
	code, _, errOut = runCmd(t, "-pki", dir, "-liveness", "att_abcdefghijklmnopqrstuvwxyz", "-post", srv.URL+chipVerifyPath)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "422")

	srv.Close()
	code, _, _ = runCmd(t, "-pki", dir, "-liveness", "att_abcdefghijklmnopqrstuvwxyz", "-post", srv.URL)
	assert.Equal(t, 1, code)
}

func TestUsage(t *testing.T) {
	t.Setenv("VERILAND_TOKEN", "")
	dir := t.TempDir()
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no pki", []string{"-pki", filepath.Join(dir, "none")}, "use -new"},
		{"bad birth", []string{"-new", "-birth", "12.08.1974"}, "-birth"},
		{"bad expiry", []string{"-new", "-expiry", "soon"}, "-expiry"},
		{"bad number", []string{"-new", "-doc-number", "AB-12"}, "-doc-number"},
		{"number too long", []string{"-new", "-doc-number", "ABCDEFGHIJ"}, "too long"},
		{"bad sex", []string{"-new", "-sex", "X"}, "-sex"},
		{"bad digest", []string{"-new", "-digest", "md5"}, "-digest"},
		{"bad face dim", []string{"-new", "-face-dim", "10"}, "-face-dim"},
		{"save without new", []string{"-save", dir}, "-save needs -new"},
		{"post no liveness", []string{"-new", "-post", "http://127.0.0.1:1", "-token", "x"}, "-liveness"},
		{"post no token", []string{"-new", "-post", "http://127.0.0.1:1", "-liveness", "att_x"}, "-token"},
		{"post not http", []string{"-new", "-post", "ftp://x", "-liveness", "att_x", "-token", "x"}, "http(s)"},
		{"argument", []string{"-new", "extra"}, "unexpected argument"},
		{"unknown flag", []string{"-nope"}, "not defined"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runCmd(t, c.args...)
			assert.Equal(t, 2, code)
			assert.Empty(t, out)
			assert.Contains(t, errOut, c.want)
		})
	}
}
