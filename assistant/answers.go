package assistant

import (
	"strings"
)

// answers holds the templates of every answer, by language and key. A template's
// {name} placeholders take the tool's values; every language has every key (a test
// checks it), and English stands in for a key a language lacks.
var answers = map[string]map[string]string{
	"en": answersEN, "fr": answersFR, "es": answersES, "pt": answersPT,
	"ar": answersAR, "de": answersDE, "it": answersIT,
}

// template returns the template of key in lang, English when lang lacks it.
func template(lang, key string) string {
	if t, ok := answers[lang][key]; ok {
		return t
	}
	return answersEN[key]
}

// fill replaces the {name} placeholders of t with vars.
func fill(t string, vars map[string]string) string {
	if len(vars) == 0 || !strings.Contains(t, "{") {
		return t
	}
	pairs := make([]string, 0, 2*len(vars))
	for k, v := range vars {
		pairs = append(pairs, "{"+k+"}", v)
	}
	return strings.NewReplacer(pairs...).Replace(t)
}

// render writes the sentences in lang: list items each on a line of their own,
// other sentences joined by spaces.
func render(lang string, ss []sentence) string {
	var b strings.Builder
	for i, s := range ss {
		text := fill(template(lang, s.key), s.vars)
		switch {
		case strings.Contains(s.key, ".item."):
			b.WriteString("\n• ")
		case i > 0 && strings.Contains(ss[i-1].key, ".item."):
			b.WriteString("\n")
		case i > 0:
			b.WriteString(" ")
		}
		b.WriteString(text)
	}
	return b.String()
}

// actions puts the specs' labels in lang.
func actions(lang string, specs []actionSpec) []Action {
	out := make([]Action, 0, len(specs))
	for _, a := range specs {
		out = append(out, Action{Type: "link", Rel: a.rel, Label: template(lang, "action."+a.rel), Href: a.href, Method: a.method, Accept: a.accept})
	}
	return out
}

// languageNames names the languages in English, for the answer to a language the
// assistant does not speak.
var languageNames = map[string]string{
	"nl": "Dutch", "pl": "Polish", "ru": "Russian", "uk": "Ukrainian", "ja": "Japanese", "zh": "Chinese",
	"ko": "Korean", "tr": "Turkish", "fa": "Persian", "ur": "Urdu", "hi": "Hindi", "bn": "Bengali",
	"sv": "Swedish", "da": "Danish", "nb": "Norwegian", "fi": "Finnish", "cs": "Czech", "sk": "Slovak",
	"hu": "Hungarian", "ro": "Romanian", "el": "Greek", "he": "Hebrew", "id": "Indonesian",
	"vi": "Vietnamese", "th": "Thai", "ca": "Catalan", "hr": "Croatian", "sr": "Serbian", "bg": "Bulgarian",
	"sw": "Swahili", "tl": "Tagalog", "eo": "Esperanto", "af": "Afrikaans",
	"ha": "Hausa", "yo": "Yoruba", "ig": "Igbo",
	Undetermined: "a language I could not identify",
}
