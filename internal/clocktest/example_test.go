package clocktest_test

import (
	"fmt"
	"time"

	"github.com/veriland/veriland/internal/clocktest"
)

func Example() {
	clock := clocktest.New(time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC))
	now := clock.Now // what a service under test is given
	clock.Advance(90 * time.Second)
	fmt.Println(now().Format(time.RFC3339))
	// Output: 2026-11-21T12:01:30Z
}
