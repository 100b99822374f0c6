package plan_test

import (
	"fmt"

	"github.com/veriland/veriland/parcel/plan"
)

// Draw a surveyed parcel in a 480 × 360 box, then print it as inline SVG with its
// words in French.
func Example() {
	ring := [][2]float64{{3.3790, 6.5240}, {3.37936, 6.5240}, {3.37936, 6.52427}, {3.37918, 6.52440}, {3.3790, 6.52427}, {3.3790, 6.5240}}
	p, err := plan.Draw(plan.Input{Lat: 6.5242, Lon: 3.3792, AreaM2: 1385, Boundary: ring}, 480, 360)
	if err != nil {
		panic(err)
	}
	l := p.LabelsFor("fr", 1385)
	fmt.Printf("%d corners, 1 m = %.2f units\n", len(p.Outline), p.UnitsPerMetre)
	fmt.Println(l.Scale, "·", l.Description)
	fmt.Println(len(p.SVG(l)) > 0)
	// Output:
	// 5 corners, 1 m = 5.50 units
	// 20 m · Limite levée à 5 sommets ; surface 1 385 m² ; le nord est en haut.
	// true
}
