// Package catalogue is the one message catalogue of every page the server and the
// library print for people: the consent, owner-consent and attestation pages, the
// registry verification page, the operator dashboard and the PDF certificate.
//
// Each page's messages are one JSON file here (consent.json, registry.json, …:
// language → key → text), and common.json holds what they share: each language's
// own name and direction, month names and the patterns of dates and numbers. Every
// file must hold exactly Languages, each with exactly the keys of Default, none
// empty: the package refuses to load otherwise (its tests list every gap), so a
// translation never silently falls back to English.
//
// The language of a page is chosen the same way everywhere (Negotiate): the ?lang=
// override of a language switcher when it is one of Languages, else the reader's
// Accept-Language preference matched on the primary subtag, else English. Arabic is
// written right to left (Dir).
//
// Dates are printed with the language's month names and order ("2 janvier 2026",
// "2. Januar 2026", "2 de enero de 2026") and numbers with its separators
// ("1 234,5" in French, "1.234,5" in German); Arabic keeps Western digits, as the
// registries of the Maghreb print them and as the hashes and ids beside them are.
package catalogue
