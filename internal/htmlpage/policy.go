package htmlpage

import "fmt"

// InlinePolicy returns the Content-Security-Policy of a page that has exactly one
// inline <script> and one inline <style> (a JSON data block beside them opens with a
// longer tag and is not counted): nothing is allowed but those two, by their SHA-256
// hashes in doc, fetches to the page's own origin, and its own and data: images (an
// empty favicon); no base URI, no form targets, no framing, and Trusted Types
// enforced so that no HTML string can reach a DOM sink. doc is a rendering, not a
// template: html/template drops the comments of scripts and styles.
func InlinePolicy(doc []byte) (string, error) {
	script, err := ElementHash(doc, "<script>", "</script>")
	if err != nil {
		return "", err
	}
	style, err := ElementHash(doc, "<style>", "</style>")
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("default-src 'none'; script-src '%s'; style-src '%s'; "+
		"connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; "+
		"require-trusted-types-for 'script'; trusted-types 'none'", script, style), nil
}
