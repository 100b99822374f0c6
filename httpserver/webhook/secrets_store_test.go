package webhook_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/webhook"
)

func TestSecretStoreCreatesOnFirstUse(t *testing.T) {
	f := newFixture(t)
	ss := f.secrets()
	a, err := ss.Secrets(t.Context(), veriland.Sandbox, "verifier-1")
	require.NoError(t, err)
	require.False(t, a.Current.IsZero())
	require.Equal(t, t0, a.CreatedAt)
	require.Len(t, a.Signing(), 1)
	b, err := ss.Secrets(t.Context(), veriland.Sandbox, "verifier-1")
	require.NoError(t, err)
	require.Equal(t, a.Current.String(), b.Current.String(), "stable once created")

	// Each environment and each verifier has its own.
	c, err := ss.Secrets(t.Context(), veriland.Production, "verifier-1")
	require.NoError(t, err)
	require.NotEqual(t, a.Current.String(), c.Current.String())

	// It survives a restart.
	f.restart()
	d, err := f.secrets().Secrets(t.Context(), veriland.Sandbox, "verifier-1")
	require.NoError(t, err)
	require.Equal(t, a.Current.String(), d.Current.String())

	_, err = ss.Secrets(t.Context(), veriland.Sandbox, "")
	require.True(t, veriland.IsCode(err, veriland.CodeValidationFailed))
	_, err = ss.Secrets(t.Context(), "TEST", "v")
	require.True(t, veriland.IsCode(err, veriland.CodeValidationFailed))
}

func TestSecondRotationDropsTheOldestSecret(t *testing.T) {
	f := newFixture(t)
	ss := f.secrets()
	s0, err := ss.Secrets(t.Context(), veriland.Sandbox, "v")
	require.NoError(t, err)
	s1, err := ss.Rotate(t.Context(), veriland.Sandbox, "v")
	require.NoError(t, err)
	f.clock.Advance(time.Hour)
	s2, err := ss.Rotate(t.Context(), veriland.Sandbox, "v")
	require.NoError(t, err)
	require.Equal(t, s1.Current.String(), s2.Previous.String())
	signing := s2.Signing()
	require.Len(t, signing, 2)
	for _, s := range signing {
		require.NotEqual(t, s0.Current.String(), s.String())
	}
	// Rotating a verifier that never had a secret just creates one.
	fresh, err := ss.Rotate(t.Context(), veriland.Sandbox, "new")
	require.NoError(t, err)
	require.Nil(t, fresh.Previous)
	require.Len(t, fresh.Signing(), 1)
	require.Equal(t, []webhook.Secret(nil), webhook.VerifierSecrets{}.Signing())
}
