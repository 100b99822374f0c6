package catalogue

import (
	"net/http"
	"strings"

	"github.com/veriland/veriland/internal/htmlpage"
)

// FromRequest returns the language of a page answering r: Negotiate of its ?lang=
// query parameter and its Accept-Language header.
func FromRequest(r *http.Request) string {
	return Negotiate(r.URL.Query().Get("lang"), r.Header.Get("Accept-Language"))
}

// Negotiate returns a page's language: override when it is one of Languages (the
// ?lang= a language switcher sets), else the first of Languages that the
// Accept-Language header value prefers (RFC 9110 §12.5.4, matching on the primary
// subtag: fr-CA picks fr; ranges with q=0 or a malformed q are ignored; among equal
// q values the header's order wins; * picks Default), else Default.
func Negotiate(override, acceptLanguage string) string {
	if o := strings.ToLower(strings.TrimSpace(override)); o != "" {
		for _, l := range Languages {
			if o == l {
				return l
			}
		}
	}
	best, bestQ := "", 0.0
	for part := range strings.SplitSeq(acceptLanguage, ",") {
		tag, params, _ := strings.Cut(part, ";")
		tag = strings.ToLower(strings.TrimSpace(tag))
		primary, _, _ := strings.Cut(tag, "-")
		q, ok := htmlpage.QValue(params)
		if !ok || q <= bestQ {
			continue
		}
		if primary == "*" {
			primary = Default
		}
		for _, l := range Languages {
			if primary == l {
				best, bestQ = l, q
				break
			}
		}
	}
	if best == "" {
		return Default
	}
	return best
}
