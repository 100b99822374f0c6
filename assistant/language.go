package assistant

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/abadojack/whatlanggo"
	"golang.org/x/text/unicode/norm"
)

// Languages are the languages the assistant answers in (ISO 639-1), English first:
// English is the answer to every other language.
var Languages = []string{"en", "fr", "es", "pt", "ar", "de", "it"}

// Supported reports whether the assistant answers in language code (ISO 639-1).
func Supported(code string) bool {
	for _, l := range Languages {
		if l == code {
			return true
		}
	}
	return false
}

// Undetermined is the detected language of a text too short or too mixed to tell
// (ISO 639-2's "und").
const Undetermined = "und"

// Detection is what DetectLanguage found in a text.
type Detection struct {
	// Language is the ISO 639-1 code of the language (ISO 639-3 when it has no
	// 639-1 code), or Undetermined.
	Language string
	// Reliable reports whether the text was long and clear enough to trust
	// Language; an unreliable detection of a short text yields to the session's
	// language.
	Reliable bool
}

// Supported reports whether the detected language is one the assistant answers in.
func (d Detection) Supported() bool { return Supported(d.Language) }

// whitelist restricts whatlanggo to the supported languages.
var whitelist = whatlanggo.Options{Whitelist: map[whatlanggo.Lang]bool{
	whatlanggo.Eng: true, whatlanggo.Fra: true, whatlanggo.Spa: true, whatlanggo.Por: true,
	whatlanggo.Arb: true, whatlanggo.Deu: true, whatlanggo.Ita: true,
}}

// iso6391 maps whatlanggo's ISO 639-3 codes to ISO 639-1 for the supported languages
// and the common others, so that detectedLanguage reads like language fields elsewhere.
var iso6391 = map[string]string{
	"eng": "en", "fra": "fr", "spa": "es", "por": "pt", "arb": "ar", "deu": "de", "ita": "it",
	"nld": "nl", "pol": "pl", "rus": "ru", "ukr": "uk", "jpn": "ja", "cmn": "zh", "kor": "ko",
	"tur": "tr", "pes": "fa", "urd": "ur", "hin": "hi", "ben": "bn", "swe": "sv", "dan": "da",
	"nob": "nb", "fin": "fi", "ces": "cs", "slk": "sk", "hun": "hu", "ron": "ro", "ell": "el",
	"heb": "he", "ind": "id", "vie": "vi", "tha": "th", "cat": "ca", "hrv": "hr", "srp": "sr",
	"bul": "bg", "lit": "lt", "lav": "lv", "est": "et", "slv": "sl", "swh": "sw", "tgl": "tl",
	"epo": "eo", "afr": "af", "aka": "ak", "amh": "am", "aze": "az", "bel": "be", "guj": "gu",
	"jav": "jv", "kan": "kn", "kat": "ka", "khm": "km", "mal": "ml", "mar": "mr", "mkd": "mk",
	"mya": "my", "nep": "ne", "ori": "or", "pan": "pa", "sin": "si", "sna": "sn", "tam": "ta",
	"tel": "te", "tuk": "tk", "uzb": "uz", "yid": "yi", "yor": "yo", "zul": "zu", "hye": "hy",
	"hau": "ha", "ibo": "ig",
}

func code(l whatlanggo.Lang) string {
	c := whatlanggo.LangToStringShort(l)
	if two, ok := iso6391[c]; ok {
		return two
	}
	if c == "" {
		return Undetermined
	}
	return c
}

// noise is what DetectLanguage removes before it looks at the words: entity ids,
// hashes, URLs, e-mail addresses and numbers say nothing of the language.
var noise = regexp.MustCompile(`(?i)\b(?:prc|vrq|att|trf|ses|msg)_[a-z0-9]+|0x[0-9a-f]+|https?://\S+|\S+@\S+|\d+`)

// Recognised are the languages DetectLanguage names by their function words although
// the assistant does not answer in them (it answers in English and says which
// languages it speaks): those a West or East African land office meets.
var Recognised = []string{"sw", "ha", "yo", "ig"}

// minUnsureWords is the number of words from which a text the detector cannot place
// is taken to be in a language it does not know (Undetermined, Reliable) rather than
// too short to tell (Undetermined, not Reliable).
const minUnsureWords = 3

