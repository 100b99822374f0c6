package binding

import (
	"crypto"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/chipauth"
	"github.com/veriland/veriland/chipauth/sandbox"
)

func TestLoadOrCreateSandboxPKI(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	csca, ds, err := LoadOrCreateSandboxPKI(dir)
	require.NoError(t, err)
	for _, name := range []string{SandboxCSCAFile, SandboxDSFile} {
		st, err := os.Stat(filepath.Join(dir, name))
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), name)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "no temporary files left behind")

	// A second start reads the same pair.
	csca2, ds2, err := LoadOrCreateSandboxPKI(dir)
	require.NoError(t, err)
	assert.Equal(t, csca.DER, csca2.DER)
	assert.Equal(t, ds.DER, ds2.DER)
	assert.Same(t, csca2, ds2.Issuer)

	// The reloaded pair issues documents the CSCA's trust store verifies.
	trust := chipauth.NewTrustStore()
	_, err = trust.AddCertificates(csca.PEM())
	require.NoError(t, err)
	dg1, err := sandbox.BuildDG1(sandbox.MRZFields{IssuingState: "UTO", DocumentNumber: "L898902C3",
		BirthDate: time.Date(1990, 1, 2, 0, 0, 0, 0, time.UTC), Expiry: time.Now().AddDate(5, 0, 0)})
	require.NoError(t, err)
	for _, issuer := range []*sandbox.DS{ds, ds2} {
		sod, err := sandbox.BuildSOD(issuer, map[int][]byte{1: dg1}, crypto.SHA256, sandbox.ECDSA, sandbox.SODOptions{})
		require.NoError(t, err)
		_, err = chipauth.Verify(sod, map[int][]byte{1: dg1}, trust, chipauth.Options{})
		require.NoError(t, err)
	}

	// A lost DS is re-issued under the kept CSCA.
	require.NoError(t, os.Remove(filepath.Join(dir, SandboxDSFile)))
	csca3, ds3, err := LoadOrCreateSandboxPKI(dir)
	require.NoError(t, err)
	assert.Equal(t, csca.DER, csca3.DER)
	assert.NotEqual(t, ds.DER, ds3.DER)

	// An expired DS is re-issued too.
	later := func() time.Time { return time.Now().AddDate(6, 0, 0) }
	_, ds4, err := loadOrCreateSandboxPKI(dir, nil, later)
	require.NoError(t, err)
	assert.NotEqual(t, ds3.DER, ds4.DER)
	_, ds5, err := LoadSandboxPKI(dir)
	require.NoError(t, err)
	assert.Equal(t, ds4.DER, ds5.DER)

	// A DS of another CSCA is refused, not replaced.
	other, otherDS, err := NewSandboxPKI(nil, nil)
	require.NoError(t, err)
	require.NoError(t, SaveSandboxPKI(t.TempDir(), other, otherDS))
	require.NoError(t, writePEM(filepath.Join(dir, SandboxDSFile), &otherDS.Certificate))
	_, _, err = LoadOrCreateSandboxPKI(dir)
	assert.ErrorContains(t, err, "not issued by the sandbox CSCA")

	// A lost CSCA makes a new pair.
	require.NoError(t, os.Remove(filepath.Join(dir, SandboxCSCAFile)))
	csca6, ds6, err := LoadOrCreateSandboxPKI(dir)
	require.NoError(t, err)
	assert.NotEqual(t, csca.DER, csca6.DER)
	assert.Same(t, csca6, ds6.Issuer)
}

func TestSandboxPKIErrors(t *testing.T) {
	_, _, err := LoadSandboxPKI(t.TempDir())
	assert.ErrorIs(t, err, os.ErrNotExist)

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, SandboxCSCAFile), []byte("garbage"), 0o600))
	_, _, err = LoadOrCreateSandboxPKI(dir)
	assert.Error(t, err)

	csca, ds, err := NewSandboxPKI(nil, nil)
	require.NoError(t, err)
	other, _, err := NewSandboxPKI(nil, nil)
	require.NoError(t, err)
	assert.Error(t, SaveSandboxPKI(t.TempDir(), other, ds))
	assert.Error(t, SaveSandboxPKI(t.TempDir(), csca, nil))
}
