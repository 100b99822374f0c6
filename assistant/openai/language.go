package openai

import "strings"

// whisperLanguages maps the language names Whisper servers report in verbose_json
// ("english", "french", …) to ISO 639-1, for the languages the assistant answers in.
var whisperLanguages = map[string]string{
	"english":    "en",
	"french":     "fr",
	"spanish":    "es",
	"portuguese": "pt",
	"arabic":     "ar",
	"german":     "de",
	"italian":    "it",
}

// transcriptLanguage returns the ISO 639-1 code for what the server reported: a
// known name is mapped, a two-letter code is passed through in lower case, and
// anything else (absent, "auto", a language the assistant does not speak under its
// English name) falls back to the caller's hint.
func transcriptLanguage(reported, hint string) string {
	r := strings.ToLower(strings.TrimSpace(reported))
	if code, ok := whisperLanguages[r]; ok {
		return code
	}
	if len(r) == 2 && isASCIILetter(r[0]) && isASCIILetter(r[1]) {
		return r
	}
	return hint
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' }
