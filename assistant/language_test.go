package assistant

import (
	"testing"
)

// recognisedQuestions are parcel-status and transfer questions, as a land office's
// visitor writes them, in the languages the assistant recognises but does not answer
// in; with and without the diacritics many leave out.
var recognisedQuestions = []struct{ lang, text string }{
	{"sw", "Hali ya kiwanja changu ni nini?"},
	{"sw", "Hali ya kiwanja " + i18nParcel + " ni nini?"},
	{"sw", "Ninawezaje kuhamisha kiwanja changu kwa mtu mwingine?"},
	{"sw", "Nitahamishaje umiliki wa ardhi yangu?"},
	{"sw", "Je, cheti changu ni halali?"},
	{"ha", "Menene matsayin filina?"},
	{"ha", "Menene matsayin filin " + i18nParcel + "?"},
	{"ha", "Yaya zan mayar da gonata ga wani?"},
	{"ha", "Ta yaya zan sayar da filina?"},
	{"yo", "Kí ni ipò ilẹ̀ mi?"},
	{"yo", "Ki ni ipo ile mi?"},
	{"yo", "Báwo ni mo ṣe lè gbé ilẹ̀ mi fún ẹlòmíràn?"},
	{"yo", "Bawo ni mo se le gbe ile mi fun elomiran?"},
	{"ig", "Gịnị bụ ọnọdụ ala m?"},
	{"ig", "Gini bu onodu ala m " + i18nParcel + "?"},
	{"ig", "Kedu ka m ga-esi nyefee ala m nye onye ọzọ?"},
	{"ig", "Kedu ka m ga esi nyefee ala m nye onye ozo?"},
}

func TestDetectRecognisedLanguages(t *testing.T) {
	for _, c := range recognisedQuestions {
		t.Run(c.lang+"/"+c.text, func(t *testing.T) {
			d := DetectLanguage(c.text)
			if d.Language != c.lang || !d.Reliable {
				t.Errorf("DetectLanguage(%q) = %+v, want %s, reliable", c.text, d, c.lang)
			}
			if d.Supported() {
				t.Errorf("%s is answered in its own language", c.lang)
			}
			if languageNames[d.Language] == "" {
				t.Errorf("%s has no English name", d.Language)
			}
		})
	}
}

// A short text that no function word places falls back (to the session's language,
// else English) instead of being answered in a supported language picked by trigrams
// of two words.
func TestDetectShortAmbiguous(t *testing.T) {
	for _, text := range []string{"ok", "si", "no", "Estado de " + i18nRequest, "Status von " + i18nRequest + "?", "?", i18nParcel} {
		if d := DetectLanguage(text); d.Language != Undetermined || d.Reliable {
			t.Errorf("DetectLanguage(%q) = %+v, want undetermined, not reliable", text, d)
		}
	}
	// One word of a language is still a hint (the session's language wins over it).
	for text, lang := range map[string]string{"Hilfe": "de", "merci": "fr", "ciao": "it", "help": "en", "Olá": "pt", "Guten Tag": "de", "msaada": "sw"} {
		if d := DetectLanguage(text); d.Language != lang || d.Reliable {
			t.Errorf("DetectLanguage(%q) = %+v, want %s, not reliable", text, d, lang)
		}
	}
}

// A longer text in a language neither the function words nor the trigrams can vouch
// for is undetermined and reliable: the English answer that lists the languages.
func TestDetectUnknownLanguage(t *testing.T) {
	// Lingala and Kinyarwanda: "what is the state of my land?"
	for _, text := range []string{"Ezali ndenge nini na mabele na ngai?", "Ubutaka bwanjye bumeze bute ubu?"} {
		d := DetectLanguage(text)
		if d.Supported() {
			t.Errorf("DetectLanguage(%q) = %+v: a supported language", text, d)
		}
		if !d.Reliable {
			t.Errorf("DetectLanguage(%q) = %+v, want reliable", text, d)
		}
	}
}

// The words of the recognised languages are never words of a supported language,
// whose votes they would otherwise cancel.
func TestRecognisedWordsDistinct(t *testing.T) {
	folded := map[string]string{}
	for lang, ws := range functionWords {
		for _, w := range ws {
			folded[fold(w)] = lang
		}
	}
	for lang, ws := range recognisedWords {
		for _, w := range ws {
			if other, ok := folded[fold(w)]; ok {
				t.Errorf("%s word %q is a %s function word", lang, w, other)
			}
			if fold(w) != w {
				t.Errorf("%s word %q is not folded", lang, w)
			}
		}
	}
}