// DetectLanguage tells which language text is in. It trusts a short text only when
// its function words agree; it reports a language the assistant does not speak only
// when the text is clearly in it (the detector is restricted to the supported
// languages otherwise, so that a short English question is never taken for Tagalog).
// It never guesses: a text whose language neither the function words nor the trigram
// model can vouch for is Undetermined — Reliable when it has minUnsureWords words or
// more (a language the assistant does not know, answered in English with the list of
// the languages it speaks), not Reliable when shorter (too short to tell: the
// session's language, else English).
func DetectLanguage(text string) Detection {
	clean := noise.ReplaceAllString(norm.NFC.String(text), " ")
	words := wordsOf(clean)
	letters := 0
	for _, r := range clean {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	if letters < 2 {
		return Detection{Language: Undetermined}
	}
	lang, hits := functionWordVote(words)
	if hits >= 2 {
		return Detection{Language: lang, Reliable: true}
	}
	if hits == 1 && len(words) <= 3 {
		// "Hilfe", "Olá", "statut de vrq_…": one word of one language is a hint, not
		// proof; the session's language wins over it.
		return Detection{Language: lang}
	}
	unsure := Detection{Language: Undetermined, Reliable: len(words) >= minUnsureWords}
	script := whatlanggo.DetectScript(clean)
	switch script {
	case unicode.Latin, unicode.Arabic:
	case nil:
		return Detection{Language: Undetermined}
	default:
		// Another script (Cyrillic, Han, Devanagari, …): no supported language is
		// written in it.
		info := whatlanggo.Detect(clean)
		return Detection{Language: code(info.Lang), Reliable: letters >= 4}
	}
	all := whatlanggo.Detect(clean)
	if Supported(code(all.Lang)) {
		if len(words) < minUnsureWords && all.Confidence < 0.5 && script != unicode.Arabic {
			// "Estado de …" (Spanish or Portuguese?), "si", "no": a guess of
			// trigrams on two words is no better than a coin. (Arabic is the one
			// supported language of its script.)
			return Detection{Language: Undetermined}
		}
		return Detection{Language: code(all.Lang), Reliable: all.IsReliable() && len(words) >= 3}
	}
	if all.IsReliable() && len(words) >= 4 {
		return Detection{Language: code(all.Lang), Reliable: true}
	}
	if all.IsReliable() && len(words) >= 2 && slices.Contains(Recognised, code(all.Lang)) {
		return Detection{Language: code(all.Lang), Reliable: true}
	}
	ours := whatlanggo.DetectWithOptions(clean, whitelist)
	switch {
	case script == unicode.Arabic && code(ours.Lang) == "ar":
		// Arabic is the one supported language of its script.
		return Detection{Language: "ar"}
	case hits == 1 && lang == code(ours.Lang):
		// The restricted model agrees with the one function word.
		return Detection{Language: lang}
	}
	// The best language overall is one the assistant does not speak, and nothing
	// vouches for the best supported one ("Hali ya kiwanja changu ni nini?" is not
	// Italian): undetermined, never a wrong supported language.
	return unsure
}

func wordsOf(s string) []string {
	// Apostrophes separate words: "l'attestation" is "l" and "attestation"; combining
	// marks (Yoruba tones, Arabic vowels) belong to their word.
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.Is(unicode.Mn, r) })
}

