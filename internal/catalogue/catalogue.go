package catalogue

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"
)

// Default is the language of a page when the reader's preferences name none of
// Languages.
const Default = "en"

// Languages are the catalogue's languages, as BCP 47 primary language subtags, in the
// order of the language switchers.
var Languages = []string{"en", "fr", "es", "pt", "ar", "de", "it"}

// Common is the name of the table every page shares (languageName, dir, months,
// date and number patterns).
const Common = "common"

//go:embed *.json
var files embed.FS

// Table is one page's messages: language → key → text.
type Table map[string]map[string]string

var (
	loadOnce sync.Once
	tables   map[string]Table
)

// all returns every table, loading them on first use; an incomplete catalogue is a
// build error, not a runtime condition, so it panics (TestComplete names each gap).
func all() map[string]Table {
	loadOnce.Do(func() {
		t, err := Load(files)
		if err != nil {
			panic("catalogue: " + err.Error())
		}
		tables = t
	})
	return tables
}

// Load reads every *.json file of fsys as a page's table (named after the file) and
// checks each with Check. It returns every problem found, not only the first.
func Load(fsys fs.FS) (map[string]Table, error) {
	names, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, err
	}
	out := make(map[string]Table, len(names))
	var errs []error
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		var t Table
		if err := json.Unmarshal(data, &t); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		if err := Check(t); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		out[strings.TrimSuffix(path.Base(name), ".json")] = t
	}
	return out, errors.Join(errs...)
}

// Check reports every way t differs from a complete table: a language of Languages
// missing, a language that is not one of them, a key of Default missing or empty in
// another language, or a key another language has and Default has not.
func Check(t Table) error {
	var errs []error
	for lang := range t {
		if !slices.Contains(Languages, lang) {
			errs = append(errs, fmt.Errorf("%s is not one of the languages %v", lang, Languages))
		}
	}
	def, ok := t[Default]
	if !ok {
		return errors.Join(append(errs, fmt.Errorf("the default language %s is missing", Default))...)
	}
	for _, lang := range Languages {
		table, ok := t[lang]
		if !ok {
			errs = append(errs, fmt.Errorf("the language %s is missing", lang))
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(def)) {
			if table[k] == "" {
				errs = append(errs, fmt.Errorf("%s lacks %q", lang, k))
			}
		}
		for _, k := range slices.Sorted(maps.Keys(table)) {
			if _, ok := def[k]; !ok {
				errs = append(errs, fmt.Errorf("%s has %q, which %s has not", lang, k, Default))
			}
		}
	}
	return errors.Join(errs...)
}

// Page returns the table of page (the name of its file without .json). It panics on
// a page the catalogue does not hold: page names are constants of the code.
func Page(page string) Table {
	t, ok := all()[page]
	if !ok {
		panic("catalogue: no page " + page)
	}
	return t
}

// Pages returns the names of the catalogue's tables, sorted.
func Pages() []string { return slices.Sorted(maps.Keys(all())) }

// Lang returns lang when it is one of Languages, else Default.
func Lang(lang string) string {
	if slices.Contains(Languages, lang) {
		return lang
	}
	return Default
}

// Text returns the message key of page in lang (another language reads as Default),
// "" for a key the page does not have.
func (t Table) Text(lang, key string) string {
	if s, ok := t[Lang(lang)][key]; ok {
		return s
	}
	return t[Default][key]
}

// Format returns the message key of page in lang with each {name} replaced by
// args[name]; a placeholder without an argument stays as it is.
func (t Table) Format(lang, key string, args map[string]string) string {
	return Fill(t.Text(lang, key), args)
}

// Fill replaces each {name} of s with args[name].
func Fill(s string, args map[string]string) string {
	if len(args) == 0 || !strings.Contains(s, "{") {
		return s
	}
	pairs := make([]string, 0, 2*len(args))
	for _, k := range slices.Sorted(maps.Keys(args)) {
		pairs = append(pairs, "{"+k+"}", args[k])
	}
	return strings.NewReplacer(pairs...).Replace(s)
}

// Dir returns the writing direction of lang: "rtl" or "ltr".
func Dir(lang string) string { return Page(Common).Text(lang, "dir") }

// Name returns lang's name in itself ("Français").
func Name(lang string) string { return Page(Common).Text(lang, "languageName") }
