package htmlpage

import (
	"encoding/json"
	"fmt"
	"slices"
)

// Labels parses a page's label table (strings.json: language → key → text) and
// checks that it holds exactly languages, each with exactly the keys of def, none
// empty: a page whose table lacks a label, or has one too many, must not build
// (its callers panic at start-up), so a translation can never silently fall back.
func Labels(data []byte, languages []string, def string) (map[string]map[string]string, error) {
	var m map[string]map[string]string
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	if !slices.Contains(languages, def) {
		return nil, fmt.Errorf("the default language %s is not one of %v", def, languages)
	}
	for lang := range m {
		if !slices.Contains(languages, lang) {
			return nil, fmt.Errorf("%s is not one of the page's languages %v", lang, languages)
		}
	}
	for _, lang := range languages {
		table, ok := m[lang]
		if !ok {
			return nil, fmt.Errorf("the language %s is missing", lang)
		}
		for k := range m[def] {
			if table[k] == "" {
				return nil, fmt.Errorf("%s lacks %q", lang, k)
			}
		}
		for k := range table {
			if _, ok := m[def][k]; !ok {
				return nil, fmt.Errorf("%s has %q, which %s does not", lang, k, def)
			}
		}
	}
	return m, nil
}