// functionWords are frequent short words of each supported language that are rare in
// the others: two of them settle the language of a short question where character
// trigrams cannot.
var functionWords = map[string][]string{
	"en": {"the", "is", "what", "my", "of", "how", "do", "i", "this", "please", "status", "can", "you", "where", "which", "are", "still",
		"hello", "help", "hi", "thanks"},
	"fr": {"le", "la", "les", "est", "quel", "quelle", "mon", "ma", "mes", "du", "des", "comment", "je", "ce", "cette", "statut", "où", "en", "vous", "pouvez", "puis", "toujours",
		"bonjour", "aide", "merci", "salut"},
	"es": {"el", "la", "los", "las", "es", "cuál", "cual", "qué", "mi", "mis", "del", "cómo", "como", "estado", "este", "esta", "puedo", "yo", "se", "está", "sigue", "siendo",
		"hola", "ayuda", "gracias"},
	"pt": {"o", "a", "os", "as", "é", "qual", "meu", "minha", "do", "da", "dos", "como", "estado", "situação", "este", "esta", "posso", "eu", "está", "não", "ainda",
		"olá", "ola", "ajuda", "obrigado", "obrigada"},
	"de": {"der", "die", "das", "ist", "wie", "mein", "meine", "meines", "meiner", "von", "des", "ich", "dieses", "diese", "dieser", "kann", "was", "welchen", "den", "echt", "noch",
		"hallo", "hilfe", "danke", "guten"},
	"it": {"il", "lo", "la", "è", "qual", "mio", "mia", "del", "della", "come", "stato", "questo", "questa", "posso", "io", "di", "gli", "autentico", "ancora",
		"ciao", "aiuto", "grazie", "buongiorno"},
	"ar": {"ما", "هي", "هو", "حالة", "كيف", "هل", "من", "في", "هذه", "هذا", "أرضي", "طلب", "شهادة", "قطعة", "مرحبا", "مساعدة", "شكرا"},
}

// recognisedWords are frequent words of the Recognised languages, and words of a land
// office's questions in them, that are not words of a supported language. They are
// written without diacritics and matched against folded words, since many write
// Yoruba and Igbo without their tone marks and dots.
var recognisedWords = map[string][]string{
	"sw": {"nini", "gani", "vipi", "hali", "changu", "yangu", "wangu", "langu", "vyangu", "zangu", "kiwanja", "viwanja", "ardhi",
		"shamba", "umiliki", "kuhamisha", "nitahamishaje", "ninawezaje", "nawezaje", "kwa", "hii", "hiyo", "kwenye", "mwingine",
		"mtu", "habari", "tafadhali", "msaada", "cheti", "hati", "ombi", "uthibitisho", "ni", "bado", "halali", "kuuza", "nataka"},
	"ha": {"menene", "mene", "yaya", "zan", "iya", "filina", "filin", "fili", "gonata", "gona", "gonar", "matsayin", "matsayi",
		"mayar", "wani", "wannan", "shin", "takardar", "takarda", "mallakar", "mallaka", "sayar", "canja", "kasata", "nawa",
		"taimako", "sannu", "yanzu", "neman", "ina"},
	"yo": {"bawo", "kini", "ipo", "ile", "gbe", "elomiran", "jowo", "iwe", "eri", "ohun", "tani", "nibo", "mo",
		"ijerisi", "ibere", "ni", "lati"},
	"ig": {"gini", "kedu", "onodu", "ala", "nyefee", "nye", "onye", "ozo", "nke", "ihe", "biko", "akwukwo", "enyemaka", "ndi",
		"anyi", "achoro", "esi", "bu", "ga", "ree", "nnyefe", "ka"},
}

// functionWordIndex maps a word to the supported languages that list it.
var functionWordIndex = func() map[string][]string {
	m := map[string][]string{}
	for lang, ws := range functionWords {
		for _, w := range ws {
			m[w] = append(m[w], lang)
		}
	}
	return m
}()

// recognisedIndex maps a folded word to the Recognised languages that list it.
var recognisedIndex = func() map[string][]string {
	m := map[string][]string{}
	for lang, ws := range recognisedWords {
		for _, w := range ws {
			m[fold(w)] = append(m[fold(w)], lang)
		}
	}
	return m
}()

// voters are the languages functionWordVote can return, in the order that breaks
// nothing (a tie is no vote).
var voters = append(slices.Clone(Languages), Recognised...)

// functionWordVote returns the language with the most function words in words and its
// count of words that belong to it alone, or "" and 0 on a tie.
func functionWordVote(words []string) (string, int) {
	score := map[string]int{}
	for _, w := range words {
		langs := functionWordIndex[w]
		if len(langs) == 0 {
			langs = recognisedIndex[fold(w)]
		}
		if len(langs) == 1 {
			score[langs[0]]++
		}
	}
	best, bestN, tie := "", 0, false
	for _, l := range voters {
		switch n := score[l]; {
		case n > bestN:
			best, bestN, tie = l, n, false
		case n == bestN && n > 0:
			tie = true
		}
	}
	if tie {
		return "", 0
	}
	return best, bestN
}
