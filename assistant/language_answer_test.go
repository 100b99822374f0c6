package assistant_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/assistant"
)

// A question in a language the assistant recognises but does not speak is answered
// in English with the sentence that names the languages it speaks and the detected
// one; a lookup it names is still answered.
func TestAnswerRecognisedLanguage(t *testing.T) {
	w := newWorld(t)
	cases := []struct{ lang, name, text string }{
		{"sw", "Swahili", "Hali ya kiwanja changu ni nini?"},
		{"ha", "Hausa", "Yaya zan mayar da gonata ga wani?"},
		{"yo", "Yoruba", "Báwo ni mo ṣe lè gbé ilẹ̀ mi fún ẹlòmíràn?"},
		{"ig", "Igbo", "Gịnị bụ ọnọdụ ala m?"},
	}
	for _, c := range cases {
		t.Run(c.lang, func(t *testing.T) {
			m, err := w.svc.Send(t.Context(), agency, assistant.MessageRequest{Text: c.text})
			require.NoError(t, err)
			require.Equal(t, "en", m.Language)
			require.Equal(t, c.lang, m.DetectedLanguage)
			require.Equal(t, assistant.IntentUnsupportedLanguage, m.Intent)
			require.Contains(t, m.Text, "I answer in English, French, Spanish, Portuguese, Arabic, German and Italian")
			require.Contains(t, m.Text, "seems to be in "+c.name)
		})
	}
	// With a parcel id, the lookup is answered too, in English.
	m, err := w.svc.Send(t.Context(), agency, assistant.MessageRequest{Text: "Hali ya kiwanja " + w.certified.ID + " ni nini?"})
	require.NoError(t, err)
	require.Equal(t, "en", m.Language)
	require.Equal(t, "sw", m.DetectedLanguage)
	require.Equal(t, assistant.IntentParcelStatus, m.Intent)
	require.Contains(t, m.Text, "Swahili")
	require.Contains(t, m.Text, "Kano")

	// A language the detector cannot name gets the same English answer.
	m, err = w.svc.Send(t.Context(), agency, assistant.MessageRequest{Text: "Ezali ndenge nini na mabele na ngai?"})
	require.NoError(t, err)
	require.Equal(t, "en", m.Language)
	require.Equal(t, assistant.IntentUnsupportedLanguage, m.Intent)
	require.Contains(t, m.Text, "I answer in English")

	// Short ambiguous input is answered in English, not in a guessed language.
	for _, text := range []string{"si", "no", "ok"} {
		m, err := w.svc.Send(t.Context(), agency, assistant.MessageRequest{Text: text})
		require.NoError(t, err)
		require.Equal(t, "en", m.Language, text)
		require.Equal(t, assistant.Undetermined, m.DetectedLanguage, text)
		require.NotEqual(t, assistant.IntentUnsupportedLanguage, m.Intent, text)
	}
}
