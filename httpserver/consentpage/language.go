package consentpage

import "github.com/veriland/veriland/internal/catalogue"

// Negotiate returns the page's language, chosen as every page chooses it
// (catalogue.Negotiate): override when it is one of Languages (the ?lang= the
// language switcher sets), else the first of Languages that the Accept-Language
// header value prefers (matching on the primary subtag: fr-CA picks fr), else
// DefaultLanguage.
func Negotiate(override, acceptLanguage string) string {
	return catalogue.Negotiate(override, acceptLanguage)
}
