package pdf

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWriteSamples writes sample certificates to $PDF_SAMPLES (skipped without it), to
// look at: pdf-<lang>.pdf with a surveyed boundary, pdf-<lang>-circle.pdf without.
func TestWriteSamples(t *testing.T) {
	dir := os.Getenv("PDF_SAMPLES")
	if dir == "" {
		t.Skip("PDF_SAMPLES is not set")
	}
	for _, lang := range []string{"en", "fr", "es", "pt", "ar", "de", "it"} {
		for _, circle := range []bool{false, true} {
			in := fullInput(t, lang)
			name := "pdf-" + lang + ".pdf"
			if circle {
				in.Boundary = nil
				name = "pdf-" + lang + "-circle.pdf"
			}
			doc, err := Render(in)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name), doc, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d bytes", name, len(doc))
		}
	}
}
