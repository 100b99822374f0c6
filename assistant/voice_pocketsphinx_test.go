//go:build pocketsphinx

package assistant_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/assistant"
	"github.com/veriland/veriland/assistant/pocketsphinx"
	"github.com/veriland/veriland/internal/testenv"
)

// TestSpokenQuestionReachesTheParcelIntent: "what is the status of my parcel", spoken
// by flite (8 kHz, so it is resampled), uploaded to a session, recognised by the
// embedded PocketSphinx with the assistant's language model, and answered with the
// caller's parcels.
func TestSpokenQuestionReachesTheParcelIntent(t *testing.T) {
	if _, err := exec.LookPath("flite"); err != nil {
		testenv.Require(t, "flite", "apt-get install flite")
	}
	wav := filepath.Join(t.TempDir(), "question.wav")
	out, err := exec.Command("flite", "-t", "what is the status of my parcel", "-o", wav).CombinedOutput()
	require.NoError(t, err, string(out))
	recording, err := os.ReadFile(wav)
	require.NoError(t, err)

	ps, err := pocketsphinx.New(pocketsphinx.Config{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = ps.Close() })
	w := newWorld(t)
	w.svc.Transcriber = ps
	sess, err := w.svc.CreateSession(t.Context(), agency, assistant.SessionRequest{})
	require.NoError(t, err)

	res, err := w.svc.Transcribe(t.Context(), agency, assistant.VoiceRequest{Audio: recording, SessionID: &sess.ID})
	require.NoError(t, err)
	t.Logf("transcript: %q (%d ms)", res.Transcript, res.DurationMs)
	require.Equal(t, "pocketsphinx", res.Provider)
	require.Equal(t, "en", res.Language)
	require.Contains(t, res.Transcript, "status")
	require.Contains(t, res.Transcript, "parcel")
	require.NotNil(t, res.Reply)
	require.Equal(t, assistant.IntentParcelStatus, res.Reply.Intent)
	require.Equal(t, "en", res.Reply.Language)
	require.True(t, strings.Contains(res.Reply.Text, w.pending.ID) && strings.Contains(res.Reply.Text, w.certified.ID), res.Reply.Text)
}
