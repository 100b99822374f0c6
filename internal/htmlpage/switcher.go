package htmlpage

// Language is one entry of a page's language switcher: an <option> whose value is
// Code, named Name in its own language and written in direction Dir.
type Language struct {
	Code, Name, Dir string
	Selected        bool
}

// Switcher returns the entries of a language switcher for codes, in their order,
// with selected marked; name and dir give each language's own name and direction.
func Switcher(codes []string, selected string, name, dir func(code string) string) []Language {
	out := make([]Language, 0, len(codes))
	for _, code := range codes {
		out = append(out, Language{Code: code, Name: name(code), Dir: dir(code), Selected: code == selected})
	}
	return out
}
