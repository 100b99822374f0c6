package pdf

import (
	"testing"

	"github.com/veriland/veriland/internal/catalogue"
)

// TestEverythingFitsOnePage: in every language, with every optional row (a bound
// wallet, a land title with a contract, a name the font cannot show), the content
// ends above the footer.
func TestEverythingFitsOnePage(t *testing.T) {
	for _, lang := range catalogue.Languages {
		for _, circle := range []bool{false, true} {
			in := fullInput(t, lang)
			in.OwnerName = "Nkechinyere Oluwaseun Adebayo-Okonkwo 山田"
			if circle {
				in.Boundary = nil
			}
			_, lay, err := render(in)
			if err != nil {
				t.Fatal(err)
			}
			if lay.contentEnd > lay.footerTop-2 {
				t.Errorf("%s (circle %v): the content ends at %.1f mm, the footer starts at %.1f mm", lang, circle, lay.contentEnd, lay.footerTop)
			}
			t.Logf("%s: content ends %.1f, footer %.1f", lang, lay.contentEnd, lay.footerTop)
		}
	}
}
