package catalogue_test

import (
	"fmt"
	"time"

	"github.com/veriland/veriland/internal/catalogue"
)

// A page picks its reader's language, then prints its messages, dates and numbers
// in it.
func Example() {
	lang := catalogue.Negotiate("", "fr-CA,fr;q=0.9,en;q=0.5")
	certified := time.Date(2026, time.March, 14, 9, 30, 0, 0, time.UTC)
	fmt.Println(lang, catalogue.Dir(lang))
	fmt.Println(catalogue.Date(lang, certified))
	fmt.Println(catalogue.Number(lang, 1250.75, 2), "m²") // grouped by a no-break space
	fmt.Println(catalogue.Dir("ar"))
	// Output:
	// fr ltr
	// 14 mars 2026
	// 1 250,75 m²
	// rtl
}
